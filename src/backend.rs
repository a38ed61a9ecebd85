//! The registry of solving back-ends: one name per engine, each built for an
//! [`Instance`]. A back-end that does not apply to an instance says so
//! with an error; none silently falls back to another.

use crate::dlx::Dlx;
use crate::cp::{CpConfig, CpEngine};
use crate::input::{Instance, InstanceKind};
use crate::search::Engine;

/// Back-end names accepted by `--backend`.
pub const NAMES: &[&str] = &["auto", "dlx", "cp"];

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
}

/// Builds the engine `name` for `instance`. `auto` picks the best engine
/// emx has for the instance.
pub fn make<'a>(
    name: &str,
    instance: &'a Instance,
    config: &BackendConfig,
) -> Result<Box<dyn Engine + 'a>, BackendError> {
    match name {
        "auto" | "dlx" => Ok(Box::new(Dlx::new(instance.problem()))),
        "cp" => match &instance.kind {
            InstanceKind::EdgeMatch(e) => Ok(Box::new(CpEngine::new(&e.puzzle, &e.problem, config.cp.clone()))),
            InstanceKind::Polycube(_) => Err(BackendError::NotApplicable {
                backend: name.to_string(),
                file: instance.file.clone(),
                reason: "the CP engine solves edge-matching puzzles only".into(),
            }),
        },
        other => Err(BackendError::Unknown(other.to_string())),
    }
}
