//! Geometry that travels with a [`Problem`](super::Problem): the grid, the
//! pieces, and what each option places where. The exact-cover solvers ignore
//! it; the geometric engines, the verifiers of puzzle-level solutions and the
//! renderers read it.

use serde::Serialize;

/// A piece kind. Interchangeable copies of one shape form one `PieceInfo`
/// with several names (the IR then has one primary item of that
/// multiplicity), so a solution is counted once, not once per permutation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PieceInfo {
    /// One name per copy, in definition order (never empty).
    pub names: Vec<String>,
    /// Fixed in place (not an item; drawn but never searched).
    pub stationary: bool,
}

/// What one option does on the grid: put piece `piece` on `cells`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Index into [`Geometry::pieces`].
    pub piece: u32,
    /// Linear cell indices (see [`Geometry::cell`]), sorted ascending.
    pub cells: Vec<u32>,
    /// Orientation index of the piece (meaning depends on the front-end:
    /// index into the piece's orientation list for polycubes, clockwise
    /// quarter turns for edge-matching tiles).
    pub orientation: u32,
}

/// The grid and the placements of a problem.
///
/// Invariant: `placements.len()` equals the problem's number of options, and
/// option `o` places `placements[o]`; every cell index is
/// `< dims[0] * dims[1] * dims[2]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Geometry {
    /// Grid extent in x, y, z (a 2-D board has `dims[2] == 1`).
    pub dims: [u32; 3],
    /// Piece kinds; placements refer to them by index.
    pub pieces: Vec<PieceInfo>,
    /// One placement per option.
    pub placements: Vec<Placement>,
    /// Stationary pieces, already in place.
    pub fixed: Vec<Placement>,
}

impl Geometry {
    /// Number of grid points.
    pub fn volume(&self) -> usize {
        (self.dims[0] * self.dims[1] * self.dims[2]) as usize
    }
    /// Linear index of `(x, y, z)`: `x + X * (y + Y * z)`.
    pub fn cell(&self, [x, y, z]: [u32; 3]) -> u32 {
        x + self.dims[0] * (y + self.dims[1] * z)
    }
    /// [`Geometry::cell`] of a point inside the box, `None` outside it.
    pub fn try_cell(&self, c: [u32; 3]) -> Option<u32> {
        c.iter().zip(self.dims).all(|(&v, d)| v < d).then(|| self.cell(c))
    }
    /// Coordinates of a linear cell index.
    pub fn coords(&self, cell: u32) -> [u32; 3] {
        let [dx, dy, _] = self.dims;
        [cell % dx, (cell / dx) % dy, cell / (dx * dy)]
    }
}

impl Geometry {
    /// The placements of the chosen `options`, each with the name of the
    /// copy it stands for (copies of a piece are named in order of their
    /// least cell, so the naming is deterministic), followed by the
    /// stationary pieces.
    pub fn named_placements<'a>(&'a self, options: &[u32]) -> Vec<(&'a str, &'a Placement)> {
        let mut chosen: Vec<&Placement> = options.iter().map(|&o| &self.placements[o as usize]).collect();
        chosen.sort_by_key(|p| (p.piece, p.cells.first().copied()));
        let mut out = Vec::with_capacity(chosen.len() + self.fixed.len());
        let mut copy = 0;
        for (k, p) in chosen.iter().enumerate() {
            copy = if k > 0 && chosen[k - 1].piece == p.piece { copy + 1 } else { 0 };
            let names = &self.pieces[p.piece as usize].names;
            out.push((names[copy.min(names.len() - 1)].as_str(), *p));
        }
        out.extend(self.fixed.iter().map(|p| (self.pieces[p.piece as usize].names[0].as_str(), p)));
        out
    }
}
