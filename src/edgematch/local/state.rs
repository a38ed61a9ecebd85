//! A full board with its score kept up to date move by move.

use super::model::{Model, NONE};
use crate::edgematch::{Board, Color, Placed};

/// One cell's new content in a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    /// The cell.
    pub cell: u32,
    /// The tile it receives.
    pub tile: u32,
    /// The tile's rotation.
    pub rot: u8,
}

/// A complete board and its score.
///
/// Invariants: `tile` is a permutation of the tiles (`cell_of` its inverse);
/// every tile shows grey exactly on its cell's border
/// (`model.fits(tile[c], rot[c], c)`); clued cells hold their clue;
/// `colors[c] == model.color(tile[c], rot[c])`; `score` is the number of
/// matched inner joins. Every method that changes the board keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Tile in each cell.
    pub tile: Vec<u32>,
    /// Rotation in each cell.
    pub rot: Vec<u8>,
    /// Cell of each tile.
    pub cell_of: Vec<u32>,
    /// Colours shown in each cell.
    pub colors: Vec<[Color; 4]>,
    /// Matched inner joins.
    pub score: u32,
}

/// Why a board cannot be a local-search state.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StateError {
    /// The board breaks a puzzle rule.
    #[error(transparent)]
    Board(#[from] crate::edgematch::BoardError),
    /// The board is not full.
    #[error("the start board has empty cells: local search needs every tile placed")]
    NotFull,
}

impl State {
    /// The state of a complete valid board (checked against `puzzle`).
    pub fn from_board(
        model: &Model,
        puzzle: &crate::edgematch::EdgePuzzle,
        board: &Board,
    ) -> Result<State, StateError> {
        board.check(puzzle)?;
        if board.cells.iter().any(Option::is_none) {
            return Err(StateError::NotFull);
        }
        let tile: Vec<u32> = board.cells.iter().map(|c| c.expect("full").tile).collect();
        let rot: Vec<u8> = board.cells.iter().map(|c| c.expect("full").rotation).collect();
        Ok(State::from_parts(model, tile, rot))
    }

    /// A state from a tile and rotation per cell, which must form a valid
    /// full board (debug-asserted).
    pub fn from_parts(model: &Model, tile: Vec<u32>, rot: Vec<u8>) -> State {
        let n = model.n();
        let mut cell_of = vec![NONE; n];
        for (c, &t) in tile.iter().enumerate() {
            debug_assert_eq!(cell_of[t as usize], NONE, "tile {t} twice");
            cell_of[t as usize] = c as u32;
        }
        let colors = (0..n).map(|c| model.color(tile[c], rot[c])).collect();
        let mut s = State { tile, rot, cell_of, colors, score: 0 };
        s.score = s.full_score(model);
        debug_assert!(s.valid(model).is_ok(), "{:?}", s.valid(model));
        s
    }

    /// The board in emx's common form.
    pub fn to_board(&self, model: &Model) -> Board {
        Board {
            rows: model.rows,
            cols: model.cols,
            cells: (0..model.n()).map(|c| Some(Placed { tile: self.tile[c], rotation: self.rot[c] })).collect(),
        }
    }

    /// Recounts the matched joins from scratch.
    pub fn full_score(&self, model: &Model) -> u32 {
        let mut s = 0;
        for c in 0..model.n() {
            for side in [1, 2] {
                let o = model.nbr[c][side];
                if o != NONE && self.colors[c][side] == self.colors[o as usize][side ^ 2] {
                    s += 1;
                }
            }
        }
        s
    }

    /// Matched joins around `cell` if it showed `colors` (neighbours as
    /// they are now).
    #[inline]
    pub fn fit(&self, model: &Model, cell: u32, colors: [Color; 4]) -> u32 {
        let nb = &model.nbr[cell as usize];
        let mut k = 0;
        for s in 0..4 {
            let o = nb[s];
            if o != NONE && self.colors[o as usize][s ^ 2] == colors[s] {
                k += 1;
            }
        }
        k
    }

    /// Unmatched inner sides of `cell` (0..=4).
    #[inline]
    pub fn bad(&self, model: &Model, cell: u32) -> u32 {
        let nb = &model.nbr[cell as usize];
        let mine = self.colors[cell as usize];
        let mut k = 0;
        for s in 0..4 {
            let o = nb[s];
            if o != NONE && self.colors[o as usize][s ^ 2] != mine[s] {
                k += 1;
            }
        }
        k
    }

