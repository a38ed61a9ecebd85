//! Read-only queries on [`Domains`] for the search (tile places, the
//! scarcest tile, a cell's options) and the test helper that recomputes
//! every counter.

use super::Domains;
#[cfg(test)]
use crate::edgematch::cp::model::Model;
use crate::edgematch::cp::model::NONE;
use crate::edgematch::cp::state::State;

impl Domains {
    /// Test helper: recomputes sizes, counters and tile counts from the
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
            let k = 4 * self.stride;
            let mut cnt = vec![0u16; k];
            for i in 0..w {
                let mut b = self.dom[c * w + i];
                while b != 0 {
                    let o = i * 64 + b.trailing_zeros() as usize;
                    tc[o >> 2] += 1;
                    size += 1;
                    for x in self.off[o] {
                        cnt[x as usize] += 1;
                    }
                    b &= b - 1;
                }
            }
            assert_eq!(size, self.size[c], "size of cell {c}");
            assert_eq!(cnt[..], self.cnt[c * k..(c + 1) * k], "counters of cell {c}");
            for s in 0..4 {
                let n = m.nbr[c][s];
                if n == NONE || st.tile_at[n as usize] != NONE {
                    continue;
                }
                let n = n as usize;
                for b in 0..self.nb {
                    let here = self.cnt[c * k + s * self.stride + b] > 0;
                    let there = self.cnt[n * k + ((s + 2) & 3) * self.stride + b] > 0;
                    assert_eq!(here, there, "edge {c}/{s} bucket {b}");
                }
            }
        }
        for t in 0..tc.len() {
            if tc_too && st.cell_of[t] == NONE {
                assert_eq!(tc[t], self.tcount[t], "tcount of tile {t}");
            }
        }
    }

    /// The places (options over the empty cells) of tile `t`.
    #[inline]
    pub fn tile_places(&self, t: usize) -> u32 {
        self.tcount[t]
    }

    /// The available tile with the fewest places (options over the empty
    /// cells), if it has fewer than `below`.
    pub fn scarcest_tile(&self, st: &State, below: u32) -> Option<usize> {
        // The smallest key (places, tile) over the available tiles, branch
        // free (a data-dependent branch per tile mispredicted): the first
        // tile with the fewest places.
        let mut best = u64::MAX;
        for (t, (&n, &at)) in self.tcount.iter().zip(&st.cell_of).enumerate() {
            let key = if at == NONE { (n as u64) << 32 | t as u64 } else { u64::MAX };
            best = best.min(key);
        }
        ((best >> 32) < below as u64).then_some(best as u32 as usize)
    }

    /// The places of tile `t`: empty cells into `cells`, `(t, rotation)`
    /// into `out`, in cell order.
    pub fn places(&self, st: &State, t: usize, cells: &mut Vec<u32>, out: &mut Vec<(u32, u8)>) {
        cells.clear();
        out.clear();
        let (word, shift) = ((4 * t) / 64, (4 * t) % 64);
        for c in 0..self.size.len() {
            let mut b = (self.dom[c * self.w + word] >> shift) & 0xf;
            if b == 0 || st.tile_at[c] != NONE {
                continue;
            }
            while b != 0 {
                let r = b.trailing_zeros() as u8;
                b &= b - 1;
                cells.push(c as u32);
                out.push((t as u32, r));
            }
        }
    }

    /// Whether option `(t, r)` is in cell `c`'s domain.
    #[inline]
    pub fn contains(&self, c: usize, t: usize, r: u8) -> bool {
        let o = 4 * t + r as usize;
        self.dom[c * self.w + o / 64] >> (o % 64) & 1 != 0
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
