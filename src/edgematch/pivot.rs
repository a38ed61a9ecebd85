//! Symmetry breaking for the exact edge-matching engines (cp and scan):
//! one corner tile, the *pivot*, may only take one corner per orbit of the
//! board rotations. The engines search that restricted tree and report
//! each board found together with its images under the rotations.

use super::{EdgePuzzle, GREY};
use crate::ir::{OptionId, Problem};

/// A corner tile restricted to one corner per orbit of the board
/// rotations that map the clues onto themselves (the symmetries of the
/// IR built by [`to_problem`](super::ir::to_problem)).
///
/// Invariant: every non-trivial rotation in `images` moves every corner,
/// so each orbit of solutions has exactly one member with the pivot on an
/// allowed corner, and its other members are that board's images under
/// `images`, all distinct (the pivot is on a different corner in each).
#[derive(Clone, Debug)]
pub struct Pivot {
    /// The tile (not a clue).
    pub tile: u32,
    /// Per cell: may the pivot go there (one corner per orbit).
    pub allowed: Vec<bool>,
    /// Option maps of the non-trivial board rotations: a solution found
    /// with the pivot on an allowed corner stands for itself and these
    /// images.
    pub images: Vec<Vec<OptionId>>,
}

impl Pivot {
    /// The pivot of `puzzle` (whose IR is `problem`), or `None` when the
    /// puzzle has no board rotation to break (rotations not mapping the
    /// clues onto themselves, a board of one row or column, no corner tile
    /// outside the clues, a symmetry group that does not act freely on the
    /// corners). Each orbit's allowed corner is its first in row-major
    /// order.
    pub fn find(puzzle: &EdgePuzzle, problem: &Problem) -> Option<Pivot> {
        Pivot::find_in_order(puzzle, problem, &|cell| cell)
    }

    /// [`Pivot::find`], with each orbit's allowed corner the one of least
    /// `rank(cell)`: a search that meets the cells in `rank` order then
    /// meets the restriction as early as it can.
    pub fn find_in_order(puzzle: &EdgePuzzle, problem: &Problem, rank: &dyn Fn(usize) -> usize) -> Option<Pivot> {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        if problem.symmetries.is_empty() || rows < 2 || cols < 2 || problem.symmetries.iter().any(|s| s.reflection) {
            return None;
        }
        let geo = problem.geometry.as_ref()?;
        let corners = [0, cols - 1, rows * cols - 1, (rows - 1) * cols];
        let clue_tiles: Vec<usize> = puzzle.clues.iter().map(|c| c.tile).collect();
        let tile = (0..puzzle.tiles.len()).find(|&t| {
            let c = puzzle.tiles[t].0;
            !clue_tiles.contains(&t) && (0..4).any(|s| c[s] == GREY && c[(s + 1) & 3] == GREY)
        })?;
        // One option of the pivot on each corner.
        let mut at_corner = [None; 4];
        for (o, p) in geo.placements.iter().enumerate() {
            if p.piece as usize == tile {
                if let Some(k) = corners.iter().position(|&c| c == p.cells[0] as usize) {
                    at_corner[k].get_or_insert(o);
                }
            }
        }
        let at_corner: Vec<usize> = at_corner.iter().map(|o| o.ok_or(())).collect::<Result<_, _>>().ok()?;
        // The orbit of each corner under the rotations; they must have |G|
        // elements each (free action), and the corner of least rank in each
        // orbit is the allowed one.
        let group = problem.symmetries.len() + 1;
        let mut allowed = vec![false; rows * cols];
        let mut covered = [false; 4];
        let mut by_rank = [0, 1, 2, 3];
        by_rank.sort_by_key(|&k| rank(corners[k]));
        for k in by_rank {
            if covered[k] {
                continue;
            }
            let mut orbit = vec![k];
            for s in &problem.symmetries {
                let image = geo.placements[s.option_map[at_corner[k]] as usize].cells[0] as usize;
                let j = corners.iter().position(|&c| c == image)?;
                if orbit.contains(&j) || covered[j] {
                    return None;
                }
                orbit.push(j);
            }
            debug_assert_eq!(orbit.len(), group);
            for &j in &orbit {
                covered[j] = true;
            }
            allowed[corners[k]] = true;
        }
        let orbits = allowed.iter().filter(|&&a| a).count();
        if orbits * group != 4 {
            return None;
        }
        let images = problem.symmetries.iter().map(|s| s.option_map.clone()).collect();
        Some(Pivot { tile: tile as u32, allowed, images })
    }

    /// How many boards each board found stands for.
    pub fn weight(&self) -> u64 {
        self.images.len() as u64 + 1
    }

    /// A line for `describe()`: which tile is fixed where.
    pub fn describe(&self, cols: usize) -> String {
        let corners: Vec<String> = (0..self.allowed.len())
            .filter(|&c| self.allowed[c])
            .map(|c| format!("({}, {})", c / cols, c % cols))
            .collect();
        format!("tile {} only on corner {} (board rotations)", self.tile + 1, corners.join(" or "))
    }
}
