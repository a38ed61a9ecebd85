//! The puzzle as local search sees it: every tile's colours in every
//! rotation, every cell's neighbours, and which tiles may go where.

use crate::edgematch::{Color, EdgePuzzle, GREY};

/// No neighbour across this side (the board's edge).
pub const NONE: u32 = u32::MAX;

/// Why a puzzle cannot be optimised.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    /// The puzzle breaks its own invariants.
    #[error("invalid puzzle: {0}")]
    Invalid(String),
    /// The tiles cannot fill the board with grey exactly on the border.
    #[error(
        "no board shows grey exactly on the border: the board has {cells} cells of the kind with border sides \
         {kind}, the puzzle has {tiles} tiles that fit them"
    )]
    Classes {
        /// Printable border pattern (`N`, `E`, `S`, `W` letters or `-`).
        kind: String,
        /// Cells with this border pattern (up to rotation).
        cells: usize,
        /// Tiles whose grey sides fit that pattern.
        tiles: usize,
    },
    /// A clue puts its tile where it does not fit the border.
    #[error("clue tile {tile} at ({row}, {col}) rotation {rotation} does not show grey exactly on the border")]
    ClueBorder {
        /// 1-based tile.
        tile: usize,
        /// Row.
        row: usize,
        /// Column.
        col: usize,
        /// Rotation.
        rotation: u8,
    },
}

/// Precomputed puzzle data shared (read-only) by every search thread.
///
/// Invariants: `colors[4 * t + r]` is `tiles[t].rotated(r)`; `nbr[c][s]` is
/// the cell across side `s` of `c` or [`NONE`]; a tile may go to a cell in
/// rotation `r` iff `grey_mask[4 * t + r] == border_mask[c]`, which implies
/// `tile_class[t] == cell_class[c]`; for every class the number of tiles
/// equals the number of cells (checked by [`Model::new`]); clued cells hold
/// their clue tile in every board and are in no `movable` list.
#[derive(Clone, Debug)]
pub struct Model {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Colours of tile `t` in rotation `r` at `4 * t + r`.
    pub colors: Vec<[Color; 4]>,
    /// Neighbour cell across each side, [`NONE`] on the border.
    pub nbr: Vec<[u32; 4]>,
    /// Bit `s` set when side `s` of the cell is on the board's edge.
    pub border_mask: Vec<u8>,
    /// Bit `s` set when side `s` of tile `t` in rotation `r` is grey.
    pub grey_mask: Vec<u8>,
    /// Class of each cell: its border pattern up to rotation (0..16).
    pub cell_class: Vec<u8>,
    /// Class of each tile: its grey pattern up to rotation.
    pub tile_class: Vec<u8>,
    /// The clue placed in each cell, if any: `(tile, rotation)`.
    pub clue: Vec<Option<(u32, u8)>>,
    /// Movable (unclued) cells of each class present on the board.
    pub movable: Vec<Vec<u32>>,
    /// Unclued tiles of each group (same indexing as `movable`, same sizes).
    pub group_tiles: Vec<Vec<u32>>,
    /// Index into `movable` of each class (`usize::MAX` if absent).
    pub group_of_class: [usize; 16],
    /// Inner joins (the maximum score).
    pub joins: usize,
}

/// The smallest of the four rotations of a 4-bit side mask.
fn canonical_mask(m: u8) -> u8 {
    (0..4).map(|r| rotate_mask(m, r)).min().expect("four rotations")
}

/// A side mask turned `r` quarter turns clockwise (side `s` moves to `s + r`).
pub fn rotate_mask(m: u8, r: u8) -> u8 {
    let r = r & 3;
    ((m << r) | (m >> (4 - r))) & 0xf
}

fn mask_text(m: u8) -> String {
    if m == 0 {
        return "none".into();
    }
    (0..4).filter(|s| m & (1 << s) != 0).map(|s| ['N', 'E', 'S', 'W'][s]).collect()
}

