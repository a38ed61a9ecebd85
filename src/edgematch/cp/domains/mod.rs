//! Edge filtering: cell domains and the colours of open joins (the "edge
//! variables" of Benoist & Bourreau's Choco model, §6.3), maintained
//! incrementally with support counters (AC-4 style).
//!
//! Each empty cell keeps a domain, a bit set over *options* `o = 4 t + r`
//! (tile `t` in rotation `r`, one bit per distinct-looking rotation), and
//! for each side `s` and colour `k` the number `cnt[c][s][k]` of its options
//! showing `k` on side `s` (colour `k` counts in bucket `k % 64`: exact up
//! to 64 colours, a sound coarsening beyond). Invariants, after [`Domains::propagate`]
//! returns `true`:
//! * every option of an empty cell's domain uses an available tile, fits
//!   the cell's known sides and the border;
//! * `cnt[c][s][k]` is exactly the number of `c`'s options with colour `k`
//!   on side `s` (kept for filled cells too, frozen at their placement);
//! * **edge consistency**: for every open join between empty cells `c`
//!   and `n` (side `s` of `c`), `cnt[c][s][k] > 0` iff `cnt[n][s + 2][k] >
//!   0`: every colour one side shows is shown back;
//! * `tcount[t]` is the number of (empty cell, option) pairs using tile
//!   `t`: an available tile with no place left is a contradiction;
//! * every empty cell has a non-empty domain.
//!
//! Removing an option costs four counter decrements and one tile count; a
//! counter that reaches zero is a colour lost on a join, and prunes the
//! neighbour's options showing it back (a few word operations). No pass
//! recomputes anything. Undo is by copy: the first change to a cell after
//! a mark saves its size, domain and counters (a few dozen words), the
//! first change to the tile counts saves them; [`Domains::undo_to`] copies
//! the saved blocks back, so restoring costs per cell touched, not per
//! option removed. Filled cells are frozen.

use super::model::{Model, NONE};
use super::state::State;

mod build;
mod queries;
mod trail;

