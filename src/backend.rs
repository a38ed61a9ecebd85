//! The registry of solving back-ends: one name per engine, each built for an
//! [`Instance`]. A back-end that does not apply to an instance says so
//! with an error; none silently falls back to another.

use crate::dlx::Dlx;
use crate::edgematch::cp::{CpConfig, CpEngine};
use crate::edgematch::scan::{Scan, ScanConfig};
use crate::input::{Instance, InstanceKind};
use crate::ir::Equivalence;
use crate::poly::{PolyConfig, PolyEngine};
use crate::search::Engine;

pub mod pick;

use pick::{AutoPick, Decision};

/// Back-end names accepted by `--backend`.
pub const NAMES: &[&str] = &["auto", "dlx", "poly", "scan", "cp", "sat"];

/// Why a back-end cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BackendError {
    /// Unknown name.
    #[error("unknown backend `{0}`: expected one of {names}", names = NAMES.join(", "))]
    Unknown(String),
    /// The back-end does not handle this kind of puzzle or configuration.
    #[error("backend `{backend}` cannot solve {file}: {reason}")]
    NotApplicable {
        /// Back-end name.
        backend: String,
        /// Instance file.
        file: String,
        /// Why.
        reason: String,
    },
    /// The engine's set-up was stopped by [`BackendConfig::stop`].
    #[error("{}: {} while setting up the engine; nothing was searched", .file, crate::frontend::stop_phrase(*.reason))]
    Stopped {
        /// Instance file.
        file: String,
        /// Why.
        reason: crate::search::StopReason,
    },
}

/// Per-run settings that back-ends may read.
#[derive(Clone, Debug, Default)]
pub struct BackendConfig {
    /// Configuration of the `cp` back-end (`--cp`).
    pub cp: CpConfig,
    /// `--sat-solver`: `None` for varisat in-process, otherwise a solver
    /// name (`kissat`, `cadical`, `minisat`) or a path.
    pub sat_solver: Option<String>,
    /// CNF encoding options for the `sat` back-end.
    pub cnf: emx_encoders::CnfOptions,
    /// Which solutions the caller identifies (`--unique`); engines that
    /// break symmetries use it to report one copy per class.
    pub equivalence: Equivalence,
    /// Settings of the polycube engines (`poly`, and `auto` on polycube
    /// puzzles).
    pub poly: PolyConfig,
    /// Settings of the `scan` back-end (`--scan`).
    pub scan: ScanConfig,
    /// Worker threads of the edge-matching back-ends `cp` and `scan`
    /// (`--threads`); 0 and 1 search on the calling thread.
    pub threads: usize,
    /// How `auto` picks between cp and scan on edge-matching puzzles
    /// (`--auto-pick`; the caller passes [`AutoPick::Rule`] when only the
    /// first solutions are wanted).
    pub auto_pick: AutoPick,
    /// Stops a long set-up (the DLX matrix of a large model) at a deadline
    /// or a cancellation ([`BackendError::Stopped`]).
    pub stop: crate::search::StopCheck,
}

/// Builds the engine `name` for `instance`. `auto` picks the best engine
/// emx has for the instance.
pub fn make<'a>(
    name: &str,
    instance: &'a Instance,
    config: &BackendConfig,
) -> Result<Box<dyn Engine + 'a>, BackendError> {
    make_explained(name, instance, config).map(|(engine, _)| engine)
}

