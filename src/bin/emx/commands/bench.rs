//! `emx bench`: every backend on every instance, one table.

use crate::commands::solve::{self, SolveArgs};
use crate::interrupt::interrupt_flag;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use crate::usage_ensure;
use clap::Args;
use clap::Parser;
use emx::backend::BackendConfig;
use emx::bench::{self, report, Backend, BenchConfig, BenchEvent, BenchInstance, BenchMode, Status};
use emx::input::{self, InputFormat};
use emx::ir::Equivalence;
use emx::solve::Mode;
use indicatif::ProgressBar;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct BenchArgs {
    /// Puzzle files (polycube definition files, edge-matching files).
    pub files: Vec<PathBuf>,
    /// Comma-separated backends, or `all`; `--backends list` shows them.
    ///
    /// In-crate engines (dlx, poly, scan, cp, sat), external programs
    /// (cadical, kissat, minisat, cliquer, cpsat), `emx=PATH` (another emx
    /// build); `--backends list` also says whether each is installed.
    #[arg(long, default_value = "all", value_name = "LIST")]
    pub backends: String,
    /// A configured in-crate engine, LABEL=FLAGS with `emx solve` flags (repeatable).
    ///
    /// Shown as LABEL, after the `--backends`: e.g. `--variant
    /// "best=--backend poly --schedule dlx:min-fit,mch@11,emch@6"`,
    /// `--variant "cp-no-edge=--backend cp --cp no-edge-filter"`, `--variant
    /// "x2=--backend auto --threads 2"`. On a puzzle the flags do not act on,
    /// the row is skipped with the reason. `--backends ''` runs the variants
    /// alone.
    #[arg(long, value_name = "LABEL=FLAGS")]
    pub variant: Vec<String>,
    /// Count every solution instead of finding the first.
    #[arg(long)]
    pub count: bool,
    /// Per-run time limit in seconds (0 for none).
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub time_limit: f64,
    /// Per-run node limit (in-crate engines).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Runs per (instance, backend); the median is reported.
    #[arg(long, default_value_t = 1, value_name = "R")]
    pub runs: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
    pub format: BenchFormat,
    /// Also draw the times as an SVG chart (log scale) to this file.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Write the table / JSON / CSV to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Input format of every file, when detection guesses wrong.
    #[arg(long, value_name = "FORMAT", value_parser = crate::args::parse_input_format)]
    pub input_format: Option<InputFormat>,
    /// No progress line on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What `bench` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchFormat {
    /// An aligned table with notes.
    Table,
    /// One JSON object (schema in docs/json.md).
    Json,
    /// CSV, one row per (instance, backend).
    Csv,
}

pub fn run(args: BenchArgs) -> anyhow::Result<u8> {
    usage_ensure!(args.runs >= 1, "--runs needs at least 1");
    usage_ensure!(
        args.time_limit.is_finite() && args.time_limit >= 0.0,
        "--time-limit needs a non-negative number of seconds"
    );
    if args.backends == "list" {
        for b in bench::parse_backends("all").map_err(crate::usage::UsageError)? {
            match b.availability() {
                Ok(detail) => println!("{:<10} available: {detail}", b.name()),
                Err(why) => println!("{:<10} not available: {why}", b.name()),
            }
        }
        println!("{:<10} another emx executable, to compare builds", "emx=PATH");
        return Ok(EXIT_OK);
    }
    let mut backends = if args.backends.is_empty() && !args.variant.is_empty() {
        Vec::new()
    } else {
        bench::parse_backends(&args.backends).map_err(crate::usage::UsageError)?
    };
    if let Ok(exe) = std::env::current_exe() {
        // varisat cannot be stopped inside a call: run it in a child emx
        // that is killed at the time limit.
        backends = bench::isolate_uninterruptible(backends, &exe);
    }
    usage_ensure!(!args.files.is_empty(), "emx bench needs at least one puzzle file");
    let format = args.input_format;
    let mut instances = Vec::new();
    for path in &args.files {
        let instance = input::load(path, format, 1)?;
        instances.push(BenchInstance { instance, path: path.clone(), puzzle: 1 });
    }
    let mode = if args.count { BenchMode::Count } else { BenchMode::First };
    for spec in &args.variant {
        let variant = variant(spec, &instances, mode)?;
        usage_ensure!(
            !backends.iter().any(|b| b.name() == variant.name()),
            "--variant `{spec}`: the label `{}` is taken by another backend",
            variant.name()
        );
        backends.push(variant);
    }
    let config = BenchConfig {
        mode,
        runs: args.runs,
        time_limit: (args.time_limit > 0.0).then(|| Duration::from_secs_f64(args.time_limit)),
        node_limit: args.node_limit,
        cancel: Some(interrupt_flag()),
    };
    let total = (instances.len() * backends.len() * args.runs) as u64;
    let bar = if crate::progress::wanted(crate::progress::Show::of(args.quiet, None)) {
        crate::progress::bar(Some(total), "[{pos}/{len}] {msg}")
    } else {
        ProgressBar::hidden()
    };
    let names: Vec<String> = backends.iter().map(|b| b.name()).collect();
    let report = bench::run(&instances, &backends, &config, &mut |event| match event {
        BenchEvent::Started { instance, backend, run } => {
            bar.set_message(format!("{} / {} run {}", instances[instance].label(), names[backend], run + 1));
        }
        BenchEvent::Finished { .. } => bar.inc(1),
    });
    bar.finish_and_clear();
    let text = match args.format {
        BenchFormat::Table => report::table(&report),
        BenchFormat::Json => format!("{}\n", report::json(&report)),
        BenchFormat::Csv => report::csv(&report),
    };
    crate::output::write(args.output.as_deref(), &text)?;
    if let Some(plot) = &args.plot {
        crate::output::write_file(plot, &report::chart(&report))?;
    }
    let failed = report.rows.iter().any(|r| r.status == Status::Error) || !report.disagreements.is_empty();
    if failed {
        eprintln!("error: a backend failed or backends disagree (see the notes above); this is a bug in emx or in an external solver");
        return Ok(4);
    }
    Ok(if report.interrupted { EXIT_LIMIT } else { EXIT_OK })
}

