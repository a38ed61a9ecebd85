//! Edge filtering: cell domains and the colours of open joins (the "edge
//! variables" of Benoist & Bourreau's Choco model, §6.3), maintained
//! incrementally so that each removed value costs O(1).
//!
//! Each empty cell keeps a domain, a bit set over *options* `o = 4 t + r`
//! (tile `t` in rotation `r`, one bit per distinct-looking rotation).
//! Invariants, after [`Domains::propagate`] returns `true`:
//! * every option of an empty cell's domain uses an available tile, fits
//!   the cell's known sides and the border;
//! * **edge consistency**: for every open join between empty cells `c`
//!   and `n` (side `s` of `c`), every colour an option of `c` shows on `s`
//!   is shown back by some option of `n` on the opposite side;
//! * `count[c][s][k]` is the number of options of `c` showing colour `k`
//!   on side `s`: a count falling to zero is the event that prunes the
//!   neighbour (AC-4 style support counting);
//! * `tcount[t]` is the number of (empty cell, option) pairs using tile
//!   `t`: an available tile with no place left is a contradiction;
//! * every empty cell has a non-empty domain.
//!
//! Removals are trailed as `(cell, word, bits)` and undone in LIFO order.
//! The domains of filled cells are frozen (kept for the undo).

use super::model::{Model, NONE};
use super::state::State;
use crate::edgematch::Color;

/// One trail entry: bits removed from a domain word, or a frozen cell
/// (`word == FREEZE`).
#[derive(Clone, Copy, Debug)]
struct Removed {
    cell: u32,
    word: u32,
    bits: u64,
}

const FREEZE: u32 = u32::MAX;

/// Cell domains with edge-colour supports.
pub(crate) struct Domains {
    /// Words per domain.
    pub w: usize,
    n_colors: usize,
    pub dom: Vec<u64>,
    pub size: Vec<u32>,
    count: Vec<u16>,
    tcount: Vec<u32>,
    /// `sup[(s * C + k) * w ..]`: options showing colour `k` on side `s`.
    sup: Vec<u64>,
    /// Colours of each option, `[N, E, S, W]`.
    opt_colors: Vec<[Color; 4]>,
    trail: Vec<Removed>,
    queue: Vec<(u32, u8, Color)>,
    /// Options removed (statistics).
    pub removed: u64,
}

impl Domains {
    pub fn new(m: &Model) -> Domains {
        let nt = m.rot_colors.len();
        let w = (4 * nt).div_ceil(64);
        let c = m.n_colors;
        let mut sup = vec![0u64; 4 * c * w];
        let mut opt_colors = vec![[0; 4]; 4 * nt];
        for t in 0..nt {
            for r in 0..4 {
                opt_colors[4 * t + r] = m.rot_colors[t][r];
            }
            for i in 0..m.n_rots[t] as usize {
                let r = m.rots[t][i] as usize;
                let o = 4 * t + r;
                for s in 0..4 {
                    let k = m.rot_colors[t][r][s] as usize;
                    sup[(s * c + k) * w + o / 64] |= 1 << (o % 64);
                }
            }
        }
        Domains {
            w,
            n_colors: c,
            dom: vec![0; m.n_cells * w],
            size: vec![0; m.n_cells],
            count: vec![0; m.n_cells * 4 * c],
            tcount: vec![0; nt],
            sup,
            opt_colors,
            trail: Vec::new(),
            queue: Vec::new(),
            removed: 0,
        }
    }

