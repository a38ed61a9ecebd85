//! Comparing backends side by side (`emx bench`): every backend on every
//! instance, interleaved (run 1 of every pair, then run 2, …, so a change
//! of machine load hits all backends alike), each run under the same
//! limits, every reported solution verified; per pair the median run is
//! reported.
//!
//! Backends are the in-crate engines of [`crate::backend`] (whatever
//! [`backend::NAMES`] lists) and external programs driven through files
//! ([`external::ExternalBackend`]). A backend that does not apply to an
//! instance, or an external program that is not installed, gives a
//! `skipped` row with the reason.

pub mod external;
pub mod report;
mod summary;

use crate::backend::{self, BackendConfig, BackendError};
use crate::input::Instance;
use crate::search::{Limits, StopReason};
use crate::solve::{solve, Mode, SolveOptions};
use external::{ExternalBackend, Job};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use summary::{disagreements, summarise};

/// What each run must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BenchMode {
    /// Find one solution (or prove there is none).
    First,
    /// Count every solution (every symmetric copy counted).
    Count,
}

/// Limits and repetitions of a benchmark.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// First solution or full count.
    pub mode: BenchMode,
    /// Runs per (instance, backend) pair (at least 1).
    pub runs: usize,
    /// Per-run time limit.
    pub time_limit: Option<Duration>,
    /// Per-run node limit (in-crate engines only; external programs have no
    /// comparable notion).
    pub node_limit: Option<u64>,
    /// Set by Ctrl-C: the current run stops, no further run starts.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig { mode: BenchMode::First, runs: 1, time_limit: None, node_limit: None, cancel: None }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A solution was found (mode `first`).
    Solved,
    /// Every solution was enumerated (mode `count`).
    Count,
    /// The search space was exhausted without a solution.
    Unsat,
    /// The time limit stopped the run.
    Timeout,
    /// The node limit stopped the run.
    NodeLimit,
    /// Ctrl-C stopped the run.
    Interrupted,
    /// The backend failed: an invalid solution, a crash, unreadable output.
    Error,
    /// The backend does not apply to the instance or is not installed.
    Skipped,
}

impl Status {
    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Count => "count",
            Status::Unsat => "unsat",
            Status::Timeout => "timeout",
            Status::NodeLimit => "node_limit",
            Status::Interrupted => "interrupted",
            Status::Error => "error",
            Status::Skipped => "skipped",
        }
    }
    /// Whether the run answered the question (found, counted or refuted).
    pub fn answered(self) -> bool {
        matches!(self, Status::Solved | Status::Count | Status::Unsat)
    }
}

/// One run of one backend on one instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// How it ended.
    pub status: Status,
    /// Solutions found (all of them for `count`, partial when stopped).
    pub solutions: u64,
    /// Search nodes, when the backend reports them.
    pub nodes: Option<u64>,
    /// Wall time of the run.
    pub time: Duration,
    /// The engine's own description (e.g. `dlx min-fit`, `ortools 9.11`).
    pub engine: String,
    /// Why it was skipped or failed, or a remark.
    pub reason: Option<String>,
}

impl Measurement {
    fn skipped(engine: String, reason: String) -> Self {
        Measurement {
            status: Status::Skipped,
            solutions: 0,
            nodes: None,
            time: Duration::ZERO,
            engine,
            reason: Some(reason),
        }
    }
    fn error(engine: String, time: Duration, reason: String) -> Self {
        Measurement { status: Status::Error, solutions: 0, nodes: None, time, engine, reason: Some(reason) }
    }
}

