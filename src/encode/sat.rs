//! The SAT back-end: the CNF of [`super::cnf`] solved in-process by
//! varisat or by an external solver binary (kissat, CaDiCaL, MiniSat or
//! any program that prints the competition `s`/`v` answer).
//!
//! The first call finds one solution. Counting and listing add a blocking
//! clause (the negation of the solution's options) and call the solver
//! again, so they suit small instances only. Limits are checked between
//! solver calls; "nodes" counts solver calls. Inside a call, the time limit
//! and Ctrl-C stop varisat through its proof output: the engine asks varisat
//! for a proof (varisat's own format, which allows the blocking clauses added between calls) written to a probe that polls the limits on
//! every buffered write (every 8 KiB of proof, i.e. every few hundred
//! learned clauses) and fails once a limit has fired, which ends the call.
//! An external solver is killed when the time limit passes or Ctrl-C is
//! pressed.

use super::cnf::{self, check_model, CnfEncoding};
use crate::ir::{OptionId, Problem};
use crate::search::{Engine, Flow, Limits, SearchStats, StopReason};
use emx_encoders::dimacs::{push_clause, write_header};
use emx_encoders::model::read_answer;
use emx_encoders::{CnfOptions, Lit, SatAnswer};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which solver runs the CNF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatSolver {
    /// varisat, linked into emx.
    Varisat,
    /// A solver binary.
    External {
        /// What the user asked for (`kissat`, a path...).
        name: String,
        /// The resolved binary.
        path: PathBuf,
        /// MiniSat writes its answer to a result file instead of stdout.
        minisat: bool,
    },
}

/// Solver names `--sat-solver` knows (anything else is taken as a path).
pub const KNOWN_SOLVERS: &[&str] = &["kissat", "cadical", "minisat"];

/// Finds the solver binary for `spec`: a known name is looked up on `PATH`,
/// anything else is a path to an executable. Never falls back to another
/// solver.
pub fn resolve(spec: &str) -> Result<SatSolver, String> {
    let path = if KNOWN_SOLVERS.contains(&spec) {
        let found = std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(spec)).find(|p| p.is_file()));
        match found {
            Some(p) => p,
            None => {
                let hint = match spec {
                    "kissat" => "`pip install passagemath-kissat` ships one (in site-packages/sage_wheels/bin); put it on PATH or pass its path",
                    _ => "install it (Debian: `apt-get install cadical minisat`) or pass its path",
                };
                return Err(format!("SAT solver `{spec}` not found on PATH: {hint}"));
            }
        }
    } else {
        let p = PathBuf::from(spec);
        if !p.is_file() {
            return Err(format!(
                "SAT solver `{spec}` is neither one of {} nor an existing file",
                KNOWN_SOLVERS.join(", ")
            ));
        }
        p
    };
    let minisat = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("minisat"));
    Ok(SatSolver::External { name: spec.to_string(), path, minisat })
}

/// An [`Engine`] that solves the problem through its CNF.
pub struct SatEngine<'a> {
    problem: &'a Problem,
    solver: SatSolver,
    opts: CnfOptions,
    error: Option<String>,
}

impl<'a> SatEngine<'a> {
    /// An engine for `problem` with `solver` and encoding options `opts`.
    pub fn new(problem: &'a Problem, solver: SatSolver, opts: CnfOptions) -> Self {
        SatEngine { problem, solver, opts, error: None }
    }
}

enum Call {
    Answer(SatAnswer),
    Stopped(StopReason),
}

/// varisat's proof output, used as a stop hook: it discards the proof and
/// fails the write once the deadline passes or the cancel flag is raised,
/// which makes varisat end the running `solve()` with an error.
struct LimitProbe {
    limits: Limits,
    fired: std::sync::Arc<std::sync::Mutex<Option<StopReason>>>,
}

