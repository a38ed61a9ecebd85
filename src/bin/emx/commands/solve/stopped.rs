//! `emx solve` stopped before its search (a time limit, Ctrl-C or the
//! memory limit while reading, building the model or setting up the
//! engine), and the memory limit's stop reason.

use super::args::{SolveArgs, SolveFormat};
use crate::usage::EXIT_LIMIT;
use emx::backend::BackendError;
use emx::frontend::{stop_phrase, LoadError};
use emx::input::LoadOptions;
use emx::memory::Watcher;
use emx::search::{Limits, StopReason};
use emx::solve::SolveReport;
use serde_json::json;

/// How `emx solve ARGS` loads its puzzle: the size cap, the memory limit
/// with the engine whose tables it counts, the run's deadline and the
/// cancellation flag.
pub fn load_options(limits: &Limits, args: &SolveArgs) -> LoadOptions {
    let backend = if args.sat_solver.is_some() { "sat".to_string() } else { args.backend.clone() };
    LoadOptions {
        max_size: args.max_size,
        deadline: limits.deadline,
        cpu_budget: limits.cpu_budget,
        cancel: limits.cancel.clone(),
        memory_limit: args.memory_limit.map(|cap| cap.bytes),
        backend,
    }
}

/// The stop reason the memory watcher stands behind: an `Interrupted`
/// caused by the watcher is a `MemoryLimit`.
fn relabel_reason(reason: StopReason, memory: Option<&Watcher>) -> StopReason {
    match reason {
        StopReason::Interrupted if memory.is_some_and(Watcher::tripped) => StopReason::MemoryLimit,
        r => r,
    }
}

/// The report of a search the memory watcher stopped says so.
pub fn relabel(mut report: SolveReport, memory: Option<&Watcher>) -> SolveReport {
    report.stats.stopped = report.stats.stopped.map(|r| relabel_reason(r, memory));
    report
}

/// Handles an error of the loading or the engine set-up: a stop (deadline,
/// Ctrl-C, memory) is a clean end, exit code 3, with a summary saying that
/// nothing was searched (a JSON object with `--format json`); any other
/// error is returned.
pub fn before_search(args: &SolveArgs, err: anyhow::Error, memory: Option<&Watcher>) -> anyhow::Result<u8> {
    let (file, reason, phase) = match (err.downcast_ref::<LoadError>(), err.downcast_ref::<BackendError>()) {
        (Some(LoadError::Stopped { file, reason }), _) => (file.clone(), *reason, "building the model"),
        (_, Some(BackendError::Stopped { file, reason })) => (file.clone(), *reason, "setting up the engine"),
        _ => return Err(err),
    };
    let reason = relabel_reason(reason, memory);
    let words = crate::report::stop_words(reason);
    let message = format!("{file}: {} while {phase}; nothing was searched", stop_phrase(reason));
    match args.format {
        SolveFormat::Json | SolveFormat::Jsonl => {
            // For jsonl, this object is the summary line that ends the output.
            let mut v = json!({
                "command": "solve",
                "file": file,
                "backend": args.backend,
                "solutions": 0,
                "found": 0,
                "searched": 0,
                "complete": false,
                "stopped": reason,
                "stopped_while": phase,
                "nodes": 0,
                "time_s": 0.0,
                "solution_list": [],
            });
            if args.format == SolveFormat::Jsonl {
                v.as_object_mut().expect("an object").remove("solution_list");
            }
            crate::output::write(args.output.as_deref(), &format!("{v}\n"))?;
            eprintln!("{message}");
        }
        SolveFormat::Text => {
            let text = format!(
                "{message}\nsolutions: 0 (nothing was searched)\nstopped: {words} (the search did not start)\n"
            );
            crate::output::write(args.output.as_deref(), &text)?;
        }
        // Nothing to draw: no picture or board file is written.
        SolveFormat::Svg | SolveFormat::Board | SolveFormat::Bucas => {
            eprintln!("{message}\nstopped: {words} (the search did not start)")
        }
    }
    Ok(EXIT_LIMIT)
}
