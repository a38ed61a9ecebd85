//! Knuth's tree-size estimator as every engine that estimates shares it
//! (DLX, the polycube engines, scan and cp): the running sums of the
//! probes ([`Tally`]), the estimate they give ([`Estimate`]), and the short
//! timed run that turns the node estimate into seconds ([`with_rate`]).
//!
//! A probe walks one random root-to-leaf path, choosing uniformly among the
//! `k` children of each node; the product of the degrees above a node is
//! its weight, and the probe's estimate of the nodes of the full tree is
//! the sum over its path of weight times degree (the children generated
//! there), of the solutions the weight at a solution leaf. Both are
//! unbiased: their mean over many probes tends to the real counts.

use super::{Engine, Flow, Limits};
use std::time::{Duration, Instant};

/// `--estimate PROBES[,SEED]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EstimateSpec {
    /// Number of random paths.
    pub probes: u64,
    /// Seed.
    pub seed: u64,
}

impl EstimateSpec {
    /// Parses `PROBES` or `PROBES,SEED` (seed 1 by default).
    pub fn parse(s: &str) -> Result<EstimateSpec, String> {
        let (p, seed) = s.split_once(',').unwrap_or((s, "1"));
        let probes: u64 = p.trim().parse().map_err(|_| format!("`{s}`: PROBES `{p}` is not a number"))?;
        if probes == 0 {
            return Err(format!("`{s}`: PROBES must be at least 1"));
        }
        let seed = seed.trim().parse().map_err(|_| format!("`{s}`: SEED `{seed}` is not a number"))?;
        Ok(EstimateSpec { probes, seed })
    }
}

/// Knuth's estimate of the search tree.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Estimate {
    /// Probes run.
    pub probes: u64,
    /// Mean estimated placements of the full search.
    pub nodes: f64,
    /// Standard error of `nodes`.
    pub nodes_stderr: f64,
    /// Mean estimated solutions found by the full search.
    pub solutions: f64,
    /// Standard error of `solutions`.
    pub solutions_stderr: f64,
    /// Placements per second measured on a short run of the real search.
    pub nodes_per_sec: f64,
    /// `nodes / nodes_per_sec`.
    pub seconds: f64,
    /// Mean estimated placements by depth (index 0: the first piece).
    pub per_depth: Vec<f64>,
}

/// Running sums of Knuth probes.
///
/// Invariant: `probes` probes were added; `nodes`, `nodes_sq`, `sols` and
/// `sols_sq` are the sums of their node and solution estimates and of the
/// squares; `per_depth[d]` is the sum over probes of the nodes each
/// estimates at depth `d`.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    probes: u64,
    nodes: f64,
    nodes_sq: f64,
    sols: f64,
    sols_sq: f64,
    per_depth: Vec<f64>,
}

impl Tally {
    /// An empty tally for trees of depth up to `depth` (more levels are
    /// added when seen).
    pub fn new(depth: usize) -> Tally {
        Tally { per_depth: vec![0.0; depth], ..Tally::default() }
    }

    /// Adds `nodes` estimated nodes at depth `depth` to the probe under way.
    pub fn at_depth(&mut self, depth: usize, nodes: f64) {
        if depth >= self.per_depth.len() {
            self.per_depth.resize(depth + 1, 0.0);
        }
        self.per_depth[depth] += nodes;
    }

    /// Closes a probe that estimated `nodes` nodes and `sols` solutions.
    pub fn end_probe(&mut self, nodes: f64, sols: f64) {
        self.probes += 1;
        self.nodes += nodes;
        self.nodes_sq += nodes * nodes;
        self.sols += sols;
        self.sols_sq += sols * sols;
    }

    /// Adds the probes of `other` (sums are added: merging the same tallies
    /// in the same order gives the same bits).
    pub fn merge(&mut self, other: &Tally) {
        self.probes += other.probes;
        self.nodes += other.nodes;
        self.nodes_sq += other.nodes_sq;
        self.sols += other.sols;
        self.sols_sq += other.sols_sq;
        if self.per_depth.len() < other.per_depth.len() {
            self.per_depth.resize(other.per_depth.len(), 0.0);
        }
        for (a, b) in self.per_depth.iter_mut().zip(&other.per_depth) {
            *a += b;
        }
    }

    /// The sum of the closed probes' node estimates.
    pub fn nodes_sum(&self) -> f64 {
        self.nodes
    }

    /// Probes closed.
    pub fn probes(&self) -> u64 {
        self.probes
    }

    /// The means and standard errors (sample standard deviation over the
    /// square root of the probe count; NaN with fewer than two probes),
    /// without a rate (`nodes_per_sec` 0, `seconds` NaN).
    pub fn estimate(&self) -> Estimate {
        let n = self.probes.max(1) as f64;
        let mean_err = |sum: f64, sq: f64| {
            let mean = sum / n;
            let err = if self.probes < 2 { f64::NAN } else { ((sq - sum * mean).max(0.0) / (n - 1.0) / n).sqrt() };
            (mean, err)
        };
        let (nodes, nodes_stderr) = mean_err(self.nodes, self.nodes_sq);
        let (solutions, solutions_stderr) = mean_err(self.sols, self.sols_sq);
        Estimate {
            probes: self.probes,
            nodes,
            nodes_stderr,
            solutions,
            solutions_stderr,
            nodes_per_sec: 0.0,
            seconds: f64::NAN,
            per_depth: self.per_depth.iter().map(|x| x / n).collect(),
        }
    }
}

/// Fills in `estimate`'s rate and time from a run of `engine` (on the
/// calling thread) stopped after `window` of wall time: nodes per CPU
/// second of the thread (per wall second where there is no CPU clock), so
/// that the rate does not drop when other processes share the cores;
/// `nodes_per_sec` stays 0 when the run took no measurable time or made no
/// node.
pub fn with_rate(engine: &mut dyn Engine, mut estimate: Estimate, window: Duration) -> Estimate {
    let limits = Limits::none().with_time_limit(Some(window));
    let (start, cpu) = (Instant::now(), super::clock::thread_cpu_seconds());
    let stats = engine.run(&limits, &mut |_| Flow::Continue);
    let t = match (cpu, super::clock::thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    if t > 0.0 && stats.nodes > 0 {
        estimate.nodes_per_sec = stats.nodes as f64 / t;
        estimate.seconds = estimate.nodes / estimate.nodes_per_sec;
    }
    estimate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(EstimateSpec::parse("200").unwrap(), EstimateSpec { probes: 200, seed: 1 });
        assert_eq!(EstimateSpec::parse("200,7").unwrap().seed, 7);
        assert!(EstimateSpec::parse("0").is_err());
    }

    #[test]
    fn tally_means_and_errors() {
        let mut t = Tally::new(2);
        for (x, s) in [(1.0, 0.0), (3.0, 2.0)] {
            t.at_depth(0, x);
            t.at_depth(3, 1.0);
            t.end_probe(x, s);
        }
        let e = t.estimate();
        assert_eq!((e.probes, e.nodes, e.solutions), (2, 2.0, 1.0));
        // Sample deviations sqrt(2) and sqrt(2), over sqrt(2).
        assert!((e.nodes_stderr - 1.0).abs() < 1e-12 && (e.solutions_stderr - 1.0).abs() < 1e-12);
        assert_eq!(e.per_depth, vec![2.0, 0.0, 0.0, 1.0]);
        assert!(Tally::new(0).estimate().nodes_stderr.is_nan());
    }
}