/// A backend taking part in a benchmark.
pub enum Backend {
    /// An engine of [`crate::backend`], by name.
    InCrate(String),
    /// An engine of [`crate::backend`] with settings, shown as `label`: the
    /// `sat` engine on an external SAT solver (`cadical`, `kissat`,
    /// `minisat`, `sat=PATH`).
    Configured {
        /// Name in reports and in `--backends`.
        label: String,
        /// The [`crate::backend`] name.
        engine: String,
        /// Its settings.
        config: Box<BackendConfig>,
    },
    /// An in-crate engine set up per instance (`emx bench --variant
    /// LABEL=FLAGS`, from `emx solve` flags). Invariant: `setups[i]` is
    /// instance `i`'s engine name and settings, or why the flags do not act
    /// on it (its row is then skipped with that reason).
    PerInstance {
        /// Name in reports.
        label: String,
        /// The flags as given (the backend's description).
        detail: String,
        /// Per instance, in the order the instances are given.
        setups: Vec<Result<(String, BackendConfig), String>>,
        /// Runs the set-up instances in a child emx instead (an engine that
        /// cannot be interrupted: [`UNINTERRUPTIBLE`]).
        child: Option<Box<external::EmxBinary>>,
    },
    /// A program run through files.
    External(Box<dyn ExternalBackend>),
}

impl Backend {
    /// The name shown in reports.
    pub fn name(&self) -> String {
        match self {
            Backend::InCrate(n) => n.clone(),
            Backend::Configured { label, .. } | Backend::PerInstance { label, .. } => label.clone(),
            Backend::External(e) => e.name(),
        }
    }
    /// `Ok(description)` when usable, else why not.
    pub fn availability(&self) -> Result<String, String> {
        match self {
            Backend::InCrate(n) => Ok(n.clone()),
            Backend::Configured { config, engine, .. } => match &config.sat_solver {
                Some(spec) => crate::encode::sat::resolve(spec).map(|s| match s {
                    crate::encode::sat::SatSolver::External { path, .. } => format!("{engine} on {}", path.display()),
                    crate::encode::sat::SatSolver::Varisat => format!("{engine} on varisat"),
                }),
                None => Ok(engine.clone()),
            },
            Backend::PerInstance { detail, .. } => Ok(detail.clone()),
            Backend::External(e) => e.availability(),
        }
    }

    /// The `sat` engine on the external solver `spec` (a name or a path).
    fn sat_solver(label: &str, spec: &str) -> Backend {
        Backend::Configured {
            label: label.to_string(),
            engine: "sat".into(),
            config: Box::new(BackendConfig { sat_solver: Some(spec.to_string()), ..BackendConfig::default() }),
        }
    }
}

/// Every backend name `--backends` accepts (besides `all`, `emx=PATH` and
/// `sat=PATH`): the in-crate engines except `auto`, the SAT solvers the
/// `sat` engine can drive, then the external programs.
pub fn backend_names() -> Vec<String> {
    let mut names: Vec<String> = backend::NAMES.iter().filter(|&&n| n != "auto").map(|n| n.to_string()).collect();
    names.extend(crate::encode::sat::KNOWN_SOLVERS.iter().map(|s| s.to_string()));
    names.extend(external::registry().iter().map(|e| e.name()));
    names
}

/// Parses a `--backends` list: comma-separated names of [`backend_names`],
/// `all` for all of them, `emx=PATH` for another emx binary, `sat=PATH`
/// for a SAT solver binary, `scan:SPEC` for scan with `--scan SPEC`
/// (e.g. `scan:no-symmetry`, the plain tree of the literature).
pub fn parse_backends(list: &str) -> Result<Vec<Backend>, String> {
    let mut out: Vec<Backend> = Vec::new();
    let known_sat = crate::encode::sat::KNOWN_SOLVERS;
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if name == "all" {
            out.extend(backend::NAMES.iter().filter(|&&n| n != "auto").map(|n| Backend::InCrate(n.to_string())));
            out.extend(known_sat.iter().map(|s| Backend::sat_solver(s, s)));
            out.extend(external::registry().into_iter().map(Backend::External));
        } else if let Some(path) = name.strip_prefix("emx=") {
            out.push(Backend::External(Box::new(external::EmxBinary::new(PathBuf::from(path)))));
        } else if let Some(path) = name.strip_prefix("sat=") {
            out.push(Backend::sat_solver(name, path));
        } else if let Some(spec) = name.strip_prefix("scan:") {
            let scan = spec.parse().map_err(|e| format!("`{name}` in --backends: {e}"))?;
            let config = Box::new(BackendConfig { scan, ..BackendConfig::default() });
            out.push(Backend::Configured { label: name.to_string(), engine: "scan".into(), config });
        } else if backend::NAMES.contains(&name) {
            out.push(Backend::InCrate(name.to_string()));
        } else if known_sat.contains(&name) {
            out.push(Backend::sat_solver(name, name));
        } else if let Some(e) = external::registry().into_iter().find(|e| e.name() == name) {
            out.push(Backend::External(e));
        } else {
            return Err(format!(
                "unknown backend `{name}` in --backends: expected a comma-separated list of {}, `all`, `emx=PATH`, `sat=PATH` or `scan:SPEC`",
                backend_names().join(", ")
            ));
        }
    }
    if out.is_empty() {
        return Err("--backends is empty: name at least one backend, or `all`".into());
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|b| seen.insert(b.name()));
    Ok(out)
}

