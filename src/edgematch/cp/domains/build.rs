//! Building [`Domains`]: the tables sized for a model ([`Domains::new`])
//! and the root's domains made edge consistent ([`Domains::init`]).

use super::Domains;
use crate::edgematch::cp::model::{Model, NONE};
use crate::edgematch::cp::state::State;

impl Domains {
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    pub fn new(m: &Model) -> Domains {
        let nt = m.rot_colors.len();
        let w = (4 * nt).div_ceil(64);
        let nb = m.n_colors.min(64);
        let stride = nb.next_power_of_two();
        let mut sup = vec![0u64; 4 * stride * w];
        let mut off = vec![[0u8; 4]; 4 * nt];
        for t in 0..nt {
            for r in 0..4 {
                let o = 4 * t + r;
                for s in 0..4 {
                    off[o][s] = (s * stride + m.rot_colors[t][r][s] as usize % 64) as u8;
                }
            }
            for i in 0..m.n_rots[t] as usize {
                let o = 4 * t + m.rots[t][i] as usize;
                for s in 0..4 {
                    sup[off[o][s] as usize * w + o / 64] |= 1 << (o % 64);
                }
            }
        }
        let mut open_bits = [0u64; 16];
        if 4 * stride <= 64 {
            let side = u64::MAX >> (64 - stride);
            for (sides, bits) in open_bits.iter_mut().enumerate() {
                for s in 0..4 {
                    if sides >> s & 1 != 0 {
                        *bits |= side << (s * stride);
                    }
                }
            }
        }
        Domains {
            w,
            open_bits,
            nb,
            stride,
            dom: vec![0; m.n_cells * w],
            size: vec![0; m.n_cells],
            cnt: vec![0; m.n_cells * 4 * stride],
            tcount: vec![0; nt],
            sup,
            off,
            log: Vec::new(),
            saved: Vec::new(),
            saved_cnt: Vec::new(),
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
            cascade_min: 0,
            cascade_waves: 0,
        }
    }

    /// Builds the domains of the empty cells of `st` (the root, after the
    /// clues) and makes them edge consistent. `false` if inconsistent.
    pub fn init(&mut self, m: &Model, st: &State) -> bool {
        self.log.clear();
        self.saved.clear();
        self.saved_cnt.clear();
        self.saved_size.clear();
        self.tsaved.clear();
        self.clear_pending();
        self.epoch += 1;
        self.removed = 0;
        self.dom.fill(0);
        self.size.fill(0);
        self.tcount.fill(0);
        let (w, nb, k) = (self.w, self.nb, 4 * self.stride);
        self.cnt.fill(0);
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
                            self.cnt[c * k + self.off[o][s] as usize] += 1;
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
        // Colours one side of an open join shows and the other does not.
        let stride = self.stride;
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                for b in 0..nb {
                    if self.cnt[c * k + s * stride + b] == 0 {
                        self.lose(n as usize, ((s + 2) & 3) * stride + b);
                    }
                }
            }
        }
        self.settle(m, st)
    }
}
