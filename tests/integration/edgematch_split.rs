//! `emx split` / `emx merge` on edge-matching puzzles: the parts' boards,
//! weighted, give the puzzle's counts, and merged board lists are verified.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// [`crate::split_solve_merge`] with `backend` (`--all` when `all`): the
/// merge's JSON, after checking that the split was an edge-matching one.
fn split_solve_merge(file: &str, depth: &str, backend: &str, all: bool, tag: &str) -> serde_json::Value {
    let mut args = vec!["--backend", backend];
    if all {
        args.push("--all");
    }
    let (summary, merged) = crate::split_solve_merge(file, depth, &args, &format!("edge-{tag}"));
    assert_eq!(summary["kind"], "edgematch");
    merged
}

#[test]
fn split_parts_add_up_to_the_counts() {
    // Set-2 6x6: 160 boards, 40 up to rotation; the corner tile is fixed
    // (weight 4), so the rotation classes are known without board lists.
    let p6 = "instances/edgematch/brendan_set2/pieces_06x06.txt";
    let v = split_solve_merge(p6, "3", "scan", false, "count");
    assert_eq!(v["merged"]["boards"], 160, "{v}");
    assert_eq!(v["merged"]["unique"], 40, "{v}");
    assert_eq!(v["merged"]["complete"], true);
    // With board lists every board is rebuilt and verified.
    let v = split_solve_merge(p6, "5", "cp", true, "all");
    assert_eq!((v["merged"]["boards"].as_u64(), v["merged"]["verified"].as_u64()), (Some(160), Some(40)), "{v}");
    // A rectangle: no corner fixed (weight 1), 5x4 counted twice over by
    // its two rotations.
    let p54 = "instances/edgematch/brendan_set2/pieces_05x04.txt";
    let whole = json(&emx(&["solve", p54, "--format", "json"]));
    let v = split_solve_merge(p54, "2", "scan", true, "rect");
    assert_eq!(v["merged"]["boards"], whole["solutions"], "{v}");
    assert_eq!(v["merged"]["unique"].as_u64().unwrap() * 2, whole["solutions"].as_u64().unwrap(), "{v}");
}

#[test]
fn split_errors_are_clear() {
    let p3 = "instances/edgematch/brendan_set2/pieces_03x03.txt";
    let scratch = crate::Scratch::new("edge-split-err");
    let dir = scratch.join("parts");
    let d = dir.to_str().unwrap();
    for (args, want) in [
        (vec!["split", p3, "--depth", "9", "--out", d], "--depth must be between 1 and 8"),
        (vec!["split", p3, "--depth", "0", "--out", d], "--depth must be between 1 and 8"),
        (vec!["split", p3, "--depth", "2", "--out", d, "--schedule", "debruijn"], "--schedule does not apply"),
    ] {
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!dir.exists(), "nothing written on an error");
}

/// Minutes on 2 cores in release: Brendan's set-2 7x7, split after its
/// first row and every part enumerated by `scan`, each board checked
/// against the original puzzle: 19 216 boards, 4 804 up to rotation
/// (emx's own count; docs/engines.md, "scan"). Run with `cargo test
/// --release --test integration -- --ignored set2_7x7`.
#[test]
#[ignore]
fn set2_7x7_by_split() {
    use emx::edgematch::ir::{board_of, to_problem};
    use emx::edgematch::scan::Scan;
    use emx::edgematch::split::{part_puzzle, split};
    use emx::search::{Engine, Flow, Limits};
    let text = std::fs::read_to_string(repo_path("instances/edgematch/brendan_set2/pieces_07x07.txt")).unwrap();
    let puzzle = emx::frontend::edgematch::parse_meta(&text, "7x7", "7x7").unwrap();
    let plan = split(&puzzle, 7).unwrap();
    assert_eq!((plan.parts.len(), plan.weight), (8636, 4));
    let count = |fixed: &Vec<emx::edgematch::Clue>| {
        let part = part_puzzle(&puzzle, fixed, "part");
        let problem = to_problem(&part);
        let mut n = 0u64;
        let stats = Scan::new(&part, &problem).unwrap().run(&Limits::none(), &mut |s| {
            board_of(&part, &problem, s).check_solution(&puzzle).unwrap();
            n += 1;
            Flow::Continue
        });
        assert!(stats.complete());
        n
    };
    let boards: u64 =
        emx::search::pool::fold_tasks(2, plan.parts.iter().collect(), || 0u64, |n, fixed| *n += count(fixed), |n| n)
            .into_iter()
            .sum();
    assert_eq!((boards, boards * plan.weight), (4804, 19216));
}

/// The 24 set-2 8x8 board classes the batch enumeration found (merged from
/// the 177 984 parts of `emx split --depth 8`, instances/edgematch/boards/set2_08x08/):
/// each is a solution of the puzzle with tile 1 in the top-left corner, and no
/// two are the same board. A corner tile is in a corner in every rotation of a
/// board, and a board's only rotation that keeps it in the top-left corner is
/// the identity, so distinct boards with tile 1 there are distinct classes.
#[test]
fn set2_8x8_board_classes_are_solutions_and_distinct() {
    let inst = emx::input::load(&repo_path("instances/edgematch/brendan_set2/pieces_08x08.txt"), None, 1).unwrap();
    let emx::input::InstanceKind::EdgeMatch(e) = inst.kind else { panic!("not an edge-matching puzzle") };
    let dir = repo_path("instances/edgematch/boards/set2_08x08");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".board.txt"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 24, "{names:?}");
    let mut seen = std::collections::HashSet::new();
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let board = emx::frontend::edgematch::parse_board(&text, name).unwrap();
        board.check_solution(&e.puzzle).unwrap_or_else(|err| panic!("{name}: {err}"));
        let corner = board.cells[0].unwrap_or_else(|| panic!("{name}: empty corner"));
        assert_eq!(corner.tile, 0, "{name}: tile 1 is not in the top-left corner");
        assert!(seen.insert(board.cells.clone()), "{name} repeats a board");
    }
}
