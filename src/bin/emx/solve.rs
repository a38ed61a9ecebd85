//! `emx solve`.

use crate::{interrupt_flag, Format, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::backend::{self, BackendConfig};
use emx::input::{self, InputFormat};
use emx::ir::Equivalence;
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions, SolveReport};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct SolveArgs {
    /// Puzzle file (polycube definition file).
    pub file: PathBuf,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
    /// Solving back-end (`auto` picks the best one for the puzzle).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(backend::NAMES))]
    pub backend: String,
    /// SAT solver for `--backend sat`: kissat, cadical, minisat (looked up
    /// on PATH) or the path of any solver printing `s`/`v` lines; without
    /// it, varisat runs in-process. Implies `--backend sat` when the backend
    /// is `auto`. With --count/--all the SAT back-end adds a blocking clause
    /// per solution and calls the solver again: for small instances only.
    #[arg(long, value_name = "NAME|PATH")]
    pub sat_solver: Option<String>,
    /// CNF encoding for the SAT back-end.
    #[command(flatten)]
    pub cnf: crate::cnf_flags::CnfFlags,
    /// Count all solutions, printing the first (the default).
    #[arg(long, group = "mode")]
    pub count: bool,
    /// Print every solution.
    #[arg(long, group = "mode")]
    pub all: bool,
    /// Stop after N solutions.
    #[arg(long, value_name = "N", group = "mode")]
    pub first: Option<u64>,
    /// Report one solution per symmetry class: `--unique` identifies
    /// solutions related by a rotation of the box, `--unique=mirror` also
    /// mirror images.
    #[arg(long, num_args = 0..=1, default_missing_value = "rotations", value_parser = ["rotations", "mirror"])]
    pub unique: Option<String>,
    /// Stop after this many seconds (exit code 3, partial counts printed).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop after this many search nodes (exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop after this many solutions found, counting symmetric copies (exit code 3).
    #[arg(long, value_name = "N")]
    pub solution_limit: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Do not draw solutions (text format).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let instance = input::load(&args.file, format, args.puzzle)?;
    let problem = instance.problem();
    let mode = if args.all {
        Mode::All
    } else if let Some(n) = args.first {
        anyhow::ensure!(n > 0, "--first needs a positive number");
        Mode::First(n)
    } else {
        Mode::Count
    };
    let equivalence = match args.unique.as_deref() {
        None => Equivalence::None,
        Some("mirror") => Equivalence::RotationsAndMirrors,
        Some(_) => Equivalence::Rotations,
    };
    if let Some(t) = args.time_limit {
        anyhow::ensure!(t.is_finite() && t >= 0.0, "--time-limit needs a non-negative number of seconds");
    }
    let limits = Limits {
        max_solutions: args.solution_limit,
        max_nodes: args.node_limit,
        deadline: None,
        cancel: Some(interrupt_flag()),
    }
    .with_time_limit(args.time_limit.map(Duration::from_secs_f64));
    let opts = SolveOptions { mode: Some(mode), equivalence, limits };
    let verify = |s: &emx::ir::Solution| instance.verify(s);
    let backend_name = match (args.backend.as_str(), &args.sat_solver) {
        ("auto", Some(_)) => "sat",
        ("sat", _) | (_, None) => args.backend.as_str(),
        (other, Some(_)) => anyhow::bail!("--sat-solver needs --backend sat (got --backend {other})"),
    };
    let config = BackendConfig { sat_solver: args.sat_solver.clone(), cnf: args.cnf.options(&instance, vec![])? };
    let mut engine = backend::make(backend_name, &instance, &config)?;
    let report = solve(engine.as_mut(), problem, &opts, &verify)?;
    if let Some(err) = engine.error() {
        anyhow::bail!("{}: {err}", engine.describe());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match args.format {
        Format::Json => print_json(&mut out, &instance, &report, mode)?,
        Format::Text => print_text(&mut out, &instance, &report, args.quiet)?,
    }
    out.flush()?;
    Ok(if report.hit_limit() || (args.solution_limit.is_some() && report.stats.stopped.is_some()) {
        EXIT_LIMIT
    } else if report.reported == 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

fn equivalence_text(e: Equivalence) -> &'static str {
    match e {
        Equivalence::None => "",
        Equivalence::Rotations => " up to rotation",
        Equivalence::RotationsAndMirrors => " up to rotation and reflection",
    }
}

fn print_text(
    out: &mut impl Write,
    instance: &input::Instance,
    report: &SolveReport,
    quiet: bool,
) -> std::io::Result<()> {
    let problem = instance.problem();
    writeln!(
        out,
        "{} ({}): {} items, {} options",
        problem.name,
        instance.file,
        problem.items().len(),
        problem.n_options()
    )?;
    if !quiet {
        for (k, s) in report.solutions.iter().enumerate() {
            writeln!(out, "\nsolution {}:", k + 1)?;
            write!(out, "{}", instance.render_text(s))?;
        }
        if !report.solutions.is_empty() {
            writeln!(out)?;
        }
    }
    let partial = if report.stats.complete() { "" } else { "at least " };
    write!(out, "solutions: {partial}{}{}", report.reported, equivalence_text(report.equivalence))?;
    if report.equivalence != Equivalence::None {
        write!(out, " ({} counting every symmetric copy)", report.found)?;
    }
    writeln!(out)?;
    let s = &report.stats;
    writeln!(
        out,
        "search: {}, {} nodes, {} updates, {:.3} s, {:.2} M nodes/s",
        report.engine,
        s.nodes,
        s.updates,
        s.elapsed.as_secs_f64(),
        s.nodes_per_sec() / 1e6
    )?;
    if let Some(reason) = s.stopped {
        let why = serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        writeln!(out, "stopped: {} (the search did not finish)", why.replace('_', " "))?;
    }
    Ok(())
}

fn print_json(
    out: &mut impl Write,
    instance: &input::Instance,
    report: &SolveReport,
    mode: Mode,
) -> std::io::Result<()> {
    let problem = instance.problem();
    let s = &report.stats;
    let mut v = json!({
        "file": instance.file,
        "puzzle": problem.name,
        "backend": report.engine,
        "solutions": report.reported,
        "found": report.found,
        "equivalence": report.equivalence,
        "complete": s.complete(),
        "stopped": s.stopped,
        "nodes": s.nodes,
        "updates": s.updates,
        "time_s": s.elapsed.as_secs_f64(),
        "items": problem.items().len(),
        "options": problem.n_options(),
    });
    if mode != Mode::Count {
        v["solution_list"] = report.solutions.iter().map(|s| instance.solution_json(s)).collect();
    }
    serde_json::to_writer(&mut *out, &v)?;
    writeln!(out)
}
