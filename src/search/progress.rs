//! Live progress of a running search, shared between the thread that
//! searches and a display that polls it (the CLI's progress line).
//!
//! # The hook
//!
//! A [`Progress`] is a handful of atomic counters behind an `Arc`. Engines do
//! not need to know about it:
//! * **nodes**: every engine already calls [`Limits::poll`](crate::search::Limits::poll)
//!   every few thousand nodes; `poll` publishes the node count to the
//!   `Progress` attached to the limits ([`Limits::progress`](crate::search::Limits::progress));
//! * **solutions**: [`solve`](crate::solve::solve) counts every solution the
//!   engine reports;
//! * **estimated tree size**: a tree-size estimator (Knuth's random-probe
//!   estimator, or any sampler) calls [`Progress::set_estimated_nodes`] with
//!   its current estimate of the total number of nodes of the enumeration;
//!   it may do so before the search or repeatedly during it, from any
//!   thread. The display then shows the fraction done and the time left.
//!   An engine offers an estimate through
//!   [`Engine::estimate_nodes`](crate::search::Engine::estimate_nodes),
//!   which `emx solve` calls before an enumeration when it shows a
//!   progress line.
//!
//! A display calls [`Progress::snapshot`] a few times a second; every
//! counter is read with relaxed ordering, so the cost to the search is one
//! relaxed store per poll.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Counters of one running search (see the module documentation).
///
/// Invariant: `estimate_bits` is `0` (no estimate) or the bits of a finite
/// positive `f64`.
#[derive(Debug)]
pub struct Progress {
    nodes: AtomicU64,
    solutions: AtomicU64,
    estimate_bits: AtomicU64,
    started: Instant,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Progress {
    /// Fresh counters; the clock starts now.
    pub fn new() -> Self {
        Progress {
            nodes: AtomicU64::new(0),
            solutions: AtomicU64::new(0),
            estimate_bits: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    /// Publishes the engine's node count (called from `Limits::poll`).
    #[inline]
    pub fn set_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Ordering::Relaxed);
    }

    /// Counts one more solution found.
    #[inline]
    pub fn add_solution(&self) {
        self.solutions.fetch_add(1, Ordering::Relaxed);
    }

    /// Sets the estimated total number of nodes of the whole enumeration
    /// (ignored unless finite and positive).
    pub fn set_estimated_nodes(&self, total: f64) {
        if total.is_finite() && total > 0.0 {
            self.estimate_bits.store(total.to_bits(), Ordering::Relaxed);
        }
    }

    /// The counters now.
    pub fn snapshot(&self) -> ProgressSnapshot {
        let bits = self.estimate_bits.load(Ordering::Relaxed);
        ProgressSnapshot {
            nodes: self.nodes.load(Ordering::Relaxed),
            solutions: self.solutions.load(Ordering::Relaxed),
            elapsed: self.started.elapsed(),
            estimated_nodes: (bits != 0).then(|| f64::from_bits(bits)),
        }
    }
}

/// The counters of a [`Progress`] at one instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgressSnapshot {
    /// Nodes visited so far (as of the engine's last poll).
    pub nodes: u64,
    /// Solutions found so far.
    pub solutions: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Estimated total nodes of the enumeration, if an estimator ran.
    pub estimated_nodes: Option<f64>,
}

impl ProgressSnapshot {
    /// Nodes per second so far.
    pub fn nodes_per_sec(&self) -> f64 {
        super::per_second(self.nodes, self.elapsed)
    }

    /// Fraction of the estimated tree visited, in `[0, 1]` (an estimate can
    /// be exceeded; the fraction then stays at 1).
    pub fn fraction_done(&self) -> Option<f64> {
        self.estimated_nodes.map(|total| (self.nodes as f64 / total).clamp(0.0, 1.0))
    }

    /// Estimated time left at the current speed.
    pub fn time_left(&self) -> Option<Duration> {
        let total = self.estimated_nodes?;
        let rate = self.nodes_per_sec();
        if rate <= 0.0 {
            return None;
        }
        let left = ((total - self.nodes as f64) / rate).max(0.0);
        Some(Duration::from_secs_f64(left.min(1e12)))
    }

    /// One line for a terminal, e.g.
    /// `1.25 M nodes (3.10 M/s), 42 solutions, 0:12 elapsed, ~35% of 3.6 M est. nodes, ~0:22 left`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{} nodes ({}/s), {} solution{}, {} elapsed",
            si(self.nodes as f64),
            si(self.nodes_per_sec()),
            self.solutions,
            if self.solutions == 1 { "" } else { "s" },
            clock(self.elapsed)
        );
        if let (Some(total), Some(done)) = (self.estimated_nodes, self.fraction_done()) {
            s.push_str(&format!(", ~{:.0}% of {} est. nodes", done * 100.0, si(total)));
            if let Some(left) = self.time_left() {
                s.push_str(&format!(", ~{} left", clock(left)));
            }
        }
        s
    }
}

/// A count with an SI suffix: `950`, `12.3 k`, `4.56 M`, `7.89 G`.
pub fn si(x: f64) -> String {
    let (v, unit) = if x >= 1e12 {
        (x / 1e12, " T")
    } else if x >= 1e9 {
        (x / 1e9, " G")
    } else if x >= 1e6 {
        (x / 1e6, " M")
    } else if x >= 1e4 {
        (x / 1e3, " k")
    } else {
        return format!("{x:.0}");
    };
    if v >= 100.0 {
        format!("{v:.0}{unit}")
    } else if v >= 10.0 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.2}{unit}")
    }
}

/// A duration as `m:ss`, or `h:mm:ss` from one hour.
pub fn clock(d: Duration) -> String {
    let t = d.as_secs();
    if t >= 3600 {
        format!("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
    } else {
        format!("{}:{:02}", t / 60, t % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_line_and_estimate() {
        let snap = ProgressSnapshot {
            nodes: 1_250_000,
            solutions: 42,
            elapsed: Duration::from_secs(10),
            estimated_nodes: Some(5_000_000.0),
        };
        assert_eq!(snap.nodes_per_sec(), 125_000.0);
        assert_eq!(snap.fraction_done(), Some(0.25));
        assert_eq!(snap.time_left(), Some(Duration::from_secs(30)));
        assert_eq!(
            snap.line(),
            "1.25 M nodes (125 k/s), 42 solutions, 0:10 elapsed, ~25% of 5.00 M est. nodes, ~0:30 left"
        );
        let none = ProgressSnapshot { estimated_nodes: None, solutions: 1, ..snap };
        assert_eq!(none.line(), "1.25 M nodes (125 k/s), 1 solution, 0:10 elapsed");
    }

    #[test]
    fn counters_and_bad_estimates() {
        let p = Progress::new();
        p.set_nodes(7);
        p.add_solution();
        p.set_estimated_nodes(f64::NAN);
        p.set_estimated_nodes(-1.0);
        let s = p.snapshot();
        assert_eq!((s.nodes, s.solutions, s.estimated_nodes), (7, 1, None));
        p.set_estimated_nodes(100.0);
        assert_eq!(p.snapshot().estimated_nodes, Some(100.0));
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(si(999.0), "999");
        assert_eq!(si(12_345.0), "12.3 k");
    }
}
