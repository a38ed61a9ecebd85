//! Running a search for the CLI and for tests: modes (count, all, first N),
//! the unique-solution filter, and verification of every kept solution.

use crate::ir::{Equivalence, Problem, Solution, UniqueFilter};
use crate::search::{Engine, Flow, Limits, SearchStats, StopReason};

/// What to enumerate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Count every solution, keep the first for display.
    Count,
    /// Count and keep every solution.
    All,
    /// Stop after this many (unique, when filtering) solutions.
    First(u64),
}

/// Options of one solve.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// Mode; `None` means [`Mode::Count`].
    pub mode: Option<Mode>,
    /// Which solutions count as the same.
    pub equivalence: Equivalence,
    /// Node/time/cancellation limits (the solution limit comes from `mode`).
    pub limits: Limits,
}

/// The outcome of a solve.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SolveReport {
    /// The engine and its configuration.
    pub engine: String,
    /// Solutions reported: classes under `equivalence` (all solutions when
    /// it is `None`).
    pub reported: u64,
    /// Solutions the engine enumerated (every symmetric copy counted).
    pub found: u64,
    /// Under which equivalence `reported` counts.
    pub equivalence: Equivalence,
    /// Kept solutions (representatives of their class), each verified.
    #[serde(skip)]
    pub solutions: Vec<Solution>,
    /// Engine statistics.
    pub stats: SearchStats,
}

impl SolveReport {
    /// Whether the search ended because a user-set limit was reached before
    /// the requested work was done.
    pub fn hit_limit(&self) -> bool {
        self.stats.hit_limit()
    }
}

/// A solution failed verification: a solver bug, never a user error.
#[derive(Debug, thiserror::Error)]
#[error("internal error: the engine reported an invalid solution ({reason}); options {options:?}")]
pub struct UnverifiedSolution {
    /// What the verifier said.
    pub reason: String,
    /// The offending option ids.
    pub options: Vec<u32>,
}

/// Runs `engine` on `problem`, keeping solutions per `opts.mode`, checking
/// each found solution with `verify` (which should check the puzzle itself,
/// not only the exact cover).
pub fn solve(
    engine: &mut dyn Engine,
    problem: &Problem,
    opts: &SolveOptions,
    verify: &dyn Fn(&Solution) -> Result<(), String>,
) -> Result<SolveReport, UnverifiedSolution> {
    let mut kept = Vec::new();
    let mut report = solve_streaming(engine, problem, opts, verify, &mut |s| {
        kept.push(s.clone());
        Flow::Continue
    })?;
    report.solutions = kept;
    Ok(report)
}

/// [`solve`], handing each kept solution to `keep` as it is found instead
/// of collecting them (the report's `solutions` stay empty), so that a run
/// listing millions of solutions holds none of them: `keep` sees the first
/// solution in [`Mode::Count`], every one in [`Mode::All`] and
/// [`Mode::First`], each verified and, under an equivalence, the first of
/// its class. `keep` may stop the search ([`Flow::Stop`]: the report says
/// [`StopReason::Visitor`]).
pub fn solve_streaming(
    engine: &mut dyn Engine,
    problem: &Problem,
    opts: &SolveOptions,
    verify: &dyn Fn(&Solution) -> Result<(), String>,
    keep: &mut dyn FnMut(&Solution) -> Flow,
) -> Result<SolveReport, UnverifiedSolution> {
    let mode = opts.mode.unwrap_or(Mode::Count);
    // Prepared at the first solution: on several threads, while the
    // workers search rather than before they start.
    let mut filter: Option<UniqueFilter> = None;
    let mut reported = 0u64;
    let mut stopped_by_keep = false;
    let mut failure = None;
    // One buffer for the solution under check, copied only when kept.
    let mut solution = Solution { options: Vec::new() };
    let stats = engine.run(&opts.limits, &mut |options| {
        if let Some(progress) = &opts.limits.progress {
            progress.add_solution();
        }
        solution.options.clear();
        solution.options.extend_from_slice(options);
        if let Err(reason) = verify(&solution) {
            failure = Some(UnverifiedSolution { reason, options: solution.options.clone() });
            return Flow::Stop;
        }
        if !filter.get_or_insert_with(|| UniqueFilter::new(&problem.symmetries, opts.equivalence)).insert(options) {
            return Flow::Continue;
        }
        reported += 1;
        let wanted = match mode {
            Mode::Count => reported == 1,
            Mode::All | Mode::First(_) => true,
        };
        if wanted && keep(&solution) == Flow::Stop {
            stopped_by_keep = true;
            return Flow::Stop;
        }
        match mode {
            Mode::First(n) if reported >= n => Flow::Stop,
            _ => Flow::Continue,
        }
    });
    if let Some(f) = failure {
        return Err(f);
    }
    let mut stats = stats;
    if stats.stopped == Some(StopReason::Visitor) && !stopped_by_keep {
        stats.stopped = Some(StopReason::SolutionLimit);
    }
    // An engine that searched one solution per symmetry class reports the
    // fixed-box count those classes stand for; when it listed solutions
    // one by one (every copy expanded) and was cut short, only what it
    // listed was found.
    let found = match (mode, stats.fixed_box) {
        (Mode::Count, Some(fixed)) => fixed,
        (_, Some(fixed)) if stats.stopped.is_none() => fixed,
        _ => stats.solutions,
    };
    if opts.equivalence == Equivalence::None && mode == Mode::Count {
        // Every solution counts: the classes searched stand for `found`.
        reported = found;
    }
    Ok(SolveReport {
        engine: engine.describe(),
        reported,
        found,
        equivalence: opts.equivalence,
        solutions: Vec::new(),
        stats,
    })
}
