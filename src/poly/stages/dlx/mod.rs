//! The DLX stages of a polycube search: dancing links over the images
//! (Knuth's Algorithm X with Busche's ordering heuristics), placing the
//! first pieces before the bit-field stages take over. The occupancy and
//! constraint states are kept by the walker's placements as in the
//! bit-field stages, so the hand-over to them costs nothing; the per-step
//! parity and volume image filters run here (`kernel.rs`).

use crate::dlx::Matrix;

mod kernel;

/// The cell item with the fewest branches, if any is active.
pub(in crate::poly::stages::dlx) fn min_fit_cell(m: &Matrix, n_cells: u32) -> Option<u32> {
    m.active_items().filter(|&i| i <= n_cells).min_by_key(|&i| m.len(i))
}

/// What the DLX stages keep per walker: the walker's own copy of the image
/// matrix, and the rows hidden along the current path.
///
/// Invariant: `m` is the plan's matrix with the covers and row exclusions
/// of the DLX nodes on the current path applied (none at the root); `hidden`
/// lists the rows hidden by filters and nested constraints on the path, in
/// the order they were hidden.
#[derive(Clone)]
pub struct DlxScratch {
    /// The matrix (empty when the plan has no DLX stage).
    pub(in crate::poly) m: Matrix,
    /// Rows hidden on the current path.
    pub(in crate::poly) hidden: Vec<u32>,
}
