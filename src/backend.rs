//! The registry of solving back-ends: one name per engine, each built for an
//! [`Instance`]. A back-end that does not apply to an instance says so
//! with an error; none silently falls back to another.

use crate::cp::{CpConfig, CpEngine};
use crate::dlx::Dlx;
use crate::edgematch::scan::Scan;
use crate::input::{Instance, InstanceKind};
use crate::search::Engine;

/// Back-end names accepted by `--backend`.
pub const NAMES: &[&str] = &["auto", "dlx", "scan", "sat", "cp"];

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
}

/// Builds the engine `name` for `instance`. `auto` picks the best engine
/// emx has for the instance.
pub fn make<'a>(
    name: &str,
    instance: &'a Instance,
    config: &BackendConfig,
) -> Result<Box<dyn Engine + 'a>, BackendError> {
    match name {
        // Edge matching: the scan backtracker enumerates set-2 6x6 about 30
        // times faster than DLX (benches/edgematch.rs); DLX when scan's
        // colour table would be too large.
        "auto" => match &instance.kind {
            // The CP engine where it was measured faster (docs/cp.md):
            // boards of 64+ cells with at most `min(rows, cols)` inner
            // colours (Benoist 8x8 K=8: 1.3 s against scan's 6.3 s).
            InstanceKind::EdgeMatch(e) if crate::cp::prefer_cp(&e.puzzle) => {
                Ok(Box::new(CpEngine::new(&e.puzzle, &e.problem, config.cp.clone())))
            }
            InstanceKind::EdgeMatch(e) => match Scan::new(&e.puzzle, &e.problem) {
                Ok(scan) => Ok(Box::new(scan)),
                Err(_) => Ok(Box::new(Dlx::new(instance.problem()))),
            },
            InstanceKind::Polycube(_) | InstanceKind::Cover(_) => Ok(Box::new(Dlx::new(instance.problem()))),
        },
        "dlx" => Ok(Box::new(Dlx::new(instance.problem()))),
        "scan" => match &instance.kind {
            InstanceKind::EdgeMatch(e) => {
                Scan::new(&e.puzzle, &e.problem).map(|s| Box::new(s) as Box<dyn Engine>).map_err(|reason| {
                    BackendError::NotApplicable { backend: name.into(), file: instance.file.clone(), reason }
                })
            }
            InstanceKind::Polycube(_) | InstanceKind::Cover(_) => Err(BackendError::NotApplicable {
                backend: name.into(),
                file: instance.file.clone(),
                reason: "the scan backtracker solves edge-matching puzzles only".into(),
            }),
        },
        "sat" => {
            let solver = match &config.sat_solver {
                None => crate::encode::sat::SatSolver::Varisat,
                Some(spec) => crate::encode::sat::resolve(spec).map_err(|reason| BackendError::NotApplicable {
                    backend: name.to_string(),
                    file: instance.file.clone(),
                    reason,
                })?,
            };
            Ok(Box::new(crate::encode::sat::SatEngine::new(instance.problem(), solver, config.cnf.clone())))
        }
        "cp" => match &instance.kind {
            InstanceKind::EdgeMatch(e) => Ok(Box::new(CpEngine::new(&e.puzzle, &e.problem, config.cp.clone()))),
            InstanceKind::Polycube(_) | InstanceKind::Cover(_) => Err(BackendError::NotApplicable {
                backend: name.to_string(),
                file: instance.file.clone(),
                reason: "the CP engine solves edge-matching puzzles only".into(),
            }),
        },
        other => Err(BackendError::Unknown(other.to_string())),
    }
}
