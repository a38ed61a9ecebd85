//! Puzzle-level check of a solution, from the definition alone: the placed
//! cell sets tile the free part of the box, and they are, as a multiset,
//! congruent to the mobile pieces under the allowed rotations.

use super::Puzzle;
use crate::geometry::{Point, Shape, Transform};
use crate::ir::{verify, Problem, Solution};
use std::collections::HashMap;

/// Why a set of placed pieces does not solve a puzzle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct PuzzleError(pub String);

/// Checks that `placed` (one cell list per mobile piece) solves `puzzle`.
pub fn verify_cells(puzzle: &Puzzle, placed: &[Vec<Point>]) -> Result<(), PuzzleError> {
    let [dx, dy, dz] = puzzle.dims.map(|d| d as i32);
    let mut owner: HashMap<Point, usize> = HashMap::new();
    let stationary = puzzle.pieces.iter().filter(|d| d.stationary);
    for (k, cells) in stationary.map(|d| &d.cells).chain(placed.iter()).enumerate() {
        for &c in cells {
            if !(0..dx).contains(&c[0]) || !(0..dy).contains(&c[1]) || !(0..dz).contains(&c[2]) {
                return Err(PuzzleError(format!("cell {c:?} is outside the box")));
            }
            if owner.insert(c, k).is_some() {
                return Err(PuzzleError(format!("cell {c:?} is covered twice")));
            }
        }
    }
    let volume = (dx * dy * dz) as usize;
    if owner.len() != volume {
        return Err(PuzzleError(format!("{} of {volume} cells are covered", owner.len())));
    }
    let group = Transform::group(puzzle.one_side, false);
    let mut wanted: HashMap<Shape, i64> = HashMap::new();
    for d in puzzle.pieces.iter().filter(|d| !d.stationary) {
        *wanted.entry(Shape::new(d.cells.iter().copied()).canonical(&group)).or_default() += 1;
    }
    for cells in placed {
        let canon = Shape::new(cells.iter().copied()).canonical(&group);
        match wanted.get_mut(&canon) {
            Some(n) if *n > 0 => *n -= 1,
            _ => return Err(PuzzleError(format!("placed cells {cells:?} match no unused piece"))),
        }
    }
    Ok(())
}

/// Checks `solution` both as an exact cover of `problem` and, through the
/// problem's geometry, as a solution of `puzzle`.
pub fn verify_solution(puzzle: &Puzzle, problem: &Problem, solution: &Solution) -> Result<(), PuzzleError> {
    verify(problem, solution).map_err(|e| PuzzleError(e.to_string()))?;
    let geo = problem.geometry.as_ref().ok_or_else(|| PuzzleError("problem has no geometry".into()))?;
    let placed: Vec<Vec<Point>> = solution
        .options
        .iter()
        .map(|&o| geo.placements[o as usize].cells.iter().map(|&c| geo.coords(c).map(|v| v as i32)).collect())
        .collect();
    verify_cells(puzzle, &placed)
}
