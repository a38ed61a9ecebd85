//! Polyomino and polycube puzzles in Busche's definition-file format.
//!
//! [`parse`] reads a file into [`Puzzle`]s (several per file are allowed);
//! [`build`] turns one into the IR: one primary item per free cell, one per
//! group of identical mobile pieces (with the group's size as its
//! multiplicity), one option per image (a translated orientation that fits
//! the box and avoids stationary cells). [`verify_cells`] checks a solution
//! at the puzzle level, independently of the IR.

mod build;
mod parse;
mod verify;

pub use build::{build, build_checked, build_grouped, estimate, Built, PieceGroup};
pub use parse::{parse, MAX_DIM, MAX_VOLUME};
pub use verify::{verify_cells, verify_solution, PuzzleError, Verifier};

use super::{read_text, LoadError};
use crate::geometry::Point;
use std::path::Path;

/// One piece as defined in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// Name (one or more characters).
    pub name: String,
    /// Cells as given (for stationary pieces: their fixed position).
    pub cells: Vec<Point>,
    /// Fixed in place (`type=S` or listed in `stationary=`).
    pub stationary: bool,
    /// 1-based line of the definition (first occurrence in an `L` block).
    pub line: usize,
    /// 1-based column of the name.
    pub col: usize,
}

/// One puzzle of a definition file (a `D:` ... `~D` block).
///
/// Invariants (checked by [`parse`]): the dimensions are positive and within
/// [`MAX_DIM`]/[`MAX_VOLUME`]; `one_side` implies `dims[2] == 1`; piece
/// names are unique; stationary cells lie in the box and do not overlap;
/// the piece volumes sum to the box volume; every mobile piece fits the box
/// in some orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// `#k`: the puzzle's position in its file.
    pub name: String,
    /// Box size in x, y, z.
    pub dims: [u32; 3],
    /// Only the 4 rotations in the plane are allowed (no flips).
    pub one_side: bool,
    /// Pieces in definition order.
    pub pieces: Vec<PieceDef>,
    /// 1-based line of the `D:` directive.
    pub line: usize,
}

/// Reads and parses a definition file.
pub fn load(path: &Path) -> Result<Vec<Puzzle>, LoadError> {
    let text = read_text(path)?;
    Ok(parse(&text, &path.display().to_string())?)
}

#[cfg(test)]
mod tests;
