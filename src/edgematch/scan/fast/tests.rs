//! The fast walk against the general walk: the same boards in the same
//! order, the same node counts, on both mask widths.

use super::super::{Scan, ScanConfig};
use super::FastTable;
use crate::edgematch::generate::{generate, GenerateSpec, Style};
use crate::edgematch::ir::{board_of, to_problem};
use crate::edgematch::{brendan_set2, Clue, EdgePuzzle};
use crate::ir::{verify, OptionId, Solution};
use crate::search::{Engine, Flow, Limits, SearchStats};

/// The boards in the order found (each verified on the IR and on the
/// board) and the statistics of `scan` under `limits`.
fn run(scan: &mut Scan, p: &EdgePuzzle, limits: &Limits) -> (Vec<Vec<OptionId>>, SearchStats) {
    let problem = to_problem(p);
    let mut out = Vec::new();
    let stats = scan.run(limits, &mut |s| {
        verify(&problem, &Solution { options: s.to_vec() }).unwrap();
        board_of(p, &problem, s).check_solution(p).unwrap();
        out.push(s.to_vec());
        Flow::Continue
    });
    (out, stats)
}

/// The fast and the general walk of `p` (with `config`, `threads`)
/// find the same boards in the same order in the same nodes.
fn same_walks(p: &EdgePuzzle, config: ScanConfig, threads: usize, limits: &Limits) -> usize {
    let problem = to_problem(p);
    let mut fast = Scan::with_config(p, &problem, config).unwrap().with_threads(threads);
    assert!(fast.tables.iter().all(|t| t.fast.is_some()), "{}", p.name);
    let mut general = Scan::with_config(p, &problem, config).unwrap().with_threads(threads);
    for t in &mut general.tables {
        t.fast = None;
    }
    let (mut a, sa) = run(&mut fast, p, limits);
    let (mut b, sb) = run(&mut general, p, limits);
    if threads > 1 {
        a.sort();
        b.sort();
    }
    let what = format!("{} {config:?} threads {threads}", p.name);
    assert_eq!(a, b, "{what}");
    assert_eq!((sa.nodes, sa.solutions, sa.stopped), (sb.nodes, sb.solutions, sb.stopped), "{what}");
    a.len()
}

#[test]
fn fast_walk_matches_the_general_walk() {
    let mut puzzles: Vec<EdgePuzzle> = ["04x04", "05x04", "05x05", "06x04"].map(brendan_set2).into();
    for (rows, cols, style, seed) in [
        (3, 3, Style::Uniform { colors: 1 }, 0),
        (3, 4, Style::Uniform { colors: 2 }, 2),
        (4, 4, Style::Frame { border_colors: 1, inner_colors: 2 }, 3),
        (2, 5, Style::Uniform { colors: 2 }, 4),
        (4, 5, Style::Frame { border_colors: 2, inner_colors: 3 }, 5),
        (5, 5, Style::Uniform { colors: 3 }, 6),
        (4, 6, Style::Uniform { colors: 3 }, 7),
    ] {
        puzzles.push(generate(&GenerateSpec { rows, cols, style, seed }).unwrap().puzzle);
    }
    let mut twice = false;
    for p in &puzzles {
        twice |= has_twice(p);
        for symmetry in [true, false] {
            let config = ScanConfig { symmetry, ..ScanConfig::default() };
            assert!(same_walks(p, config, 1, &Limits::none()) > 0, "{}", p.name);
            same_walks(p, config, 2, &Limits::none());
            let limits = Limits { max_nodes: Some(1 << 16), ..Limits::default() };
            same_walks(p, config, 1, &limits);
        }
    }
    assert!(twice, "no puzzle has a tile twice in one list");
}

#[test]
fn fast_walk_keeps_clues() {
    for seed in [8, 9] {
        let mut g = generate(&GenerateSpec { rows: 4, cols: 4, style: Style::Uniform { colors: 2 }, seed }).unwrap();
        for (row, col) in [(1, 1), (0, 3), (2, 3)] {
            let p = g.solution.cells[row * 4 + col].unwrap();
            g.puzzle.clues.push(Clue { tile: p.tile as usize, row, col, rotation: p.rotation });
        }
        assert!(same_walks(&g.puzzle, ScanConfig::default(), 1, &Limits::none()) > 0);
    }
}

