//! cp's root walk on scan's kernel (docs/cp.md, round 22): filter the
//! root, then enumerate the whole board with the scan backtracker's walk
//! (`--cp bottom=100%,bottom-order=row`, and `bottom=auto` when the walk's
//! estimated tree is small).
//!
//! The scan is built restricted to cp's state at hand-over
//! ([`Scan::restricted`]): a cell cp filled allows only its placement, an
//! empty cell only the options of its cp domain whose tile is free. Each
//! cell then has its own candidate lists, so the restriction is exact (a
//! tile keeping only some of its rotations in a cell is listed in those
//! only) and costs the walk nothing per placement; scan's fast walk, its
//! threads (`--threads`: the tree split after its first cells) and its
//! Knuth estimate all run on the restricted lists. The domains carry cp's
//! symmetry breaking (the pivot tile's cells), so the walk finds one board
//! per symmetry class, as cp's search does, and cp's reporter adds the
//! images. Walker placements are cp's `bottom nodes`; a node limit counts
//! them (cp makes no decision on this path).

use super::filter::Core;
use super::model::NONE;
use crate::edgematch::scan::Scan;
use crate::edgematch::EdgePuzzle;

/// Knuth probes of the walk's tree for `bottom=auto`.
pub(super) const AUTO_PROBES: u64 = 2_000;

/// Seed of those probes (the rule is reproducible).
const AUTO_SEED: u64 = 22;

/// `bottom=auto` walks the root when the walk's estimated placements are at
/// most this (docs/cp.md, round 22: the walk places about 80 M per CPU
/// second; cp's default search beat it from about 1e8 placements up on
/// the measured puzzles).
pub(super) const AUTO_MAX_PLACEMENTS: f64 = 3.0e7;

/// What the puzzle needs for a restricted scan: the puzzle and the IR
/// option of each id as (tile, cell, rotation).
#[derive(Clone, Debug)]
pub(super) struct RootKernel {
    pub puzzle: EdgePuzzle,
    pub placements: Vec<(u32, u32, u8)>,
}

impl RootKernel {
    /// The scan restricted to the state of `core` (filtered, with domains).
    pub fn scan(&self, core: &Core) -> Result<Scan, String> {
        let m = &core.m;
        let st = &core.st;
        let doms = core.doms.as_ref().ok_or("the root walk needs cp's domains (edge-filter)")?;
        let w = doms.w;
        let allowed = |cell: usize, t: usize, r: u8| {
            let look = m.rot_colors[t][r as usize];
            if st.tile_at[cell] != NONE {
                return st.tile_at[cell] as usize == t && st.colors_at[cell] == look;
            }
            if st.cell_of[t] != NONE {
                return false;
            }
            // Rotations that look the same are one option; the domain may
            // hold any of them.
            (0..4).filter(|&q| m.rot_colors[t][q] == look).any(|q| {
                let o = 4 * t + q;
                doms.dom[cell * w + o / 64] >> (o % 64) & 1 != 0
            })
        };
        Scan::restricted(&self.puzzle, &self.placements, &allowed)
    }

    /// `bottom=auto`'s estimate of the walk's placements (Knuth).
    pub fn estimate(scan: &Scan) -> f64 {
        scan.estimate(AUTO_PROBES, AUTO_SEED).nodes
    }
}
