//! The search vocabulary every engine shares: the [`Engine`] trait, the
//! [`Limits`] a search runs under, the [`StopReason`] it ends with, the
//! [`SearchStats`] it reports, Knuth's tree-size estimator ([`knuth`]), the
//! seeded random source ([`Rng`]), the worker pool of parallel runs
//! ([`pool`]) and the live counters of a progress display ([`progress`]).
//!
//! Engines (DLX, the polycube engines, scan, cp, local search) depend on
//! this module and on the IR, never on each other, so the CLI and
//! `emx bench` treat them alike. Nothing here knows a puzzle.

pub mod clock;
pub mod knuth;
pub mod pool;
pub mod progress;
mod rng;

pub use knuth::{Estimate, EstimateSpec};
pub use rng::Rng;

use crate::ir::OptionId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits on a search. `None` means unlimited.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this many solutions.
    pub max_solutions: Option<u64>,
    /// Stop after this many nodes (placements).
    pub max_nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop once the process has used this much CPU time (every thread,
    /// user and system, counted from the process start): `--clock cpu`.
    pub cpu_budget: Option<Duration>,
    /// Stop when this flag becomes true (Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Live counters for a progress display; [`Limits::poll`] publishes the
    /// node count here (see [`progress`]).
    pub progress: Option<Arc<progress::Progress>>,
}

impl Limits {
    /// No limits.
    pub fn none() -> Self {
        Limits::default()
    }
    /// Stop after `n` solutions.
    pub fn solutions(n: u64) -> Self {
        Limits { max_solutions: Some(n), ..Limits::default() }
    }
    /// Sets a time limit counted from now.
    pub fn with_time_limit(mut self, limit: Option<Duration>) -> Self {
        self.deadline = limit.map(|d| Instant::now() + d);
        self
    }
    /// Whether a time limit is set (a deadline or a CPU budget).
    pub fn timed(&self) -> bool {
        self.deadline.is_some() || self.cpu_budget.is_some()
    }

    /// Whether the deadline has passed or the CPU budget is spent.
    pub fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cpu_budget.is_some_and(|b| clock::process_cpu_seconds().is_some_and(|used| used >= b.as_secs_f64()))
    }

    /// Checks the limits that are polled (nodes, time, cancellation).
    /// Engines call this every few thousand nodes.
    pub fn poll(&self, nodes: u64) -> Option<StopReason> {
        if let Some(progress) = &self.progress {
            progress.set_nodes(nodes);
        }
        if let Some(max) = self.max_nodes {
            if nodes >= max {
                return Some(StopReason::NodeLimit);
            }
        }
        if self.out_of_time() {
            return Some(StopReason::TimeLimit);
        }
        if let Some(flag) = &self.cancel {
            if flag.load(Ordering::Relaxed) {
                return Some(StopReason::Interrupted);
            }
        }
        None
    }
}

/// Why a search ended before exhausting the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// `max_solutions` reached (a normal end for "first N").
    SolutionLimit,
    /// `max_nodes` reached.
    NodeLimit,
    /// The deadline passed.
    TimeLimit,
    /// Cancelled from outside (Ctrl-C).
    Interrupted,
    /// The solution visitor asked to stop.
    Visitor,
    /// The process's resident memory grew past the memory limit (set by
    /// the caller that watches it; engines report `Interrupted` and the
    /// caller relabels the stop).
    MemoryLimit,
}

/// The limits a long set-up (reading, building the IR, an engine's tables)
/// is checked against: a deadline and a cancellation flag. [`StopCheck::check`]
/// is cheap (one clock read and one atomic load), so loops call it every few
/// thousand steps and stop within a fraction of a second.
#[derive(Clone, Debug, Default)]
pub struct StopCheck {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop when this flag becomes true (Ctrl-C, a memory watcher).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop once the process has used this much CPU time (`--clock cpu`).
    pub cpu_budget: Option<Duration>,
}

impl StopCheck {
    /// A check against `deadline` and `cancel`.
    pub fn new(deadline: Option<Instant>, cancel: Option<Arc<AtomicBool>>) -> Self {
        StopCheck { deadline, cancel, cpu_budget: None }
    }

    /// The check of a search's limits: their deadline, CPU budget and flag.
    pub fn of(limits: &Limits) -> Self {
        StopCheck { deadline: limits.deadline, cancel: limits.cancel.clone(), cpu_budget: limits.cpu_budget }
    }

    /// `Err(TimeLimit)` once the deadline has passed, `Err(Interrupted)` once
    /// the flag is set.
    pub fn check(&self) -> Result<(), StopReason> {
        if self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cpu_budget.is_some_and(|b| clock::process_cpu_seconds().is_some_and(|u| u >= b.as_secs_f64()))
        {
            return Err(StopReason::TimeLimit);
        }
        if self.cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)) {
            return Err(StopReason::Interrupted);
        }
        Ok(())
    }
}

/// Counters every engine reports.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SearchStats {
    /// Solutions found (before any unique-filtering).
    pub solutions: u64,
    /// Nodes of the search tree: placements made.
    pub nodes: u64,
    /// Engine-specific elementary work: link updates for DLX; placements plus
    /// options removed by filtering for cp; 0 for engines that do not count one.
    pub updates: u64,
    /// Wall time spent searching.
    #[serde(serialize_with = "ser_secs")]
    pub elapsed: Duration,
    /// `None` when the search space was exhausted.
    pub stopped: Option<StopReason>,
    /// Solutions of the fixed box that `solutions` stands for, when the
    /// engine searched only some symmetric copies (a symmetry-breaking
    /// filter: each solution found is weighted by the size of its orbit);
    /// `None` when `solutions` already counts every copy it saw.
    pub fixed_box: Option<u64>,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

