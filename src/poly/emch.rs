//! Estimated most constrained hole (Busche's EMCH): count fits only at the
//! empty cells with the fewest empty neighbours, and fill the one of them
//! with the fewest fits. The neighbour counts of all cells come at once
//! from [`super::neighbours::NeighbourCounter`].

use super::bits::Bits;
use super::cover::CoverIndex;
use super::mch;
use super::tables::Tables;

/// Writes the candidates of the chosen hole into `out`; returns how many.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, ci: &CoverIndex<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let holes = t.counter.fewest(occ.not());
    let (cell, n) = mch::most_constrained::<B, false>(ci, holes, occ, avail);
    if n == 0 {
        return 0;
    }
    mch::gather(ci, cell, occ, avail, out)
}