/// Whether a tile of `p` shows one west and north colour in two rotations
/// (so that it is twice in one list).
fn has_twice(p: &EdgePuzzle) -> bool {
    p.tiles.iter().any(|t| (0..4).any(|r| t.0[r] == t.0[(r + 1) % 4] && t.0[r] == t.0[(r + 2) % 4]))
}

#[test]
fn wide_walk_matches_the_general_walk() {
    // Enough colours to enumerate every board (about 1e6 to 1e7 nodes).
    for (n, colors) in [(9, 11), (10, 13)] {
        let p = generate(&GenerateSpec { rows: n, cols: n, style: Style::Uniform { colors }, seed: 1 }).unwrap().puzzle;
        for symmetry in [true, false] {
            let config = ScanConfig { symmetry, ..ScanConfig::default() };
            assert!(same_walks(&p, config, 1, &Limits::none()) > 0, "{}", p.name);
            same_walks(&p, config, 2, &Limits::none());
        }
    }
    // Few colours (tiles twice in a list), up to 128 tiles: node limits.
    let mut twice = false;
    for (rows, cols, style, seed) in [
        (9, 9, Style::Uniform { colors: 3 }, 1),
        (10, 10, Style::Uniform { colors: 4 }, 2),
        (9, 10, Style::Frame { border_colors: 2, inner_colors: 3 }, 3),
        (11, 11, Style::Uniform { colors: 5 }, 4),
        (8, 16, Style::Uniform { colors: 3 }, 5),
        (9, 8, Style::Uniform { colors: 2 }, 6),
    ] {
        let p = generate(&GenerateSpec { rows, cols, style, seed }).unwrap().puzzle;
        twice |= has_twice(&p);
        for symmetry in [true, false] {
            let config = ScanConfig { symmetry, ..ScanConfig::default() };
            for max_nodes in [1 << 12, 1 << 18] {
                same_walks(&p, config, 1, &Limits { max_nodes: Some(max_nodes), ..Limits::default() });
            }
        }
    }
    assert!(twice, "no puzzle has a tile twice in one list");
}

#[test]
fn wide_walk_keeps_clues() {
    for seed in [2, 3] {
        let spec = GenerateSpec { rows: 9, cols: 9, style: Style::Uniform { colors: 11 }, seed };
        let mut g = generate(&spec).unwrap();
        for (row, col) in [(1, 1), (0, 8), (4, 8), (6, 3)] {
            let p = g.solution.cells[row * 9 + col].unwrap();
            g.puzzle.clues.push(Clue { tile: p.tile as usize, row, col, rotation: p.rotation });
        }
        assert!(same_walks(&g.puzzle, ScanConfig::default(), 1, &Limits::none()) > 0);
        same_walks(&g.puzzle, ScanConfig::default(), 2, &Limits::none());
    }
}

#[test]
fn the_mask_width_follows_the_tile_count() {
    let width = |rows: usize, cols: usize| {
        let g = generate(&GenerateSpec { rows, cols, style: Style::Uniform { colors: 6 }, seed: 1 }).unwrap();
        let scan = Scan::new(&g.puzzle, &to_problem(&g.puzzle)).unwrap();
        let w = |t: &super::super::Table| match t.fast {
            Some(FastTable::Narrow(_)) => 64,
            Some(FastTable::Wide(_)) => 128,
            None => 0,
        };
        let first = w(&scan.tables[0]);
        assert!(scan.tables.iter().all(|t| w(t) == first), "{rows}x{cols}");
        first
    };
    assert_eq!(width(8, 8), 64);
    assert_eq!(width(9, 8), 128);
    assert_eq!(width(10, 10), 128);
    assert_eq!(width(16, 8), 128);
    assert_eq!(width(11, 12), 0);
}
