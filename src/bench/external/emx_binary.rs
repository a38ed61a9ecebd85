//! Another emx build as an external backend (`--backends emx=PATH`), to
//! compare two versions of emx on the same instances in one run: it runs
//! `PATH solve FILE --format json` and verifies the solutions it prints
//! with this build's verifier.

use super::{find_program, Answer, ExternalBackend, Job, ProcessRun};
use crate::bench::BenchMode;
use crate::solution_file::read_solutions;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// An emx executable at a given path, optionally with `--backend NAME`
/// or with the engine flags of a `--variant` (then named by its label).
pub struct EmxBinary {
    path: PathBuf,
    backend: Option<String>,
    /// `emx solve` engine flags and the label they are reported under.
    flags: Option<(String, Vec<String>)>,
}

impl EmxBinary {
    /// The emx at `path` (its default backend).
    pub fn new(path: PathBuf) -> Self {
        EmxBinary { path, backend: None, flags: None }
    }

    /// The in-crate backend `backend` run by the emx at `path` in a child
    /// process, so that it can be killed at the time limit even when the
    /// engine cannot be interrupted (reported under the backend's name).
    pub fn isolated(path: PathBuf, backend: &str) -> Self {
        EmxBinary { path, backend: Some(backend.to_string()), flags: None }
    }

    /// [`EmxBinary::isolated`] for a `--variant LABEL=FLAGS` whose engine
    /// cannot be interrupted: the child runs `emx solve FILE FLAGS`.
    pub fn isolated_flags(path: PathBuf, label: &str, flags: Vec<String>) -> Self {
        EmxBinary { path, backend: None, flags: Some((label.to_string(), flags)) }
    }
}

impl ExternalBackend for EmxBinary {
    fn name(&self) -> String {
        match (&self.backend, &self.flags) {
            (_, Some((label, _))) => label.clone(),
            (Some(b), None) => b.clone(),
            (None, None) => format!("emx={}", self.path.display()),
        }
    }

    fn availability(&self) -> Result<String, String> {
        let program = find_program(&self.path.to_string_lossy())
            .ok_or_else(|| format!("no program at {}: give the path of an emx executable", self.path.display()))?;
        let out = Command::new(&program)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || !version.starts_with("emx") {
            return Err(format!("{} does not look like emx (`--version` printed `{version}`)", program.display()));
        }
        Ok(version)
    }

    fn prepare(&self, job: &Job<'_>) -> Result<Command, String> {
        let mut c = Command::new(&self.path);
        c.arg("solve").arg(job.path).args(["--puzzle", &job.puzzle.to_string(), "--format", "json", "--quiet"]);
        if let Some(b) = &self.backend {
            c.args(["--backend", b]);
        }
        if let Some((_, flags)) = &self.flags {
            c.args(flags);
        }
        match job.mode {
            BenchMode::First => c.args(["--first", "1"]),
            BenchMode::Count => c.arg("--count"),
        };
        if let Some(t) = job.time_limit {
            c.args(["--time-limit", &t.as_secs_f64().to_string()]);
        }
        Ok(c)
    }

    fn parse(&self, job: &Job<'_>, run: &ProcessRun) -> Result<Answer, String> {
        let code = run.code();
        if !matches!(code, Some(0 | 1 | 3)) {
            return Err(format!("emx exited with code {code:?}"));
        }
        let v: Value =
            serde_json::from_str(run.stdout.trim()).map_err(|e| format!("emx printed no JSON object ({e})"))?;
        let count = v["found"].as_u64().or_else(|| v["solutions"].as_u64()).ok_or("emx JSON has no `found` count")?;
        let solutions = if v.get("solution_list").is_some_and(|l| l.as_array().is_some_and(|a| !a.is_empty())) {
            read_solutions(job.instance, &run.stdout, "emx output").map_err(|e| e.to_string())?
        } else {
            Vec::new()
        };
        let engine = v["engine"].as_str().or_else(|| v["backend"].as_str()).unwrap_or("emx");
        Ok(Answer {
            solutions,
            count,
            complete: v["complete"].as_bool().unwrap_or(false),
            nodes: v["nodes"].as_u64(),
            engine: Some(match (&self.backend, &self.flags) {
                (None, None) => format!("{engine} ({})", self.path.display()),
                _ => format!("{engine} (child process)"),
            }),
        })
    }
}
