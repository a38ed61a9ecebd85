//! Scoring a (possibly partial, possibly faulty) board: matched inner joins
//! out of all of them, and every rule the board breaks, listed rather than
//! stopping at the first.

use super::{Board, EdgePuzzle, Placed, EAST, GREY, SOUTH, WEST};

/// The score of a board and its faults.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ScoreReport {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Cells holding a tile.
    pub filled: usize,
    /// Empty cells.
    pub empty: usize,
    /// Inner joins between two filled cells showing the same (non-grey)
    /// colour.
    pub matched: usize,
    /// Inner joins between two filled cells showing different colours (or
    /// grey).
    pub unmatched: usize,
    /// All inner joins of the board: `rows·(cols−1) + cols·(rows−1)`, the
    /// maximum score.
    pub joins: usize,
    /// Rules broken (border, tile used twice, clue); empty for a valid
    /// board.
    pub faults: Vec<String>,
}

impl ScoreReport {
    /// Whether the board breaks no rule (it may still be partial or have
    /// unmatched joins).
    pub fn valid(&self) -> bool {
        self.faults.is_empty()
    }
    /// Whether the board is a complete solution.
    pub fn solved(&self) -> bool {
        self.valid() && self.empty == 0 && self.matched == self.joins
    }
}

/// Why a board cannot be scored against a puzzle at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScoreError {
    /// Board and puzzle sizes differ.
    #[error("the board is {0}x{1} but the puzzle is {2}x{3}")]
    Size(usize, usize, usize, usize),
    /// A cell names a tile the puzzle does not have.
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
}

/// Scores `board` against `puzzle`.
pub fn score(board: &Board, puzzle: &EdgePuzzle) -> Result<ScoreReport, ScoreError> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    if (board.rows, board.cols) != (rows, cols) {
        return Err(ScoreError::Size(board.rows, board.cols, rows, cols));
    }
    let n = puzzle.tiles.len();
    for (i, c) in board.cells.iter().enumerate() {
        if let Some(p) = c {
            if p.tile as usize >= n {
                let (row, col) = puzzle.row_col(i);
                return Err(ScoreError::UnknownTile { row, col, tile: p.tile as usize + 1, n });
            }
        }
    }
    let mut faults = Vec::new();
    let mut first_cell: Vec<Option<usize>> = vec![None; n];
    for (i, c) in board.cells.iter().enumerate() {
        let Some(p) = c else { continue };
        let (row, col) = puzzle.row_col(i);
        let t = p.tile as usize;
        if let Some(j) = first_cell[t] {
            let (r0, c0) = puzzle.row_col(j);
            faults.push(format!(
                "tile {} is used twice: at (row {}, column {}) and (row {}, column {})",
                t + 1,
                r0 + 1,
                c0 + 1,
                row + 1,
                col + 1
            ));
        } else {
            first_cell[t] = Some(i);
        }
        if !puzzle.fits_border(t, p.rotation, i) {
            faults.push(format!(
                "border: tile {} rotation {} at (row {}, column {}) does not show grey exactly on the border",
                t + 1,
                p.rotation,
                row + 1,
                col + 1
            ));
        }
    }
    for clue in &puzzle.clues {
        let i = puzzle.cell(clue.row, clue.col);
        let want = puzzle.tiles[clue.tile].rotated(clue.rotation);
        let here = board.cells[i];
        let ok = here.is_some_and(|p: Placed| p.tile as usize == clue.tile && board.colours(puzzle, i) == Some(want));
        if !ok {
            let found = here.map_or_else(|| "an empty cell".to_string(), |p| format!("{}/{}", p.tile + 1, p.rotation));
            faults.push(format!(
                "clue: tile {} rotation {} must be at (row {}, column {}), found {found}",
                clue.tile + 1,
                clue.rotation,
                clue.row + 1,
                clue.col + 1
            ));
        }
    }
    let (mut matched, mut unmatched) = (0, 0);
    for i in 0..rows * cols {
        let Some(a) = board.colours(puzzle, i) else { continue };
        for (side, other) in [(EAST, puzzle.neighbour(i, EAST)), (SOUTH, puzzle.neighbour(i, SOUTH))] {
            let Some(b) = other.and_then(|j| board.colours(puzzle, j)) else { continue };
            let opposite = if side == EAST { WEST } else { super::NORTH };
            if a[side] == b[opposite] && a[side] != GREY {
                matched += 1;
            } else {
                unmatched += 1;
            }
        }
    }
    let filled = board.cells.iter().filter(|c| c.is_some()).count();
    Ok(ScoreReport {
        rows,
        cols,
        filled,
        empty: rows * cols - filled,
        matched,
        unmatched,
        joins: puzzle.n_joins(),
        faults,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::generate::{generate, GenerateSpec, Style};

    #[test]
    fn planted_board_scores_the_maximum_and_faults_are_listed() {
        let g = generate(&GenerateSpec { rows: 4, cols: 6, style: Style::Uniform { colors: 9 }, seed: 3 }).unwrap();
        let r = score(&g.solution, &g.puzzle).unwrap();
        assert_eq!((r.matched, r.joins, r.empty), (38, 38, 0));
        assert!(r.solved());
        // Empty one inner cell: its four joins no longer count.
        let mut b = g.solution.clone();
        b.cells[7] = None;
        let r = score(&b, &g.puzzle).unwrap();
        assert_eq!((r.matched, r.unmatched, r.empty, r.valid(), r.solved()), (34, 0, 1, true, false));
        // Put the same tile twice, and turn a corner wrongly.
        let mut b = g.solution.clone();
        b.cells[7] = b.cells[8];
        b.cells[0] = b.cells[0].map(|p| Placed { rotation: (p.rotation + 1) % 4, ..p });
        let r = score(&b, &g.puzzle).unwrap();
        assert_eq!(r.faults.len(), 2, "{:?}", r.faults);
        assert!(r.faults[0].starts_with("border: tile"), "{:?}", r.faults);
        assert!(r.faults[1].contains("is used twice"), "{:?}", r.faults);
        assert!(score(&Board::empty(3, 3), &g.puzzle).is_err());
    }
}
