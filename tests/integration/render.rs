//! Pictures (SVG snapshots, each parsed as XML) and solution files read
//! back.

use crate::{repo_path, snapshot};
use emx::dlx::Dlx;
use emx::edgematch::{Board, Placed};
use emx::input::{self, Instance, InstanceKind};
use emx::ir::Solution;
use emx::render::svg::{self, Bar, BarChart, BoardStyle, Trace};
use emx::search::{Flow, Limits};
use emx::solution_file;

fn load(rel: &str) -> Instance {
    input::load(&repo_path(rel), None, 1).unwrap()
}

/// The first `n` solutions DLX finds (deterministic).
fn first_solutions(instance: &Instance, n: usize) -> Vec<Solution> {
    let mut out = Vec::new();
    Dlx::new(instance.problem()).search(&Limits::none(), |s| {
        out.push(Solution { options: s.to_vec() });
        if out.len() == n {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    out
}

/// Parses `svg` as XML and checks the basics of the document.
pub fn assert_valid_svg(svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("invalid XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    for dim in ["width", "height"] {
        let v: f64 = root.attribute(dim).unwrap().parse().unwrap();
        assert!(v > 0.0 && v < 20_000.0, "{dim} = {v}");
    }
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "non-finite number in the SVG");
}

fn check(name: &str, svg: String) {
    assert_valid_svg(&svg);
    snapshot!(name, svg);
}

#[test]
fn polyomino_solution() {
    let inst = load("instances/polycube/pentominoes_10x6_def.txt");
    let geo = inst.problem().geometry.as_ref().unwrap();
    let sol = first_solutions(&inst, 1);
    check("svg_pentominoes_first", svg::solutions(geo, "pentominoes 10 x 6", &[sol[0].options.as_slice()]));
}

#[test]
fn polycube_solutions_and_pieces() {
    let inst = load("instances/polycube/somacube_def.txt");
    let geo = inst.problem().geometry.as_ref().unwrap();
    let sols = first_solutions(&inst, 2);
    let opts: Vec<&[u32]> = sols.iter().map(|s| s.options.as_slice()).collect();
    let picture = svg::solutions(geo, "Soma cube", &opts);
    // One panel per layer, three layers, two solutions.
    assert_eq!(picture.matches(">z = ").count(), 6);
    check("svg_somacube_two_solutions", picture);
    check("svg_somacube_pieces", svg::piece_catalogue(geo, "Soma cube pieces"));
}

#[test]
fn edge_matching_boards() {
    let inst = load("instances/edgematch/brendan_set2/pieces_04x04.txt");
    let InstanceKind::EdgeMatch(e) = &inst.kind else { unreachable!() };
    let sol = first_solutions(&inst, 1);
    let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &sol[0].options);
    let picture = svg::board(&e.puzzle, &board, "4 x 4", &BoardStyle::solution());
    assert!(picture.contains("24 of 24 joins matched"));
    check("svg_edge_4x4_solution", picture);

    // A board that is not a solution: mismatches marked, empty cell dashed.
    let inst = load("instances/edgematch/brendan_set2/pieces_03x03.txt");
    let InstanceKind::EdgeMatch(e) = &inst.kind else { unreachable!() };
    let text = std::fs::read_to_string(repo_path("tests/data/render/board_3x3_mismatched.txt")).unwrap();
    let boards = solution_file::read_boards(&e.puzzle, &text, "board").unwrap();
    let picture = svg::board(&e.puzzle, &boards[0], "3 x 3, two tiles swapped", &BoardStyle::solution());
    assert!(picture.contains("4 of 12 joins matched, 4 mismatched (red), 1 empty cell"), "{picture}");
    check("svg_edge_3x3_mismatched", picture);
}

#[test]
fn eternity_ii_size_is_readable() {
    let inst = load("instances/edgematch/brendan_set2/pieces_16x16.txt");
    let InstanceKind::EdgeMatch(e) = &inst.kind else { unreachable!() };
    let mut board = Board::empty(16, 16);
    for (k, c) in board.cells.iter_mut().enumerate() {
        *c = Some(Placed { tile: k as u32, rotation: 0 });
    }
    let picture = svg::board(&e.puzzle, &board, "16 x 16", &BoardStyle::tile_set());
    assert_valid_svg(&picture);
    let doc = roxmltree::Document::parse(&picture).unwrap();
    let width: f64 = doc.root_element().attribute("width").unwrap().parse().unwrap();
    // 40 px tiles: a 640 px board, every tile numbered.
    assert_eq!(width, 664.0);
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("polygon")).count(), 4 * 256);
    assert!(picture.contains(">256</text>"));
}

