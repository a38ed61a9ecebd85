//! Most constrained hole (Busche's MCH): count, at every empty cell, the
//! images of the remaining pieces that cover it and fit, and fill the cell
//! with the fewest. Counting stops early once a cell cannot beat the best
//! found so far (Busche's "early MCH fit count exit"), and only looks at
//! the images whose cells next to the hole are free ([`CoverIndex`]).

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::stages::hole::cover::CoverIndex;

/// Number of fitting images of groups `avail` covering `cell`, or any
/// number `>= limit` once it reaches `limit` (checked after each group, and
/// with `CHUNKED` after each chunk of a group's list: MCH's long lists).
#[inline(always)]
pub fn count_fits<B: Bits, const CHUNKED: bool>(
    ci: &CoverIndex<B>,
    cell: usize,
    occ: B,
    avail: u128,
    limit: u32,
) -> u32 {
    let key = ci.key(cell, &occ);
    let mut n = 0u32;
    let mut gs = avail & ci.groups[key];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let list = ci.list(key, g);
        if CHUNKED {
            for chunk in list.chunks(crate::poly::stages::hole::CHUNK) {
                n += chunk.iter().map(|e| e.mask.disjoint(&occ) as u32).sum::<u32>();
                if n >= limit {
                    return n;
                }
            }
        } else {
            n += list.iter().map(|e| e.mask.disjoint(&occ) as u32).sum::<u32>();
            if n >= limit {
                return n;
            }
        }
    }
    n
}

/// Writes the fitting images covering `cell` into `out`; returns how many.
#[inline]
pub fn gather<B: Bits>(ci: &CoverIndex<B>, cell: usize, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let key = ci.key(cell, &occ);
    let mut n = 0;
    let mut gs = avail & ci.groups[key];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        for e in ci.list(key, g) {
            if e.mask.disjoint(&occ) {
                out[n] = e.img;
                n += 1;
            }
        }
    }
    n
}

/// The cell of `holes` with the fewest fits (first in bit order on ties)
/// and its count; a count of 0 means a dead end.
#[inline]
pub fn most_constrained<B: Bits, const CHUNKED: bool>(
    ci: &CoverIndex<B>,
    mut holes: B,
    occ: B,
    avail: u128,
) -> (usize, u32) {
    let mut best = u32::MAX;
    let mut best_cell = 0;
    while let Some(c) = holes.pop_lowest() {
        let n = count_fits::<B, CHUNKED>(ci, c, occ, avail, best);
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

/// MCH over every empty cell: writes the candidates of the chosen hole
/// (the first cell in bit order with the fewest fits). The cells with the
/// fewest empty neighbours are counted first, to start the early exit of
/// the bit-order pass from a small bound.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, ci: &CoverIndex<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let free = occ.not();
    let (mut cell, mut best) = most_constrained::<B, true>(ci, t.counter.fewest(free), occ, avail);
    if best > 0 {
        let first = cell;
        // Any cell before `cell` with as few fits wins; counting stops at `best + 1`.
        let mut holes = free.and(B::below(cell));
        let mut limit = best + 1;
        while let Some(c) = holes.pop_lowest() {
            let n = count_fits::<B, true>(ci, c, occ, avail, limit);
            if n < limit {
                (cell, best, limit) = (c, n, n);
                if n == 0 {
                    break;
                }
            }
        }
        // After the first bound's cell, only strictly fewer fits win.
        let mut holes = free.andnot(B::below(first + 1));
        while best > 1 {
            let Some(c) = holes.pop_lowest() else { break };
            let n = count_fits::<B, true>(ci, c, occ, avail, best);
            if n < best {
                (cell, best) = (c, n);
            }
        }
    }
    let n = best;
    if n == 0 {
        return 0;
    }
    gather(ci, cell, occ, avail, out)
}
