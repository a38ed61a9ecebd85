//! Edge matching (Eternity II and its relatives): the model every
//! edge-matching component shares (readers, the IR builder, the engines),
//! laid out as polycube is: the puzzle and its boards here ([`board`],
//! [`score`], [`ir`]: the IR builder), the engines [`scan`] (the row-scan
//! backtracker), [`cp`] (Benoist & Bourreau's CP engine) and [`local`]
//! (local search for the matched-edge score), and the puzzle-level
//! services [`generate`] and [`split`]. The readers and writers are in
//! [`crate::frontend::edgematch`].
//!
//! cp hands a filtered root to scan's walk through one interface,
//! [`scan::Scan::restricted`] (per-cell candidate lists; scan's tables,
//! fast walk, thread split and estimate behind it), and orders its own
//! completion walker by [`scan::cell_order`]; it uses nothing else of
//! scan's.
//!
//! Conventions (those of the seed data and of Eternity II solvers):
//! * a tile lists its four colours clockwise from the top: `[N, E, S, W]`;
//! * colour [`GREY`] (0) is the border colour;
//! * a rotation `r` is `r` clockwise quarter turns: after `r = 1` the new
//!   North edge is the old West edge;
//! * the board has `rows x cols` cells, row 0 at the top, column 0 at the
//!   left; cell index `row * cols + col`.

mod board;
pub mod cp;
pub mod generate;
pub mod ir;
pub mod local;
pub mod option_table;
pub mod pivot;
pub mod scan;
pub mod score;
pub mod split;

pub use board::{Board, BoardError, Placed, Score};

/// Brendan's set-2 puzzle `instances/edgematch/brendan_set2/pieces_{n}.txt`
/// (`n` as in the file name, e.g. `06x06`), for unit tests.
#[cfg(test)]
pub(crate) fn brendan_set2(n: &str) -> EdgePuzzle {
    let path = format!("{}/instances/edgematch/brendan_set2/pieces_{n}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    crate::frontend::edgematch::parse_meta(&text, n, n).unwrap()
}

/// A colour; [`GREY`] is the border.
pub type Color = u16;
/// The border colour.
pub const GREY: Color = 0;

/// Sides of a tile or cell, clockwise from the top.
pub const NORTH: usize = 0;
/// East side.
pub const EAST: usize = 1;
/// South side.
pub const SOUTH: usize = 2;
/// West side.
pub const WEST: usize = 3;

/// A square tile: its colours `[N, E, S, W]` in its rotation 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Tile(pub [Color; 4]);

impl Tile {
    /// The colours of the tile turned `r` clockwise quarter turns.
    #[inline]
    pub fn rotated(self, r: u8) -> [Color; 4] {
        let r = (r & 3) as usize;
        let c = self.0;
        [c[(4 - r) & 3], c[(5 - r) & 3], c[(6 - r) & 3], c[(7 - r) & 3]]
    }

    /// Number of grey sides (0 inner, 1 edge, 2 corner tile).
    pub fn grey_sides(self) -> usize {
        self.0.iter().filter(|&&c| c == GREY).count()
    }
}

/// A tile fixed in advance (Eternity II's clue pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clue {
    /// 0-based tile index.
    pub tile: usize,
    /// 0-based row from the top.
    pub row: usize,
    /// 0-based column from the left.
    pub col: usize,
    /// Clockwise quarter turns.
    pub rotation: u8,
}

/// An edge-matching puzzle.
///
/// Invariants (checked by [`EdgePuzzle::validate`]): `rows, cols >= 1`;
/// `tiles.len() == rows * cols`; every clue names an existing tile and cell,
/// no two clues share a tile or a cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgePuzzle {
    /// Name (file stem or generator description).
    pub name: String,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Tiles, 0-based; file formats number them from 1.
    pub tiles: Vec<Tile>,
    /// Fixed placements.
    pub clues: Vec<Clue>,
}

/// Where a cell is: its grey sides decide which tiles may go there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellKind {
    /// Two border sides.
    Corner,
    /// One border side.
    Edge,
    /// No border side.
    Inner,
}

impl EdgePuzzle {
    /// Number of cells.
    pub fn n_cells(&self) -> usize {
        self.rows * self.cols
    }

