//! `emx solve`.

use crate::{interrupt_flag, Format, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::backend::{self, BackendConfig};
use emx::input::{self, InputFormat};
use emx::ir::Equivalence;
use emx::poly::model::CellOrder;
use emx::poly::redundancy::RedundancyMode;
use emx::poly::schedule::ScheduleSpec;
use emx::poly::{FitFilter, PolyConfig, Threshold};
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
    #[command(flatten)]
    pub poly: PolyArgs,
}

/// Settings of the polycube engines (`--backend poly`, and `auto` on
/// polycube puzzles). Each defaults to `auto`'s choice.
#[derive(Args, Debug, Default)]
pub struct PolyArgs {
    /// Engine schedule: `auto`, or stages `ENGINE[:HEURISTIC][@N]` taking
    /// over at N remaining pieces, e.g. `dlx:min-fit@12,mch@11,emch@6,debruijn@4`
    /// (engines dlx, mch, emch, debruijn; DLX heuristics min-fit, x, y, z,
    /// X, Y, Z, R, a@DEG; see docs/poly.md).
    #[arg(long, value_name = "SPEC")]
    pub schedule: Option<String>,
    /// Rotational-redundancy filter: off, auto, rot, mirror, rot:PIECE or
    /// mirror:PIECE (constrain one uniquely shaped piece so that one
    /// solution per symmetry class is searched).
    #[arg(long, value_name = "MODE")]
    pub redundancy: Option<String>,
    /// Place the piece constrained by the redundancy filter first.
    #[arg(long)]
    pub force_first: bool,
    /// Parity backtrack trigger while at least N pieces remain (`off`).
    #[arg(long, value_name = "N|off")]
    pub parity_trigger: Option<String>,
    /// Volume backtrack trigger while at least N pieces remain (`off`).
    #[arg(long, value_name = "N|off")]
    pub volume_trigger: Option<String>,
    /// Parity image filter: once before the search when N >= the number
    /// of pieces, and at every DLX step while at least N pieces remain.
    #[arg(long, value_name = "N|off")]
    pub parity_filter: Option<String>,
    /// Volume image filter (same semantics as --parity-filter).
    #[arg(long, value_name = "N|off")]
    pub volume_filter: Option<String>,
    /// Fit image filter before the search: off, once, fixpoint.
    #[arg(long, value_name = "MODE")]
    pub fit_filter: Option<String>,
    /// Cell order of the bit-field engines: short (shortest axis fastest)
    /// or xyz (Busche's order).
    #[arg(long, value_name = "ORDER", value_parser = ["short", "xyz"])]
    pub cell_order: Option<String>,
    /// Worker threads (the search tree is split at a shallow depth).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Monte-Carlo sampling instead of a full search: TRIALS,REMAINING,SEED.
    #[arg(long, value_name = "T,R,S")]
    pub sample: Option<String>,
    /// Knuth's estimate of the full search (nodes, solutions, time) from
    /// PROBES random paths: PROBES[,SEED].
    #[arg(long, value_name = "PROBES[,SEED]")]
    pub estimate: Option<String>,
}

impl PolyArgs {
    /// The flags given, by name (to reject them where they cannot act).
    pub fn given(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        let flags: [(&'static str, bool); 12] = [
            ("--schedule", self.schedule.is_some()),
            ("--redundancy", self.redundancy.is_some()),
            ("--force-first", self.force_first),
            ("--parity-trigger", self.parity_trigger.is_some()),
            ("--volume-trigger", self.volume_trigger.is_some()),
            ("--parity-filter", self.parity_filter.is_some()),
            ("--volume-filter", self.volume_filter.is_some()),
            ("--fit-filter", self.fit_filter.is_some()),
            ("--cell-order", self.cell_order.is_some()),
            ("--threads", self.threads.is_some()),
            ("--sample", self.sample.is_some()),
            ("--estimate", self.estimate.is_some()),
        ];
        for (name, set) in flags {
            if set {
                v.push(name);
            }
        }
        v
    }

    /// The engine configuration these flags describe.
    pub fn config(&self) -> anyhow::Result<PolyConfig> {
        let threshold = |flag: &str, v: &Option<String>| -> anyhow::Result<Option<Threshold>> {
            v.as_deref().map(|s| Threshold::parse(s).map_err(|e| anyhow::anyhow!("{flag}: {e}"))).transpose()
        };
        let threads = match self.threads {
            Some(0) => anyhow::bail!("--threads needs at least 1"),
            Some(n) => n,
            None => 1,
        };
        Ok(PolyConfig {
            schedule: self.schedule.as_deref().map(ScheduleSpec::parse).transpose()?,
            redundancy: self
                .redundancy
                .as_deref()
                .map(|s| RedundancyMode::parse(s).map_err(|e| anyhow::anyhow!("--redundancy: {e}")))
                .transpose()?,
            force_first: self.force_first.then_some(true),
            parity_trigger: threshold("--parity-trigger", &self.parity_trigger)?,
            volume_trigger: threshold("--volume-trigger", &self.volume_trigger)?,
            parity_filter: threshold("--parity-filter", &self.parity_filter)?,
            volume_filter: threshold("--volume-filter", &self.volume_filter)?,
            fit_filter: self
                .fit_filter
                .as_deref()
                .map(|s| FitFilter::parse(s).map_err(|e| anyhow::anyhow!("--fit-filter: {e}")))
                .transpose()?,
            cell_order: self.cell_order.as_deref().map(|s| {
                if s == "xyz" {
                    CellOrder::Xyz
                } else {
                    CellOrder::ShortAxisFirst
                }
            }),
            threads,
            equivalence: Equivalence::None,
        })
    }
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
    let given = args.poly.given();
    let uses_poly = args.backend == "poly"
        || (args.backend == "auto"
            && matches!(instance.kind, input::InstanceKind::Polycube(_))
            && emx::poly::handles(problem));
    if !uses_poly {
        if let Some(flag) = given.first() {
            anyhow::bail!(
                "{flag} sets the polycube engines, which do not run here (backend `{}` on {}): use --backend poly on a polycube puzzle",
                args.backend,
                instance.file
            );
        }
    }
    let poly = args.poly.config()?;
    let config = BackendConfig { equivalence, poly };
    if args.poly.sample.is_some() || args.poly.estimate.is_some() {
        let flag = if args.poly.sample.is_some() { "--sample" } else { "--estimate" };
        anyhow::ensure!(
            !(args.poly.sample.is_some() && args.poly.estimate.is_some()),
            "--sample and --estimate are two different runs: give one"
        );
        anyhow::ensure!(
            !args.all && args.first.is_none() && args.unique.is_none(),
            "{flag} reports rates and estimates, not solution lists: drop --all/--first/--unique"
        );
        return crate::sample::run(&args, &instance, &config, &opts.limits);
    }
    let mut engine = backend::make(&args.backend, &instance, &config)?;
    let report = solve(engine.as_mut(), problem, &opts, &verify)?;
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
    if report.stats.fixed_box.is_some() && report.found != report.stats.solutions {
        write!(
            out,
            "\n  ({} searched under the redundancy filter, each weighted by its orbit to give the fixed-box count {})",
            report.stats.solutions, report.found
        )?;
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
        "searched": s.solutions,
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