impl Write for LimitProbe {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Node limits count solver calls and are checked between calls.
        if let Some(reason) = self.limits.poll(0) {
            *self.fired.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
            return Err(std::io::Error::other("emx: search limit reached"));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs an external solver on `enc` plus `blocking` clauses.
fn run_external(
    path: &Path,
    minisat: bool,
    enc: &CnfEncoding,
    blocking: &[Vec<Lit>],
    limits: &Limits,
    call: u64,
) -> Result<Call, String> {
    let dir = std::env::temp_dir();
    // Unique per process and per call, also when several engines run in
    // parallel threads of one process.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let unique = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stem = format!("emx-sat-{}-{unique}-{call}", std::process::id());
    let cnf_path = dir.join(format!("{stem}.cnf"));
    let out_path = dir.join(format!("{stem}.out"));
    let res_path = dir.join(format!("{stem}.res"));
    let cleanup = || {
        for p in [&cnf_path, &out_path, &res_path] {
            let _ = std::fs::remove_file(p);
        }
    };
    let written = (|| -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(std::fs::File::create(&cnf_path)?);
        write_header(&mut w, enc.cnf.n_vars(), enc.cnf.n_clauses() + blocking.len())?;
        emx_encoders::dimacs::write_clauses(&mut w, &enc.cnf)?;
        let mut buf = Vec::new();
        for c in blocking {
            push_clause(&mut buf, c);
        }
        w.write_all(&buf)?;
        w.flush()
    })();
    if let Err(e) = written {
        cleanup();
        return Err(format!("cannot write {}: {e}", cnf_path.display()));
    }
    let out = std::fs::File::create(&out_path).map_err(|e| format!("cannot create {}: {e}", out_path.display()))?;
    let mut cmd = Command::new(path);
    cmd.arg(&cnf_path);
    if minisat {
        cmd.arg(&res_path);
    }
    let mut child = match cmd.stdin(Stdio::null()).stdout(out).stderr(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => {
            cleanup();
            return Err(format!("cannot run {}: {e}", path.display()));
        }
    };
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => {
                cleanup();
                return Err(format!("waiting for {}: {e}", path.display()));
            }
        }
        if let Some(reason) = limits.poll(0) {
            let _ = child.kill();
            let _ = child.wait();
            cleanup();
            return Ok(Call::Stopped(reason));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let answer_file = if minisat { &res_path } else { &out_path };
    let text = std::fs::read_to_string(answer_file);
    cleanup();
    let text = text.map_err(|e| format!("{} left no answer ({e}); exit status {status}", path.display()))?;
    match read_answer(&text) {
        Ok(a) => Ok(Call::Answer(a)),
        Err(e) => Err(format!("{}: cannot read its answer (exit status {status}): {e}", path.display())),
    }
}

impl Engine for SatEngine<'_> {
    fn describe(&self) -> String {
        let solver = match &self.solver {
            SatSolver::Varisat => "varisat".to_string(),
            SatSolver::External { name, .. } => name.clone(),
        };
        format!("sat {solver} (amo {}, colours {}; nodes = solver calls)", self.opts.amo, self.opts.colors)
    }

    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        let start = Instant::now();
        let mut stats = SearchStats::default();
        let enc = match cnf::encode(self.problem, &self.opts) {
            Ok(e) => e,
            Err(e) => {
                self.error = Some(e.to_string());
                stats.stopped = Some(StopReason::Interrupted);
                return stats;
            }
        };
        let fired = std::sync::Arc::new(std::sync::Mutex::new(None));
        let mut varisat = match self.solver {
            SatSolver::Varisat => {
                let mut s = varisat::Solver::new();
                if limits.timed() || limits.cancel.is_some() {
                    let probe =
                        LimitProbe { limits: Limits { max_nodes: None, ..limits.clone() }, fired: fired.clone() };
                    s.write_proof(probe, varisat::ProofFormat::Varisat);
                }
                for c in enc.cnf.clauses() {
                    let lits: Vec<varisat::Lit> =
                        c.iter().map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize)).collect();
                    varisat::ExtendFormula::add_clause(&mut s, &lits);
                }
                Some(s)
            }
            SatSolver::External { .. } => None,
        };
        let mut blocking: Vec<Vec<Lit>> = Vec::new();
        loop {
            if let Some(reason) = limits.poll(stats.nodes) {
                stats.stopped = Some(reason);
                break;
            }
            stats.nodes += 1;
            let call = match (&mut varisat, &self.solver) {
                (Some(s), _) => match s.solve() {
                    Ok(true) => {
                        let model = s.model().unwrap_or_default();
                        let mut values = vec![false; enc.cnf.n_vars() as usize];
                        for l in model {
                            if let Some(v) = values.get_mut(l.var().index()) {
                                *v = l.is_positive();
                            }
                        }
                        Ok(Call::Answer(SatAnswer::Sat(values)))
                    }
                    Ok(false) => Ok(Call::Answer(SatAnswer::Unsat)),
                    Err(e) => match *fired.lock().unwrap_or_else(|e| e.into_inner()) {
                        Some(reason) => Ok(Call::Stopped(reason)),
                        None => Err(format!("varisat: {e}")),
                    },
                },
                (None, SatSolver::External { path, minisat, .. }) => {
                    run_external(path, *minisat, &enc, &blocking, limits, stats.nodes)
                }
                (None, SatSolver::Varisat) => unreachable!("varisat solver is built above"),
            };
            let answer = match call {
                Ok(Call::Answer(a)) => a,
                Ok(Call::Stopped(reason)) => {
                    stats.stopped = Some(reason);
                    break;
                }
                Err(e) => {
                    self.error = Some(e);
                    stats.stopped = Some(StopReason::Interrupted);
                    break;
                }
            };
            match answer {
                SatAnswer::Unsat => break,
                SatAnswer::Unknown => {
                    self.error = Some("the SAT solver gave up (UNKNOWN)".into());
                    stats.stopped = Some(StopReason::Interrupted);
                    break;
                }
                SatAnswer::Sat(_) => {
                    let falsified = check_model(&enc.cnf, &answer).err().or_else(|| {
                        blocking
                            .iter()
                            .position(|c| !c.iter().any(|l| answer.value(l.var()) == l.is_positive()))
                            .map(|k| enc.cnf.n_clauses() + k)
                    });
                    if let Some(k) = falsified {
                        self.error = Some(format!("the SAT solver's model falsifies clause {}", k + 1));
                        stats.stopped = Some(StopReason::Interrupted);
                        break;
                    }
                    let solution = cnf::solution_of(self.problem, &answer);
                    stats.solutions += 1;
                    let flow = visit(&solution.options);
                    let clause: Vec<Lit> =
                        solution.options.iter().map(|&o| enc.layout.option_var(o).negative()).collect();
                    if let Some(s) = &mut varisat {
                        let lits: Vec<varisat::Lit> =
                            clause.iter().map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize)).collect();
                        varisat::ExtendFormula::add_clause(s, &lits);
                    }
                    blocking.push(clause);
                    if flow == Flow::Stop {
                        stats.stopped = Some(StopReason::Visitor);
                        break;
                    }
                    if limits.max_solutions.is_some_and(|m| stats.solutions >= m) {
                        stats.stopped = Some(StopReason::SolutionLimit);
                        break;
                    }
                }
            }
        }
        stats.elapsed = start.elapsed();
        stats
    }

    fn error(&self) -> Option<String> {
        self.error.clone()
    }
}
