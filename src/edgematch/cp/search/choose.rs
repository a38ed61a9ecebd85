//! The branching choice of [`Searcher`]: patterns (cells with 4 or 3
//! filled neighbours, Benoist & Bourreau §5.1), then the most urgent
//! ColorPair under the chosen heuristic, or the smallest domain when edge
//! filtering keeps domains.

use super::*;

impl Searcher {
    /// Branches on `cell`, reusing its filtered candidates when the frontier
    /// pass of this node computed them.
    fn branch(&mut self, cell: u32) -> Choice {
        if let Some(i) = self.fr.index_of(cell) {
            return self.branch_frontier(i);
        }
        let tags = self.core.use_tags();
        let p = self.candidates(cell as usize, tags);
        self.push_frame(cell, p, tags, Reason::None);
        Choice::Branch
    }

    /// Picks the branching cell (or detects a failure while shaving).
    pub(in crate::edgematch::cp) fn choose(&mut self) -> Choice {
        self.fr.invalidate();
        if self.core.cfg.patterns {
            for k in [4, 3] {
                if let Some(&c) = self.core.st.bucket[k].first() {
                    return self.branch(c);
                }
            }
        }
        if self.core.doms.is_some() {
            return self.choose_with_domains();
        }
        let forced = self.core.forced;
        if self.core.cfg.instantiation && forced != NONE && self.core.st.tile_at[forced as usize] == NONE {
            return self.branch(forced);
        }
        if self.core.cfg.shaving || self.core.cfg.edge_filter {
            if let Some(choice) = self.shave() {
                return choice;
            }
        }
        match self.core.cfg.heuristic {
            Heuristic::Scan => {
                let m = &self.core.m;
                let c =
                    m.scan_order.iter().find(|&&c| self.core.st.tile_at[c as usize] == NONE).expect("an empty cell");
                return self.branch(*c);
            }
            Heuristic::MinDomain if self.fr.index_of(self.fr.cells.first().copied().unwrap_or(0)).is_some() => {
                let n = self.fr.cells.len();
                let key = |i: usize| (self.fr.len[i], 4 - self.core.st.nknown[self.fr.cells[i] as usize] as u32);
                let i = (0..n).min_by_key(|&i| key(i)).expect("frontier");
                return self.branch_frontier(i);
            }
            _ => {}
        }
        if self.core.cfg.patterns {
            if let Some(c) = self.pattern() {
                return self.branch(c);
            }
        }
        let p = self.urgent_pair();
        let cell = if p == NONE {
            // Unreachable on a consistent board (the first empty cell in
            // reading order has two known sides), kept as a safe fallback.
            (0..self.core.m.n_cells).find(|&c| self.core.st.tile_at[c] == NONE).expect("an empty cell") as u32
        } else {
            self.core.st.demand(p)[0] / 6
        };
        self.branch(cell)
    }

    /// Patterns 3 and 4 of §5.1 (no cell has three or four known sides
    /// here): a surrounded cell (two known sides) next to another
    /// surrounded cell, else a surrounded cell next to a cell with one
    /// known side and two surrounded neighbours. Ties: fewest available
    /// tiles in the cell's pair.
    pub(in crate::edgematch::cp) fn pattern(&self) -> Option<u32> {
        let (m, st) = (&self.core.m, &self.core.st);
        let mut best3 = (u32::MAX, NONE);
        let mut best4 = (u32::MAX, NONE);
        for &x in &st.bucket[2] {
            let x = x as usize;
            let score = st.off_len[self.best_pair(x) as usize];
            for side in 0..4 {
                let y = m.nbr[x][side];
                if y == NONE || st.tile_at[y as usize] != NONE {
                    continue;
                }
                let y = y as usize;
                if st.nknown[y] >= 2 {
                    if score < best3.0 {
                        best3 = (score, x as u32);
                    }
                } else if st.nknown[y] == 1 && score < best4.0 {
                    let surrounded = (0..4)
                        .filter(|&s| {
                            let z = m.nbr[y][s];
                            z != NONE && st.tile_at[z as usize] == NONE && st.nknown[z as usize] >= 2
                        })
                        .count();
                    if surrounded >= 2 {
                        best4 = (score, x as u32);
                    }
                }
            }
        }
        if best3.1 != NONE {
            Some(best3.1)
        } else if best4.1 != NONE {
            Some(best4.1)
        } else {
            None
        }
    }

    /// The most urgent demanded pair under the configured heuristic (§5.1):
    /// a tile of `p` is expected to stay available for `p` with
    /// probability `prod over its other demanded pairs q of (1 - |D_q| /
    /// |O_q|)`; the expected offer `E` is the sum over `p`'s tiles.
    pub(in crate::edgematch::cp) fn urgent_pair(&self) -> u32 {
        let tags = self.core.use_tags();
        let h = self.core.cfg.heuristic;
        let mut best = (f64::INFINITY, u32::MAX, NONE);
        for &p in &self.core.st.active {
            let (score, avail) = self.pair_score(p, tags, h);
            if score < best.0 || (score == best.0 && avail < best.1) {
                best = (score, avail, p);
            }
        }
        best.2
    }

    /// The urgency of demanded pair `p` under heuristic `h` (smaller is
    /// more urgent) and its available tiles.
    pub(in crate::edgematch::cp) fn pair_score(&self, p: u32, tags: bool, h: Heuristic) -> (f64, u32) {
        let (m, st) = (&self.core.m, &self.core.st);
        let pi = p as usize;
        let d = st.dem_len[pi];
        let avail = st.off_len[pi] - if tags { st.nb[pi] } else { 0 };
        let score = match h {
            Heuristic::MinOffer | Heuristic::MinDomain | Heuristic::Scan => avail as f64,
            h => {
                let mut e = 0.0;
                for &mem in st.offer(m, p) {
                    let t = m.mem_tile[mem as usize] as usize;
                    if tags && st.pre[t] != NONE && st.pre[t] != p {
                        continue;
                    }
                    let mut prob = 1.0;
                    for k in 0..m.n_tile_pairs[t] as usize {
                        let q = m.tile_pairs[t][k] as usize;
                        if q != pi && st.dem_len[q] > 0 {
                            prob *= 1.0 - (st.dem_len[q] as f64 / st.off_len[q] as f64).min(1.0);
                        }
                    }
                    e += prob;
                }
                match h {
                    Heuristic::MinExpectedOffer => e,
                    Heuristic::MinExpectedRatio => e / d as f64,
                    _ => e - d as f64,
                }
            }
        };
        (score, avail)
    }
}
