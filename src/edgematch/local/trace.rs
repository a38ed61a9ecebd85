//! The best score over time, for plots (the SVG renderer draws it) and for
//! comparing runs.

use std::fmt::Write;

/// One improvement of the best board.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TracePoint {
    /// Wall-clock seconds since the run started.
    pub seconds: f64,
    /// CPU seconds the improving search thread had used.
    pub cpu_seconds: f64,
    /// The new best score (matched inner joins).
    pub score: u32,
    /// Which search thread found it (0-based).
    pub thread: usize,
    /// That thread's iteration count when it found it.
    pub iteration: u64,
}

/// The best score of a run over time.
///
/// Invariant: points are in the order they were found, with strictly
/// increasing `score` (each is a new best over all threads).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Trace {
    /// Maximum possible score (inner joins).
    pub joins: u32,
    /// The improvements.
    pub points: Vec<TracePoint>,
}

impl Trace {
    /// An empty trace for a board with `joins` inner joins.
    pub fn new(joins: u32) -> Trace {
        Trace { joins, points: Vec::new() }
    }

    /// Records a point if it improves on the last one.
    pub fn push(&mut self, p: TracePoint) -> bool {
        if self.points.last().is_some_and(|l| l.score >= p.score) {
            return false;
        }
        self.points.push(p);
        true
    }

    /// The best score reached within `seconds` of wall time (`None` before
    /// the first point).
    pub fn score_at(&self, seconds: f64) -> Option<u32> {
        self.points.iter().take_while(|p| p.seconds <= seconds).last().map(|p| p.score)
    }

    /// CSV with a header line: `seconds,cpu_seconds,score,thread,iteration`.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("seconds,cpu_seconds,score,thread,iteration\n");
        for p in &self.points {
            let _ = writeln!(s, "{:.3},{:.3},{},{},{}", p.seconds, p.cpu_seconds, p.score, p.thread, p.iteration);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_improvements() {
        let mut t = Trace::new(12);
        let p = |seconds, score| TracePoint { seconds, cpu_seconds: seconds, score, thread: 0, iteration: 1 };
        assert!(t.push(p(0.0, 3)));
        assert!(!t.push(p(0.5, 3)));
        assert!(t.push(p(1.0, 7)));
        assert_eq!(t.score_at(0.7), Some(3));
        assert_eq!(t.score_at(5.0), Some(7));
        assert_eq!(t.to_csv().lines().count(), 3);
    }
}
