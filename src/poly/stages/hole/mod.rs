//! The most constrained hole (Busche's MCH) and its estimate (EMCH): the
//! stages that place a piece at the empty cell with the fewest fitting
//! images, counted exactly at every hole (MCH, [`mch`]) or at the holes
//! with the fewest empty neighbours (EMCH, [`emch`], widened by levels),
//! over the per-cell cover index ([`cover`]). When every branch is searched
//! they run as one iterative loop (`kernel.rs`), with the AVX2 counts
//! (`simd.rs`) and, at the AVX-512 level, the bottom pieces searched over
//! bit columns of their subtree's own images (`universe.rs`).

use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::Kind;

mod choose;
pub mod cover;
pub mod emch;
mod kernel;
pub mod mch;
/// The bottom of the tree over subtree image sets (in `universe.rs`).
#[cfg(target_arch = "x86_64")]
mod universe;
#[cfg(target_arch = "x86_64")]
pub use universe::Universe;
/// Without the AVX-512 intrinsics there is no set search (the walker's
/// slot for it stays empty).
#[cfg(not(target_arch = "x86_64"))]
pub struct Universe;
/// The AVX2 counts (in `simd.rs`).
#[cfg(target_arch = "x86_64")]
mod simd;

#[cfg(test)]
use choose::fits_into;
pub(in crate::poly) use choose::{node_candidates, CHUNK};

/// Whether the walkers of tables `t` search the subtrees below
/// `universe::SWITCH` pieces left over their own image sets (a search of
/// more pieces, MCH or EMCH at every stage down there, no group with
/// copies, and `Universe::new` allowing it): the cover index then serves
/// only the stages above.
pub(in crate::poly) fn sets_below<B: Bits>(
    t: &crate::poly::model::tables::Tables<B>,
    stage_of: &[Kind],
    multi: bool,
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let n = universe::SWITCH as usize;
        !multi
            && stage_of.len() > n + 1
            && stage_of[1..=n].iter().all(|k| matches!(k, Kind::Mch | Kind::Emch(_)))
            && Universe::applies(t)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (t, stage_of, multi);
        false
    }
}

/// One depth of the loop: the candidates still to try are the candidate
/// buffer's entries `next..end` (absolute positions in it).
#[derive(Clone, Copy, Debug, Default)]
pub struct HoleFrame {
    pub(in crate::poly::stages::hole) next: u32,
    pub(in crate::poly::stages::hole) end: u32,
}

/// What the hole stages keep per walker between calls.
///
/// Invariant: `frames` has a frame for every depth the loop reaches;
/// `universe` is `None` until the loop first asks for the set search, then
/// `Some(None)` where it cannot run.
#[derive(Default)]
pub struct HoleScratch {
    /// The loop's stack.
    pub(in crate::poly) frames: Vec<HoleFrame>,
    /// The set search of the bottom pieces (its kernels are x86-64 only:
    /// elsewhere the field stays `None`).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(in crate::poly) universe: Option<Option<Box<Universe>>>,
    /// The loop's candidate slots (two per depth).
    pub(in crate::poly) buf: Vec<u32>,
    /// The two candidate slots of [`node_candidates`] at the recursive
    /// walks' MCH and EMCH nodes.
    pub(in crate::poly) probe_buf: Vec<u32>,
}

#[cfg(test)]
mod tests;
