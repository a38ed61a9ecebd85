//! Knuth's estimator of the size of a DLX search tree ("Estimating the
//! efficiency of backtrack programs", 1975): follow one random root-to-leaf
//! path, choosing the branching item exactly as the search does and a child
//! uniformly at random; the sum over the levels of the products of the
//! branching degrees seen so far is an unbiased estimate of the number of
//! nodes (placements) the full search visits. The mean over many probes is
//! what progress displays use.
//!
//! Children are the ones the search would make: at an item of bound 1 each
//! of its options; at an item still needed `b > 1` times (identical pieces)
//! child `k` is the `k`-th option with the options before it hidden, and
//! only while the item stays feasible.

use super::Dlx;
use crate::search::knuth::Tally;
use crate::search::Rng;

/// How a probe changed the matrix at one level, so it can be undone.
enum Step {
    /// `commit_primary(item)` then `commit_row_except(row)`.
    Once { item: u32, row: u32 },
    /// `hide_row` on `hidden` (in order), then `select_row(row)`.
    Multiple { hidden: Vec<u32>, row: u32 },
}

impl Dlx {
    /// The mean of `probes` Knuth estimates of the number of nodes of the
    /// full search, from the stream of [`Rng::new`]`(seed)`. The matrix
    /// is restored before returning.
    pub fn estimate_nodes(&mut self, probes: u32, seed: u64) -> f64 {
        let mut rng = Rng::new(seed);
        let mut tally = Tally::default();
        for _ in 0..probes.max(1) {
            let nodes = self.probe(&mut rng);
            tally.end_probe(nodes, 0.0);
        }
        self.m.updates = 0;
        tally.estimate().nodes
    }

    /// One random path: the estimate of the tree size it gives.
    fn probe(&mut self, rng: &mut Rng) -> f64 {
        let mut steps = Vec::new();
        let (mut weight, mut nodes) = (1.0f64, 0.0f64);
        while let Some(i) = self.m.choose_min_fit() {
            if !self.m.feasible(i) {
                break;
            }
            let children = self.children(i);
            if children.is_empty() {
                break;
            }
            weight *= children.len() as f64;
            nodes += weight;
            let k = rng.usize(0..children.len());
            let row = children[k];
            if self.m.bound(i) == 1 {
                self.m.commit_primary(i);
                self.m.commit_row_except(row);
                steps.push(Step::Once { item: i, row });
            } else {
                let hidden = children[..k].to_vec();
                for &x in &hidden {
                    self.m.hide_row(x);
                }
                self.m.select_row(row);
                steps.push(Step::Multiple { hidden, row });
            }
        }
        while let Some(step) = steps.pop() {
            match step {
                Step::Once { item, row } => {
                    self.m.uncommit_row_except(row);
                    self.m.uncommit_primary(item);
                }
                Step::Multiple { hidden, row } => {
                    self.m.unselect_row(row);
                    for &x in hidden.iter().rev() {
                        self.m.unhide_row(x);
                    }
                }
            }
        }
        nodes
    }

    /// The rows the search would branch on at item `i`.
    fn children(&mut self, i: u32) -> Vec<u32> {
        let mut rows = Vec::new();
        let mut x = self.m.down(i);
        if self.m.bound(i) == 1 {
            while x != i {
                rows.push(x);
                x = self.m.down(x);
            }
            return rows;
        }
        // With a multiplicity, branch k exists only while the item is still
        // feasible with the k earlier options hidden.
        while x != i && self.m.feasible(i) {
            rows.push(x);
            self.m.hide_row(x);
            x = self.m.down(x);
        }
        for &x in rows.iter().rev() {
            self.m.unhide_row(x);
        }
        rows
    }
}
