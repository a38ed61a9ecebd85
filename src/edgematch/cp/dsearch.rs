//! Branching and shaving when edge filtering maintains cell domains
//! ([`super::domains`]): candidates are the cell's domain, shaving probes
//! every value of small domains and removes those that fail (propagating
//! the removal), and the branching cell is chosen by the configured rule.

use super::model::NONE;
use super::search::{Choice, Reason, Searcher};
use super::Heuristic;

impl Searcher {
    /// `choose` for the domain mode.
    pub(super) fn choose_with_domains(&mut self) -> Choice {
        if self.core.cfg.shaving {
            let removed = self.counters.shave_removals;
            if !self.shave_domains() {
                return Choice::Fail;
            }
            if self.core.cfg.shave_singles && self.singletons_on() && self.counters.shave_removals != removed {
                if let Some(choice) = self.force_shaved_singles() {
                    return choice;
                }
            }
        }
        let mut cell = self.pick_cell_with_domains();
        if self.core.cfg.shave_branch {
            match self.shave_branch_cell(cell) {
                Some(Choice::Branch) => cell = self.pick_cell_with_domains(),
                Some(other) => return other,
                None => {}
            }
        }
        let doms = self.core.doms.as_ref().expect("domain mode");
        let tags = self.core.use_tags();
        if self.core.cfg.tile_branching {
            // A tile with fewer places than the chosen cell has values:
            // branch on where it goes instead (every available tile is
            // placed in every solution, so its places partition them).
            let below = (doms.size[cell as usize] as i64 + self.core.cfg.tile_slack as i64).max(0) as u32;
            if let Some(t) = doms.scarcest_tile(&self.core.st, below) {
                doms.places(&self.core.st, t, &mut self.scratch_cells, &mut self.scratch);
                self.push_frame(NONE, NONE, tags, Reason::None);
                return Choice::Branch;
            }
        }
        doms.options(cell as usize, &mut self.scratch);
        self.push_frame(cell, NONE, tags, Reason::None);
        Choice::Branch
    }

    pub(super) fn pick_cell_with_domains(&self) -> u32 {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref().expect("domain mode");
        let cfg = &self.core.cfg;
        let mut best = (u32::MAX, 0u8, NONE);
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            let key = (doms.size[c], 4 - st.nknown[c]);
            if key < (best.0, best.1) {
                best = (key.0, key.1, c as u32);
            }
        }
        if best.0 <= 1 && cfg.instantiation {
            return best.2;
        }
        let smallest = || if cfg.neighbour_ties { self.tied_cell_by_neighbours(best.0) } else { best.2 };
        match cfg.heuristic {
            Heuristic::MinDomain => smallest(),
            Heuristic::MinDomainGap => self.tied_cell_by_gap(best.0),
            Heuristic::DomWdeg => self.cell_by_wdeg(),
            Heuristic::DomainThenWdeg if best.0 <= cfg.near_forced => smallest(),
            Heuristic::DomainThenWdeg => self.cell_by_wdeg(),
            Heuristic::DomainThenGap if best.0 <= cfg.near_forced => smallest(),
            Heuristic::Scan => *m.scan_order.iter().find(|&&c| st.tile_at[c as usize] == NONE).expect("an empty cell"),
            _ => {
                if cfg.patterns {
                    for k in [4, 3] {
                        if let Some(&c) = st.bucket[k].first() {
                            return c;
                        }
                    }
                    if let Some(c) = self.pattern() {
                        return c;
                    }
                }
                let p = self.urgent_pair();
                if p == NONE {
                    best.2
                } else {
                    st.demand(p)[0] / 6
                }
            }
        }
    }

    /// Component `neighbour-ties`: among the empty cells with `size`
    /// values, the one whose empty neighbours have the fewest values in
    /// total (the most constrained neighbourhood: its placement is the
    /// likeliest to force or fail them), first in reading order on a tie.
    fn tied_cell_by_neighbours(&self, size: u32) -> u32 {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref().expect("domain mode");
        let mut best = (u32::MAX, NONE);
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE || doms.size[c] != size {
                continue;
            }
            let around: u32 = m.nbr[c]
                .iter()
                .filter(|&&n| n != NONE && st.tile_at[n as usize] == NONE)
                .map(|&n| doms.size[n as usize])
                .sum();
            if around < best.0 {
                best = (around, c as u32);
            }
        }
        best.1
    }

    /// The empty cell with the smallest domain size per failure weight
    /// (ties: more known sides, then reading order).
    fn cell_by_wdeg(&self) -> u32 {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref().expect("domain mode");
        // Compare size / weight exactly: a / b < c / d iff a d < c b.
        let mut best = (1u64, 0u64, 0u8, NONE);
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE {
                continue;
            }
            let (size, wt, k) = (doms.size[c] as u64, self.weight[c] as u64, 4 - st.nknown[c]);
            let (l, r) = (size * best.1, best.0 * wt);
            if best.3 == NONE || l < r || (l == r && k < best.2) {
                best = (size, wt, k, c as u32);
            }
        }
        best.3
    }

    /// Among the empty cells with `size` values, the one demanding the
    /// most urgent pair under MinExpectedGap (ties: more known sides).
    fn tied_cell_by_gap(&self, size: u32) -> u32 {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref().expect("domain mode");
        let tags = self.core.use_tags();
        let mut best = (f64::INFINITY, 0u8, NONE);
        for c in 0..m.n_cells {
            if st.tile_at[c] != NONE || doms.size[c] != size {
                continue;
            }
            let mut score = f64::INFINITY;
            for &p in &st.slot_pair[c] {
                if p != NONE {
                    score = score.min(self.pair_score(p, tags, Heuristic::MinExpectedGap).0);
                }
            }
            let key = (score, 4 - st.nknown[c]);
            if key.0 < best.0 || (key.0 == best.0 && key.1 < best.1) || best.2 == NONE {
                best = (key.0, key.1, c as u32);
            }
        }
        best.2
    }

    /// Whether empty cell `c` has a neighbour placed at `level` (the
    /// latest decision and the placements it forced).
    pub(super) fn next_to_latest(&self, c: usize, level: u32) -> bool {
        let (m, st) = (&self.core.m, &self.core.st);
        m.nbr[c].iter().any(|&n| n != NONE && st.tile_at[n as usize] != NONE && st.level_at[n as usize] == level)
    }
}