/// In-crate backends whose engine cannot be interrupted inside a call
/// (varisat), so a time limit would not stop them.
pub const UNINTERRUPTIBLE: &[&str] = &["sat"];

/// Runs the [`UNINTERRUPTIBLE`] in-crate backends in child processes of the
/// emx executable `exe` (killed at the time limit), under their own names.
pub fn isolate_uninterruptible(backends: Vec<Backend>, exe: &std::path::Path) -> Vec<Backend> {
    backends
        .into_iter()
        .map(|b| match b {
            Backend::InCrate(name) if UNINTERRUPTIBLE.contains(&name.as_str()) => {
                Backend::External(Box::new(external::EmxBinary::isolated(exe.to_path_buf(), &name)))
            }
            other => other,
        })
        .collect()
}

/// An instance to benchmark: the loaded puzzle and where it came from
/// (external programs that read the original file need the path and the
/// puzzle number).
pub struct BenchInstance {
    /// The loaded puzzle.
    pub instance: Instance,
    /// The file as given.
    pub path: PathBuf,
    /// 1-based puzzle number within the file.
    pub puzzle: usize,
}

impl BenchInstance {
    /// Short label: the puzzle name.
    pub fn label(&self) -> String {
        self.instance.problem().name.clone()
    }
}

/// One (instance, backend) pair over all its runs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Instance file.
    pub instance: String,
    /// Puzzle name.
    pub puzzle: String,
    /// Backend name as given in `--backends`.
    pub backend: String,
    /// The engine's description.
    pub engine: String,
    /// Status of the median run ([`Status::Error`] if any run failed).
    pub status: Status,
    /// Solutions of the median run.
    pub solutions: u64,
    /// Nodes of the median run, when the backend reports nodes.
    pub nodes: Option<u64>,
    /// Median wall time in seconds.
    pub time_s: f64,
    /// Nodes per second of the median run.
    pub nodes_per_s: Option<f64>,
    /// Wall time of every run, in run order.
    pub runs_s: Vec<f64>,
    /// Why the pair was skipped or failed.
    pub reason: Option<String>,
}

/// Backends whose complete answers on one instance contradict each other.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Disagreement {
    /// Instance file.
    pub instance: String,
    /// `(backend, answer)`: `sat`, `unsat`, or a count.
    pub answers: Vec<(String, String)>,
}

/// Everything a benchmark measured.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchReport {
    /// First solution or count.
    pub mode: BenchMode,
    /// Runs per pair.
    pub runs: usize,
    /// Per-run time limit in seconds.
    pub time_limit_s: Option<f64>,
    /// Per-run node limit.
    pub node_limit: Option<u64>,
    /// Each backend with `available` and, when not, the reason.
    pub backends: Vec<BackendInfo>,
    /// One row per (instance, backend), instances in the given order.
    pub rows: Vec<Row>,
    /// Contradicting answers (a bug in some backend).
    pub disagreements: Vec<Disagreement>,
    /// Whether Ctrl-C cut the benchmark short (rows then cover the runs done).
    pub interrupted: bool,
}

