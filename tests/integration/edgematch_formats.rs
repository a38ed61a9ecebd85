//! Edge-matching readers on the bundled instances: formats detected, sizes,
//! clues, and the boards shipped with them.

use crate::repo_path;
use emx::edgematch::{Board, Clue, EdgePuzzle, Placed};
use emx::frontend::edgematch::{self as edge_formats, parse_board};
use emx::input::{self, InputFormat, InstanceKind};

fn puzzle(rel: &str, format: Option<InputFormat>) -> EdgePuzzle {
    let inst = input::load(&repo_path(rel), format, 1).unwrap_or_else(|e| panic!("{rel}: {e}"));
    match inst.kind {
        InstanceKind::EdgeMatch(e) => e.puzzle,
        InstanceKind::Polycube(_) | InstanceKind::Cover(_) => panic!("{rel} not read as an edge-matching file"),
    }
}

/// Parses without building the IR (the big instances make large IRs).
fn parse_only(rel: &str, format: InputFormat) -> EdgePuzzle {
    let text = std::fs::read_to_string(repo_path(rel)).unwrap();
    let parsed = emx::frontend::format::parse_puzzle(&text, format, rel, "p");
    parsed.unwrap_or_else(|e| panic!("{e}"))
}

fn detected(rel: &str) -> Option<InputFormat> {
    InputFormat::detect(&std::fs::read_to_string(repo_path(rel)).unwrap())
}

#[test]
fn every_bundled_instance_loads_with_its_format() {
    let root = repo_path("instances/edgematch");
    let mut n = 0;
    for dir in ["brendan_set2", "meta2010", "heule2008", "eternity2"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(repo_path("")).unwrap().to_str().unwrap().to_string();
            if rel.ends_with(".board.txt") || rel.ends_with(".bucas.txt") || rel.ends_with(".md") {
                continue;
            }
            let want = match dir {
                "brendan_set2" | "meta2010" => InputFormat::Meta,
                "heule2008" => InputFormat::Heule,
                _ if rel.contains("heule") => InputFormat::Heule,
                _ => InputFormat::Emx,
            };
            assert_eq!(detected(&rel), Some(want), "{rel}");
            let p = parse_only(&rel, want);
            p.validate().unwrap();
            n += 1;
        }
    }
    assert!(n > 180, "{n} instances");
}

#[test]
fn eternity2_files_agree() {
    let centre = puzzle("instances/edgematch/eternity2/e2_centre.txt", None);
    let five = puzzle("instances/edgematch/eternity2/e2_five_clues.txt", None);
    let raw = puzzle("instances/edgematch/eternity2/e2pieces_heule.txt", None);
    assert_eq!((centre.rows, centre.cols), (16, 16));
    assert_eq!(centre.tiles, raw.tiles);
    assert_eq!(five.tiles, raw.tiles);
    assert_eq!(centre.clues, vec![Clue { tile: 138, row: 8, col: 7, rotation: 2 }]);
    assert_eq!(five.clues.len(), 5);
    assert_eq!(five.clues[0], centre.clues[0]);
    // Piece 139 reads 6 11 18 6; placed it shows N=18 E=6 S=6 W=11.
    assert_eq!(centre.tiles[138].rotated(2), [18, 6, 6, 11]);
    // The clue puzzles: 6x6, 6x12, 6x6, 6x12.
    for (k, size) in [(1, (6, 6)), (2, (6, 12)), (3, (6, 6)), (4, (6, 12))] {
        let p = puzzle(&format!("instances/edgematch/eternity2/clue{k}_heule.txt"), None);
        assert_eq!((p.rows, p.cols), size, "clue {k}");
    }
}

#[test]
fn blackwood_470_board_scores_470_and_respects_every_clue() {
    let five = puzzle("instances/edgematch/eternity2/e2_five_clues.txt", None);
    let centre = puzzle("instances/edgematch/eternity2/e2_centre.txt", None);
    let path = repo_path("instances/edgematch/eternity2/blackwood470.board.txt");
    let board = parse_board(&std::fs::read_to_string(&path).unwrap(), "b").unwrap();
    board.check(&centre).unwrap();
    let score = board.score(&centre);
    assert_eq!((score.matched, score.joins), (470, 480));
    // It is a centre-clue record: the four other clues are not all kept.
    assert!(board.check(&five).is_err());
}

#[test]
fn heule_2008_files_list_their_planted_solution() {
    for name in ["em_7_3_6", "em_7_4_8", "em_7_4_9", "em_8_4_5", "em_9_3_5", "em_11_3_4", "em_12_2_4", "em_14_7_3"] {
        let p = puzzle(&format!("instances/edgematch/heule2008/{name}.txt"), None);
        let n: usize = name.split('_').nth(1).unwrap().parse().unwrap();
        assert_eq!((p.rows, p.cols), (n, n), "{name}");
        let board = Board {
            rows: n,
            cols: n,
            cells: (0..n * n).map(|t| Some(Placed { tile: t as u32, rotation: 0 })).collect(),
        };
        board.check_solution(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn meta_2010_sizes_and_colours() {
    for (n, colours) in [(10, 15), (12, 17), (14, 21), (16, 23)] {
        let p = puzzle(&format!("instances/edgematch/meta2010/pieces_{n}x{n}.txt"), Some(InputFormat::Meta));
        assert_eq!((p.rows, p.cols, p.n_colors()), (n, n, colours));
    }
}

#[test]
fn eternity2_centre_clue_in_heule_format() {
    let centre = puzzle("instances/edgematch/eternity2/e2_centre.txt", None);
    let text = edge_formats::write_heule(&centre);
    // Heule's hint: row 9, column 8 (1-based), piece 139, rotation 2.
    assert!(text.starts_with("1\n9 8 139 2\n1 17 0 0\n"), "{}", &text[..40]);
    let back = edge_formats::parse_heule(&text, "f", &centre.name).unwrap();
    assert_eq!(back, centre);
    // And through emx's own writer.
    let emx_text = edge_formats::write_emx(&centre, &[]);
    assert_eq!(edge_formats::parse_emx(&emx_text, "f", "x").unwrap(), centre);
}

#[test]
fn input_format_overrides_detection() {
    use std::process::Command;
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap();
    let file = "tests/data/edgematch/heule_crlf_hint.txt";
    let ok = run(&["solve", file, "--input-format", "heule", "-q"]);
    assert_eq!(ok.status.code(), Some(0));
    // Read as emx, the hint count `1` is no directive: exit 2 with the position.
    let bad = run(&["solve", file, "--input-format", "emx"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("heule_crlf_hint.txt:1:1: tile before the `size` line"));
    let bad = run(&["solve", file, "--input-format", "meta"]);
    assert_eq!(bad.status.code(), Some(2));
    let info = run(&["info", "instances/edgematch/heule2008/em_7_3_6.txt", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!((v["rows"].as_u64(), v["tiles"].as_u64(), v["colors"].as_u64()), (Some(7), Some(49), Some(10)));
}