/// `count / elapsed` in events per second (0 when no time elapsed).
pub fn per_second(count: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        count as f64 / s
    } else {
        0.0
    }
}

impl SearchStats {
    /// Whether every solution was enumerated.
    pub fn complete(&self) -> bool {
        self.stopped.is_none()
    }
    /// Nodes per second (0 when no time elapsed).
    pub fn nodes_per_sec(&self) -> f64 {
        per_second(self.nodes, self.elapsed)
    }
    /// Whether the stop was a limit the user set (exit code 3), as opposed to
    /// an exhausted tree or a "first N" request that was satisfied.
    pub fn hit_limit(&self) -> bool {
        matches!(
            self.stopped,
            Some(StopReason::NodeLimit | StopReason::TimeLimit | StopReason::Interrupted | StopReason::MemoryLimit)
        )
    }
}

/// What a solution visitor tells the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop now.
    Stop,
}

/// The caller's visitor behind an engine that reports several boards per
/// solution it finds (the images of a symmetry-broken search) or searches
/// without the solution limit (parallel workers): it counts what it passes
/// on and stops the search at `max_solutions`.
///
/// Invariant: `reported` solutions went to the visitor; `full` is set
/// exactly when the last of them reached the limit.
pub struct Reporter<'v> {
    visit: &'v mut dyn FnMut(&[OptionId]) -> Flow,
    max: Option<u64>,
    /// Solutions passed to the visitor.
    pub reported: u64,
    /// The solution limit ended the search.
    pub full: bool,
    image: Vec<OptionId>,
}

impl<'v> Reporter<'v> {
    /// A reporter to `visit` under `limits.max_solutions`.
    pub fn new(limits: &Limits, visit: &'v mut dyn FnMut(&[OptionId]) -> Flow) -> Self {
        Reporter { visit, max: limits.max_solutions, reported: 0, full: false, image: Vec::new() }
    }

    /// `limits` without the solution limit, which the reporter counts:
    /// the limits for the search behind it.
    pub fn inner_limits(limits: &Limits) -> Limits {
        Limits { max_solutions: None, ..limits.clone() }
    }

    /// Passes one solution on.
    pub fn report(&mut self, ids: &[OptionId]) -> Flow {
        self.reported += 1;
        if (self.visit)(ids) == Flow::Stop {
            return Flow::Stop;
        }
        if self.max.is_some_and(|m| self.reported >= m) {
            self.full = true;
            return Flow::Stop;
        }
        Flow::Continue
    }

    /// Passes on `ids` and its images under each option map of `images`.
    pub fn report_with_images(&mut self, ids: &[OptionId], images: &[Vec<OptionId>]) -> Flow {
        if self.report(ids) == Flow::Stop {
            return Flow::Stop;
        }
        let mut image = std::mem::take(&mut self.image);
        let mut flow = Flow::Continue;
        for map in images {
            image.clear();
            image.extend(ids.iter().map(|&o| map[o as usize]));
            flow = self.report(&image);
            if flow == Flow::Stop {
                break;
            }
        }
        self.image = image;
        flow
    }

    /// Why the search behind the reporter stopped, as its caller sees it:
    /// a visitor stop this reporter asked for is the solution limit.
    pub fn stopped(&self, search: Option<StopReason>) -> Option<StopReason> {
        match search {
            Some(StopReason::Visitor) if self.full => Some(StopReason::SolutionLimit),
            other => other,
        }
    }
}

/// A search engine over a problem whose solutions are reported as IR option
/// ids (engines with their own model, like the edge-matching backtracker,
/// translate their placements to option ids), so verification, symmetry
/// filtering and rendering are shared by all of them.
pub trait Engine {
    /// Name and configuration, for reports (e.g. `dlx min-fit`).
    fn describe(&self) -> String;
    /// Enumerates solutions until exhaustion, a limit, or `visit` returning
    /// [`Flow::Stop`]; `stats.solutions` counts solutions visited.
    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats;
    /// An estimate of the number of nodes of the whole search tree (Knuth's
    /// estimator: the mean over `probes` random root-to-leaf paths, seeded
    /// by `seed`, of the product of the branching degrees), for progress
    /// displays ([`progress::Progress::set_estimated_nodes`]).
    /// `None` when the engine cannot estimate (the default). Must leave the
    /// engine ready to [`run`](Engine::run).
    fn estimate_nodes(&mut self, _probes: u32, _seed: u64) -> Option<f64> {
        None
    }
    /// Knuth's estimate of the whole search in full (`--estimate` on edge
    /// matching): from `probes` random paths seeded by `seed`, the nodes as
    /// [`Engine::run`] counts them and the solutions the search finds
    /// (before [`Engine::solution_weight`]), with their standard errors, and
    /// the nodes by depth (cells filled); no rate ([`knuth::with_rate`]
    /// adds one). `None` when the engine cannot (the default). Must leave the
    /// engine ready to run.
    fn knuth_estimate(&mut self, _probes: u64, _seed: u64) -> Option<Estimate> {
        None
    }
    /// How many solutions each solution the search finds stands for (itself
    /// and its images under the engine's symmetry breaking); 1 by default.
    fn solution_weight(&self) -> u64 {
        1
    }
    /// Engine-specific counters of the latest run (name, value), e.g. the
    /// CP engine's backjumps and shaving probes; empty by default.
    fn counters(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
    /// Why the last [`Engine::run`] failed, for engines that can fail at run
    /// time (an external solver that crashed or printed garbage); such a run
    /// reports `stopped: Interrupted` and the CLI prints this error.
    fn error(&self) -> Option<String> {
        None
    }
}