#[test]
fn charts() {
    let mut a = Trace::default();
    for (t, s) in [(0.0, 310), (0.4, 402), (1.3, 441), (5.0, 452), (12.5, 455)] {
        a.push(t, s);
    }
    let b = Trace { points: vec![(0.0, 298), (2.0, 430), (9.0, 449)] };
    check("svg_score_traces", svg::score_traces("optimize 10 x 10", &[("seed 1", &a), ("seed 2", &b)], Some(180 * 3)));
    let chart = BarChart {
        title: "bench".into(),
        groups: vec!["somacube".into(), "pentominoes_10x6".into(), "pieces_05x05".into()],
        series: vec!["dlx".into(), "cpsat".into(), "kissat".into()],
        bars: vec![
            vec![Bar::Time(0.0123), Bar::Time(1.52), Bar::Missing("skipped: kissat not installed".into())],
            vec![Bar::Time(0.0018), Bar::Timeout(10.0), Bar::Missing("skipped".into())],
            vec![Bar::Time(0.00004), Bar::Time(1.9), Bar::Missing("error: <bad> & \"worse\"".into())],
        ],
    };
    check("svg_bench_chart", svg::bar_chart_log(&chart));
}

#[test]
fn polycube_solutions_read_back() {
    let inst = load("instances/polycube/pentominoes_10x6_def.txt");
    let geo = inst.problem().geometry.as_ref().unwrap();
    let sols = first_solutions(&inst, 3);
    let sorted = |s: &Solution| {
        let mut o = s.options.clone();
        o.sort_unstable();
        o
    };
    // JSON as `emx solve --format json` writes it.
    let list: Vec<_> = sols.iter().map(|s| inst.solution_json(s)).collect();
    let doc = serde_json::json!({ "solution_list": list }).to_string();
    let back = solution_file::read_solutions(&inst, &doc, "sol.json").unwrap();
    assert_eq!(back.iter().map(sorted).collect::<Vec<_>>(), sols.iter().map(sorted).collect::<Vec<_>>());
    // The text drawing.
    let text = inst.render_text(&sols[1]);
    let back = solution_file::read_polycube(geo, &text, "sol.txt").unwrap();
    assert_eq!(sorted(&back[0]), sorted(&sols[1]));
    inst.verify(&back[0]).unwrap();

    // Errors name the file, the line and what was expected.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "X X X";
    let e = solution_file::read_polycube(geo, &lines.join("\n"), "sol.txt").unwrap_err();
    assert_eq!(
        e.to_string(),
        "sol.txt:2: expected 10 cells on this row (10 per layer x 1 layers, one piece name or `.` each), found 3"
    );
    let renamed = text.replacen('X', "Q", 1);
    let e = solution_file::read_polycube(geo, &renamed, "sol.txt").unwrap_err();
    assert!(e.to_string().contains("no piece is named `Q`"), "{e}");
    let e = solution_file::read_solutions(&inst, "{\"solution_list\": [", "sol.json").unwrap_err();
    assert!(e.to_string().starts_with("sol.json:1:"), "{e}");
}

#[test]
fn edge_boards_read_back() {
    let inst = load("instances/edgematch/brendan_set2/pieces_04x04.txt");
    let InstanceKind::EdgeMatch(e) = &inst.kind else { unreachable!() };
    let sol = &first_solutions(&inst, 1)[0];
    let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &sol.options);
    let text = emx::render::text::board(&board);
    let back = solution_file::read_solutions(&inst, &text, "b.txt").unwrap();
    let mut a = back[0].options.clone();
    let mut b = sol.options.clone();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    let json = serde_json::json!({ "solution_list": [inst.solution_json(sol)] }).to_string();
    assert_eq!(solution_file::read_boards(&e.puzzle, &json, "b.json").unwrap()[0], board);
    let e3 = solution_file::read_boards(&e.puzzle, "1/0 2/0\n", "b.txt").unwrap_err();
    assert!(e3.to_string().starts_with("b.txt:1: board 1 is 1 x 2"), "{e3}");
}

#[test]
fn eternity_ii_record_board() {
    // Blackwood's 470/480 board on the Eternity II pieces with the centre clue.
    let inst = load("instances/edgematch/eternity2/e2_centre.txt");
    let InstanceKind::EdgeMatch(e) = &inst.kind else { unreachable!() };
    let text = std::fs::read_to_string(repo_path("instances/edgematch/eternity2/blackwood470.board.txt")).unwrap();
    let boards = solution_file::read_boards(&e.puzzle, &text, "blackwood470.board.txt").unwrap();
    let picture = svg::board(&e.puzzle, &boards[0], "Eternity II, 470", &BoardStyle::solution());
    assert_valid_svg(&picture);
    assert!(picture.contains("470 of 480 joins matched, 10 mismatched (red)"));
    // The board is a valid placement (every tile once, grey on the border,
    // the clue respected), so it maps to options of the IR.
    solution_file::options_of_board(&e.puzzle, &e.problem, &boards[0]).unwrap();
}
