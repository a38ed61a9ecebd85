//! The IR option of every (cell, tile, rotation) of an edge-matching board,
//! for turning a filled board back into the puzzle's options (scan's and
//! cp's reporters).

use super::{Color, EdgePuzzle};
use crate::ir::OptionId;

/// The IR option of every (cell, tile, rotation).
///
/// Invariant: `ids[(cell * tiles + tile) * 4 + r]` is the IR option placing
/// `tile` in `cell` with the look of rotation `r` (rotations that look the
/// same share the option), or [`NO_OPTION`] when the IR has none (the tile
/// does not fit there). A flat table: one write per entry to build, one read
/// per cell to use, where a hash map made a measurable part of cp's and
/// scan's set-up (docs/tried/cp.md, "The bottom of the tree and the root
/// walk").
#[derive(Clone, Debug)]
pub struct OptionTable {
    tiles: usize,
    ids: Vec<OptionId>,
}

/// No IR option (see [`OptionTable`]).
const NO_OPTION: OptionId = OptionId::MAX;

impl OptionTable {
    /// The table of the IR options `placements` (tile, cell, rotation, by
    /// id, on the puzzle as given), on a board whose cell `to_board(cell)`
    /// is the puzzle's `cell` and which shows every tile `turned` more
    /// quarter turns (scan's turned board; cp: the identity and 0).
    pub fn new(
        puzzle: &EdgePuzzle,
        placements: &[(u32, u32, u8)],
        to_board: &dyn Fn(usize) -> usize,
        turned: u8,
    ) -> OptionTable {
        let tiles = puzzle.tiles.len();
        let mut ids = vec![NO_OPTION; puzzle.n_cells() * tiles * 4];
        // Each tile's four looks, turned once here rather than per option.
        let looks: Vec<[[Color; 4]; 4]> =
            puzzle.tiles.iter().map(|t| std::array::from_fn(|r| t.rotated(r as u8))).collect();
        for (o, &(t, cell, r)) in placements.iter().enumerate() {
            let looks = &looks[t as usize];
            let look = looks[((r + turned) & 3) as usize];
            let at = (to_board(cell as usize) * tiles + t as usize) * 4;
            for q in 0..4 {
                if looks[q] == look {
                    ids[at + q] = o as OptionId;
                }
            }
        }
        OptionTable { tiles, ids }
    }

    /// The IR option placing `tile` in `cell` with rotation `r` (of the
    /// board the table was built for).
    ///
    /// # Panics
    /// When the IR has no such option: the callers report boards whose
    /// placements all fit, so that is a bug.
    #[inline]
    pub fn get(&self, cell: usize, tile: usize, r: u8) -> OptionId {
        self.find(cell, tile, r).expect("every fitting placement is an IR option")
    }

    /// The IR option placing `tile` in `cell` with rotation `r` (taken
    /// modulo 4), or `None` when the IR has none (the board's rotations:
    /// a clue that does not turn into one).
    #[inline]
    pub fn find(&self, cell: usize, tile: usize, r: u8) -> Option<OptionId> {
        let o = self.ids[(cell * self.tiles + tile) * 4 + (r & 3) as usize];
        (o != NO_OPTION).then_some(o)
    }
}