/// Availability of a backend.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BackendInfo {
    /// Name.
    pub name: String,
    /// Whether it can run here.
    pub available: bool,
    /// Its version or description when available, why not otherwise.
    pub detail: String,
}

/// What [`run`] tells its observer (for a progress display).
#[derive(Clone, Copy, Debug)]
pub enum BenchEvent<'a> {
    /// A run starts: indices of the instance, the backend, and the run.
    Started {
        /// Index into the instances.
        instance: usize,
        /// Index into the backends.
        backend: usize,
        /// 0-based run number.
        run: usize,
    },
    /// A run ended (or a skip was decided).
    Finished {
        /// Index into the instances.
        instance: usize,
        /// Index into the backends.
        backend: usize,
        /// 0-based run number.
        run: usize,
        /// What it measured.
        measurement: &'a Measurement,
    },
}

/// Receives [`BenchEvent`]s.
pub type Observer<'a> = dyn FnMut(BenchEvent<'_>) + 'a;

fn cancelled(config: &BenchConfig) -> bool {
    config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
}

/// Runs the benchmark: for each run, for each instance, for each backend.
pub fn run(
    instances: &[BenchInstance],
    backends: &[Backend],
    config: &BenchConfig,
    observe: &mut Observer<'_>,
) -> BenchReport {
    let availability: Vec<Result<String, String>> = backends.iter().map(Backend::availability).collect();
    let runs = config.runs.max(1);
    let mut results: Vec<Vec<Vec<Measurement>>> = vec![vec![Vec::new(); backends.len()]; instances.len()];
    let mut interrupted = false;
    'runs: for r in 0..runs {
        for (i, inst) in instances.iter().enumerate() {
            for (b, backend) in backends.iter().enumerate() {
                if cancelled(config) {
                    interrupted = true;
                    break 'runs;
                }
                // A skip is decided once; later runs repeat it for free.
                if let Some(first) = results[i][b].first() {
                    if first.status == Status::Skipped {
                        continue;
                    }
                }
                observe(BenchEvent::Started { instance: i, backend: b, run: r });
                let m = match &availability[b] {
                    Err(why) => Measurement::skipped(backend.name(), why.clone()),
                    Ok(_) => match backend {
                        Backend::InCrate(name) => run_in_crate(name, &BackendConfig::default(), &inst.instance, config),
                        Backend::Configured { engine, config: settings, .. } => {
                            run_in_crate(engine, settings, &inst.instance, config)
                        }
                        Backend::PerInstance { label, setups, child, .. } => match (setups.get(i), child) {
                            (Some(Ok(_)), Some(child)) => run_external(child.as_ref(), inst, config),
                            (Some(Ok((engine, settings))), None) => {
                                run_in_crate(engine, settings, &inst.instance, config)
                            }
                            (Some(Err(why)), _) => Measurement::skipped(label.clone(), why.clone()),
                            (None, _) => Measurement::error(
                                label.clone(),
                                Duration::ZERO,
                                "no settings for this instance".into(),
                            ),
                        },
                        Backend::External(e) => run_external(e.as_ref(), inst, config),
                    },
                };
                observe(BenchEvent::Finished { instance: i, backend: b, run: r, measurement: &m });
                if m.status == Status::Interrupted {
                    interrupted = true;
                }
                results[i][b].push(m);
            }
        }
    }
    let mut rows = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        for (b, backend) in backends.iter().enumerate() {
            if let Some(row) = summarise(inst, &backend.name(), &results[i][b]) {
                rows.push(row);
            }
        }
    }
    let disagreements = disagreements(&rows, config.mode);
    BenchReport {
        mode: config.mode,
        runs,
        time_limit_s: config.time_limit.map(|d| d.as_secs_f64()),
        node_limit: config.node_limit,
        backends: backends
            .iter()
            .zip(&availability)
            .map(|(b, a)| BackendInfo { name: b.name(), available: a.is_ok(), detail: a.clone().unwrap_or_else(|e| e) })
            .collect(),
        rows,
        disagreements,
        interrupted,
    }
}