impl Model {
    /// Precomputes `puzzle`; fails when no full board can respect the
    /// border and the clues.
    pub fn new(puzzle: &EdgePuzzle) -> Result<Model, ModelError> {
        puzzle.validate().map_err(ModelError::Invalid)?;
        let n = puzzle.n_cells();
        let mut colors = Vec::with_capacity(4 * n);
        let mut grey_mask = Vec::with_capacity(4 * n);
        for t in &puzzle.tiles {
            for r in 0..4 {
                let c = t.rotated(r);
                colors.push(c);
                grey_mask.push((0..4).filter(|&s| c[s] == GREY).fold(0u8, |m, s| m | (1 << s)));
            }
        }
        let nbr: Vec<[u32; 4]> =
            (0..n).map(|c| std::array::from_fn(|s| puzzle.neighbour(c, s).map_or(NONE, |x| x as u32))).collect();
        let border_mask: Vec<u8> =
            (0..n).map(|c| (0..4).filter(|&s| nbr[c][s] == NONE).fold(0u8, |m, s| m | (1 << s))).collect();
        let cell_class: Vec<u8> = border_mask.iter().map(|&m| canonical_mask(m)).collect();
        let tile_class: Vec<u8> = (0..n).map(|t| canonical_mask(grey_mask[4 * t])).collect();
        for class in 0..16u8 {
            let cells = cell_class.iter().filter(|&&k| k == class).count();
            let tiles = tile_class.iter().filter(|&&k| k == class).count();
            if cells != tiles {
                let kind = if cells > 0 { mask_text(class) } else { format!("{} (no such cell)", mask_text(class)) };
                return Err(ModelError::Classes { kind, cells, tiles });
            }
        }
        let mut clue = vec![None; n];
        for c in &puzzle.clues {
            let cell = puzzle.cell(c.row, c.col);
            if grey_mask[4 * c.tile + c.rotation as usize] != border_mask[cell] {
                return Err(ModelError::ClueBorder { tile: c.tile + 1, row: c.row, col: c.col, rotation: c.rotation });
            }
            clue[cell] = Some((c.tile as u32, c.rotation));
        }
        let mut group_of_class = [usize::MAX; 16];
        let mut movable: Vec<Vec<u32>> = Vec::new();
        for cell in 0..n {
            let k = cell_class[cell] as usize;
            if group_of_class[k] == usize::MAX {
                group_of_class[k] = movable.len();
                movable.push(Vec::new());
            }
            if clue[cell].is_none() {
                movable[group_of_class[k]].push(cell as u32);
            }
        }
        let clued_tile: Vec<bool> = {
            let mut v = vec![false; n];
            puzzle.clues.iter().for_each(|c| v[c.tile] = true);
            v
        };
        let mut group_tiles = vec![Vec::new(); movable.len()];
        for t in 0..n {
            if !clued_tile[t] {
                group_tiles[group_of_class[tile_class[t] as usize]].push(t as u32);
            }
        }
        Ok(Model {
            rows: puzzle.rows,
            cols: puzzle.cols,
            colors,
            nbr,
            border_mask,
            grey_mask,
            cell_class,
            tile_class,
            clue,
            movable,
            group_tiles,
            group_of_class,
            joins: puzzle.n_joins(),
        })
    }

    /// Number of cells (= tiles).
    #[inline]
    pub fn n(&self) -> usize {
        self.rows * self.cols
    }

    /// Colours of tile `t` in rotation `r`.
    #[inline]
    pub fn color(&self, t: u32, r: u8) -> [Color; 4] {
        self.colors[4 * t as usize + r as usize]
    }

    /// Whether tile `t` in rotation `r` shows grey exactly on `cell`'s border.
    #[inline]
    pub fn fits(&self, t: u32, r: u8, cell: u32) -> bool {
        self.grey_mask[4 * t as usize + r as usize] == self.border_mask[cell as usize]
    }

    /// The rotations of tile `t` that fit `cell`'s border (none if the
    /// classes differ).
    #[inline]
    pub fn rotations(&self, t: u32, cell: u32) -> impl Iterator<Item = u8> + '_ {
        (0..4u8).filter(move |&r| self.fits(t, r, cell))
    }

    /// Whether `cell` is held by a clue.
    #[inline]
    pub fn is_clued(&self, cell: u32) -> bool {
        self.clue[cell as usize].is_some()
    }

    /// The group (index into [`Model::movable`]) of `cell`.
    #[inline]
    pub fn group(&self, cell: u32) -> usize {
        self.group_of_class[self.cell_class[cell as usize] as usize]
    }

    /// Whether two cells share a side.
    #[inline]
    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        self.nbr[a as usize].contains(&b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::{Clue, Tile};

    fn small() -> EdgePuzzle {
        let text = std::fs::read_to_string(format!(
            "{}/instances/edgematch/brendan_set2/pieces_04x04.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        crate::frontend::edgematch::parse_meta(&text, "04x04", "04x04").unwrap()
    }

    #[test]
    fn classes_and_rotations() {
        let p = small();
        let m = Model::new(&p).unwrap();
        assert_eq!(m.movable.iter().map(Vec::len).sum::<usize>(), 16);
        assert_eq!(m.movable.len(), 3); // corners, edges, inner
        for t in 0..16u32 {
            for c in 0..16u32 {
                let k = m.rotations(t, c).count();
                if m.tile_class[t as usize] == m.cell_class[c as usize] {
                    assert!(k >= 1);
                } else {
                    assert_eq!(k, 0);
                }
                for r in m.rotations(t, c) {
                    assert!(p.fits_border(t as usize, r, c as usize));
                }
            }
        }
        assert_eq!(rotate_mask(0b0001, 1), 0b0010);
        assert_eq!(rotate_mask(0b1000, 1), 0b0001);
    }

    #[test]
    fn rejects_impossible_tile_sets_and_bad_clues() {
        let mut p = small();
        p.tiles[0] = Tile([5, 5, 5, 5]);
        assert!(matches!(Model::new(&p), Err(ModelError::Classes { .. })));
        let mut p = small();
        let corner = (0..16).find(|&t| p.tiles[t].grey_sides() == 2).unwrap();
        p.clues.push(Clue { tile: corner, row: 1, col: 1, rotation: 0 });
        assert!(matches!(Model::new(&p), Err(ModelError::ClueBorder { .. })));
    }
}
