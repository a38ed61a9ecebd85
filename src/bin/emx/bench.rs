//! `emx bench`: every backend on every instance, one table.

use crate::{interrupt_flag, usage_ensure, EXIT_LIMIT, EXIT_OK};
use clap::Args;
use emx::bench::{self, report, BenchConfig, BenchEvent, BenchInstance, BenchMode, Status};
use emx::input::{self, InputFormat};
use indicatif::ProgressBar;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct BenchArgs {
    /// Puzzle files (polycube definition files, edge-matching files).
    pub files: Vec<PathBuf>,
    /// Comma-separated backends: in-crate engines (dlx, …), external
    /// programs (cpsat, …), `emx=PATH` (another emx build), or `all`;
    /// `--backends list` shows them all and whether each is installed.
    #[arg(long, default_value = "all", value_name = "LIST")]
    pub backends: String,
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
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
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
        for b in bench::parse_backends("all").map_err(crate::UsageError)? {
            match b.availability() {
                Ok(detail) => println!("{:<10} available: {detail}", b.name()),
                Err(why) => println!("{:<10} not available: {why}", b.name()),
            }
        }
        println!("{:<10} another emx executable, to compare builds", "emx=PATH");
        return Ok(EXIT_OK);
    }
    let mut backends = bench::parse_backends(&args.backends).map_err(crate::UsageError)?;
    if let Ok(exe) = std::env::current_exe() {
        // varisat cannot be stopped inside a call: run it in a child emx
        // that is killed at the time limit.
        backends = bench::isolate_uninterruptible(backends, &exe);
    }
    usage_ensure!(!args.files.is_empty(), "emx bench needs at least one puzzle file");
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let mut instances = Vec::new();
    for path in &args.files {
        let instance = input::load(path, format, 1)?;
        instances.push(BenchInstance { instance, path: path.clone(), puzzle: 1 });
    }
    let config = BenchConfig {
        mode: if args.count { BenchMode::Count } else { BenchMode::First },
        runs: args.runs,
        time_limit: (args.time_limit > 0.0).then(|| Duration::from_secs_f64(args.time_limit)),
        node_limit: args.node_limit,
        cancel: Some(interrupt_flag()),
    };
    let total = (instances.len() * backends.len() * args.runs) as u64;
    let bar = if crate::progress::wanted(args.quiet) {
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
