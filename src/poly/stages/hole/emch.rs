//! Estimated most constrained hole (Busche's EMCH): count fits only at the
//! empty cells with the fewest empty neighbours, and fill the one of them
//! with the fewest fits. The neighbour counts of all cells come at once
//! from [`crate::poly::model::neighbours::NeighbourCounter`].
//!
//! Widened ([`Widen`], `emch+T/L`): while the best count is above `T`,
//! the cells of up to `L` further neighbour levels are counted too, in
//! cell order, only strictly fewer fits winning. This is the reference the
//! iterative kernel's choice is tested against.

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::plan::schedule::Widen;
use crate::poly::stages::hole::cover::CoverIndex;
use crate::poly::stages::hole::mch;

/// The chosen hole and its fit count (`u32::MAX`: no empty cell).
#[inline]
pub fn choose<B: Bits>(t: &Tables<B>, ci: &CoverIndex<B>, occ: B, avail: u128, w: Widen) -> (usize, u32) {
    let free = occ.not();
    let (mut cell, mut best) = mch::most_constrained::<B, false>(ci, t.counter.fewest(free), occ, avail);
    if w.levels == 0 || best == u32::MAX || best <= w.threshold {
        return (cell, best);
    }
    let levels = t.counter.levels(free);
    let first = levels.iter().position(|l| !l.is_zero()).expect("a hole was counted");
    for mut holes in levels[first + 1..].iter().copied().filter(|l| !l.is_zero()).take(w.levels as usize) {
        while best > w.threshold {
            let Some(c) = holes.pop_lowest() else { break };
            let n = mch::count_fits::<B, false>(ci, c, occ, avail, best);
            if n < best {
                (cell, best) = (c, n);
            }
        }
    }
    (cell, best)
}

/// Writes the candidates of the chosen hole into `out`; returns how many.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, ci: &CoverIndex<B>, occ: B, avail: u128, w: Widen, out: &mut [u32]) -> usize {
    let (cell, n) = choose(t, ci, occ, avail, w);
    if n == 0 || n == u32::MAX {
        return 0;
    }
    mch::gather(ci, cell, occ, avail, out)
}
