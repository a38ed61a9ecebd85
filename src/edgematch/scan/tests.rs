//! Unit tests of the scan backtracker: agreement with DLX, symmetry breaking,
//! wide boards turned, clues, symmetric tiles, table caps and limits.

use super::*;
use crate::edgematch::generate::{generate, GenerateSpec, Style};
use crate::edgematch::ir::{board_of, to_problem};
use crate::edgematch::{Clue, Tile};
use crate::ir::{verify, Solution};

fn all_solutions(engine: &mut dyn Engine, problem: &Problem) -> Vec<Vec<OptionId>> {
    let mut out = Vec::new();
    let stats = engine.run(&Limits::none(), &mut |s| {
        verify(problem, &Solution { options: s.to_vec() }).unwrap();
        let mut v = s.to_vec();
        v.sort_unstable();
        out.push(v);
        Flow::Continue
    });
    assert!(stats.complete());
    assert_eq!(stats.solutions as usize, out.len());
    out.sort();
    out
}

#[test]
fn agrees_with_dlx_on_generated_puzzles() {
    for (rows, cols, style, seed) in [
        (3, 3, Style::Uniform { colors: 2 }, 1),
        (3, 4, Style::Uniform { colors: 3 }, 2),
        (4, 4, Style::Frame { border_colors: 1, inner_colors: 3 }, 3),
        (2, 5, Style::Uniform { colors: 2 }, 4),
        (4, 5, Style::Frame { border_colors: 2, inner_colors: 4 }, 5),
    ] {
        let g = generate(&GenerateSpec { rows, cols, style, seed }).unwrap();
        let problem = to_problem(&g.puzzle);
        let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
        let dlx = all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem);
        assert!(!scan.is_empty());
        assert_eq!(scan, dlx, "{rows}x{cols} {style:?}");
        for s in &scan {
            board_of(&g.puzzle, &problem, s).check_solution(&g.puzzle).unwrap();
        }
    }
}

#[test]
fn symmetry_breaking_finds_every_board_in_fewer_nodes() {
    let plain = ScanConfig { symmetry: false, ..ScanConfig::default() };
    for (rows, cols, colors, seed) in [(4, 4, 3, 1), (5, 5, 4, 2), (3, 5, 3, 3), (4, 6, 4, 4)] {
        let g = generate(&GenerateSpec { rows, cols, style: Style::Uniform { colors }, seed }).unwrap();
        let problem = to_problem(&g.puzzle);
        let mut broken = Scan::new(&g.puzzle, &problem).unwrap();
        assert!(broken.pivot.is_some(), "{rows}x{cols}");
        assert_eq!(broken.tables.len(), if rows == cols { 1 } else { 2 });
        let mut unbroken = Scan::with_config(&g.puzzle, &problem, plain).unwrap();
        let want = all_solutions(&mut unbroken, &problem);
        assert!(!want.is_empty());
        assert_eq!(all_solutions(&mut broken, &problem), want, "{rows}x{cols}");
        let nodes = |scan: &mut Scan| scan.run(&Limits::none(), &mut |_| Flow::Continue).nodes;
        let (fewer, more) = (nodes(&mut broken), nodes(&mut unbroken));
        assert!(fewer < more, "{rows}x{cols}: {fewer} nodes against {more}");
    }
}

