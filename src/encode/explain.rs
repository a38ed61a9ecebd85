//! Why a decoded answer is not a solution, said in the puzzle's terms:
//! cells by 1-based row and column (edge matching) or by their coordinates
//! as the definition file gives them (polycubes), tiles by their number in
//! the file, pieces by name; never the IR's item names.

use crate::edgematch::{Board, EdgePuzzle, GREY};
use crate::input::{Instance, InstanceKind};
use crate::ir::Solution;

/// `(row, column)` of a cell, 1-based.
fn at(puzzle: &EdgePuzzle, cell: usize) -> String {
    let (r, c) = puzzle.row_col(cell);
    format!("({}, {})", r + 1, c + 1)
}

/// The first rule a board breaks that any complete arrangement must keep:
/// a tile number out of range, a tile used twice, an empty cell, grey off
/// the border or colour on it, a clue not respected. Unmatched joins are
/// not faults here (they lower the score).
pub fn board_fault(puzzle: &EdgePuzzle, board: &Board) -> Option<String> {
    let mut first_cell: Vec<Option<usize>> = vec![None; puzzle.tiles.len()];
    for (i, p) in board.cells.iter().enumerate() {
        let Some(p) = p else { return Some(format!("cell {} is empty", at(puzzle, i))) };
        let t = p.tile as usize;
        if t >= puzzle.tiles.len() {
            return Some(format!(
                "cell {} holds tile {}, but the puzzle has {} tiles",
                at(puzzle, i),
                t + 1,
                puzzle.tiles.len()
            ));
        }
        if let Some(before) = first_cell[t].replace(i) {
            return Some(format!(
                "tile {} is placed twice: in cells {} and {}",
                t + 1,
                at(puzzle, before),
                at(puzzle, i)
            ));
        }
        if !puzzle.fits_border(t, p.rotation, i) {
            return Some(format!(
                "tile {} in cell {} with rotation {} does not show grey exactly on the border",
                t + 1,
                at(puzzle, i),
                p.rotation
            ));
        }
    }
    for clue in &puzzle.clues {
        let i = puzzle.cell(clue.row, clue.col);
        let want = puzzle.tiles[clue.tile].rotated(clue.rotation);
        if board.colours(puzzle, i) != Some(want) || board.cells[i].map(|p| p.tile as usize) != Some(clue.tile) {
            return Some(format!(
                "the clue puts tile {} in cell {} with rotation {}, the board does not",
                clue.tile + 1,
                at(puzzle, i),
                clue.rotation
            ));
        }
    }
    None
}

/// The first unmatched inner join of a full board, as a sentence.
pub fn first_mismatch(puzzle: &EdgePuzzle, board: &Board) -> Option<String> {
    for i in 0..puzzle.n_cells() {
        let a = board.colours(puzzle, i)?;
        for side in [crate::edgematch::EAST, crate::edgematch::SOUTH] {
            let Some(j) = puzzle.neighbour(i, side) else { continue };
            let b = board.colours(puzzle, j)?;
            let (x, y) = (a[side], b[(side + 2) % 4]);
            if x != y || x == GREY {
                return Some(format!(
                    "cells {} and {} do not match: colour {x} against colour {y}",
                    at(puzzle, i),
                    at(puzzle, j)
                ));
            }
        }
    }
    None
}

/// Why `solution` (option ids) is not a solution of `instance`, in the
/// puzzle's terms; `None` when it is one.
pub fn solution_fault(instance: &Instance, solution: &Solution) -> Option<String> {
    let problem = instance.problem();
    if let Some(&o) = solution.options.iter().find(|&&o| o as usize >= problem.n_options()) {
        return Some(format!("option {o} does not exist (the puzzle has {} options)", problem.n_options()));
    }
    let fault = match &instance.kind {
        InstanceKind::EdgeMatch(e) => edge_fault(&e.puzzle, instance, solution),
        InstanceKind::Polycube(_) => polycube_fault(instance, solution),
        InstanceKind::Cover(_) => None,
    };
    fault.or_else(|| instance.verify(solution).err())
}

fn edge_fault(puzzle: &EdgePuzzle, instance: &Instance, solution: &Solution) -> Option<String> {
    let geo = instance.problem().geometry.as_ref()?;
    let mut in_cell: Vec<Vec<u32>> = vec![Vec::new(); puzzle.n_cells()];
    let mut placed: Vec<Vec<usize>> = vec![Vec::new(); puzzle.tiles.len()];
    for &o in &solution.options {
        let p = &geo.placements[o as usize];
        in_cell[p.cells[0] as usize].push(p.piece + 1);
        placed[p.piece as usize].push(p.cells[0] as usize);
    }
    for (cell, tiles) in in_cell.iter().enumerate() {
        match tiles.len() {
            0 => return Some(format!("cell {} is empty", at(puzzle, cell))),
            1 => {}
            n => {
                let list: Vec<String> = tiles.iter().map(u32::to_string).collect();
                return Some(format!("cell {} holds {n} tiles (tiles {})", at(puzzle, cell), list.join(", ")));
            }
        }
    }
    for (t, cells) in placed.iter().enumerate() {
        match cells.len() {
            0 => return Some(format!("tile {} is not placed", t + 1)),
            1 => {}
            n => {
                let list: Vec<String> = cells.iter().map(|&c| at(puzzle, c)).collect();
                return Some(format!("tile {} is placed {n} times (cells {})", t + 1, list.join(", ")));
            }
        }
    }
    let board = crate::edgematch::ir::board_of(puzzle, instance.problem(), &solution.options);
    board_fault(puzzle, &board).or_else(|| first_mismatch(puzzle, &board))
}

fn polycube_fault(instance: &Instance, solution: &Solution) -> Option<String> {
    let geo = instance.problem().geometry.as_ref()?;
    let flat = geo.dims[2] == 1;
    let name = |cell: u32| {
        let [x, y, z] = geo.coords(cell);
        if flat {
            format!("({x}, {y})")
        } else {
            format!("({x}, {y}, {z})")
        }
    };
    let mut covered = vec![0u32; geo.volume()];
    for p in &geo.fixed {
        for &c in &p.cells {
            covered[c as usize] += 1;
        }
    }
    let mut count = vec![0u32; geo.pieces.len()];
    for &o in &solution.options {
        let p = &geo.placements[o as usize];
        count[p.piece as usize] += 1;
        for &c in &p.cells {
            covered[c as usize] += 1;
        }
    }
    for (k, piece) in geo.pieces.iter().enumerate().filter(|(_, p)| !p.stationary) {
        let want = piece.names.len() as u32;
        if count[k] != want {
            let what = if want == 1 {
                format!("piece {}", piece.names[0])
            } else {
                format!("the {want} identical pieces {}", piece.names.join(", "))
            };
            return Some(format!("{what}: {} placed, expected {want}", count[k]));
        }
    }
    if let Some(c) = covered.iter().position(|&n| n != 1) {
        let n = covered[c];
        return Some(if n == 0 {
            format!("cell {} is not covered", name(c as u32))
        } else {
            format!("cell {} is covered {n} times", name(c as u32))
        });
    }
    None
}
