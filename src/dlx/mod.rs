//! Dancing links over the IR: Knuth's Algorithm X with colours (Algorithm C)
//! and exact multiplicities on primary items (the `u = v` case of his
//! Algorithm M), choosing the item with the fewest remaining options
//! ("min-fit", Knuth's MRV rule).
//!
//! Layout follows Knuth's `dlx2`: one arena of [`Node`]s; nodes
//! `1..=n_items` are item headers (their `top` field holds the column
//! length), then options separated by spacer nodes whose `top` is
//! `-(option + 1)`. Primary items with a non-zero remaining bound are linked
//! in a circular list through `llink`/`rlink` with root 0.
//!
//! Multiplicities: an item with remaining bound `b > 1` stays active after
//! one of its options is chosen (only that option's row is removed), and it
//! is covered when its bound reaches 0. When the search branches on such an
//! item, every option already tried at that node is excluded from the later
//! branches, so each set of chosen options is reached exactly once: a box of
//! identical pieces is counted once, not once per permutation.

mod estimate;
mod heuristic;
mod matrix;

pub use heuristic::Heuristic;
pub use matrix::Matrix;

use crate::ir::{OptionId, Problem, Solution};
use crate::search::{Engine, Flow, Limits, SearchStats, StopReason};
use std::time::Instant;

/// How often (in nodes) the polled limits are checked.
const POLL_MASK: u64 = 0x3ff;

/// A dancing-links solver for one problem.
///
/// Invariant: between searches the matrix is linked as [`Matrix::new`]
/// built it (every search undoes its covers before it returns, at a limit
/// too); during one, `path` holds the option node chosen at each level of
/// the current branch.
pub struct Dlx {
    m: Matrix,
    /// Node chosen at each level of the current path.
    path: Vec<u32>,
    stats: SearchStats,
}

impl Dlx {
    /// Builds the linked structure for `problem`.
    pub fn new(problem: &Problem) -> Self {
        Dlx { m: Matrix::new(problem), path: Vec::new(), stats: SearchStats::default() }
    }

    /// [`Dlx::new`], stopped by `stop` ([`Matrix::new_checked`]).
    pub fn new_checked(problem: &Problem, stop: &crate::search::StopCheck) -> Result<Self, StopReason> {
        Ok(Dlx { m: Matrix::new_checked(problem, stop)?, path: Vec::new(), stats: SearchStats::default() })
    }

    /// Enumerates solutions, calling `visit` with the chosen option ids of
    /// each; stops at a limit or when `visit` returns [`Flow::Stop`]. The
    /// matrix is restored before returning, so a `Dlx` can search again.
    pub fn search(&mut self, limits: &Limits, mut visit: impl FnMut(&[OptionId]) -> Flow) -> SearchStats {
        self.stats = SearchStats::default();
        self.path.clear();
        let start = Instant::now();
        let result = self.recurse(limits, &mut visit);
        self.stats.elapsed = start.elapsed();
        self.stats.updates = self.m.updates;
        self.m.updates = 0;
        self.stats.stopped = result.err();
        self.stats.clone()
    }

    fn report(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> Result<(), StopReason> {
        self.stats.solutions += 1;
        let options: Vec<OptionId> = self.path.iter().map(|&x| self.m.option_of(x)).collect();
        if visit(&options) == Flow::Stop {
            return Err(StopReason::Visitor);
        }
        if limits.max_solutions.is_some_and(|max| self.stats.solutions >= max) {
            return Err(StopReason::SolutionLimit);
        }
        Ok(())
    }

    fn recurse(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> Result<(), StopReason> {
        let Some(i) = self.m.choose_min_fit() else {
            return self.report(limits, visit);
        };
        if !self.m.feasible(i) {
            return Ok(());
        }
        if self.m.bound(i) == 1 {
            self.branch_exactly_once(i, limits, visit)
        } else {
            self.branch_multiplicity(i, limits, visit)
        }
    }

    fn place(&mut self, x: u32, limits: &Limits) -> Result<(), StopReason> {
        self.stats.nodes += 1;
        self.path.push(x);
        if self.stats.nodes & POLL_MASK == 0 {
            if let Some(stop) = limits.poll(self.stats.nodes) {
                return Err(stop);
            }
        }
        Ok(())
    }

    /// Standard Algorithm C step: cover `i` once, try each of its options.
    fn branch_exactly_once(
        &mut self,
        i: u32,
        limits: &Limits,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Result<(), StopReason> {
        self.m.commit_primary(i);
        let mut result = Ok(());
        let mut x = self.m.down(i);
        while x != i {
            self.m.commit_row_except(x);
            result = self.place(x, limits).and_then(|()| self.recurse(limits, visit));
            self.path.pop();
            self.m.uncommit_row_except(x);
            if result.is_err() {
                break;
            }
            x = self.m.down(x);
        }
        self.m.uncommit_primary(i);
        result
    }

    /// Branch on an item still needed `b > 1` times: try its options in
    /// order, excluding each tried option from the later branches.
    fn branch_multiplicity(
        &mut self,
        i: u32,
        limits: &Limits,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Result<(), StopReason> {
        let mut excluded = Vec::new();
        let mut result = Ok(());
        let mut x = self.m.down(i);
        while x != i && self.m.feasible(i) {
            self.m.select_row(x);
            result = self.place(x, limits).and_then(|()| self.recurse(limits, visit));
            self.path.pop();
            self.m.unselect_row(x);
            if result.is_err() {
                break;
            }
            self.m.hide_row(x);
            excluded.push(x);
            x = self.m.down(x);
        }
        for &x in excluded.iter().rev() {
            self.m.unhide_row(x);
        }
        result
    }
}

impl Engine for Dlx {
    fn describe(&self) -> String {
        "dlx min-fit".into()
    }
    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        self.search(limits, visit)
    }
    fn estimate_nodes(&mut self, probes: u32, seed: u64) -> Option<f64> {
        Some(Dlx::estimate_nodes(self, probes, seed))
    }
}

/// Counts all solutions (subject to `limits`).
pub fn count(problem: &Problem, limits: &Limits) -> SearchStats {
    Dlx::new(problem).search(limits, |_| Flow::Continue)
}

/// Collects solutions (subject to `limits`).
pub fn solve(problem: &Problem, limits: &Limits) -> (Vec<Solution>, SearchStats) {
    let mut solutions = Vec::new();
    let stats = Dlx::new(problem).search(limits, |s| {
        solutions.push(Solution { options: s.to_vec() });
        Flow::Continue
    });
    (solutions, stats)
}

#[cfg(test)]
mod tests;