    /// Trail position, for [`Domains::undo_to`].
    #[inline]
    pub fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Builds the domains of the empty cells of `st` (the root, after the
    /// clues) and makes them edge consistent. `false` if inconsistent.
    pub fn init(&mut self, m: &Model, st: &State) -> bool {
        self.trail.clear();
        self.queue.clear();
        self.dom.fill(0);
        self.size.fill(0);
        self.count.fill(0);
        self.tcount.fill(0);
        let (w, nc) = (self.w, self.n_colors);
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
                        for s in 0..4 {
                            self.count[(c * 4 + s) * nc + m.rot_colors[t][r][s] as usize] += 1;
                        }
                    }
                }
            }
            if self.size[c] == 0 {
                return false;
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
                for k in 0..nc {
                    if self.count[(c * 4 + s) * nc + k] == 0 {
                        self.queue.push((n, ((s + 2) & 3) as u8, k as Color));
                    }
                }
            }
        }
        self.drain(m, st)
    }

    /// Removes `bits` (a subset of the domain word) from cell `c`. Returns
    /// `false` on a wipe-out or a tile left without a place.
    fn remove(&mut self, m: &Model, st: &State, c: usize, word: usize, bits: u64) -> bool {
        let (w, nc) = (self.w, self.n_colors);
        debug_assert_eq!(self.dom[c * w + word] & bits, bits, "removing absent bits");
        self.dom[c * w + word] &= !bits;
        self.size[c] -= bits.count_ones();
        self.removed += bits.count_ones() as u64;
        self.trail.push(Removed { cell: c as u32, word: word as u32, bits });
        let mut ok = self.size[c] > 0;
        let mut b = bits;
        while b != 0 {
            let o = word * 64 + b.trailing_zeros() as usize;
            b &= b - 1;
            let t = o >> 2;
            self.tcount[t] -= 1;
            if self.tcount[t] == 0 && st.cell_of[t] == NONE {
                ok = false;
            }
            let col = self.opt_colors[o];
            for s in 0..4 {
                let idx = (c * 4 + s) * nc + col[s] as usize;
                self.count[idx] -= 1;
                if self.count[idx] == 0 {
                    let n = m.nbr[c][s];
                    if n != NONE && st.tile_at[n as usize] == NONE {
                        self.queue.push((n, ((s + 2) & 3) as u8, col[s]));
                    }
                }
            }
        }
        ok
    }

    /// Processes the queued "colour `k` gone" events.
    fn drain(&mut self, m: &Model, st: &State) -> bool {
        let w = self.w;
        while let Some((n, s, k)) = self.queue.pop() {
            let n = n as usize;
            if st.tile_at[n] != NONE {
                continue;
            }
            let base = (s as usize * self.n_colors + k as usize) * w;
            for i in 0..w {
                let bits = self.dom[n * w + i] & self.sup[base + i];
                if bits != 0 && !self.remove(m, st, n, i, bits) {
                    self.queue.clear();
                    return false;
                }
            }
        }
        true
    }

    /// Propagates the placement just made on cell `c` (already in `st`).
    pub fn propagate(&mut self, m: &Model, st: &State, c: usize) -> bool {
        let w = self.w;
        let t = st.tile_at[c] as usize;
        // Freeze c: its options no longer count as places for their tiles.
        let mut ok = true;
        for i in 0..w {
            let mut b = self.dom[c * w + i];
            while b != 0 {
                let o = i * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                let u = o >> 2;
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
            let base = (((s + 2) & 3) * self.n_colors + col[s] as usize) * w;
            for i in 0..w {
                let bits = self.dom[n * w + i] & !self.sup[base + i];
                if bits != 0 && !self.remove(m, st, n, i, bits) {
                    self.queue.clear();
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
            if bits != 0 && !self.remove(m, st, e, word, bits) {
                self.queue.clear();
                return false;
            }
        }
        self.drain(m, st)
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
            self.queue.clear();
            return false;
        }
        self.drain(m, st)
    }

    /// Undoes removals down to `mark`.
    pub fn undo_to(&mut self, mark: usize) {
        let (w, nc) = (self.w, self.n_colors);
        while self.trail.len() > mark {
            let Removed { cell, word, bits } = self.trail.pop().expect("trail");
            let c = cell as usize;
            if word == FREEZE {
                for i in 0..w {
                    let mut b = self.dom[c * w + i];
                    while b != 0 {
                        let o = i * 64 + b.trailing_zeros() as usize;
                        b &= b - 1;
                        self.tcount[o >> 2] += 1;
                    }
                }
                continue;
            }
            self.dom[c * w + word as usize] |= bits;
            self.size[c] += bits.count_ones();
            let mut b = bits;
            while b != 0 {
                let o = word as usize * 64 + b.trailing_zeros() as usize;
                b &= b - 1;
                self.tcount[o >> 2] += 1;
                let col = self.opt_colors[o];
                for s in 0..4 {
                    self.count[(c * 4 + s) * nc + col[s] as usize] += 1;
                }
            }
        }
    }

    /// Test helper: recomputes sizes and counts from the domains of the
    /// empty cells and compares (`tc_too`: also the tile counts).
    #[cfg(test)]
    pub fn check(&self, m: &Model, st: &State, tc_too: bool) {
        let (w, nc) = (self.w, self.n_colors);
        let mut tc = vec![0u32; self.tcount.len()];
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE { continue; }
            let mut cnt = vec![0u16; 4 * nc];
            let mut size = 0;
            for i in 0..w {
                let mut b = self.dom[c * w + i];
                while b != 0 {
                    let o = i * 64 + b.trailing_zeros() as usize;
                    b &= b - 1;
                    size += 1;
                    tc[o >> 2] += 1;
                    for s in 0..4 { cnt[s * nc + self.opt_colors[o][s] as usize] += 1; }
                }
            }
            assert_eq!(size, self.size[c], "size of cell {c}");
            assert_eq!(&cnt[..], &self.count[c * 4 * nc..(c + 1) * 4 * nc], "counts of cell {c}");
        }
        for t in 0..tc.len() {
            if tc_too && st.cell_of[t] == NONE { assert_eq!(tc[t], self.tcount[t], "tcount of tile {t}"); }
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
