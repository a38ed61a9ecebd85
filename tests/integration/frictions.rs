//! What a user meets on the first day, held to what it should be: each
//! test is one friction of the command line, fixed.

use crate::repo_path;
use std::path::PathBuf;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("emx-frictions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const SOMA: &str = "instances/polycube/somacube_def.txt";
const E4: &str = "instances/edgematch/brendan_set2/pieces_04x04.txt";

/// The rotation class of a solution: its least image under the puzzle's
/// rotations (as sorted option ids).
fn class(problem: &emx::ir::Problem, options: &[u32]) -> Vec<u32> {
    let mut best: Vec<u32> = options.to_vec();
    best.sort_unstable();
    for s in problem.symmetries.iter().filter(|s| !s.reflection) {
        let mut image: Vec<u32> = options.iter().map(|&o| s.option_map[o as usize]).collect();
        image.sort_unstable();
        best = best.min(image);
    }
    best
}

#[test]
fn first_n_lists_n_essentially_different_solutions() {
    let instance = emx::input::load(&repo_path(SOMA), None, 1).unwrap();
    let classes = |args: &[&str]| {
        let mut all = vec!["solve", SOMA, "--first", "4", "--format", "json"];
        all.extend_from_slice(args);
        let out = emx(&all);
        let text = stdout(&out);
        let solutions = emx::solution_file::read_solutions(&instance, &text, "out").unwrap();
        assert_eq!(solutions.len(), 4, "{text}");
        let mut c: Vec<Vec<u32>> = solutions.iter().map(|s| class(instance.problem(), &s.options)).collect();
        c.sort();
        c.dedup();
        c.len()
    };
    assert_eq!(classes(&[]), 4, "--first 4 lists four rotation classes");
    assert!(classes(&["--unique=none"]) < 4, "--unique=none lists the symmetric copies too");
}

#[test]
fn estimates_read_as_estimates_of_the_full_run() {
    let soma = stdout(&emx(&["solve", SOMA, "--estimate", "2000"]));
    assert!(soma.contains("Knuth's estimate of the full search"), "{soma}");
    let line = soma.lines().find(|l| l.starts_with("solutions: ")).unwrap();
    assert!(line.contains("about ") && line.contains("up to rotation and reflection (± "), "{line}");
    // Too few probes on an uneven tree: said so.
    let wide = stdout(&emx(&["solve", "instances/polycube/pentominoes_10x6_def.txt", "--estimate", "200"]));
    assert!(wide.contains("note: the spread") && wide.contains("too wide to trust"), "{wide}");
    assert!(wide.contains("solutions: none met by the 200 probes"), "{wide}");
    let edge = stdout(&emx(&["solve", E4, "--estimate", "3000"]));
    assert!(edge.lines().any(|l| l.starts_with("boards: about ") && l.contains("up to rotation")), "{edge}");
}

#[test]
fn positions_are_one_based_as_the_file_counts() {
    let heule = scratch("hint.txt");
    std::fs::write(&heule, "1\n99 99 1 0\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n").unwrap();
    let out = emx(&["solve", heule.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("clue cell (row 99, column 99) is outside"), "{}", stderr(&out));
}

#[test]
fn boards_found_by_solve_feed_score_render_and_optimize() {
    let boards = scratch("e4.boards.txt");
    let out = emx(&["solve", E4, "--first", "2", "--format", "board", "-o", boards.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let b = boards.to_str().unwrap();
    let score = emx(&["score", b, "--puzzle", E4]);
    assert_eq!(score.status.code(), Some(0), "{}", stderr(&score));
    assert_eq!(stdout(&score).matches("solved: every join matches").count(), 2, "{}", stdout(&score));
    let render = emx(&["render", E4, "--solution", b, "--index", "2", "-o", scratch("e4.svg").to_str().unwrap()]);
    assert_eq!(render.status.code(), Some(0), "{}", stderr(&render));
    let one = scratch("e4.one.txt");
    let first: String = std::fs::read_to_string(&boards).unwrap().split("\n\n").next().unwrap().to_string();
    std::fs::write(&one, first).unwrap();
    let opt = emx(&["optimize", E4, "--start-board", one.to_str().unwrap(), "--time", "0.2", "--format", "json"]);
    assert_eq!(opt.status.code(), Some(0), "{}", stderr(&opt));
    let v: serde_json::Value = serde_json::from_slice(&opt.stdout).unwrap();
    assert_eq!(v["score"], 24, "{v}");
    // Several boards are not one start board.
    let two = emx(&["optimize", E4, "--start-board", b, "--time", "0.1"]);
    assert_eq!(two.status.code(), Some(2));
    assert!(stderr(&two).contains("holds 2 boards"), "{}", stderr(&two));
}

#[test]
fn unknown_tiles_are_named_where_they_stand() {
    let bad = scratch("bad.board.txt");
    std::fs::write(
        &bad,
        "# a board\n 1/3  7/0  9/0  4/0\n 8/3 99/1 13/3  6/1\n11/3 14/1 15/3 12/1\n 3/2  5/2 10/2  2/1\n",
    )
    .unwrap();
    let score = emx(&["score", bad.to_str().unwrap(), "--puzzle", E4]);
    assert_eq!(score.status.code(), Some(2));
    assert!(stderr(&score).contains("bad.board.txt:3:6: tile 99: the puzzle has 16 tiles"), "{}", stderr(&score));
    let render = emx(&["render", E4, "--solution", bad.to_str().unwrap(), "-o", scratch("bad.svg").to_str().unwrap()]);
    assert_eq!(render.status.code(), Some(2), "render draws no unknown tile");
    assert!(stderr(&render).contains(":3:6: tile 99"), "{}", stderr(&render));
}

#[test]
fn results_can_go_to_a_file_from_every_reporting_command() {
    let info = scratch("soma.info.txt");
    let out = emx(&["info", SOMA, "-o", info.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&info).unwrap().contains("somacube"));
    assert!(stdout(&out).is_empty());
    let score = scratch("b470.score.json");
    let out = emx(&[
        "score",
        "instances/edgematch/eternity2/blackwood470.board.txt",
        "--puzzle",
        "instances/edgematch/eternity2/e2_centre.txt",
        "--format",
        "json",
        "-o",
        score.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&score).unwrap()).unwrap();
    assert_eq!(v["boards"][0]["matched"], 470, "{v}");
}

#[test]
fn edge_matching_refuses_mirror_classes_and_generate_says_what_it_wrote() {
    let out = emx(&["solve", E4, "--unique=mirror"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot be turned over"), "{}", stderr(&out));
    let g = scratch("g6.txt");
    let out = emx(&["generate", "edgematch", "--size", "6", "--colors", "6", "--seed", "3", "-o", g.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let said = stderr(&out);
    assert!(said.contains("wrote ") && said.contains("g6.txt") && said.contains("planted solution"), "{said}");
}

#[test]
fn bench_gives_the_rate_of_short_runs() {
    let out = emx(&["bench", E4, "--backends", "scan", "--count", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let row = stdout(&out).lines().find(|l| l.contains("scan")).unwrap().to_string();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert!(!cols.contains(&"-"), "a short run's rate is shown: {row}");
}

#[test]
fn progress_can_be_forced_into_a_log() {
    let out = emx(&[
        "solve",
        "instances/polycube/tetriscube_def.txt",
        "--unique",
        "-q",
        "--progress=0.2",
        "--node-limit",
        "15000000",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).lines().any(|l| l.starts_with("progress: tetriscube_def: ")), "{}", stderr(&out));
    // Without the flag, stderr that is not a terminal gets no progress.
    let quiet = emx(&["solve", "instances/polycube/tetriscube_def.txt", "--unique", "--node-limit", "15000000"]);
    assert!(!stderr(&quiet).contains("progress:"));
}

#[test]
fn pictures_mark_mismatches_on_every_colour_and_traces_span_the_run() {
    let svg = stdout(&emx(&[
        "score",
        "instances/edgematch/eternity2/blackwood470.board.txt",
        "--puzzle",
        "instances/edgematch/eternity2/e2_centre.txt",
        "--format",
        "svg",
    ]));
    let halo = svg.find(r##"stroke="#FFFFFF""##).expect("a white halo under the marks");
    let red = svg.find(r##"stroke="#E00000""##).expect("red marks");
    assert!(halo < red, "the halo is drawn under the red bars");
    let trace = scratch("trace.svg");
    let out = emx(&[
        "optimize",
        "instances/edgematch/brendan_set2/pieces_10x10.txt",
        "--time",
        "1.5",
        "--target",
        "1000",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert!(matches!(out.status.code(), Some(0 | 3)), "{}", stderr(&out));
    let text = std::fs::read_to_string(&trace).unwrap();
    // The x axis ends at or after the run's end, whatever the time of the
    // last improvement.
    let ticks: Vec<f64> = text
        .split(r##"text-anchor="middle" fill="#333333">"##)
        .skip(1)
        .filter_map(|t| t.split('<').next()?.parse().ok())
        .collect();
    assert!(ticks.last().is_some_and(|&t| t >= 1.5), "{ticks:?}");
}