/// Flags `--variant` takes: the engine settings of `emx solve` (the run's
/// mode and limits are bench's own, the same for every backend).
const VARIANT_FLAGS: &[&str] = &[
    "--backend",
    "--cp",
    "--scan",
    "--auto-pick",
    "--sat-solver",
    "--amo",
    "--colors",
    "--exactly-one-over",
    "--color-choice",
    "--color-support",
    "--color-totals",
    "--schedule",
    "--redundancy",
    "--force-first",
    "--parity-trigger",
    "--volume-trigger",
    "--parity-filter",
    "--volume-filter",
    "--fit-filter",
    "--cell-order",
    "--threads",
];

/// The `emx solve` flags of a variant, parsed as `emx solve` parses them.
#[derive(clap::Parser)]
#[command(no_binary_name = true)]
struct VariantFlags {
    #[command(flatten)]
    solve: SolveArgs,
}

/// The backend `--variant LABEL=FLAGS` describes, set up on each instance
/// as `emx solve FLAGS` would set it up: a usage error when the spec is
/// malformed, names a flag that is not an engine setting, or acts on none
/// of the instances.
fn variant(spec: &str, instances: &[BenchInstance], mode: BenchMode) -> anyhow::Result<Backend> {
    let Some((label, flags)) = spec.split_once('=').map(|(l, f)| (l.trim(), f.trim())) else {
        crate::usage_bail!("--variant `{spec}`: expected LABEL=FLAGS, e.g. `x2=--backend poly --threads 2`");
    };
    usage_ensure!(
        !label.is_empty() && !label.contains(','),
        "--variant `{spec}`: the label before `=` must be a non-empty name without commas"
    );
    let tokens: Vec<&str> = flags.split_whitespace().collect();
    for t in tokens.iter().filter(|t| t.starts_with('-')) {
        let name = t.split_once('=').map_or(*t, |(n, _)| n);
        usage_ensure!(
            VARIANT_FLAGS.contains(&name),
            "--variant `{spec}`: `{name}` is not an engine setting; a variant takes {} (bench's own --count, --time-limit and --node-limit apply to every backend)",
            VARIANT_FLAGS.join(", ")
        );
    }
    let parsed =
        VariantFlags::try_parse_from(std::iter::once("<variant>").chain(tokens.iter().copied())).map_err(|e| {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("").trim_start_matches("error: ");
            crate::usage_error!("--variant `{spec}`: {first}")
        })?;
    let solve_mode = match mode {
        BenchMode::First => Mode::First(1),
        BenchMode::Count => Mode::Count,
    };
    let setups: Vec<Result<(String, BackendConfig), String>> = instances
        .iter()
        .map(|inst| {
            solve::engine_setup(&parsed.solve, &inst.instance, solve_mode, Equivalence::None)
                .map(|s| (s.backend, s.config))
                .map_err(|e| e.to_string())
        })
        .collect();
    if let Some(Err(why)) = setups.iter().find(|s| s.is_err()).filter(|_| setups.iter().all(Result::is_err)) {
        crate::usage_bail!("--variant `{spec}` acts on none of the puzzles: {why}");
    }
    // A SAT solver that is not installed skips the variant's rows, as
    // `--backends kissat` skips them.
    let missing = parsed.solve.sat_solver.as_deref().and_then(|spec| emx::encode::sat::resolve(spec).err());
    let setups = match missing {
        Some(why) => setups.into_iter().map(|s| s.and(Err(why.clone()))).collect(),
        None => setups,
    };
    // An engine that cannot be stopped inside a call (varisat) runs in a
    // child emx, killed at the time limit, as `--backends sat` does.
    let stuck = setups
        .iter()
        .flatten()
        .any(|(engine, c)| bench::UNINTERRUPTIBLE.contains(&engine.as_str()) && c.sat_solver.is_none());
    let child = match std::env::current_exe() {
        Ok(exe) if stuck => {
            let owned = tokens.iter().map(|t| t.to_string()).collect();
            Some(Box::new(bench::external::EmxBinary::isolated_flags(exe, label, owned)))
        }
        _ => None,
    };
    Ok(Backend::PerInstance { label: label.to_string(), detail: format!("emx solve {flags}"), setups, child })
}
