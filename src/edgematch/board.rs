//! Boards (a placement per cell) and their matched-edge score.

use super::{EdgePuzzle, EAST, GREY, SOUTH};

/// A tile placed in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Placed {
    /// 0-based tile index.
    pub tile: u32,
    /// Clockwise quarter turns.
    pub rotation: u8,
}

/// A (possibly partial) board: `cells[row * cols + col]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The placement in each cell, if any.
    pub cells: Vec<Option<Placed>>,
}

/// Matched inner joins of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Score {
    /// Adjacent filled cells whose shared sides have the same colour.
    pub matched: usize,
    /// All inner joins of the board (the maximum).
    pub joins: usize,
}

/// Why a board is not a valid (complete or partial) arrangement.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BoardError {
    /// Board size differs from the puzzle's.
    #[error("board is {0}x{1}, the puzzle is {2}x{3}")]
    Size(usize, usize, usize, usize),
    /// A tile index out of range.
    #[error("cell (row {}, column {}) holds tile {tile}, but the puzzle has {n} tiles", .row + 1, .col + 1)]
    UnknownTile {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// 1-based tile number.
        tile: usize,
        /// Number of tiles.
        n: usize,
    },
    /// A tile used twice.
    #[error("tile {0} is used twice")]
    TileTwice(usize),
    /// Grey on an inner side or colour on a border side.
    #[error("cell (row {}, column {}): tile {tile} rotation {rotation} does not show grey exactly on the border", .row + 1, .col + 1)]
    Border {
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// 1-based tile number.
        tile: usize,
        /// Rotation.
        rotation: u8,
    },
    /// A clue is not respected.
    #[error("clue tile {tile} must be at (row {}, column {}) with rotation {rotation}", .row + 1, .col + 1)]
    Clue {
        /// 1-based tile.
        tile: usize,
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// Rotation.
        rotation: u8,
    },
    /// A cell is empty where a full board was required.
    #[error("cell (row {}, column {}) is empty", .0 + 1, .1 + 1)]
    Empty(usize, usize),
    /// Two adjacent sides differ where a solution was required.
    #[error("cells (row {}, column {}) and (row {}, column {}) do not match", .0 + 1, .1 + 1, .2 + 1, .3 + 1)]
    Mismatch(usize, usize, usize, usize),
}

impl Board {
    /// The board as every command's JSON writes it: `rows`, `cols`, and
    /// `cells` in row-major order, each `{"tile", "rotation"}` with a
    /// 1-based tile, or null when empty.
    pub fn to_json(&self) -> serde_json::Value {
        let cells: Vec<serde_json::Value> = self
            .cells
            .iter()
            .map(|c| {
                c.map_or(serde_json::Value::Null, |p| serde_json::json!({ "tile": p.tile + 1, "rotation": p.rotation }))
            })
            .collect();
        serde_json::json!({ "rows": self.rows, "cols": self.cols, "cells": cells })
    }

    /// An empty board.
    pub fn empty(rows: usize, cols: usize) -> Board {
        Board { rows, cols, cells: vec![None; rows * cols] }
    }

    /// Colours shown by cell `i` (`None` if empty).
    pub fn colours(&self, puzzle: &EdgePuzzle, i: usize) -> Option<[u16; 4]> {
        self.cells[i].map(|p| puzzle.tiles[p.tile as usize].rotated(p.rotation))
    }

    /// Matched inner joins (joins with an empty cell do not count).
    pub fn score(&self, puzzle: &EdgePuzzle) -> Score {
        let mut matched = 0;
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Some(a) = self.colours(puzzle, r * self.cols + c) else {
                    continue;
                };
                if c + 1 < self.cols {
                    if let Some(b) = self.colours(puzzle, r * self.cols + c + 1) {
                        matched += (a[EAST] == b[super::WEST]) as usize;
                    }
                }
                if r + 1 < self.rows {
                    if let Some(b) = self.colours(puzzle, (r + 1) * self.cols + c) {
                        matched += (a[SOUTH] == b[super::NORTH]) as usize;
                    }
                }
            }
        }
        Score { matched, joins: puzzle.n_joins() }
    }

    /// Checks the rules that hold for any valid board, complete or not:
    /// size, tiles exist and are used at most once, grey exactly on the
    /// border, clues respected where their cell is filled.
    pub fn check(&self, puzzle: &EdgePuzzle) -> Result<(), BoardError> {
        if (self.rows, self.cols) != (puzzle.rows, puzzle.cols) {
            return Err(BoardError::Size(self.rows, self.cols, puzzle.rows, puzzle.cols));
        }
        let mut used = vec![false; puzzle.tiles.len()];
        for (i, cell) in self.cells.iter().enumerate() {
            let Some(p) = cell else { continue };
            let (row, col) = puzzle.row_col(i);
            let t = p.tile as usize;
            if t >= puzzle.tiles.len() {
                return Err(BoardError::UnknownTile { row, col, tile: t + 1, n: puzzle.tiles.len() });
            }
            if std::mem::replace(&mut used[t], true) {
                return Err(BoardError::TileTwice(t + 1));
            }
            if !puzzle.fits_border(t, p.rotation, i) {
                return Err(BoardError::Border { row, col, tile: t + 1, rotation: p.rotation });
            }
        }
        for clue in &puzzle.clues {
            let i = puzzle.cell(clue.row, clue.col);
            let want = Placed { tile: clue.tile as u32, rotation: clue.rotation };
            // A symmetric tile may satisfy a clue in another rotation.
            let ok = self.cells[i].is_some_and(|p| {
                p.tile == want.tile && self.colours(puzzle, i) == Some(puzzle.tiles[clue.tile].rotated(clue.rotation))
            });
            if !ok && (self.cells[i].is_some() || used[clue.tile]) {
                return Err(BoardError::Clue {
                    tile: clue.tile + 1,
                    row: clue.row,
                    col: clue.col,
                    rotation: clue.rotation,
                });
            }
        }
        Ok(())
    }

    /// Checks that the board is a complete solution: valid, full, and
    /// every inner join matched.
    pub fn check_solution(&self, puzzle: &EdgePuzzle) -> Result<(), BoardError> {
        self.check(puzzle)?;
        if let Some(i) = self.cells.iter().position(Option::is_none) {
            let (r, c) = puzzle.row_col(i);
            return Err(BoardError::Empty(r, c));
        }
        for i in 0..self.cells.len() {
            let (r, c) = puzzle.row_col(i);
            let a = self.colours(puzzle, i).expect("full board");
            for (side, other) in [(EAST, puzzle.neighbour(i, EAST)), (SOUTH, puzzle.neighbour(i, SOUTH))] {
                if let Some(j) = other {
                    let b = self.colours(puzzle, j).expect("full board");
                    if a[side] != b[(side + 2) % 4] || a[side] == GREY {
                        let (r2, c2) = puzzle.row_col(j);
                        return Err(BoardError::Mismatch(r, c, r2, c2));
                    }
                }
            }
        }
        Ok(())
    }
}