    /// Cell index of `(row, col)`.
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// `(row, col)` of a cell index.
    #[inline]
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// Which sides of `cell` are on the border, `[N, E, S, W]`.
    pub fn border_sides(&self, cell: usize) -> [bool; 4] {
        let (r, c) = self.row_col(cell);
        [r == 0, c + 1 == self.cols, r + 1 == self.rows, c == 0]
    }

    /// The neighbour of `cell` across `side`, if any.
    pub fn neighbour(&self, cell: usize, side: usize) -> Option<usize> {
        let (r, c) = self.row_col(cell);
        match side {
            NORTH if r > 0 => Some(cell - self.cols),
            EAST if c + 1 < self.cols => Some(cell + 1),
            SOUTH if r + 1 < self.rows => Some(cell + self.cols),
            WEST if c > 0 => Some(cell - 1),
            _ => None,
        }
    }

    /// Whether tile `t` in rotation `r` shows grey exactly on the border
    /// sides of `cell` (the placement rule of every Eternity-II-style
    /// puzzle).
    pub fn fits_border(&self, t: usize, r: u8, cell: usize) -> bool {
        let colours = self.tiles[t].rotated(r);
        let border = self.border_sides(cell);
        (0..4).all(|s| (colours[s] == GREY) == border[s])
    }

    /// The puzzle with its board turned a clockwise quarter turn: `cols x
    /// rows` cells, cell `(r, c)` moved to `(c, rows - 1 - r)`, each clue
    /// moved there and turned one more quarter. The tiles are the same, so
    /// a tile placed with rotation `k` here shows, on the turned board,
    /// the look of rotation `k + 1`; the boards of the two puzzles
    /// correspond one to one ([`EdgePuzzle::quarter_turn_cell`]).
    pub fn quarter_turn(&self) -> EdgePuzzle {
        EdgePuzzle {
            name: self.name.clone(),
            rows: self.cols,
            cols: self.rows,
            tiles: self.tiles.clone(),
            clues: self
                .clues
                .iter()
                .map(|c| Clue { row: c.col, col: self.rows - 1 - c.row, rotation: (c.rotation + 1) & 3, ..*c })
                .collect(),
        }
    }

    /// Where [`EdgePuzzle::quarter_turn`] moves `cell` (an index of this
    /// puzzle's board): its index on the turned board.
    pub fn quarter_turn_cell(&self, cell: usize) -> usize {
        let (r, c) = self.row_col(cell);
        c * self.rows + (self.rows - 1 - r)
    }

    /// Number of inner joins (pairs of adjacent cells): the maximum score.
    pub fn n_joins(&self) -> usize {
        self.rows * (self.cols - 1) + self.cols * (self.rows - 1)
    }

    /// Largest colour used, plus one.
    pub fn n_colors(&self) -> usize {
        self.tiles.iter().flat_map(|t| t.0).max().map_or(1, |m| m as usize + 1)
    }

    /// Checks the structural invariants.
    pub fn validate(&self) -> Result<(), String> {
        if self.rows == 0 || self.cols == 0 {
            return Err(format!("board {}x{} has no cells", self.rows, self.cols));
        }
        if self.tiles.len() != self.n_cells() {
            return Err(format!(
                "{} tiles for a {}x{} board: expected {}",
                self.tiles.len(),
                self.rows,
                self.cols,
                self.n_cells()
            ));
        }
        let mut tile_used = vec![false; self.tiles.len()];
        let mut cell_used = vec![false; self.n_cells()];
        for clue in &self.clues {
            if clue.tile >= self.tiles.len() {
                return Err(format!("clue names tile {} but there are {} tiles", clue.tile + 1, self.tiles.len()));
            }
            if clue.row >= self.rows || clue.col >= self.cols {
                return Err(format!(
                    "clue cell ({}, {}) is outside the {}x{} board",
                    clue.row, clue.col, self.rows, self.cols
                ));
            }
            let cell = self.cell(clue.row, clue.col);
            if std::mem::replace(&mut tile_used[clue.tile], true) {
                return Err(format!("tile {} is fixed by two clues", clue.tile + 1));
            }
            if std::mem::replace(&mut cell_used[cell], true) {
                return Err(format!("cell (row {}, column {}) is fixed by two clues", clue.row + 1, clue.col + 1));
            }
        }
        Ok(())
    }
}

