//! Most constrained hole (Busche's MCH): count, at every empty cell, the
//! images of the remaining pieces that cover it and fit, and fill the cell
//! with the fewest. Counting stops early once a cell cannot beat the best
//! found so far (Busche's "early MCH fit count exit").

use super::bits::Bits;
use super::tables::Tables;

/// Number of fitting images of groups `avail` covering `cell`, or any
/// number `>= limit` once it reaches `limit`.
#[inline]
pub fn count_fits<B: Bits>(t: &Tables<B>, cell: usize, occ: B, avail: u128, limit: u32) -> u32 {
    let mut n = 0u32;
    let mut gs = avail & t.cover.groups[cell];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let r = t.cover.range(cell, g);
        n += t.cover.mask[r].iter().filter(|m| m.disjoint(&occ)).count() as u32;
        if n >= limit {
            return n;
        }
    }
    n
}

/// Writes the fitting images covering `cell` into `out`; returns how many.
#[inline]
pub fn gather<B: Bits>(t: &Tables<B>, cell: usize, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let mut n = 0;
    let mut gs = avail & t.cover.groups[cell];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let r = t.cover.range(cell, g);
        for (m, &k) in t.cover.mask[r.clone()].iter().zip(&t.cover.img[r]) {
            if m.disjoint(&occ) {
                out[n] = k;
                n += 1;
            }
        }
    }
    n
}

/// The cell of `holes` with the fewest fits (first in bit order on ties)
/// and its count; a count of 0 means a dead end.
#[inline]
pub fn most_constrained<B: Bits>(t: &Tables<B>, mut holes: B, occ: B, avail: u128) -> (usize, u32) {
    let mut best = u32::MAX;
    let mut best_cell = 0;
    while let Some(c) = holes.pop_lowest() {
        let n = count_fits(t, c, occ, avail, best);
        if n < best {
            best = n;
            best_cell = c;
            if n <= 1 {
                break;
            }
        }
    }
    (best_cell, best)
}

/// MCH over every empty cell: writes the candidates of the chosen hole.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let (cell, n) = most_constrained(t, occ.not(), occ, avail);
    if n == 0 {
        return 0;
    }
    gather(t, cell, occ, avail, out)
}