/// [`make`], with what `auto` picked on an edge-matching puzzle and why.
pub fn make_explained<'a>(
    name: &str,
    instance: &'a Instance,
    config: &BackendConfig,
) -> Result<(Box<dyn Engine + 'a>, Option<Decision>), BackendError> {
    let poly = || {
        let mut c = config.poly.clone();
        c.equivalence = config.equivalence;
        PolyEngine::new(instance.problem(), &c)
    };
    let dlx = || -> Result<Box<dyn Engine + 'a>, BackendError> {
        Dlx::new_checked(instance.problem(), &config.stop)
            .map(|d| Box::new(d) as Box<dyn Engine>)
            .map_err(|reason| BackendError::Stopped { file: instance.file.clone(), reason })
    };
    let not_applicable =
        |reason: String| BackendError::NotApplicable { backend: name.to_string(), file: instance.file.clone(), reason };
    let cp = |e: &'a crate::input::EdgeInstance| -> Result<Box<dyn Engine + 'a>, BackendError> {
        // A re-chosen branching (after a refutation) is not a decision a
        // worker can replay: its subtree also excludes the refuted value.
        if config.threads > 1 && config.cp.refutation && config.cp.rechoose {
            return Err(not_applicable("`--cp rechoose` runs on one thread only (drop --threads or rechoose)".into()));
        }
        Ok(Box::new(CpEngine::new(&e.puzzle, &e.problem, config.cp.clone()).with_threads(config.threads)))
    };
    let engine: Result<Box<dyn Engine + 'a>, BackendError> = match name {
        // The best engine for the instance. Polycubes: the polycube engines
        // when they handle the puzzle (an error in the user's poly settings
        // is reported, not bypassed). Edge matching: the scan backtracker,
        // far faster than DLX on every bundled board (benches/edgematch.rs);
        // DLX when scan's colour table would be too large. Plain DLX
        // otherwise.
        "auto" => match &instance.kind {
            InstanceKind::Polycube(_) if instance.poly_handles() => {
                poly().map(|e| Box::new(e) as Box<dyn Engine>).map_err(not_applicable)
            }
            // The CP engine where it is faster: boards of 64+ cells with few
            // inner colours (`prefer_cp`, docs/tried/cp.md, "`auto`'s pick
            // between cp and scan"); with `--auto-pick estimate`, at the
            // rule's bound the cheaper by estimates (`pick`).
            InstanceKind::EdgeMatch(e) => {
                return auto_edge(e, instance, config, cp);
            }
            _ => dlx(),
        },
        "dlx" => dlx(),
        "poly" => match &instance.kind {
            InstanceKind::Polycube(_) => poly().map(|e| Box::new(e) as Box<dyn Engine>).map_err(not_applicable),
            _ => Err(not_applicable("the polycube engines solve polyomino/polycube puzzles only".into())),
        },
        "scan" => match &instance.kind {
            InstanceKind::EdgeMatch(e) => Scan::with_config(&e.puzzle, &e.problem, config.scan)
                .map(|s| Box::new(s.with_threads(config.threads)) as Box<dyn Engine>)
                .map_err(not_applicable),
            InstanceKind::Polycube(_) | InstanceKind::Cover(_) => {
                Err(not_applicable("the scan backtracker solves edge-matching puzzles only".into()))
            }
        },
        "sat" => {
            let solver = match &config.sat_solver {
                None => crate::encode::sat::SatSolver::Varisat,
                Some(spec) => crate::encode::sat::resolve(spec).map_err(not_applicable)?,
            };
            Ok(Box::new(crate::encode::sat::SatEngine::new(instance.problem(), solver, config.cnf.clone())))
        }
        "cp" => match &instance.kind {
            InstanceKind::EdgeMatch(e) => cp(e),
            InstanceKind::Polycube(_) | InstanceKind::Cover(_) => Err(BackendError::NotApplicable {
                backend: name.to_string(),
                file: instance.file.clone(),
                reason: "the CP engine solves edge-matching puzzles only".into(),
            }),
        },
        other => Err(BackendError::Unknown(other.to_string())),
    };
    Ok((engine?, None))
}

/// `auto` on an edge-matching puzzle: cp or scan by the colour-count rule,
/// or near its bound by estimates of both trees ([`pick`]); DLX when scan
/// cannot take the puzzle and the rule does not give it to cp.
fn auto_edge<'a>(
    e: &'a crate::input::EdgeInstance,
    instance: &'a Instance,
    config: &BackendConfig,
    cp: impl Fn(&'a crate::input::EdgeInstance) -> Result<Box<dyn Engine + 'a>, BackendError>,
) -> Result<(Box<dyn Engine + 'a>, Option<Decision>), BackendError> {
    let rule = Decision::by_rule(&e.puzzle);
    if config.auto_pick == AutoPick::Estimate && pick::in_band(&e.puzzle) {
        if let Ok(scan) = Scan::with_config(&e.puzzle, &e.problem, config.scan) {
            let start = std::time::Instant::now();
            let mut cp_engine = CpEngine::new(&e.puzzle, &e.problem, config.cp.clone());
            let cp_nodes = cp_engine.estimate(pick::CP_PROBES, pick::SEED).nodes;
            let scan_nodes = scan.estimate(pick::SCAN_PROBES, pick::SEED).nodes;
            let estimates = pick::Estimates::new(cp_nodes, scan_nodes, e.puzzle.n_cells());
            let engine = estimates.cheaper();
            let decision = Decision { engine, estimates: Some(estimates), cost: start.elapsed().as_secs_f64() };
            return Ok(match engine {
                // The estimate leaves the engine ready to run.
                pick::Engine::Cp => (Box::new(cp_engine.with_threads(config.threads)), Some(decision)),
                pick::Engine::Scan => (Box::new(scan.with_threads(config.threads)), Some(decision)),
            });
        }
    }
    if rule.engine == pick::Engine::Cp {
        return Ok((cp(e)?, Some(rule)));
    }
    match Scan::with_config(&e.puzzle, &e.problem, config.scan) {
        Ok(scan) => Ok((Box::new(scan.with_threads(config.threads)), Some(rule))),
        Err(why) if config.threads > 1 => Err(BackendError::NotApplicable {
            backend: "auto".into(),
            file: instance.file.clone(),
            reason: format!(
                "scan cannot take this puzzle ({why}) and DLX, which would, runs on one thread: drop --threads"
            ),
        }),
        Err(_) => Ok((Box::new(Dlx::new(instance.problem())), None)),
    }
}
