//! de Bruijn's algorithm (Busche, "De Bruijn's Algorithm"): fill the first
//! empty cell in the engines' cell order. Every earlier cell is full, so
//! only images whose *root* (least cell) is that hole can fill it: one fit
//! test per orientation instead of one per orientation and cube.
//!
//! [`RootIndex`] refines the per-root lists by the occupancy of the few
//! cells right after the hole (a *window* of `width` bits): the list for a
//! window pattern holds only the images whose cells in the window are free,
//! so most images that cannot fit are never looked at. The search loop
//! ([`Walker::debruijn_kernel`]) is iterative and allocation-free: per depth
//! it keeps the position in one contiguous list of `(mask, image, group)`
//! entries; the remaining pieces are a bitmask (with counts when pieces
//! have identical copies).
//!
//! Layout: the index in `root_index.rs`, the general loop in `search.rs`,
//! the loop of the common case with its AVX2 and AVX-512 copies in
//! `lean.rs` and `lean/`, the cache of dead states in `memo.rs`.

mod lean;
pub mod memo;
mod root_index;
mod search;

pub use root_index::{Entry, RootIndex};
use root_index::{LastPiece, Soa, SOA_PAD};

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use memo::DeadStates;

/// Writes the images that fill the first empty cell and fit into `out`;
/// returns how many. `occ` includes the padding bits, so a free cell exists
/// whenever pieces remain.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let Some(hole) = occ.not().lowest() else { return 0 };
    let mut n = 0;
    let mut gs = avail & t.root.groups[hole];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let r = t.root.range(hole, g);
        for (m, &k) in t.root.mask[r.clone()].iter().zip(&t.root.img[r]) {
            if m.disjoint(&occ) {
                out[n] = k;
                n += 1;
            }
        }
    }
    n
}

/// Marks the branch that calls it as rarely taken (a call to a cold
/// function), so the compiler lays the hot path out around it and keeps
/// its registers there: `std::hint::cold_path` before Rust 1.95 (the
/// crate's minimum is older).
#[cold]
#[inline(never)]
pub(in crate::poly) fn cold_path() {}

/// Least number of pieces left at which a node's state is looked up in
/// (and, when dead, added to) the cache of dead states.
const MEMO_MIN: u32 = 3;

/// The state of one depth of the de Bruijn loop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    /// Groups still to try.
    gs: u64,
    /// Index in `gstart` of the node's key.
    kg: u32,
    /// Group being tried.
    g: u32,
    /// Next entry of that group.
    cur: u32,
    /// Solutions found before the placement made at this depth (to tell
    /// whether the child's subtree held one).
    sols: u64,
}

/// One depth of the lean loop: where its scan stands. Addresses are kept
/// as integers (the walker stays `Send`); they point into the root index
/// of the search that wrote them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeanFrame {
    /// Groups still to try.
    pub(in crate::poly::stages::debruijn) gs: u64,
    /// Address of `gstart[kg]` for the node's key (`kg` as in `Frame`);
    /// in `run_avx2`, the index of the node's list.
    pub(in crate::poly::stages::debruijn) gp: usize,
    /// Address of the entry after the one placed at this depth; in
    /// `run_avx2`, its index plus one.
    pub(in crate::poly::stages::debruijn) at: usize,
    /// No solution under the placement made at this depth yet (cleared
    /// along the path when one is found).
    pub(in crate::poly::stages::debruijn) clean: bool,
    /// The dead-state cache's tag (`Probe::tag`) of the state after the
    /// placement, when the placement looked it up (then the cache records
    /// it under this tag if its subtree is dead), else 0. The cache only
    /// switches off, never on: a frame written without a look-up is never
    /// recorded.
    pub(in crate::poly::stages::debruijn) tag: u64,
}

/// What the de Bruijn stage keeps per walker between its calls: the
/// stacks of its two loops and the cache of dead states.
///
/// Invariant: each stack has a frame for every depth of the search (so a
/// later de Bruijn stage below a hand-over uses the depths below the
/// first's); the cache belongs to one puzzle ([`DeadStates`]).
#[derive(Debug, Default)]
pub struct DebruijnScratch<B> {
    /// The general loop's stack ([`search`]).
    pub(in crate::poly) frames: Vec<Frame>,
    /// The lean loop's stack.
    pub(in crate::poly) lean_frames: Vec<LeanFrame>,
    /// The lean loop's cache tags of the live children of each depth,
    /// kept between its calls.
    pub(in crate::poly) lean_tags: Vec<u64>,
    /// The cache of dead states, shared by both loops.
    pub(in crate::poly) dead: DeadStates<B>,
}

#[cfg(test)]
mod tests {
    use crate::poly::model::rows::Rows;
    use crate::poly::stages::debruijn::*;

    /// Neighbour lists of the cells of a `w` x `h` x `d` box, `x` fastest,
    /// without the cells in `holes` (the others renumbered in order).
    fn grid(w: i32, h: i32, d: i32, holes: &[[i32; 3]]) -> Vec<Vec<u32>> {
        let cells: Vec<[i32; 3]> = (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| [x, y, z])))
            .filter(|p| !holes.contains(p))
            .collect();
        let at = |p: [i32; 3]| cells.iter().position(|&q| q == p).map(|i| i as u32);
        cells
            .iter()
            .map(|&p| {
                let mut v = Vec::new();
                for axis in 0..3 {
                    for step in [-1, 1] {
                        let mut q = p;
                        q[axis] += step;
                        v.extend(at(q));
                    }
                }
                v
            })
            .collect()
    }

    #[test]
    fn rows_find_the_free_cells_with_a_free_neighbour() {
        for (w, h) in [(10, 6), (6, 10), (3, 20), (8, 8), (2, 2)] {
            let nb = grid(w, h, 1, &[]);
            let rows = Rows::<u64>::of(&nb).expect("a flat box is rows");
            let n = nb.len();
            let mut rng = crate::search::Rng::new(0x9e37_79b9_7f4a_7c15);
            for _ in 0..200 {
                let x = rng.next_u64();
                let free = x & u64::below(n);
                let want =
                    (0..n).filter(|&c| nb[c].iter().any(|&b| free.test(b as usize))).fold(0u64, |m, c| m | 1 << c);
                assert_eq!(rows.with_free_neighbour(free) & free, want & free, "{w}x{h} free {free:#x}");
            }
        }
    }

    #[test]
    fn rows_refuse_boxes_that_are_not_rows() {
        assert!(Rows::<u64>::of(&grid(4, 3, 2, &[])).is_none());
        assert!(Rows::<u64>::of(&grid(8, 8, 1, &[[3, 3, 0], [4, 3, 0], [3, 4, 0], [4, 4, 0]])).is_none());
        assert!(Rows::<u64>::of(&grid(7, 1, 1, &[])).is_none());
    }
}
