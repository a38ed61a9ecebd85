//! Estimated most constrained hole (Busche's EMCH): count fits only at the
//! empty cells with the fewest empty neighbours, and fill the one of them
//! with the fewest fits. The neighbour counts are one popcount per cell.

use super::bits::Bits;
use super::mch;
use super::tables::Tables;

/// Writes the candidates of the chosen hole into `out`; returns how many.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let free = occ.not();
    let mut rest = free;
    let mut fewest = u32::MAX;
    let mut holes = B::default();
    while let Some(c) = rest.pop_lowest() {
        let n = t.neighbours[c].and(free).count();
        if n < fewest {
            fewest = n;
            holes = B::bit(c);
        } else if n == fewest {
            holes = holes.or(B::bit(c));
        }
    }
    let (cell, n) = mch::most_constrained(t, holes, occ, avail);
    if n == 0 {
        return 0;
    }
    mch::gather(t, cell, occ, avail, out)
}
