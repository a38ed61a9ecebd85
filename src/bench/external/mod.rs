//! External solvers driven through files: emx writes the program's input,
//! runs it under the time limit, reads its answer back and verifies every
//! solution it reports.
//!
//! # Adding a program
//!
//! Implement [`ExternalBackend`] (four methods: the name, an availability
//! check that says how to install the program when it is missing, how to
//! write its input and command line for a [`Job`], how to read its output
//! into an [`Answer`]) and list it in [`registry`]. The runner
//! ([`run_job`]) does the rest: scratch directory, time limit (the process
//! is killed a little after it), Ctrl-C, verification, the status.
//!
//! Adapters here: [`Cliquer`] (on emx's clique graph), [`Cpsat`] (OR-tools
//! CP-SAT through a Python script) and [`EmxBinary`] (another emx build, to
//! compare versions). The SAT solvers (cadical, kissat, minisat) run
//! through the in-crate `sat` engine, which drives them itself.

mod cliquer;
mod cpsat;
mod emx_binary;
mod process;

pub use cliquer::Cliquer;
pub use cpsat::Cpsat;
pub use emx_binary::EmxBinary;
pub use process::{run_process, ProcessEnd, ProcessRun};

use super::{BenchMode, Measurement, Status};
use crate::input::Instance;
use crate::ir::{Problem, Solution};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// What an external program is asked to do.
pub struct Job<'a> {
    /// The loaded puzzle (to encode it, and to verify the answers).
    pub instance: &'a Instance,
    /// The puzzle file as given (for programs that read emx's inputs).
    pub path: &'a Path,
    /// 1-based puzzle number in the file.
    pub puzzle: usize,
    /// First solution or count.
    pub mode: BenchMode,
    /// The time limit; the program should stop by itself at it.
    pub time_limit: Option<Duration>,
    /// A fresh scratch directory for input and output files.
    pub dir: &'a Path,
}

/// What an external program answered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// Solutions to verify (a program that only counts may return none).
    pub solutions: Vec<Solution>,
    /// Solutions found (for a count: all of them when `complete`).
    pub count: u64,
    /// Whether the search finished: every solution counted, or the first
    /// found, or unsatisfiability proven.
    pub complete: bool,
    /// Search nodes (branches, decisions) if the program reports them.
    pub nodes: Option<u64>,
    /// The program's own description of itself, if it prints one.
    pub engine: Option<String>,
}

/// An external solver (see the module documentation).
pub trait ExternalBackend {
    /// The name used in `--backends` and in reports.
    fn name(&self) -> String;
    /// `Ok(version or description)` when the program can run here; else
    /// why not, with the command that installs it.
    fn availability(&self) -> Result<String, String>;
    /// Writes the program's input for `job` into `job.dir` and returns the
    /// command to run; `Err(reason)` when the program does not apply to the
    /// instance (the pair is then skipped).
    fn prepare(&self, job: &Job<'_>) -> Result<Command, String>;
    /// Reads the program's answer from its output (stdout and stderr are in
    /// `run`, any files it wrote in `job.dir`); `Err` when the output makes
    /// no sense.
    fn parse(&self, job: &Job<'_>, run: &ProcessRun) -> Result<Answer, String>;
}

/// The external programs emx knows by name (for `--backends all`).
pub fn registry() -> Vec<Box<dyn ExternalBackend>> {
    vec![Box::new(Cliquer), Box::new(Cpsat::new())]
}

/// Extra time a program gets past the time limit to stop and print before
/// it is killed.
pub const GRACE: Duration = Duration::from_secs(2);

/// A fresh, empty directory under the system temp directory.
pub fn scratch_dir() -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let k = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("emx-bench-{}-{k}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Runs one job: prepare, run with limits, parse, verify.
pub fn run_job(backend: &dyn ExternalBackend, job: &Job<'_>, cancel: Option<&AtomicBool>) -> Measurement {
    let name = backend.name();
    let mut command = match backend.prepare(job) {
        Ok(c) => c,
        Err(reason) => return Measurement::skipped(name, reason),
    };
    let kill_at = job.time_limit.map(|t| t + GRACE);
    let run = match run_process(&mut command, job.dir, kill_at, cancel) {
        Ok(r) => r,
        Err(e) => return Measurement::error(name, Duration::ZERO, format!("could not start {command:?}: {e}")),
    };
    let stopped = match run.end {
        ProcessEnd::Killed => Some(Status::Timeout),
        ProcessEnd::Interrupted => Some(Status::Interrupted),
        ProcessEnd::Exited(_) => None,
    };
    if let Some(status) = stopped {
        return Measurement { status, solutions: 0, nodes: None, time: run.elapsed, engine: name, reason: None };
    }
    let answer = match backend.parse(job, &run) {
        Ok(a) => a,
        Err(why) => {
            let tail: String = run.stderr.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
            let why = if tail.is_empty() { why } else { format!("{why} (stderr: {tail})") };
            return Measurement::error(name, run.elapsed, why);
        }
    };
    let engine = answer.engine.clone().unwrap_or_else(|| name.clone());
    for (k, s) in answer.solutions.iter().enumerate() {
        if let Err(why) = job.instance.verify(s) {
            return Measurement::error(engine, run.elapsed, format!("solution {} does not verify: {why}", k + 1));
        }
    }
    let status = match (answer.complete, job.mode) {
        (true, BenchMode::Count) => Status::Count,
        (true, BenchMode::First) if answer.count > 0 => Status::Solved,
        (true, BenchMode::First) => Status::Unsat,
        (false, BenchMode::First) if answer.count > 0 => Status::Solved,
        (false, _) => Status::Timeout,
    };
    Measurement { status, solutions: answer.count, nodes: answer.nodes, time: run.elapsed, engine, reason: None }
}

/// Whether `program` can be started (searching `PATH` like the shell).
pub fn find_program(program: &str) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|d| d.join(program))
        .find(|f| f.is_file())
}

/// Writes the IR as JSON for programs that build their own model from it:
///
/// ```json
/// {"name": "…",
///  "items": [{"name": "…", "primary": true, "multiplicity": 1}, …],
///  "colors": ["", "1", …],
///  "options": [[[item, color], …], …]}
/// ```
///
/// Items are numbered from 0 in the order given, primary items first;
/// colour 0 means "uncoloured" (an exclusive use of a secondary item). The
/// solution of the problem is a set of option indices (0-based).
pub fn write_ir_json(problem: &Problem, out: &mut dyn Write) -> io::Result<()> {
    write!(out, "{{\"name\":{},\"items\":[", serde_json::to_string(&problem.name)?)?;
    for (k, item) in problem.items().iter().enumerate() {
        let sep = if k > 0 { "," } else { "" };
        let m = problem.multiplicity(k as u32);
        write!(
            out,
            "{sep}{{\"name\":{},\"primary\":{},\"multiplicity\":{m}}}",
            serde_json::to_string(&item.name)?,
            m > 0
        )?;
    }
    write!(out, "],\"colors\":{},\"options\":[", serde_json::to_string(problem.colors())?)?;
    for (o, entries) in problem.options().enumerate() {
        out.write_all(if o > 0 { b",[" } else { b"[" })?;
        for (k, e) in entries.iter().enumerate() {
            let sep = if k > 0 { "," } else { "" };
            write!(out, "{sep}[{},{}]", e.item, e.color)?;
        }
        out.write_all(b"]")?;
    }
    out.write_all(b"]}\n")
}