/// Bits set in a nibble (`count_ones` is a long sequence without the
/// `popcnt` target feature).
const NIB: [u32; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Tile counts: subtracts the options of `bits` (domain word `word`) tile
/// by tile. Returns whether an available tile lost its last place.
#[inline]
fn tiles_minus(tcount: &mut [u32], st: &State, word: usize, bits: u64) -> bool {
    let mut nibbles = (bits | bits >> 1 | bits >> 2 | bits >> 3) & 0x1111_1111_1111_1111;
    let mut fail = false;
    while nibbles != 0 {
        let z = nibbles.trailing_zeros();
        nibbles &= nibbles - 1;
        let t = (word * 64 + z as usize) >> 2;
        tcount[t] -= NIB[((bits >> z) & 0xf) as usize];
        fail |= tcount[t] == 0 && st.cell_of[t] == NONE;
    }
    fail
}

/// Adds to the pending set of empty cell `c` the options showing the
/// colour bucket of `sel` (see [`Domains::lose`]; a function over the
/// fields so that it can run while a cell's counters are borrowed).
#[inline(always)]
fn lose(pend: &mut [u64], queue: &mut Vec<u32>, queued: &mut [bool], sup: &[u64], w: usize, c: usize, sel: usize) {
    debug_assert!((c + 1) * w <= pend.len() && (sel + 1) * w <= sup.len() && c < queued.len());
    // SAFETY: `c` is a cell (`pend` has `w` words per cell) and `sel` a
    // side bucket below `4 * stride` (`sup` has `w` words per bucket). This
    // is the cascade's innermost loop, where the bounds checks of the two
    // slices are a measurable part of its cost.
    unsafe {
        let (p, s) = (pend.as_mut_ptr().add(c * w), sup.as_ptr().add(sel * w));
        for i in 0..w {
            *p.add(i) |= *s.add(i);
        }
    }
    if !queued[c] {
        queued[c] = true;
        queue.push(c as u32);
    }
}

/// Cell domains with per-side colour support counters.
#[derive(Clone)]
pub(crate) struct Domains {
    /// Words per domain.
    pub w: usize,
    /// Colour buckets in use (`min(colours, 64)`).
    nb: usize,
    /// Counters per side: `nb` rounded up to a power of two, so that the
    /// same bucket on the opposite side is `index ^ (2 * stride)`.
    stride: usize,
    pub dom: Vec<u64>,
    pub size: Vec<u32>,
    /// `cnt[c * 4 * stride + s * stride + bucket]`.
    cnt: Vec<u16>,
    tcount: Vec<u32>,
    /// `sup[(s * stride + bucket) * w ..]`: options showing a colour of
    /// `bucket` on side `s`.
    sup: Vec<u64>,
    /// `off[o][s] = s * stride + bucket of option o's colour on side s` (the
    /// counter index within a cell and the index of `sup`).
    off: Vec<[u8; 4]>,
    /// With at most 16 buckets: `open_bits[sides]` has the counter indices
    /// of the sides in the 4-bit mask `sides`.
    open_bits: [u64; 16],
    /// Undo stack: each entry a cell whose domain, size and counters were
    /// saved on `saved`, `saved_cnt`, `saved_size` (first change since the
    /// latest mark), or
    /// `trail::TILES` (the tile counts, on `tsaved`).
    log: Vec<u32>,
    saved: Vec<u64>,
    saved_cnt: Vec<u16>,
    saved_size: Vec<u32>,
    tsaved: Vec<u32>,
    /// Copy-on-write stamps: a cell (a `tstamp` for the tile counts) is
    /// saved before its first change after a mark; `stamp[c] == epoch`
    /// means it already was. Every mark and undo starts a new epoch.
    stamp: Vec<u32>,
    tstamp: u32,
    epoch: u32,
    /// Lost colours to propagate, batched per cell: `pend[c * w ..]` holds
    /// the options `c` must lose (the union of `sup` of every colour its
    /// neighbours stopped showing back), `queue` the cells with a pending
    /// set (each once, `queued[c]`), drained from `head` on (first in,
    /// first out; a drained cell can be queued again). All empty between
    /// two public calls.
    pend: Vec<u64>,
    queue: Vec<u32>,
    head: usize,
    queued: Vec<bool>,
    /// Options removed (statistics).
    pub removed: u64,
    /// The lost colours are propagated (the cascade of [`Domains::settle`])
    /// only while more than this many cells are empty; at or below it a
    /// placement only narrows its empty neighbours to its sides and takes
    /// its tile from the other cells (forward checking; `edge-filter-above`).
    pub cascade_min: usize,
    /// Waves of the cascade drained at or below `cascade_min` (0: none).
    pub cascade_waves: u32,
}

impl Domains {
    /// Empty cell `c` must lose its options showing the colour bucket of
    /// `sel` (`s * stride + bucket`) on side `s`: adds them to its pending set.
    #[inline(always)]
    fn lose(&mut self, c: usize, sel: usize) {
        lose(&mut self.pend, &mut self.queue, &mut self.queued, &self.sup, self.w, c, sel);
    }

    /// Drops every pending removal (after a failure).
    fn clear_pending(&mut self) {
        let w = self.w;
        for &c in &self.queue[self.head..] {
            self.pend[c as usize * w..(c as usize + 1) * w].fill(0);
            self.queued[c as usize] = false;
        }
        self.queue.clear();
        self.head = 0;
    }

    /// Removes `bits` (a subset of the domain word) from empty cell `c`,
    /// queueing the colours its sides lose. Returns `false` on a wipe-out
    /// or a tile left without a place (the counters are updated in full
    /// either way; [`Domains::undo_to`] restores the saved copies).
    #[inline]
    fn remove(&mut self, m: &Model, st: &State, c: usize, word: usize, bits: u64) -> bool {
        self.touch(c);
        self.touch_tiles();
        let mut lost = [0u64; 4];
        let ok = self.strip(st, c, word, bits, &mut lost);
        self.lost(m, st, c, &lost);
        ok && self.size[c] > 0
    }

    /// The body of [`Domains::remove`] without the saving (done by the
    /// caller), the wipe-out test and the propagation: the buckets whose
    /// counter reaches zero are added to `lost[side]`. Returns `false`
    /// when a tile lost its last place.
    #[inline(always)]
    fn strip(&mut self, st: &State, c: usize, word: usize, bits: u64, lost: &mut [u64; 4]) -> bool {
        let w = self.w;
        debug_assert_eq!(self.dom[c * w + word] & bits, bits, "removing absent bits");
        self.dom[c * w + word] &= !bits;
        let k = 4 * self.stride;
        let mask = self.stride - 1;
        let cnt = &mut self.cnt[c * k..(c + 1) * k];
        let tcount = &mut self.tcount[..];
        let off = &self.off[word * 64..(word * 64 + 64).min(self.off.len())];
        let mut ok = true;
        let mut n = 0;
        let mut b = bits;
        if 4 * self.stride <= 64 {
            // At most 16 colour buckets: every counter index of the cell
            // fits one word, so the lost colours stay in one register.
            let mut zero = 0u64;
            while b != 0 {
                let z = b.trailing_zeros() as usize;
                b &= b - 1;
                n += 1;
                let t = (word * 64 + z) >> 2;
                debug_assert!(z < off.len() && t < tcount.len());
                // SAFETY: `z` is a bit of a domain word, an option
                // (`off` has an entry per option), `t` its tile (< the tile
                // count), and `off` holds counter indices below
                // `4 * stride` (`Domains::new`), the length of `cnt`.
                unsafe {
                    let of = *off.get_unchecked(z);
                    let tc = tcount.get_unchecked_mut(t);
                    *tc -= 1;
                    if *tc == 0 && st.cell_of[t] == NONE {
                        ok = false;
                    }
                    for i in of {
                        let x = cnt.get_unchecked_mut(i as usize);
                        *x -= 1;
                        zero |= ((*x == 0) as u64) << i;
                    }
                }
            }
            lost[0] |= zero;
            self.size[c] -= n;
            self.removed += n as u64;
            return ok;
        }
        while b != 0 {
            let z = b.trailing_zeros() as usize;
            b &= b - 1;
            n += 1;
            let t = (word * 64 + z) >> 2;
            let of = off[z];
            debug_assert!(t < tcount.len() && of.iter().all(|&x| (x as usize) < k));
            // SAFETY: `t` is the tile of an option of the domain (< the
            // tile count) and `off` holds counter indices below `4 * stride`
            // (`Domains::new`), the length of `cnt`.
            unsafe {
                let tc = tcount.get_unchecked_mut(t);
                *tc -= 1;
                if *tc == 0 && st.cell_of[t] == NONE {
                    ok = false;
                }
                for s in 0..4 {
                    let i = of[s] as usize;
                    let x = cnt.get_unchecked_mut(i);
                    *x -= 1;
                    if *x == 0 {
                        lost[s] |= 1 << (i & mask);
                    }
                }
            }
        }
        self.size[c] -= n;
        self.removed += n as u64;
        ok
    }

    /// Propagates the buckets cell `c` lost on each side (`lost[side]`;
    /// with at most 16 buckets, `lost[0]` holds them all by counter index)
    /// to the empty neighbours across.
    #[inline(always)]
    fn lost(&mut self, m: &Model, st: &State, c: usize, lost: &[u64; 4]) {
        let open = st.unknown_sides[c];
        if 4 * self.stride <= 64 {
            let mut l = lost[0] & self.open_bits[open as usize];
            let shift = self.stride.trailing_zeros();
            while l != 0 {
                let i = l.trailing_zeros() as usize;
                l &= l - 1;
                // The same bucket on the opposite side.
                self.lose(m.nbr[c][i >> shift] as usize, i ^ (2 * self.stride));
            }
            return;
        }
        for (s, &l) in lost.iter().enumerate() {
            let mut l = l;
            if l == 0 || open >> s & 1 == 0 {
                continue;
            }
            // The same buckets on the opposite side.
            let (nb, base) = (m.nbr[c][s] as usize, ((s + 2) & 3) * self.stride);
            while l != 0 {
                let bucket = l.trailing_zeros() as usize;
                l &= l - 1;
                self.lose(nb, base + bucket);
            }
        }
    }

    /// Removes the pending options of empty cell `c` (see `pend`).
    #[inline]
    fn drain(&mut self, m: &Model, st: &State, c: usize) -> bool {
        let w = self.w;
        let mut ok = true;
        let mut touched = false;
        let mut lost = [0u64; 4];
        assert!((c + 1) * w <= self.dom.len() && self.pend.len() == self.dom.len());
        for i in 0..w {
            // SAFETY: in bounds by the assertion above.
            let bits = unsafe {
                let p = self.pend.get_unchecked_mut(c * w + i);
                let bits = *self.dom.get_unchecked(c * w + i) & *p;
                *p = 0;
                bits
            };
            if bits != 0 {
                if !touched {
                    touched = true;
                    self.touch(c);
                    self.touch_tiles();
                }
                ok &= self.strip(st, c, i, bits, &mut lost);
            }
        }
        if touched {
            self.lost(m, st, c, &lost);
        }
        ok && self.size[c] > 0
    }

    /// Removes from empty cell `c` the options that do not show the side
    /// colour `sel` (`s * stride + bucket`): the cell learned that side.
    #[inline]
    fn keep_sel(&mut self, m: &Model, st: &State, c: usize, sel: usize) -> bool {
        let w = self.w;
        // A cell learning a side colour usually keeps a small part of its
        // domain: recount from what it keeps.
        let mut gone = 0;
        for i in 0..w {
            gone += (self.dom[c * w + i] & !self.sup[sel * w + i]).count_ones();
        }
        if gone == 0 {
            return true;
        }
        if gone > 8 && 2 * gone > self.size[c] {
            return self.bulk_cut(m, st, c, sel, gone);
        }
        for i in 0..w {
            let bits = self.dom[c * w + i] & !self.sup[sel * w + i];
            if bits != 0 && !self.remove(m, st, c, i, bits) {
                return false;
            }
        }
        true
    }

    /// [`Domains::keep_sel`] when it removes most of the domain (`gone`
    /// options): the counters
    /// are recomputed from the options kept (fewer than those removed), and
    /// the colours that lost their last support are found by comparing
    /// with the old ones.
    fn bulk_cut(&mut self, m: &Model, st: &State, c: usize, sel: usize, gone: u32) -> bool {
        let (w, nb, stride) = (self.w, self.nb, self.stride);
        let k = 4 * stride;
        self.touch(c);
        self.touch_tiles();
        let mut fail = false;
        let mut cnt = [0u16; 256];
        for i in 0..w {
            let d = self.dom[c * w + i];
            let kept = d & self.sup[sel * w + i];
            let bits = d & !kept;
            if bits != 0 {
                self.dom[c * w + i] = kept;
                fail |= tiles_minus(&mut self.tcount, st, i, bits);
            }
            let mut kept = kept;
            while kept != 0 {
                let o = i * 64 + kept.trailing_zeros() as usize;
                kept &= kept - 1;
                for x in self.off[o] {
                    cnt[x as usize] += 1;
                }
            }
        }
        self.size[c] -= gone;
        self.removed += gone as u64;
        for s in 0..4 {
            let nbr = m.nbr[c][s];
            if nbr == NONE || st.tile_at[nbr as usize] != NONE {
                continue;
            }
            for b in 0..nb {
                let x = s * stride + b;
                if cnt[x] == 0 && self.cnt[c * k + x] != 0 {
                    self.lose(nbr as usize, x ^ (2 * stride));
                }
            }
        }
        self.cnt[c * k..(c + 1) * k].copy_from_slice(&cnt[..k]);
        !fail && self.size[c] > 0
    }

    /// Drains the cell at the queue's head; on a wipe-out clears what is
    /// pending and returns false.
    #[inline(always)]
    fn drain_next(&mut self, m: &Model, st: &State) -> bool {
        let c = self.queue[self.head];
        self.head += 1;
        self.queued[c as usize] = false;
        if self.drain(m, st, c as usize) {
            return true;
        }
        self.clear_pending();
        false
    }

    /// Propagates the queued lost colours to a fixpoint.
    fn settle(&mut self, m: &Model, st: &State) -> bool {
        if st.n_empty <= self.cascade_min {
            // Forward checking, and `cascade_waves` waves of the cascade:
            // the domains stay sound (supersets of the consistent ones),
            // not edge consistent.
            for _ in 0..self.cascade_waves {
                let end = self.queue.len();
                while self.head < end {
                    if !self.drain_next(m, st) {
                        return false;
                    }
                }
            }
            self.clear_pending();
            return true;
        }
        // First in, first out: a cell waits while the wave of lost colours
        // reaches it from several sides, and is drained once for all of
        // them (last in, first out drains cells more often, for more
        // work on the same nodes).
        while self.head < self.queue.len() {
            if !self.drain_next(m, st) {
                return false;
            }
        }
        self.queue.clear();
        self.head = 0;
        true
    }

    /// Propagates the placement just made on cell `c` (already in `st`).
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    pub fn propagate(&mut self, m: &Model, st: &State, c: usize) -> bool {
        let w = self.w;
        let t = st.tile_at[c] as usize;
        // Freeze c: its options no longer count as places for their tiles
        // (its domain and counters stay as they are).
        self.touch_tiles();
        let mut fail = false;
        for i in 0..w {
            fail |= tiles_minus(&mut self.tcount, st, i, self.dom[c * w + i]);
        }
        if fail {
            return false;
        }
        let col = st.colors_at[c];
        for s in 0..4 {
            let n = m.nbr[c][s];
            if n == NONE || st.tile_at[n as usize] != NONE {
                continue;
            }
            let keep = ((s + 2) & 3) * self.stride + col[s] as usize % 64;
            if !self.keep_sel(m, st, n as usize, keep) {
                self.clear_pending();
                return false;
            }
        }
        let (word, shift) = ((4 * t) / 64, (4 * t) % 64);
        let tile_bits = 0xfu64 << shift;
        let tile_at = &st.tile_at[..m.n_cells];
        assert!(word < w && self.dom.len() >= m.n_cells * w);
        // `tcount[t]` counts the tile's options left in the other empty
        // cells: the scan stops when it reaches zero (often at once: a
        // forced tile had no other place).
        if self.tcount[t] != 0 {
            for (e, &at) in tile_at.iter().enumerate() {
                // SAFETY: `e < n_cells` and `word < w` (asserted above).
                let bits = unsafe { *self.dom.get_unchecked(e * w + word) } & tile_bits;
                // One branch, not two: the placed cell (filled) shows the tile.
                if (bits != 0) & (at == NONE) {
                    if !self.remove(m, st, e, word, bits) {
                        self.clear_pending();
                        return false;
                    }
                    if self.tcount[t] == 0 {
                        break;
                    }
                }
            }
        }
        self.settle(m, st)
    }

    /// Removes one option from an empty cell (a shaving result) and
    /// propagates.
    pub fn exclude(&mut self, m: &Model, st: &State, c: usize, t: usize, r: u8) -> bool {
        let o = 4 * t + r as usize;
        let (word, bit) = (o / 64, 1u64 << (o % 64));
        if self.dom[c * self.w + word] & bit == 0 {
            return true;
        }
        if !self.remove(m, st, c, word, bit) {
            self.clear_pending();
            return false;
        }
        self.settle(m, st)
    }
}