fn limits(config: &BenchConfig) -> Limits {
    Limits { max_nodes: config.node_limit, cancel: config.cancel.clone(), ..Limits::default() }
        .with_time_limit(config.time_limit)
}

fn status_of_stop(stop: Option<StopReason>, mode: BenchMode, solutions: u64) -> Status {
    match stop {
        None if mode == BenchMode::Count => Status::Count,
        None if solutions > 0 => Status::Solved,
        None => Status::Unsat,
        Some(StopReason::SolutionLimit | StopReason::Visitor) => Status::Solved,
        Some(StopReason::TimeLimit) => Status::Timeout,
        Some(StopReason::NodeLimit) => Status::NodeLimit,
        Some(StopReason::Interrupted | StopReason::MemoryLimit) => Status::Interrupted,
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// One run of an in-crate engine through [`solve`], every solution verified.
///
/// The time includes building the engine (for DLX: the linked matrix), so
/// it compares with an external program's wall time; it excludes verifying
/// the solutions.
pub fn run_in_crate(name: &str, settings: &BackendConfig, instance: &Instance, config: &BenchConfig) -> Measurement {
    let start = Instant::now();
    let mut engine = match backend::make(name, instance, settings) {
        Ok(e) => e,
        Err(BackendError::NotApplicable { reason, .. }) => return Measurement::skipped(name.to_string(), reason),
        Err(e) => return Measurement::error(name.to_string(), Duration::ZERO, e.to_string()),
    };
    let describe = engine.describe();
    let mode = match config.mode {
        BenchMode::First => Mode::First(1),
        BenchMode::Count => Mode::Count,
    };
    let opts = SolveOptions { mode: Some(mode), limits: limits(config), ..SolveOptions::default() };
    // Verification is timed apart and left out of the run's time, as it is
    // for external programs (whose answers are verified after they exit).
    let verifying = std::cell::Cell::new(Duration::ZERO);
    let verify = |s: &crate::ir::Solution| {
        let t = Instant::now();
        let ok = instance.verify(s);
        verifying.set(verifying.get() + t.elapsed());
        ok
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solve(engine.as_mut(), instance.problem(), &opts, &verify)
    }));
    let time = start.elapsed().saturating_sub(verifying.get());
    match outcome {
        Err(p) => Measurement::error(describe, time, format!("the engine panicked: {}", panic_text(p.as_ref()))),
        Ok(Err(bad)) => Measurement::error(describe, time, bad.to_string()),
        Ok(Ok(_)) if engine.error().is_some() => Measurement::error(describe, time, engine.error().unwrap_or_default()),
        Ok(Ok(report)) => {
            let s = &report.stats;
            Measurement {
                status: status_of_stop(s.stopped, config.mode, report.found),
                solutions: report.found,
                nodes: Some(s.nodes),
                time,
                engine: describe,
                reason: None,
            }
        }
    }
}

/// One run of an external program: input written to a fresh directory, the
/// program run under the limits, its answer read back and verified.
pub fn run_external(backend: &dyn ExternalBackend, inst: &BenchInstance, config: &BenchConfig) -> Measurement {
    let name = backend.name();
    let dir = match external::scratch_dir() {
        Ok(d) => d,
        Err(e) => return Measurement::error(name, Duration::ZERO, format!("cannot create a scratch directory: {e}")),
    };
    let job = Job {
        instance: &inst.instance,
        path: &inst.path,
        puzzle: inst.puzzle,
        mode: config.mode,
        time_limit: config.time_limit,
        dir: &dir,
    };
    let m = external::run_job(backend, &job, config.cancel.as_deref());
    let _ = std::fs::remove_dir_all(&dir);
    m
}

#[cfg(test)]
mod tests;