/// Groups (of two or more) of tiles that are the same up to rotation, each
/// group sorted, groups ordered by their first tile.
///
/// emx counts solutions with **labelled** tiles: two boards differ when a
/// cell holds a different tile number, even if the tiles look the same, so
/// a puzzle whose identical tiles form groups of sizes `m1, m2, ...` has
/// `m1!·m2!·...` labelled boards for each distinct picture. (Rotations of
/// one tile that look the same are one placement: they are never counted
/// twice.)
pub fn identical_tiles(puzzle: &EdgePuzzle) -> Vec<Vec<usize>> {
    let mut by_form: std::collections::HashMap<[Color; 4], Vec<usize>> = std::collections::HashMap::new();
    for (t, tile) in puzzle.tiles.iter().enumerate() {
        let form = (0..4).map(|r| tile.rotated(r)).min().expect("four rotations");
        by_form.entry(form).or_default().push(t);
    }
    let mut groups: Vec<Vec<usize>> = by_form.into_values().filter(|g| g.len() > 1).collect();
    groups.sort();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_follows_the_convention() {
        let t = Tile([1, 2, 3, 4]);
        assert_eq!(t.rotated(0), [1, 2, 3, 4]);
        // After one clockwise quarter turn the new North is the old West.
        assert_eq!(t.rotated(1), [4, 1, 2, 3]);
        assert_eq!(t.rotated(2), [3, 4, 1, 2]);
        assert_eq!(t.rotated(3), [2, 3, 4, 1]);
        // Eternity II's starter: piece 139 reads 6 11 18 6; at rotation 2 its
        // edges are N=18, E=6, S=6, W=11.
        assert_eq!(Tile([6, 11, 18, 6]).rotated(2), [18, 6, 6, 11]);
    }

    #[test]
    fn border_and_neighbours() {
        let p = EdgePuzzle { name: "t".into(), rows: 2, cols: 3, tiles: vec![Tile([0; 4]); 6], clues: vec![] };
        assert_eq!(p.border_sides(0), [true, false, false, true]);
        assert_eq!(p.border_sides(4), [false, false, true, false]);
        assert_eq!(p.neighbour(4, NORTH), Some(1));
        assert_eq!(p.neighbour(4, SOUTH), None);
        assert_eq!(p.n_joins(), 2 * 2 + 3);
        // A corner tile [0, 0, 1, 1] fits the top-right corner unrotated.
        let mut q = p.clone();
        q.tiles[0] = Tile([0, 0, 1, 1]);
        assert!(q.fits_border(0, 0, 2));
        assert!(q.fits_border(0, 3, 0));
        assert!(!q.fits_border(0, 0, 0));
    }

    #[test]
    fn quarter_turn_moves_cells_sides_and_clues() {
        let tiles = (0..6).map(|t| Tile([0, t, 0, 1])).collect();
        let clue = Clue { tile: 4, row: 1, col: 2, rotation: 3 };
        let p = EdgePuzzle { name: "t".into(), rows: 2, cols: 3, tiles, clues: vec![clue] };
        let q = p.quarter_turn();
        assert_eq!((q.rows, q.cols), (3, 2));
        // The top-left corner goes to the top right, the bottom right to the bottom left.
        assert_eq!(p.quarter_turn_cell(0), 1);
        assert_eq!(p.quarter_turn_cell(5), 4);
        assert_eq!(q.clues, vec![Clue { tile: 4, row: 2, col: 0, rotation: 0 }]);
        for cell in 0..6 {
            let turned = p.quarter_turn_cell(cell);
            for side in 0..4 {
                // Side `s` of a cell faces the board's side `s + 1` once turned.
                assert_eq!(p.border_sides(cell)[side], q.border_sides(turned)[(side + 1) & 3]);
                let across = p.neighbour(cell, side).map(|n| p.quarter_turn_cell(n));
                assert_eq!(across, q.neighbour(turned, (side + 1) & 3));
            }
            for t in 0..6 {
                for r in 0..4 {
                    assert_eq!(p.fits_border(t, r, cell), q.fits_border(t, (r + 1) & 3, turned));
                }
            }
        }
        let back = q.quarter_turn().quarter_turn().quarter_turn();
        assert_eq!((back.rows, back.cols, &back.clues), (p.rows, p.cols, &p.clues));
    }
}
