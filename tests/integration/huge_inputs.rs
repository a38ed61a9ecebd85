//! Huge inputs: the 108 free heptominoes in a 33 x 23 box and Brendan
//! Owen's 20 x 20 edge-matching puzzle load, `emx info` reports their sizes,
//! and encodings past `--max-size` are refused with a clear message (exit
//! 2, no file written) instead of exhausting memory or disk.

use crate::repo_path;
use emx::frontend::polycube;
use emx::geometry::{Shape, Transform};
use std::collections::HashSet;
use std::process::{Command, Output};

const HEPTOMINOES: &str = "instances/polycube/heptominoes_33x23_def.txt";
const BRENDAN_20: &str = "instances/edgematch/brendan_set2/pieces_20x20.txt";

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

/// Whether a flat shape encloses a cell: flood the complement from outside
/// its bounding box (grown by one).
fn has_hole(cells: &[[i32; 3]]) -> bool {
    let set: HashSet<(i32, i32)> = cells.iter().map(|p| (p[0], p[1])).collect();
    let (w, h) = (cells.iter().map(|p| p[0]).max().unwrap() + 2, cells.iter().map(|p| p[1]).max().unwrap() + 2);
    let mut seen = HashSet::new();
    let mut stack = vec![(-1, -1)];
    while let Some((x, y)) = stack.pop() {
        if x < -1 || y < -1 || x > w || y > h || set.contains(&(x, y)) || !seen.insert((x, y)) {
            continue;
        }
        stack.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
    }
    let area = (w + 2) * (h + 2);
    seen.len() as i32 + set.len() as i32 != area
}

fn connected(cells: &[[i32; 3]]) -> bool {
    let set: HashSet<[i32; 3]> = cells.iter().copied().collect();
    let mut seen = HashSet::new();
    let mut stack = vec![cells[0]];
    while let Some(p) = stack.pop() {
        if !set.contains(&p) || !seen.insert(p) {
            continue;
        }
        for d in [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]] {
            stack.push([p[0] + d[0], p[1] + d[1], p[2]]);
        }
    }
    seen.len() == cells.len()
}

#[test]
fn heptomino_definition_holds_the_108_free_heptominoes() {
    let puzzles = polycube::load(&repo_path(HEPTOMINOES)).unwrap();
    assert_eq!(puzzles.len(), 1);
    let p = &puzzles[0];
    assert_eq!(p.dims, [33, 23, 1]);
    let mobile: Vec<_> = p.pieces.iter().filter(|d| !d.stationary).collect();
    let fixed: Vec<_> = p.pieces.iter().filter(|d| d.stationary).collect();
    assert_eq!(mobile.len(), 108);
    assert!(mobile.iter().all(|d| d.cells.len() == 7 && connected(&d.cells)));
    // Distinct under rotations and reflections (the 3-D rotations of a flat
    // piece include its mirror images): 108 distinct connected 7-cell
    // shapes are all the free heptominoes.
    let group = Transform::group(false, false);
    let shapes: HashSet<Shape> = mobile.iter().map(|d| Shape::new(d.cells.iter().copied()).canonical(&group)).collect();
    assert_eq!(shapes.len(), 108);
    // One has a hole; the area is 756 + 3 stationary cells = 33 x 23.
    assert_eq!(mobile.iter().filter(|d| has_hole(&d.cells)).count(), 1);
    assert_eq!(fixed.iter().map(|d| d.cells.len()).sum::<usize>(), 3);
    assert_eq!(108 * 7 + 3, 33 * 23);
}

#[test]
fn huge_inputs_load_and_report_their_sizes() {
    for (file, what) in [(HEPTOMINOES, "stationary: X1 X2 X3"), (BRENDAN_20, "board: 20 x 20")] {
        let out = emx(&["info", file, "--sizes", "--max-size", "128M"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(what), "{text}");
        assert!(text.contains("IR estimate"), "{text}");
        assert!(text.contains("cnf:") && text.contains("clique:") && text.contains("dlx:"), "{text}");
        // Counting the clique graph stopped at the cap.
        assert!(text.contains("(counting stopped)"), "{text}");
    }
}

#[test]
fn huge_encodings_are_refused_with_a_clear_message() {
    let dir = crate::Scratch::new("huge");
    let target = dir.join("out");
    for file in [HEPTOMINOES, BRENDAN_20] {
        for to in ["clique", "cnf", "dlx"] {
            let out = emx(&["encode", file, "--to", to, "--max-size", "16M", "-o", target.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{file} {to}: {err}");
            assert!(err.contains("over the size cap of 16.0 MiB: raise it with --max-size"), "{file} {to}: {err}");
            assert!(std::fs::read_dir(&dir).unwrap().next().is_none(), "{file} {to}: a file was left");
        }
    }
    // The LP model of the 20x20 (about 94 MiB) is refused as well.
    let out = emx(&["encode", BRENDAN_20, "--to", "lp", "--max-size", "80M", "-o", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the LP model would take at least"));
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}
