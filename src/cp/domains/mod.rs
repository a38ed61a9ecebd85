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

mod queries;
mod trail;

/// Bits set in a nibble (`count_ones` is a long sequence without the
/// `popcnt` target feature).
const NIB: [u32; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/// Colour buckets per side: a side's colours are one 16-bit lane of a
/// `u64` mask (lane `s` = side `s`); colour `k` is bucket `k % 16` (exact up
/// to 16 colours, a sound coarsening beyond).
const LANE: usize = 16;

/// Removes the options `bits` of domain word `word` from the tile counts.
/// Returns the number of options and whether an available tile lost its
/// last place.
#[inline(always)]
fn tiles_minus(tcount: &mut [u32], st: &State, word: usize, bits: u64) -> (u32, bool) {
    let mut nibbles = (bits | bits >> 1 | bits >> 2 | bits >> 3) & 0x1111_1111_1111_1111;
    let mut fail = false;
    let mut n = 0;
    while nibbles != 0 {
        let z = nibbles.trailing_zeros();
        nibbles &= nibbles - 1;
        let t = (word * 64 + z as usize) >> 2;
        debug_assert!(t < tcount.len() && t < st.cell_of.len());
        // SAFETY: `t` is the tile of a domain option (< the tile count).
        unsafe {
            let k = NIB[((bits >> z) & 0xf) as usize];
            n += k;
            let tc = tcount.get_unchecked_mut(t);
            *tc -= k;
            fail |= *tc == 0 && *st.cell_of.get_unchecked(t) == NONE;
        }
    }
    (n, fail)
}

/// The colour mask (see [`LANE`]) of the options of `dom`, by bytes:
/// `btab[256 j + v]` is the mask of the options of value `v` in the
/// domain's byte `j` (two tiles). Branch free: `8 w` loads.
#[inline(always)]
fn colours_of(btab: &[u64], dom: &[u64]) -> u64 {
    assert!(btab.len() >= dom.len() * 16 * 16);
    let mut mask = 0;
    for (i, &d) in dom.iter().enumerate() {
        // SAFETY: `16 (16 i + j) + v < 256 w`, asserted above.
        unsafe {
            let t = btab.as_ptr().add(256 * i);
            let mut m = 0;
            for j in 0..16 {
                m |= *t.add(16 * j + (d >> (4 * j) & 0xf) as usize);
            }
            mask |= m;
        }
    }
    mask
}

/// Adds to the pending set of empty cell `c` the options showing the
/// colour bucket `sel` (see [`Domains::lose`]; a function over the
/// fields so that it can run while other fields are borrowed).
#[inline(always)]
fn lose(pend: &mut [u64], queue: &mut Vec<u32>, queued: &mut [bool], sup: &[u64], w: usize, c: usize, sel: usize) {
    debug_assert!((c + 1) * w <= pend.len() && (sel + 1) * w <= sup.len() && c < queued.len());
    // SAFETY: `c` is a cell (`pend` has `w` words per cell) and `sel` a
    // side bucket below `4 * LANE` (`sup` has `w` words per bucket); the
    // bounds checks of the two slices were a tenth of the cascade.
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

/// Cell domains with per-side colour masks.
#[derive(Clone)]
pub(crate) struct Domains {
    /// Words per domain.
    pub w: usize,
    /// Colour buckets in use (`min(colours, LANE)`).
    nb: usize,
    pub dom: Vec<u64>,
    pub size: Vec<u32>,
    /// `alive[c]`: bit `s * LANE + bucket` is set iff an option of `c`'s
    /// domain shows a colour of `bucket` on side `s`; exact on the open
    /// sides of empty cells (the others are not read).
    alive: Vec<u64>,
    tcount: Vec<u32>,
    /// `sup[(s * LANE + bucket) * w ..]`: options showing a colour of
    /// `bucket` on side `s`.
    sup: Vec<u64>,
    /// `btab[256 j + v]`: the colour mask of the options of value `v` in
    /// domain byte `j` (see [`colours_of`]).
    btab: Vec<u64>,
    /// `open_bits[sides]`: the lanes of the sides in the 4-bit mask `sides`.
    open_bits: [u64; 16],
    /// Undo stack: each entry a cell whose domain, size and colour mask
    /// were saved on `saved`, `saved_size`, `saved_alive` (first change
    /// since the latest mark), or `trail::TILES` (the tile counts, on
    /// `tsaved`).
    log: Vec<u32>,
    saved: Vec<u64>,
    saved_alive: Vec<u64>,
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
}

impl Domains {
    pub fn new(m: &Model) -> Domains {
        let nt = m.rot_colors.len();
        let w = (4 * nt).div_ceil(64);
        let nb = m.n_colors.min(LANE);
        let mut sup = vec![0u64; 4 * LANE * w];
        // `ctab[16 t + nibble]`: the colour mask of tile `t`'s rotations in
        // the 4-bit `nibble` (bit `r` = rotation `r`).
        let mut ctab = vec![0u64; 16 * nt];
        let lane = |t: usize, r: usize, s: usize| s * LANE + m.rot_colors[t][r][s] as usize % LANE;
        for t in 0..nt {
            for i in 0..m.n_rots[t] as usize {
                let r = m.rots[t][i] as usize;
                let o = 4 * t + r;
                for s in 0..4 {
                    sup[lane(t, r, s) * w + o / 64] |= 1 << (o % 64);
                }
            }
            for nib in 0..16 {
                for r in 0..4 {
                    if nib >> r & 1 != 0 {
                        for s in 0..4 {
                            ctab[16 * t + nib] |= 1 << lane(t, r, s);
                        }
                    }
                }
            }
        }
        let mut btab = ctab;
        btab.resize(16 * 16 * w, 0);
        let mut open_bits = [0u64; 16];
        for (sides, bits) in open_bits.iter_mut().enumerate() {
            for s in 0..4 {
                if sides >> s & 1 != 0 {
                    *bits |= 0xffff << (s * LANE);
                }
            }
        }
        Domains {
            w,
            open_bits,
            nb,
            dom: vec![0; m.n_cells * w],
            size: vec![0; m.n_cells],
            alive: vec![0; m.n_cells],
            tcount: vec![0; nt],
            sup,
            btab,
            log: Vec::new(),
            saved: Vec::new(),
            saved_alive: Vec::new(),
            saved_size: Vec::new(),
            tsaved: Vec::new(),
            stamp: vec![0; m.n_cells],
            tstamp: 0,
            epoch: 1,
            pend: vec![0; m.n_cells * w],
            queue: Vec::new(),
            head: 0,
            queued: vec![false; m.n_cells],
            removed: 0,
        }
    }

    /// Empty cell `c` must lose its options showing the colour bucket
    /// `sel` (`s * LANE + bucket`) on side `s`: adds them to its pending set.
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

    /// Builds the domains of the empty cells of `st` (the root, after the
    /// clues) and makes them edge consistent. `false` if inconsistent.
    pub fn init(&mut self, m: &Model, st: &State) -> bool {
        self.log.clear();
        self.saved.clear();
        self.saved_alive.clear();
        self.saved_size.clear();
        self.tsaved.clear();
        self.clear_pending();
        self.epoch += 1;
        self.removed = 0;
        self.dom.fill(0);
        self.size.fill(0);
        self.alive.fill(0);
        self.tcount.fill(0);
        let w = self.w;
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            for t in 0..m.rot_colors.len() {
                if st.cell_of[t] != NONE {
                    continue;
                }
                for i in 0..m.n_rots[t] as usize {
                    let r = m.rots[t][i] as usize;
                    if st.fits(m, c, t, r) {
                        let o = 4 * t + r;
                        self.dom[c * w + o / 64] |= 1 << (o % 64);
                        self.size[c] += 1;
                        self.tcount[t] += 1;
                    }
                }
            }
            if self.size[c] == 0 {
                return false;
            }
            self.alive[c] = colours_of(&self.btab, &self.dom[c * w..(c + 1) * w]);
        }
        if (0..m.rot_colors.len()).any(|t| st.cell_of[t] == NONE && self.tcount[t] == 0) {
            return false;
        }
        // Colours one side of an open join shows and the other does not.
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                for b in 0..self.nb {
                    if self.alive[c] >> (s * LANE + b) & 1 == 0 {
                        self.lose(n as usize, ((s + 2) & 3) * LANE + b);
                    }
                }
            }
        }
        self.settle(m, st)
    }

    /// Removes the pending options of empty cell `c` (see `pend`), updates
    /// its colour mask and queues the colours its open sides lost.
    /// Returns `false` on a wipe-out or a tile left without a place (the
    /// state is then only fit for [`Domains::undo_to`]).
    #[inline]
    fn drain(&mut self, m: &Model, st: &State, c: usize) -> bool {
        let w = self.w;
        assert!((c + 1) * w <= self.dom.len() && self.pend.len() == self.dom.len());
        let mut fail = false;
        let mut n = 0;
        let mut touched = false;
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
                // SAFETY: in bounds by the assertion above.
                unsafe { *self.dom.get_unchecked_mut(c * w + i) &= !bits };
                let (k, f) = tiles_minus(&mut self.tcount, st, i, bits);
                n += k;
                fail |= f;
            }
        }
        if !touched {
            return true;
        }
        self.size[c] -= n;
        self.removed += n as u64;
        if fail || self.size[c] == 0 {
            return false;
        }
        // The colours the open sides showed and no longer show.
        let open = self.open_bits[st.unknown_sides[c] as usize];
        let old = self.alive[c];
        let now = colours_of(&self.btab, &self.dom[c * w..(c + 1) * w]);
        self.alive[c] = now;
        let mut lost = old & !now & open;
        while lost != 0 {
            let i = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            // The same bucket on the opposite side.
            self.lose(m.nbr[c][i / LANE] as usize, i ^ (2 * LANE));
        }
        true
    }

    /// Removes from empty cell `c` the options that do not show the side
    /// colour `sel` (`s * LANE + bucket`): the cell learned that side.
    #[inline]
    fn keep_sel(&mut self, m: &Model, st: &State, c: usize, sel: usize) -> bool {
        let w = self.w;
        let (pend, sup) = (&mut self.pend[c * w..(c + 1) * w], &self.sup[sel * w..(sel + 1) * w]);
        for (p, s) in pend.iter_mut().zip(sup) {
            *p |= !s;
        }
        self.drain(m, st, c)
    }

    /// Propagates the queued lost colours to a fixpoint.
    fn settle(&mut self, m: &Model, st: &State) -> bool {
        // First in, first out: a cell waits while the wave of lost colours
        // reaches it from several sides, and is drained once for all of
        // them (last in, first out drained cells more often: 6% more
        // instructions on 8x8 K=9).
        while self.head < self.queue.len() {
            let c = self.queue[self.head];
            self.head += 1;
            self.queued[c as usize] = false;
            if !self.drain(m, st, c as usize) {
                self.clear_pending();
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
        // (its domain and colour mask stay as they are).
        self.touch_tiles();
        let mut fail = false;
        for i in 0..w {
            fail |= tiles_minus(&mut self.tcount, st, i, self.dom[c * w + i]).1;
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
            let keep = ((s + 2) & 3) * LANE + col[s] as usize % LANE;
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
                    self.pend[e * w + word] |= bits;
                    if !self.drain(m, st, e) {
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
        self.pend[c * self.w + word] |= bit;
        if !self.drain(m, st, c) {
            self.clear_pending();
            return false;
        }
        self.settle(m, st)
    }
}
