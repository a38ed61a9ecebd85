//! `emx optimize`: outputs, clues, planted solutions, errors.

use crate::repo_path;
use emx::edgematch::generate::{generate, GenerateSpec, Style};
use emx::edgematch::local::{self, Clock, Config, Control, Method, Params, Start, Stop};
use emx::frontend::edgematch::parse_board;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn temp_dir(tag: &str) -> crate::Scratch {
    crate::Scratch::new(&format!("optimize-{tag}"))
}

fn load(rel: &str) -> emx::edgematch::EdgePuzzle {
    let inst = emx::input::load(&repo_path(rel), None, 1).unwrap();
    match inst.kind {
        emx::input::InstanceKind::EdgeMatch(e) => e.puzzle,
        _ => panic!("{rel} is not an edge-matching puzzle"),
    }
}

#[test]
fn writes_board_trace_and_json() {
    let dir = temp_dir("out");
    let (board, trace) = (dir.join("best.txt"), dir.join("trace.csv"));
    let out = emx(&[
        "optimize",
        "instances/edgematch/brendan_set2/pieces_07x07.txt",
        "--time",
        "1",
        "--seed",
        "3",
        "--threads",
        "2",
        "-o",
        board.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let score = v["score"].as_u64().unwrap() as usize;
    assert_eq!(v["joins"], 84);
    assert!(score > 0 && score <= 84);
    let searches = v["searches"].as_array().unwrap();
    assert_eq!(searches.len(), 2);
    assert_eq!(searches[1]["seed"], 4);
    // The board file is a valid board with the reported score.
    let puzzle = load("instances/edgematch/brendan_set2/pieces_07x07.txt");
    let b = parse_board(&std::fs::read_to_string(&board).unwrap(), "best.txt").unwrap();
    b.check(&puzzle).unwrap();
    assert!(b.cells.iter().all(Option::is_some));
    assert_eq!(b.score(&puzzle).matched, score);
    // The trace ends at the best score.
    let csv = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(csv.lines().next(), Some("seconds,cpu_seconds,score,thread,iteration"));
    let last: Vec<&str> = csv.lines().last().unwrap().split(',').collect();
    assert_eq!(last[2].parse::<usize>().unwrap(), score);
    // Starting from that board with no time keeps its score.
    let out = emx(&[
        "optimize",
        "instances/edgematch/brendan_set2/pieces_07x07.txt",
        "--time",
        "0",
        "--start-board",
        board.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["score"].as_u64().unwrap() as usize, score);
}

#[test]
fn every_method_and_start_runs_and_respects_the_clue() {
    let puzzle = load("instances/edgematch/eternity2/e2_centre.txt");
    assert_eq!(puzzle.clues.len(), 1);
    let clue = puzzle.clues[0];
    for (method, start) in [
        (Method::Tabu, Start::Scan),
        (Method::Multi, Start::Random),
        (Method::Ga, Start::Random),
        (Method::Aiea, Start::Scan),
        (Method::Tabu, Start::Cp),
        (Method::Breaks, Start::Scan),
        (Method::Tabu, Start::Breaks),
    ] {
        let params = Params { population: 20, relax_nodes: 20_000, ..Params::default() };
        let config =
            Config { method, start, seed: 5, threads: 1, seconds: 0.3, clock: Clock::Wall, target: None, params };
        let out = local::optimize(&puzzle, &config, None, &Control::default()).unwrap();
        assert_eq!(out.stop, Stop::Time);
        out.board.check(&puzzle).unwrap();
        assert!(out.board.cells.iter().all(Option::is_some));
        assert_eq!(out.board.score(&puzzle), out.score);
        let at = out.board.cells[puzzle.cell(clue.row, clue.col)].unwrap();
        assert_eq!((at.tile as usize, at.rotation), (clue.tile, clue.rotation), "{method:?}");
        assert!(out.trace.points.windows(2).all(|w| w[0].score < w[1].score));
        assert_eq!(out.trace.points.last().unwrap().score as usize, out.score.matched);
    }
}

/// Solves `puzzle` to every join matched, within a generous CPU budget
/// (the search stops as soon as it gets there).
fn solve_to_maximum(puzzle: &emx::edgematch::EdgePuzzle, seed: u64) {
    solve_to_maximum_with(puzzle, seed, Method::Tabu);
}

fn solve_to_maximum_with(puzzle: &emx::edgematch::EdgePuzzle, seed: u64, method: Method) {
    let config = Config {
        method,
        start: Start::Random,
        seed,
        threads: 1,
        seconds: 120.0,
        clock: Clock::Cpu,
        target: None,
        params: Params::default(),
    };
    let out = local::optimize(puzzle, &config, None, &Control::default()).unwrap();
    assert_eq!(out.stop, Stop::Target, "seed {seed}: {:?}", out.score);
    assert_eq!(out.score.matched, puzzle.n_joins());
    out.board.check_solution(puzzle).unwrap();
}

#[test]
fn breaks_solves_planted_puzzles_to_the_maximum() {
    // The tree search with breaks finds the planted (or another perfect)
    // board: an exact backtracker when no break is needed.
    for (size, seed) in [(6, 1), (8, 2), (9, 3)] {
        let g = generate(&GenerateSpec {
            rows: size,
            cols: size,
            style: Style::Frame { border_colors: 5, inner_colors: 14 },
            seed,
        })
        .unwrap();
        solve_to_maximum_with(&g.puzzle, seed, Method::Breaks);
    }
}

#[test]
fn breaks_boards_score_as_reported() {
    // META 10x10 has no perfect board known: every board the breaks search
    // reports (each trace point's board is the best so far) is complete,
    // valid, and scores what it reports when rescored from scratch.
    let puzzle = load("instances/edgematch/meta2010/pieces_10x10.txt");
    for polish in ["true", "false"] {
        let mut params = Params::default();
        params.set("breaks_polish", polish).unwrap();
        let config = Config {
            method: Method::Breaks,
            start: Start::Scan,
            seed: 9,
            threads: 1,
            seconds: 0.5,
            clock: Clock::Cpu,
            target: None,
            params,
        };
        let seen = std::sync::Mutex::new(Vec::new());
        let on_improve = |b: &emx::edgematch::Board, score: u32, _: f64| {
            seen.lock().unwrap().push((b.clone(), score));
        };
        let control = Control { cancel: None, on_improve: Some(&on_improve) };
        let out = local::optimize(&puzzle, &config, None, &control).unwrap();
        let seen = seen.into_inner().unwrap();
        assert!(seen.len() >= 2, "the search improves on its start board");
        for (b, score) in &seen {
            b.check(&puzzle).unwrap();
            assert!(b.cells.iter().all(Option::is_some));
            assert_eq!(b.score(&puzzle).matched, *score as usize);
        }
        assert_eq!(seen.last().unwrap().1 as usize, out.score.matched);
        assert_eq!(out.board.score(&puzzle), out.score);
    }
}

#[test]
fn planted_6x6_is_solved_to_the_maximum() {
    // Eternity-II-style colours (4 frame, 12 inner), planted solution: well
    // under a second of CPU.
    for seed in [1, 2, 3] {
        let g = generate(&GenerateSpec {
            rows: 6,
            cols: 6,
            style: Style::Frame { border_colors: 4, inner_colors: 12 },
            seed,
        })
        .unwrap();
        g.solution.check_solution(&g.puzzle).unwrap();
        solve_to_maximum(&g.puzzle, seed);
    }
}

/// Brendan's 6x6 (160 solutions, few colours): 0.1 to 10 s of CPU.
#[test]
#[ignore = "seconds of CPU; run with --ignored"]
fn brendan_6x6_is_solved_to_the_maximum() {
    solve_to_maximum(&load("instances/edgematch/brendan_set2/pieces_06x06.txt"), 1);
}

/// The breaks search keys its candidate lists by colour bytes: a puzzle
/// with more colours is refused with exit 2 and a reason, as method and as
/// start, never silently run on the start board; tabu still runs on it.
#[test]
fn breaks_refuses_more_than_255_colours() {
    let dir = temp_dir("colours");
    let f = dir.join("c300.txt");
    let f = f.to_str().unwrap();
    let out = emx(&["generate", "edgematch", "--size", "20", "--colors", "300", "--seed", "1", "-o", f]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    for args in [&["--method", "breaks"][..], &["--method", "tabu", "--start", "breaks"]] {
        let mut a = vec!["optimize", f, "--time", "0.2", "-q"];
        a.extend_from_slice(args);
        let out = emx(&a);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("at most 255 colours"), "{args:?}: {err}");
    }
    let out = emx(&["optimize", f, "--time", "0.2", "-q", "--method", "tabu"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_input_exits_2() {
    let out = emx(&["optimize", "instances/polycube/somacube_def.txt", "--time", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("edge-matching"));
    let f = "instances/edgematch/brendan_set2/pieces_05x05.txt";
    for args in [
        &["--region", "0x3"][..],
        &["--param", "bogus=1"],
        &["--param", "tabu_cell=9..2"],
        &["--threads", "0"],
        &["--time", "-1"],
        &["--start-board", "no/such/board.txt"],
    ] {
        let mut a = vec!["optimize", f, "--time", "0"];
        a.extend_from_slice(args);
        assert_eq!(emx(&a).status.code(), Some(2), "{args:?}");
    }
    // A board of the wrong size.
    let dir = temp_dir("bad");
    let b = dir.join("b.txt");
    std::fs::write(&b, "1/0 2/0\n3/0 4/0\n").unwrap();
    let out = emx(&["optimize", f, "--time", "0", "--start-board", b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("start board"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bundled_best_boards_are_valid_and_score_as_stated() {
    for (board, puzzle) in [
        ("meta10x10", "meta2010/pieces_10x10.txt"),
        ("meta12x12", "meta2010/pieces_12x12.txt"),
        ("meta14x14", "meta2010/pieces_14x14.txt"),
        ("meta16x16", "meta2010/pieces_16x16.txt"),
        ("e2centre", "eternity2/e2_centre.txt"),
    ] {
        let path = repo_path(&format!("instances/edgematch/boards/{board}.board.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let stated: usize = text
            .split("score ")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{board}: no `score N/M` in the header"));
        let p = load(&format!("instances/edgematch/{puzzle}"));
        let b = parse_board(&text, board).unwrap();
        b.check(&p).unwrap();
        assert!(b.cells.iter().all(Option::is_some), "{board}");
        assert_eq!(b.score(&p).matched, stated, "{board}");
    }
}

#[test]
fn svg_board_and_trace_chart() {
    let dir = temp_dir("svg");
    let trace = dir.join("trace.svg");
    let out = emx(&[
        "optimize",
        "instances/edgematch/brendan_set2/pieces_05x05.txt",
        "--time",
        "0.3",
        "--trace",
        trace.to_str().unwrap(),
        "--format",
        "svg",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // stdout is one SVG document: the best board, one polygon per tile triangle at least.
    let board = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&board).expect("board SVG parses");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let polygons = doc.descendants().filter(|n| n.has_tag_name("polygon")).count();
    assert!(polygons >= 4 * 25, "{polygons} polygons for 25 tiles");
    // The trace is a chart with the method named in it.
    let chart = std::fs::read_to_string(&trace).unwrap();
    let doc = roxmltree::Document::parse(&chart).expect("trace SVG parses");
    assert!(doc.descendants().any(|n| n.text().is_some_and(|t| t.contains("breaks"))));
}

/// `-o` holds the best board while the search runs: a run killed outright
/// (no chance to write at the end) leaves a whole board on disk, with the
/// score its header claims.
#[cfg(unix)]
#[test]
fn a_killed_run_leaves_its_best_board() {
    let dir = temp_dir("killed");
    let board = dir.join("best.txt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_emx"))
        .args(["optimize", "instances/edgematch/eternity2/e2_centre.txt", "--time", "60", "-q", "-o"])
        .arg(&board)
        .current_dir(repo_path(""))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first improvements come within a fraction of a second.
    let waited = std::time::Instant::now();
    while !board.exists() && waited.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&board).expect("a board written before the kill");
    let claimed: usize = text
        .lines()
        .next()
        .and_then(|l| l.split("score ").nth(1))
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a header with the score: {text}"));
    let puzzle = load("instances/edgematch/eternity2/e2_centre.txt");
    let b = parse_board(&text, "best.txt").unwrap();
    b.check(&puzzle).unwrap();
    // (A kill in the middle of a write can leave that write's temporary
    // file beside it; the target itself is always whole.)
    assert_eq!(b.score(&puzzle).matched, claimed);
}
