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
use crate::search::knuth::Tally;
use crate::search::{Estimate, Rng};

/// A Knuth estimate of the CP search tree (one symmetry class per board,
/// as the searcher counts).
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// Standard error of the board estimate.
    pub solutions_error: f64,
    /// Mean estimated nodes by cells filled (index `d`: the placements
    /// that, as decisions, fill the `d`-th cell).
    pub per_depth: Vec<f64>,
}

impl From<CpEstimate> for Estimate {
    /// The estimate without a rate.
    fn from(e: CpEstimate) -> Estimate {
        Estimate {
            probes: e.probes,
            nodes: e.nodes,
            nodes_stderr: e.nodes_error,
            solutions: e.solutions,
            solutions_stderr: e.solutions_error,
            nodes_per_sec: 0.0,
            seconds: f64::NAN,
            per_depth: e.per_depth,
        }
    }
}

impl Searcher {
    /// Knuth's estimate from `probes` random probes, from the current state
    /// (root filtered), which it leaves as it found it.
    pub fn estimate(&mut self, probes: u64, seed: u64) -> CpEstimate {
        self.estimate_until(probes, seed, |_| false)
    }

    /// [`Searcher::estimate`], but stopping after a probe once `settled`
    /// holds of the least the full estimate can come to: the node
    /// estimates of the probes made so far summed and divided by `probes`
    /// (a probe's estimate is never negative, so the remaining probes can
    /// only raise the mean). A caller that asks only whether the estimate
    /// is at least some bound (`bottom=auto`) thus
    /// gets the answer all `probes` would give; the returned estimate is
    /// then the mean of the probes made (`probes` says how many), at least
    /// that bound.
    pub fn estimate_until(&mut self, probes: u64, seed: u64, settled: impl Fn(f64) -> bool) -> CpEstimate {
        let mut rng = Rng::new(seed);
        let n_cells = self.core.m.n_cells;
        let mut tally = Tally::new(n_cells + 1);
        let root = self.core.mark();
        // Each probe placement with the mark taken before it: undone level
        // by level, trail before board (a reserved tile's unassignment
        // reads its reservation), as the search backtracks.
        let mut placed: Vec<(super::filter::Mark, u32)> = Vec::new();
        let singles = self.singletons_on();
        let two_way = singles && self.core.cfg.refutation && !self.core.cfg.rechoose;
        let mut made = 0;
        while made < probes && !settled(tally.nodes_sum() / probes as f64) {
            made += 1;
            let (mut weight, mut nodes, mut sols) = (1.0f64, 0.0f64, 0.0f64);
            let mut ok = !singles || self.place_singles(0, &mut placed);
            while ok {
                if self.core.st.n_empty == 0 {
                    sols = weight;
                    break;
                }
                if let Choice::Fail = self.choose() {
                    break;
                }
                let (start, end) = self.top_candidates();
                if end == start {
                    // A choice with no candidate left: a dead end, as in
                    // the search.
                    break;
                }
                let k = (end - start) as f64;
                // With refutation the last sibling is forced, not a
                // decision (see `Searcher::search`).
                let here = weight * if two_way { k - 1.0 } else { k };
                nodes += here;
                tally.at_depth(n_cells - self.core.st.n_empty + 1, here);
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
            tally.end_probe(nodes, sols);
        }
        let e = tally.estimate();
        CpEstimate {
            probes: made,
            nodes: e.nodes,
            solutions: e.solutions,
            nodes_error: e.nodes_stderr,
            solutions_error: e.solutions_stderr,
            per_depth: e.per_depth,
        }
    }
}
