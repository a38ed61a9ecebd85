//! Edge filtering: cell domains and the colours of open joins (the "edge
//! variables" of Benoist & Bourreau's Choco model, §6.3), maintained
//! incrementally.
//!
//! Each empty cell keeps a domain, a bit set over *options* `o = 4 t + r`
//! (tile `t` in rotation `r`, one bit per distinct-looking rotation), and
//! for each side the mask of colours its options show there (colour `k`
//! is bit `k % 64`: exact up to 64 colours, a sound coarsening beyond).
//! Invariants, after [`Domains::propagate`] returns `true`:
//! * every option of an empty cell's domain uses an available tile, fits
//!   the cell's known sides and the border;
//! * `mask[c][s]` is exactly the colour set of `c`'s options on side `s`;
//! * **edge consistency**: for every open join between empty cells `c`
//!   and `n` (side `s` of `c`), `mask[c][s] == mask[n][s + 2]`: every colour
//!   one side shows is shown back;
//! * `tcount[t]` is the number of (empty cell, option) pairs using tile
//!   `t`: an available tile with no place left is a contradiction;
//! * every empty cell has a non-empty domain.
//!
//! A removal costs one counter update per option; a cell whose domain
//! shrank recomputes its side masks (a few word operations per colour) and
//! prunes its neighbours by the colours it lost. Removals and mask changes
//! are trailed and undone in LIFO order. Filled cells are frozen.

use super::model::{Model, NONE};
use super::state::State;
use crate::edgematch::Color;

/// One trail entry: bits removed from a domain word, an old side mask
/// (`word == MASK + side`), or a frozen cell (`word == FREEZE`).
#[derive(Clone, Copy, Debug)]
struct Removed {
    cell: u32,
    word: u32,
    bits: u64,
}

const FREEZE: u32 = u32::MAX;
const MASK: u32 = u32::MAX - 8;

#[inline]
fn bucket(k: Color) -> usize {
    k as usize % 64
}

/// Cell domains with edge-colour masks.
pub(crate) struct Domains {
    /// Words per domain.
    pub w: usize,
    /// Colour buckets (`min(colours, 64)`).
    nb: usize,
    pub dom: Vec<u64>,
    pub size: Vec<u32>,
    mask: Vec<u64>,
    tcount: Vec<u32>,
    /// `sup[(s * nb + b) * w ..]`: options showing a colour of bucket `b`
    /// on side `s`.
    sup: Vec<u64>,
    trail: Vec<Removed>,
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    lost: Vec<u64>,
    /// Colours of each option.
    opt_colors: Vec<[Color; 4]>,
    /// Options removed (statistics).
    pub removed: u64,
}

impl Domains {
    pub fn new(m: &Model) -> Domains {
        let nt = m.rot_colors.len();
        let w = (4 * nt).div_ceil(64);
        let nb = m.n_colors.min(64);
        let mut sup = vec![0u64; 4 * nb * w];
        for t in 0..nt {
            for i in 0..m.n_rots[t] as usize {
                let r = m.rots[t][i] as usize;
                let o = 4 * t + r;
                for s in 0..4 {
                    let b = bucket(m.rot_colors[t][r][s]);
                    sup[(s * nb + b) * w + o / 64] |= 1 << (o % 64);
                }
            }
        }
        Domains {
            w,
            nb,
            dom: vec![0; m.n_cells * w],
            size: vec![0; m.n_cells],
            mask: vec![0; m.n_cells * 4],
            tcount: vec![0; nt],
            sup,
            trail: Vec::new(),
            dirty: Vec::new(),
            is_dirty: vec![false; m.n_cells],
            lost: vec![0; w],
            opt_colors: (0..4 * nt).map(|o| m.rot_colors[o / 4][o % 4]).collect(),
            removed: 0,
        }
    }

