//! de Bruijn's algorithm (Busche, "De Bruijn's Algorithm"): fill the first
//! empty cell in the engines' cell order. Every earlier cell is full, so
//! only images whose *root* (least cell) is that hole can fill it: one fit
//! test per orientation instead of one per orientation and cube.

use super::bits::Bits;
use super::tables::Tables;

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
