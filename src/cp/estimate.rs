//! Knuth's tree-size estimate for the CP search: random root-to-leaf
//! probes through the same branching rule as [`Searcher::run`]; each probe
//! estimates the nodes of the full tree as the sum over its depths of the
//! product of the branching degrees above, times the degree there, and the
//! solutions found as that product at a full board. The mean over probes
//! is unbiased for the n-ary search. With refutation (without `rechoose`,
//! with singletons) the last sibling of a node is a forced placement, not
//! a decision, so a
//! node of degree `k` adds `k - 1`; the siblings a refutation prunes are
//! not modelled, so the estimate is then an upper bound on the decisions.

use super::search::{Choice, Searcher};
use crate::poly::sample::Rng;

/// A Knuth estimate of the CP search tree (one symmetry class per board,
/// as the searcher counts).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CpEstimate {
    /// Probes made.
    pub probes: u64,
    /// Mean estimated nodes (placements) of the full search.
    pub nodes: f64,
    /// Mean estimated boards (one per symmetry class) of the full search.
    pub solutions: f64,
    /// Standard error of the node estimate (standard deviation of the
    /// probes divided by the square root of their number).
    pub nodes_error: f64,
}

impl Searcher {
    /// Knuth's estimate from `probes` random probes, from the current state
    /// (root filtered), which it leaves as it found it.
    pub fn estimate(&mut self, probes: u64, seed: u64) -> CpEstimate {
        let mut rng = Rng::new(seed);
        let (mut sum, mut sum_sq, mut sols) = (0.0f64, 0.0f64, 0.0f64);
        let root = self.core.mark();
        // Each probe placement with the mark taken before it: undone level
        // by level, trail before board (a reserved tile's unassignment
        // reads its reservation), as the search backtracks.
        let mut placed: Vec<(super::filter::Mark, u32)> = Vec::new();
        let singles = self.singletons_on();
        let two_way = singles && self.core.cfg.refutation && !self.core.cfg.rechoose;
        for _ in 0..probes {
            let (mut weight, mut nodes) = (1.0f64, 0.0f64);
            let mut ok = !singles || self.place_singles(0, &mut placed);
            while ok {
                if self.core.st.n_empty == 0 {
                    sols += weight;
                    break;
                }
                if let Choice::Fail = self.choose() {
                    break;
                }
                let (start, end) = self.top_candidates();
                let k = (end - start) as f64;
                // With refutation the last sibling is forced, not a
                // decision (see `Searcher::search`).
                nodes += weight * if two_way { k - 1.0 } else { k };
                weight *= k;
                let i = start + rng.below((end - start) as u64) as usize;
                let (cell, t, r) = self.candidate(i);
                placed.push((self.core.mark(), cell));
                self.core.st.assign(&self.core.m, cell as usize, t as usize, r, self.frame_count() as u32);
                ok = self.core.filter(cell) && (!singles || self.place_singles(self.frame_count() as u32, &mut placed));
            }
            while let Some((mark, c)) = placed.pop() {
                self.core.undo_to(mark);
                self.core.st.unassign(&self.core.m, c as usize);
            }
            self.core.undo_to(root);
            self.clear_frames();
            sum += nodes;
            sum_sq += nodes * nodes;
        }
        let n = probes.max(1) as f64;
        let mean = sum / n;
        let var = (sum_sq / n - mean * mean).max(0.0);
        CpEstimate { probes, nodes: mean, solutions: sols / n, nodes_error: (var / n).sqrt() }
    }
}