    /// Trail position, for [`Domains::undo_to`].
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// The colour mask of cell `c`'s options on side `s`, recomputed.
    fn side_mask(&self, c: usize, s: usize, within: u64) -> u64 {
        let w = self.w;
        let d = &self.dom[c * w..(c + 1) * w];
        let mut out = 0u64;
        let mut rest = within;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let sup = &self.sup[(s * self.nb + b) * w..(s * self.nb + b + 1) * w];
            if d.iter().zip(sup).any(|(x, y)| x & y != 0) {
                out |= 1 << b;
            }
        }
        out
    }

    /// Builds the domains of the empty cells of `st` (the root, after the
    /// clues) and makes them edge consistent. `false` if inconsistent.
    pub fn init(&mut self, m: &Model, st: &State) -> bool {
        self.trail.clear();
        self.dirty.clear();
        self.is_dirty.fill(false);
        self.dom.fill(0);
        self.size.fill(0);
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
            let all = if self.nb == 64 { u64::MAX } else { (1u64 << self.nb) - 1 };
            for s in 0..4 {
                self.mask[c * 4 + s] = self.side_mask(c, s, all);
            }
        }
        if (0..m.rot_colors.len()).any(|t| st.cell_of[t] == NONE && self.tcount[t] == 0) {
            return false;
        }
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                let lost = self.mask[c * 4 + s] & !self.mask[n as usize * 4 + ((s + 2) & 3)];
                if lost != 0 && !self.prune(m, st, c, s, lost) {
                    return false;
                }
            }
        }
        self.settle(m, st)
    }

    /// Removes `bits` (a subset of the domain word) from empty cell `c`.
    /// Returns `false` on a wipe-out or a tile left without a place.
    fn remove(&mut self, st: &State, c: usize, word: usize, bits: u64) -> bool {
        let w = self.w;
        debug_assert_eq!(self.dom[c * w + word] & bits, bits, "removing absent bits");
        self.dom[c * w + word] &= !bits;
        let n = bits.count_ones();
        self.size[c] -= n;
        self.removed += n as u64;
        self.trail.push(Removed { cell: c as u32, word: word as u32, bits });
        if !self.is_dirty[c] {
            self.is_dirty[c] = true;
            self.dirty.push(c as u32);
        }
        let mut ok = self.size[c] > 0;
        let mut b = bits;
        while b != 0 {
            let t = (word * 64 + b.trailing_zeros() as usize) >> 2;
            b &= b - 1;
            self.tcount[t] -= 1;
            if self.tcount[t] == 0 && st.cell_of[t] == NONE {
                ok = false;
            }
        }
        ok
    }

    /// Removes from empty cell `c` the options showing on side `s` a colour
    /// of the buckets `lost`.
    fn prune(&mut self, m: &Model, st: &State, c: usize, s: usize, lost: u64) -> bool {
        let (w, nb) = (self.w, self.nb);
        self.lost.fill(0);
        let mut rest = lost;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            for i in 0..w {
                self.lost[i] |= self.sup[(s * nb + b) * w + i];
            }
        }
        let _ = m;
        for i in 0..w {
            let bits = self.dom[c * w + i] & self.lost[i];
            if bits != 0 && !self.remove(st, c, i, bits) {
                return false;
            }
        }
        true
    }

    /// Recomputes the side masks of the cells whose domains shrank and
    /// prunes their neighbours by the colours they lost, to a fixpoint.
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    fn settle(&mut self, m: &Model, st: &State) -> bool {
        let w = self.w;
        while let Some(c) = self.dirty.pop() {
            let c = c as usize;
            self.is_dirty[c] = false;
            // Small domains: one pass over the options gives all four
            // masks; large ones: test each colour still in the mask.
            let small = self.size[c] as usize <= 6 * w + 8;
            let mut masks = [0u64; 4];
            if small {
                for i in 0..w {
                    let mut b = self.dom[c * w + i];
                    while b != 0 {
                        let col = &self.opt_colors[i * 64 + b.trailing_zeros() as usize];
                        b &= b - 1;
                        for s in 0..4 {
                            masks[s] |= 1 << bucket(col[s]);
                        }
                    }
                }
            }
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                let old = self.mask[c * 4 + s];
                let new = if small { masks[s] } else { self.side_mask(c, s, old) };
                if new == old {
                    continue;
                }
                self.trail.push(Removed { cell: c as u32, word: MASK + s as u32, bits: old });
                self.mask[c * 4 + s] = new;
                if !self.prune(m, st, n as usize, (s + 2) & 3, old & !new) {
                    self.fail_cleanup();
                    return false;
                }
            }
        }
        true
    }

    fn fail_cleanup(&mut self) {
        for &c in &self.dirty {
            self.is_dirty[c as usize] = false;
        }
        self.dirty.clear();
    }

    /// Propagates the placement just made on cell `c` (already in `st`).
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    pub fn propagate(&mut self, m: &Model, st: &State, c: usize) -> bool {
        let w = self.w;
        let t = st.tile_at[c] as usize;
        // Freeze c: its options no longer count as places for their tiles.
        let mut ok = true;
        for i in 0..w {
            let mut b = self.dom[c * w + i];
            while b != 0 {
                let u = (i * 64 + b.trailing_zeros() as usize) >> 2;
                b &= b - 1;
                self.tcount[u] -= 1;
                if self.tcount[u] == 0 && st.cell_of[u] == NONE {
                    ok = false;
                }
            }
        }
        self.trail.push(Removed { cell: c as u32, word: FREEZE, bits: 0 });
        if !ok {
            return false;
        }
        let col = st.colors_at[c];
        for s in 0..4 {
            let n = m.nbr[c][s];
            if n == NONE || st.tile_at[n as usize] != NONE {
                continue;
            }
            let n = n as usize;
            let keep = ((s + 2) & 3) * self.nb + bucket(col[s]);
            for i in 0..w {
                let bits = self.dom[n * w + i] & !self.sup[keep * w + i];
                if bits != 0 && !self.remove(st, n, i, bits) {
                    self.fail_cleanup();
                    return false;
                }
            }
        }
        let (word, shift) = ((4 * t) / 64, (4 * t) % 64);
        let tile_bits = 0xfu64 << shift;
        for e in 0..m.n_cells {
            if st.tile_at[e] != NONE {
                continue;
            }
            let bits = self.dom[e * w + word] & tile_bits;
            if bits != 0 && !self.remove(st, e, word, bits) {
                self.fail_cleanup();
                return false;
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
        if !self.remove(st, c, word, bit) {
            self.fail_cleanup();
            return false;
        }
        self.settle(m, st)
    }

    /// Undoes removals down to `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        let w = self.w;
        while self.trail.len() > mark {
            let Removed { cell, word, bits } = self.trail.pop().expect("trail");
            let c = cell as usize;
            if word == FREEZE {
                for i in 0..w {
                    let mut b = self.dom[c * w + i];
                    while b != 0 {
                        self.tcount[(i * 64 + b.trailing_zeros() as usize) >> 2] += 1;
                        b &= b - 1;
                    }
                }
            } else if word >= MASK {
                self.mask[c * 4 + (word - MASK) as usize] = bits;
            } else {
                self.dom[c * w + word as usize] |= bits;
                self.size[c] += bits.count_ones();
                let mut b = bits;
                while b != 0 {
                    self.tcount[(word as usize * 64 + b.trailing_zeros() as usize) >> 2] += 1;
                    b &= b - 1;
                }
            }
        }
    }

    /// Test helper: recomputes sizes, masks and tile counts from the
    /// domains of the empty cells and compares (`tc_too`: also the tile
    /// counts), and checks edge consistency.
    #[cfg(test)]
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    pub fn check(&self, m: &Model, st: &State, tc_too: bool) {
        let w = self.w;
        let mut tc = vec![0u32; self.tcount.len()];
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            let mut size = 0;
            for i in 0..w {
                let mut b = self.dom[c * w + i];
                while b != 0 {
                    tc[(i * 64 + b.trailing_zeros() as usize) >> 2] += 1;
                    size += 1;
                    b &= b - 1;
                }
            }
            assert_eq!(size, self.size[c], "size of cell {c}");
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                let all = if self.nb == 64 { u64::MAX } else { (1u64 << self.nb) - 1 };
                assert_eq!(self.mask[c * 4 + s], self.side_mask(c, s, all), "mask of cell {c} side {s}");
                assert_eq!(self.mask[c * 4 + s], self.mask[n as usize * 4 + ((s + 2) & 3)], "edge {c}/{s}");
            }
        }
        for t in 0..tc.len() {
            if tc_too && st.cell_of[t] == NONE {
                assert_eq!(tc[t], self.tcount[t], "tcount of tile {t}");
            }
        }
    }

    /// The options of cell `c`, as `(tile, rotation)`.
    pub fn options(&self, c: usize, out: &mut Vec<(u32, u8)>) {
        out.clear();
        for i in 0..self.w {
            let mut b = self.dom[c * self.w + i];
            while b != 0 {
                let o = i * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                out.push(((o >> 2) as u32, (o & 3) as u8));
            }
        }
    }
}