    /// Matched joins touching any cell of `changes` (each join once), in
    /// the current board.
    fn touched(&self, model: &Model, changes: &[Change]) -> u32 {
        let mut k = 0;
        for (i, ch) in changes.iter().enumerate() {
            let c = ch.cell as usize;
            for s in 0..4 {
                let o = model.nbr[c][s];
                if o == NONE {
                    continue;
                }
                // A join between two changed cells is counted from the first.
                if changes[..i].iter().any(|x| x.cell == o) {
                    continue;
                }
                if self.colors[c][s] == self.colors[o as usize][s ^ 2] {
                    k += 1;
                }
            }
        }
        k
    }

    /// Applies a move: every changed cell gets its new tile; together the
    /// changes must move tiles among the changed cells only (a permutation
    /// of their tiles), in fitting rotations. Costs O(len) and returns the
    /// score change.
    pub fn apply(&mut self, model: &Model, changes: &[Change]) -> i32 {
        let before = self.touched(model, changes);
        for ch in changes {
            debug_assert!(model.fits(ch.tile, ch.rot, ch.cell));
            debug_assert!(!model.is_clued(ch.cell) || model.clue[ch.cell as usize] == Some((ch.tile, ch.rot)));
            let c = ch.cell as usize;
            self.tile[c] = ch.tile;
            self.rot[c] = ch.rot;
            self.colors[c] = model.color(ch.tile, ch.rot);
            self.cell_of[ch.tile as usize] = ch.cell;
        }
        let after = self.touched(model, changes);
        self.score = self.score + after - before;
        after as i32 - before as i32
    }

    /// Score change of swapping the tiles of cells `a` and `b` (`a != b`),
    /// `a` receiving `b`'s tile in rotation `ra` and `b` receiving `a`'s in
    /// `rb`; the board is not changed.
    #[inline]
    pub fn swap_delta(&self, model: &Model, a: u32, b: u32, ra: u8, rb: u8) -> i32 {
        let ca = model.color(self.tile[b as usize], ra);
        let cb = model.color(self.tile[a as usize], rb);
        let old = self.fit(model, a, self.colors[a as usize]) + self.fit(model, b, self.colors[b as usize]);
        let new = self.fit(model, a, ca) + self.fit(model, b, cb);
        // Fix the join between a and b if they are adjacent: `fit` looked at
        // the other cell's current colours, not its new ones.
        for s in 0..4 {
            if model.nbr[a as usize][s] == b {
                let old_join = (self.colors[a as usize][s] == self.colors[b as usize][s ^ 2]) as u32;
                let seen_new =
                    (ca[s] == self.colors[b as usize][s ^ 2]) as u32 + (cb[s ^ 2] == self.colors[a as usize][s]) as u32;
                let real_new = (ca[s] == cb[s ^ 2]) as u32;
                // `old` counted the a-b join twice, `new` counted `seen_new`.
                return new as i32 - seen_new as i32 + real_new as i32 - (old as i32 - old_join as i32);
            }
        }
        new as i32 - old as i32
    }

    /// Checks every invariant against the model (for tests and debug
    /// assertions).
    pub fn valid(&self, model: &Model) -> Result<(), String> {
        let n = model.n();
        let mut seen = vec![false; n];
        for c in 0..n {
            let t = self.tile[c] as usize;
            if t >= n || std::mem::replace(&mut seen[t], true) {
                return Err(format!("tile {} out of range or twice", t + 1));
            }
            if self.cell_of[t] != c as u32 {
                return Err(format!("cell_of[{t}] = {} but the tile is in {c}", self.cell_of[t]));
            }
            if !model.fits(self.tile[c], self.rot[c], c as u32) {
                return Err(format!("cell {c}: tile {} rotation {} breaks the border", t + 1, self.rot[c]));
            }
            if let Some((ct, cr)) = model.clue[c] {
                if ct != self.tile[c] || model.color(ct, cr) != self.colors[c] {
                    return Err(format!("cell {c}: clue not respected"));
                }
            }
            if self.colors[c] != model.color(self.tile[c], self.rot[c]) {
                return Err(format!("cell {c}: stale colours"));
            }
        }
        let full = self.full_score(model);
        if full != self.score {
            return Err(format!("score {} but the board has {full}", self.score));
        }
        Ok(())
    }
}