#[test]
fn wide_boards_are_searched_turned_with_the_same_boards() {
    // Wider than tall: turned, the same boards (verified) in fewer
    // nodes; taller than wide: not turned. With and without the pivot,
    // with and without clues.
    for (rows, cols, style, seed, clue) in [
        (3, 6, Style::Uniform { colors: 3 }, 1, false),
        (4, 7, Style::Frame { border_colors: 2, inner_colors: 6 }, 2, false),
        (3, 7, Style::Uniform { colors: 3 }, 3, true),
        (6, 3, Style::Uniform { colors: 3 }, 4, false),
    ] {
        let mut g = generate(&GenerateSpec { rows, cols, style, seed }).unwrap();
        if clue {
            let p = g.solution.cells[cols + 2].unwrap();
            g.puzzle.clues.push(Clue { tile: p.tile as usize, row: 1, col: 2, rotation: p.rotation });
        }
        let problem = to_problem(&g.puzzle);
        for symmetry in [true, false] {
            let short = ScanConfig { symmetry, short_rows: true };
            let long = ScanConfig { symmetry, short_rows: false };
            let mut turned = Scan::with_config(&g.puzzle, &problem, short).unwrap();
            let mut as_given = Scan::with_config(&g.puzzle, &problem, long).unwrap();
            assert_eq!(turned.turned, cols > rows);
            assert!(!as_given.turned);
            let want = all_solutions(&mut as_given, &problem);
            assert!(!want.is_empty(), "{rows}x{cols}");
            assert_eq!(all_solutions(&mut turned, &problem), want, "{rows}x{cols} symmetry {symmetry}");
            for s in &want {
                board_of(&g.puzzle, &problem, s).check_solution(&g.puzzle).unwrap();
            }
            let nodes = |scan: &mut Scan| scan.run(&Limits::none(), &mut |_| Flow::Continue).nodes;
            let (t, a) = (nodes(&mut turned), nodes(&mut as_given));
            if cols > rows {
                assert!(t < a, "{rows}x{cols}: {t} nodes turned against {a}");
                assert!(turned.describe().contains(&format!("({rows} x {cols} turned a quarter: rows of {rows}")));
            } else {
                assert_eq!(t, a);
            }
        }
    }
}

#[test]
fn clues_are_respected() {
    let mut g = generate(&GenerateSpec { rows: 3, cols: 4, style: Style::Uniform { colors: 2 }, seed: 8 }).unwrap();
    // Fix the planted tile of cell (1, 1) and of a corner.
    for (row, col) in [(1, 1), (0, 3)] {
        let p = g.solution.cells[row * 4 + col].unwrap();
        g.puzzle.clues.push(Clue { tile: p.tile as usize, row, col, rotation: p.rotation });
    }
    let problem = to_problem(&g.puzzle);
    let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
    let dlx = all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem);
    assert!(!scan.is_empty());
    assert_eq!(scan, dlx);
}

#[test]
fn symmetric_tiles_are_placed_once() {
    // One colour: identical corners, identical edges, and a centre that
    // looks the same in all four rotations.
    let mut g = generate(&GenerateSpec { rows: 3, cols: 3, style: Style::Uniform { colors: 1 }, seed: 0 }).unwrap();
    let centre = g.solution.cells[4].unwrap().tile as usize;
    assert_eq!(g.puzzle.tiles[centre], Tile([1, 1, 1, 1]));
    g.puzzle.clues.clear();
    let problem = to_problem(&g.puzzle);
    let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
    // 4! corner orders x 4! edge orders, one centre look.
    assert_eq!(scan.len(), 24 * 24);
    assert_eq!(scan, all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem));
}

#[test]
fn table_size_is_capped() {
    let mut g =
        generate(&GenerateSpec { rows: 16, cols: 16, style: Style::Uniform { colors: 1000 }, seed: 1 }).unwrap();
    for (cell, p) in g.solution.cells.iter().enumerate() {
        let p = p.unwrap();
        g.puzzle.clues.push(Clue { tile: p.tile as usize, row: cell / 16, col: cell % 16, rotation: p.rotation });
    }
    let problem = to_problem(&g.puzzle);
    let err = Scan::new(&g.puzzle, &problem).unwrap_err();
    assert!(err.contains("candidate lists"), "{err}");
    // Without the clues it fits.
    g.puzzle.clues.clear();
    assert!(Scan::new(&g.puzzle, &to_problem(&g.puzzle)).is_ok());
}

#[test]
fn limits_stop_the_search() {
    let g = generate(&GenerateSpec { rows: 3, cols: 3, style: Style::Uniform { colors: 1 }, seed: 0 }).unwrap();
    let problem = to_problem(&g.puzzle);
    let mut scan = Scan::new(&g.puzzle, &problem).unwrap();
    let stats = scan.run(&Limits::solutions(10), &mut |_| Flow::Continue);
    assert_eq!((stats.solutions, stats.stopped), (10, Some(StopReason::SolutionLimit)));
    let mut k = 0;
    let stats = scan.run(&Limits::none(), &mut |_| {
        k += 1;
        if k == 3 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    assert_eq!((stats.solutions, stats.stopped), (3, Some(StopReason::Visitor)));
}
