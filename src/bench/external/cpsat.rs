//! OR-tools CP-SAT (`--backends cpsat`), through the script
//! `benches/cpsat.py` (embedded in emx and written to the scratch
//! directory), on the IR written by [`write_ir_json`](super::write_ir_json).
//! Needs `python3` with the `ortools` package (`pip install ortools`).

use super::{find_program, write_ir_json, Answer, ExternalBackend, Job, ProcessRun};
use crate::bench::BenchMode;
use crate::ir::Solution;
use std::process::Command;

const SCRIPT: &str = include_str!("../../../benches/cpsat.py");

/// The CP-SAT adapter.
pub struct Cpsat {
    python: String,
}

impl Default for Cpsat {
    fn default() -> Self {
        Cpsat::new()
    }
}

impl Cpsat {
    /// CP-SAT through `python3` on `PATH` (or `$EMX_PYTHON`).
    pub fn new() -> Self {
        Cpsat { python: std::env::var("EMX_PYTHON").unwrap_or_else(|_| "python3".into()) }
    }
}

impl ExternalBackend for Cpsat {
    fn name(&self) -> String {
        "cpsat".into()
    }

    fn availability(&self) -> Result<String, String> {
        let python = find_program(&self.python)
            .ok_or_else(|| format!("`{}` not found: install Python 3 and `pip install ortools`", self.python))?;
        let out = Command::new(&python)
            .args(["-c", "import ortools; print(ortools.__version__)"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
        if !out.status.success() {
            return Err(format!("{} has no `ortools` module: pip install ortools", python.display()));
        }
        Ok(format!("ortools {}", String::from_utf8_lossy(&out.stdout).trim()))
    }

    fn prepare(&self, job: &Job<'_>) -> Result<Command, String> {
        let problem_path = job.dir.join("problem.json");
        let script_path = job.dir.join("cpsat.py");
        let write = || -> std::io::Result<()> {
            let mut f = std::io::BufWriter::new(std::fs::File::create(&problem_path)?);
            write_ir_json(job.instance.problem(), &mut f)?;
            std::io::Write::flush(&mut f)?;
            std::fs::write(&script_path, SCRIPT)
        };
        write().map_err(|e| format!("cannot write the CP-SAT input in {}: {e}", job.dir.display()))?;
        let mut c = Command::new(&self.python);
        c.arg(&script_path).arg(&problem_path);
        if job.mode == BenchMode::Count {
            c.arg("--count");
        }
        if let Some(t) = job.time_limit {
            c.args(["--time-limit", &t.as_secs_f64().to_string()]);
        }
        Ok(c)
    }

    fn parse(&self, _job: &Job<'_>, run: &ProcessRun) -> Result<Answer, String> {
        if run.code() != Some(0) {
            return Err(format!("cpsat.py exited with code {:?}", run.code()));
        }
        let mut answer = Answer::default();
        let mut status_line = None;
        for line in run.stdout.lines() {
            if let Some(rest) = line.strip_prefix("v") {
                let options: Result<Vec<u32>, _> = rest.split_whitespace().map(str::parse).collect();
                let options = options.map_err(|e| format!("bad solution line `{line}`: {e}"))?;
                answer.solutions.push(Solution { options });
            } else if let Some(rest) = line.strip_prefix("s ") {
                status_line = Some(rest.to_string());
            }
        }
        let status = status_line.ok_or("cpsat.py printed no `s` status line")?;
        let field =
            |key: &str| status.split_whitespace().find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')));
        answer.count = field("solutions").and_then(|v| v.parse().ok()).ok_or("status line without solutions=")?;
        answer.complete = field("complete") == Some("1");
        answer.nodes = field("branches").and_then(|v| v.parse().ok());
        answer.engine = field("version").map(|v| format!("cp-sat {v}"));
        Ok(answer)
    }
}
