//! e2.bucas.name boards through every board reader and writer: each bundled
//! best board written as a bucas line, URL and bare edge string reads back
//! to the same score in `score`, `render` and `optimize --start-board`;
//! forged boards are refused with exit 2 naming the problem.

use crate::{repo_path, Scratch};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn ok_json(out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn stdout(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The bundled best boards: (board stem, puzzle, stated score).
const BEST: [(&str, &str, u64); 5] = [
    ("meta10x10", "instances/edgematch/meta2010/pieces_10x10.txt", 174),
    ("meta12x12", "instances/edgematch/meta2010/pieces_12x12.txt", 255),
    ("meta14x14", "instances/edgematch/meta2010/pieces_14x14.txt", 349),
    ("meta16x16", "instances/edgematch/meta2010/pieces_16x16.txt", 460),
    ("e2centre", "instances/edgematch/eternity2/e2_centre.txt", 461),
];

/// `score FILE --puzzle P` in JSON: the matched joins of each board.
fn scores(file: &Path, puzzle: &str) -> Vec<u64> {
    let v = ok_json(&emx(&["score", file.to_str().unwrap(), "--puzzle", puzzle, "--format", "json"]));
    v["boards"].as_array().unwrap().iter().map(|b| b["matched"].as_u64().unwrap()).collect()
}

#[test]
fn bundled_best_boards_round_trip_through_every_bucas_form() {
    let dir = Scratch::new("bucas-round-trip");
    for (stem, puzzle, stated) in BEST {
        let board = format!("instances/edgematch/boards/{stem}.board.txt");
        // score writes the line and the URL.
        let line = stdout(&emx(&["score", &board, "--puzzle", puzzle, "--format", "bucas"]));
        let v = ok_json(&emx(&["score", &board, "--puzzle", puzzle, "--format", "json"]));
        assert_eq!(v["boards"][0]["matched"], stated, "{stem}");
        let url = v["boards"][0]["bucas_url"].as_str().unwrap().to_string();
        let edges = line.split_whitespace().nth(2).unwrap().to_string();
        assert_eq!(line.split_whitespace().nth(1), Some("jblackwood"), "{stem}: {line}");
        assert!(url.starts_with("https://e2.bucas.name/#puzzle="), "{url}");
        assert!(url.contains(&format!("&board_edges={edges}&motifs_order=jblackwood")), "{url}");
        // The bundled edge string is the one written.
        let bundled =
            std::fs::read_to_string(repo_path(&format!("instances/edgematch/boards/{stem}.bucas.txt"))).unwrap();
        let bundled_line = bundled.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap();
        assert_eq!(bundled_line.split_whitespace().nth(2), Some(edges.as_str()), "{stem}.bucas.txt is stale");
        for (form, text) in [("line", line.clone()), ("url", format!("{url}\n")), ("bare", format!("{edges}\n"))] {
            let path = dir.join(format!("{stem}.{form}.txt"));
            std::fs::write(&path, &text).unwrap();
            let p = path.to_str().unwrap();
            assert_eq!(scores(&path, puzzle), [stated], "{stem} {form}: score");
            let r = ok_json(&emx(&["render", puzzle, "--solution", p, "--format", "json"]));
            assert_eq!(r["score"]["matched"], stated, "{stem} {form}: render");
            let o = ok_json(&emx(&["optimize", puzzle, "--start-board", p, "--time", "0", "--format", "json"]));
            assert_eq!(o["start"], "board");
            assert_eq!(o["searches"][0]["start_score"], stated, "{stem} {form}: optimize --start-board");
            // Written back, each form gives the same edge string.
            let again = stdout(&emx(&["render", puzzle, "--solution", p, "--format", "bucas"]));
            assert_eq!(again.split_whitespace().nth(2), Some(edges.as_str()), "{stem} {form}: render --format bucas");
        }
    }
}

#[test]
fn bundled_bucas_files_score_as_claimed() {
    for (stem, puzzle, stated) in BEST {
        let path = repo_path(&format!("instances/edgematch/boards/{stem}.bucas.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(&format!("score {stated}/")), "{stem}.bucas.txt does not claim {stated}");
        assert_eq!(scores(&path, puzzle), [stated, stated], "{stem}.bucas.txt (line and URL)");
    }
}

#[test]
fn optimize_prints_the_viewer_url_of_its_best_board() {
    let dir = Scratch::new("bucas-optimize");
    let puzzle = "instances/edgematch/brendan_set2/pieces_05x05.txt";
    let text = stdout(&emx(&["optimize", puzzle, "--time", "0.2", "--seed", "3"]));
    let url: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("viewer: ")).collect();
    assert_eq!(url.len(), 1, "{text}");
    assert!(
        url[0].starts_with("https://e2.bucas.name/#puzzle=pieces_05x05&board_w=5&board_h=5&board_edges="),
        "{text}"
    );
    let score: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("score: "))
        .and_then(|s| s.split('/').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let path = dir.join("url.txt");
    std::fs::write(&path, url[0]).unwrap();
    assert_eq!(scores(&path, puzzle), [score]);
    let v = ok_json(&emx(&["optimize", puzzle, "--time", "0.2", "--seed", "3", "--format", "json"]));
    std::fs::write(&path, v["bucas_url"].as_str().unwrap()).unwrap();
    assert_eq!(scores(&path, puzzle), [v["score"].as_u64().unwrap()]);
    let line = stdout(&emx(&["optimize", puzzle, "--time", "0.2", "--seed", "3", "--format", "bucas"]));
    assert!(line.starts_with("pieces_05x05 jblackwood ") && line.lines().count() == 1, "{line}");
}

/// A forged board is refused by every reader with exit 2 and `message`.
fn refused(dir: &Path, name: &str, text: &str, puzzle: &str, message: &str) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["score", p, "--puzzle", puzzle],
        vec!["render", puzzle, "--solution", p, "--format", "json"],
        vec!["optimize", puzzle, "--start-board", p, "--time", "0"],
    ] {
        let out = emx(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: expected `{message}` in: {err}");
        assert!(err.contains(p), "{args:?}: the file is not named: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn forged_bucas_boards_are_refused_naming_the_problem() {
    let dir = Scratch::new("bucas-forged");
    let (stem, puzzle, _) = BEST[0];
    let line = stdout(&emx(&[
        "score",
        &format!("instances/edgematch/boards/{stem}.board.txt"),
        "--puzzle",
        puzzle,
        "--format",
        "bucas",
    ]));
    let edges = line.split_whitespace().nth(2).unwrap().to_string();
    assert_eq!(edges.len(), 400);
    let url = |e: &str, w: usize, h: usize| {
        format!("https://e2.bucas.name/#puzzle=m10&board_w={w}&board_h={h}&board_edges={e}&motifs_order=jblackwood\n")
    };
    refused(&dir, "short.txt", &edges[..396], puzzle, ":1:1: 396 letters for a 10 x 10 board: expected 400");
    refused(&dir, "short-url.txt", &url(&edges[..396], 10, 10), puzzle, "396 letters for a 10 x 10 board");
    let mut bad = edges.clone();
    bad.replace_range(41..42, "7");
    refused(
        &dir,
        "letter.txt",
        &format!("m10 jblackwood {bad}\n"),
        puzzle,
        ":1:57: bad letter `7` (letter 42 of the edge string, cell (row 2, column 1))",
    );
    refused(
        &dir,
        "size.txt",
        &url(&edges, 10, 12),
        puzzle,
        "the URL's board is 10 x 12 (board_w x board_h), but the puzzle is 10 x 10",
    );
    refused(&dir, "order.txt", &format!("m10 red {edges}\n"), puzzle, ":1:5: unknown letter order `red`");
    // Colours no tile shows: the first corner's east side made colour 25.
    let mut alien = edges.clone();
    alien.replace_range(1..2, "z");
    refused(&dir, "alien.txt", &alien, puzzle, ":1:1: cell (row 1, column 1) shows `az");
    refused(&dir, "alien2.txt", &alien, puzzle, "which no tile of the puzzle shows in any rotation");
    // The first corner placed twice (over the last corner, turned).
    let first = &edges[..4];
    let turned = format!("{}{}", &first[2..], &first[..2]);
    let mut twice = edges.clone();
    twice.replace_range(396..400, &turned);
    refused(&dir, "twice.txt", &twice, puzzle, "cell (row 10, column 10) shows");
    refused(
        &dir,
        "twice2.txt",
        &twice,
        puzzle,
        "is already placed, the last at cell (row 1, column 1): a tile used twice?",
    );
    // bucas is for edge-matching boards only.
    let out = emx(&["render", "instances/polycube/somacube_def.txt", "--solution", puzzle, "--format", "bucas"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--format bucas writes edge-matching boards"));
}
