//! Puzzle-level check of a solution, from the definition alone: the placed
//! cell sets tile the free part of the box, and they are, as a multiset,
//! congruent to the mobile pieces under the allowed rotations.

use super::Puzzle;
use crate::fxhash::FxBuildHasher;
use crate::geometry::{Point, Shape, Transform};
use crate::ir::{verify, Problem, Solution};
use std::collections::HashMap;

/// Why a set of placed pieces does not solve a puzzle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct PuzzleError(pub String);

/// A puzzle-level verifier prepared once per puzzle (the orientations of
/// every mobile piece precomputed), so that checking many solutions is
/// cheap. It reads the definition only, never the IR.
#[derive(Clone, Debug)]
pub struct Verifier {
    dims: [i32; 3],
    stationary: Vec<Vec<Point>>,
    /// Every allowed orientation of every mobile piece shape, normalised
    /// (the cells of its [`Shape`]), mapped to the class of congruent
    /// pieces.
    class_of: HashMap<Vec<Point>, usize, FxBuildHasher>,
    /// Number of mobile pieces per class.
    wanted: Vec<i64>,
}

impl Verifier {
    /// Prepares the checks of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Verifier {
        let group = Transform::group(puzzle.one_side, false);
        let mut class_of: HashMap<Vec<Point>, usize, FxBuildHasher> = HashMap::default();
        let mut wanted: Vec<i64> = Vec::new();
        for d in puzzle.pieces.iter().filter(|d| !d.stationary) {
            let shape = Shape::new(d.cells.iter().copied());
            match class_of.get(shape.cells()) {
                Some(&c) => wanted[c] += 1,
                None => {
                    let c = wanted.len();
                    wanted.push(1);
                    for o in shape.orientations(&group) {
                        class_of.insert(o.cells().to_vec(), c);
                    }
                }
            }
        }
        Verifier {
            dims: puzzle.dims.map(|d| d as i32),
            stationary: puzzle.pieces.iter().filter(|d| d.stationary).map(|d| d.cells.clone()).collect(),
            class_of,
            wanted,
        }
    }

    /// Checks that `placed` (one cell list per mobile piece) tiles the free
    /// part of the box with pieces congruent, as a multiset, to the mobile
    /// pieces.
    pub fn verify_cells(&self, placed: &[Vec<Point>]) -> Result<(), PuzzleError> {
        self.check(placed.len(), |i, out| out.extend_from_slice(&placed[i]))
    }

    /// [`Self::verify_cells`] for `n` placed pieces, piece `i`'s cells
    /// appended to a buffer by `cells_of(i, buffer)`: one allocation for
    /// all pieces, shapes normalised in place.
    fn check(&self, n: usize, mut cells_of: impl FnMut(usize, &mut Vec<Point>)) -> Result<(), PuzzleError> {
        let [dx, dy, dz] = self.dims;
        let volume = (dx * dy * dz) as usize;
        let mut covered = vec![false; volume];
        let mut n_covered = 0;
        let mut all: Vec<Point> = Vec::with_capacity(volume);
        let mut start = Vec::with_capacity(n + 1);
        for i in 0..n {
            start.push(all.len());
            cells_of(i, &mut all);
        }
        start.push(all.len());
        for cells in self.stationary.iter().map(|c| &c[..]).chain(start.windows(2).map(|w| &all[w[0]..w[1]])) {
            for &c in cells {
                if !(0..dx).contains(&c[0]) || !(0..dy).contains(&c[1]) || !(0..dz).contains(&c[2]) {
                    return Err(PuzzleError(format!("cell {c:?} is outside the box")));
                }
                let k = (c[0] + dx * (c[1] + dy * c[2])) as usize;
                if covered[k] {
                    return Err(PuzzleError(format!("cell {c:?} is covered twice")));
                }
                covered[k] = true;
                n_covered += 1;
            }
        }
        if n_covered != volume {
            return Err(PuzzleError(format!("{n_covered} of {volume} cells are covered")));
        }
        let mut left = self.wanted.clone();
        for w in start.windows(2) {
            // Normalised as `Shape::new` does: least coordinate 0 on each
            // axis, cells sorted.
            let cells = &mut all[w[0]..w[1]];
            let min = cells.iter().fold([i32::MAX; 3], |m, p| [m[0].min(p[0]), m[1].min(p[1]), m[2].min(p[2])]);
            for p in cells.iter_mut() {
                for k in 0..3 {
                    p[k] -= min[k];
                }
            }
            cells.sort_unstable();
            match self.class_of.get(&cells[..]) {
                Some(&c) if left[c] > 0 => left[c] -= 1,
                _ => {
                    let placed: Vec<Point> =
                        cells.iter().map(|p| [p[0] + min[0], p[1] + min[1], p[2] + min[2]]).collect();
                    return Err(PuzzleError(format!("placed cells {placed:?} match no unused piece")));
                }
            }
        }
        Ok(())
    }

    /// Checks `solution` both as an exact cover of `problem` and, through
    /// the problem's geometry, as a solution of the puzzle.
    pub fn verify_solution(&self, problem: &Problem, solution: &Solution) -> Result<(), PuzzleError> {
        verify(problem, solution).map_err(|e| PuzzleError(e.to_string()))?;
        let geo = problem.geometry.as_ref().ok_or_else(|| PuzzleError("problem has no geometry".into()))?;
        self.check(solution.options.len(), |i, out| {
            let cells = &geo.placements[solution.options[i] as usize].cells;
            out.extend(cells.iter().map(|&c| geo.coords(c).map(|v| v as i32)));
        })
    }
}

/// Checks that `placed` (one cell list per mobile piece) solves `puzzle`.
pub fn verify_cells(puzzle: &Puzzle, placed: &[Vec<Point>]) -> Result<(), PuzzleError> {
    Verifier::new(puzzle).verify_cells(placed)
}

/// Checks `solution` both as an exact cover of `problem` and, through the
/// problem's geometry, as a solution of `puzzle`.
pub fn verify_solution(puzzle: &Puzzle, problem: &Problem, solution: &Solution) -> Result<(), PuzzleError> {
    Verifier::new(puzzle).verify_solution(problem, solution)
}
