//! The `emx` command line: argument parsing and printing only; the library
//! does the work.

mod bench;
mod decode;
mod encode;
mod generate;
mod info;
mod optimize;
mod output;
mod progress;
mod render;
mod score;
mod solve;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

const EXAMPLES: &str = "\
Examples:
  emx solve instances/polycube/pentominoes_10x6_def.txt --unique --first 1
  emx solve instances/edgematch/brendan_set2/pieces_05x05.txt --format svg -o 5x5.svg
  emx info  instances/polycube/somacube_def.txt
  emx render instances/edgematch/eternity2/e2_centre.txt \\
      --solution instances/edgematch/eternity2/blackwood470.board.txt -o e2.svg
  emx bench instances/polycube/somacube_def.txt --backends all --count

Every command takes --format json (schema: docs/json.md).
Exit codes: 0 ok, 1 no solution, 2 bad input or usage, 3 a limit or Ctrl-C
stopped the run (what was found so far is printed), 4 internal error.";

/// Exit code: success (solutions found, or the command did its job).
pub const EXIT_OK: u8 = 0;
/// Exit code: the search space was exhausted without a solution.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a limit (time, nodes, solutions, Ctrl-C) stopped the run early.
pub const EXIT_LIMIT: u8 = 3;

/// emx: exact cover, SAT and CP translation of combinatorial puzzles.
///
/// Reads polyomino/polycube definition files (Busche's D:/C:/L: format) and
/// edge-matching puzzles (META/Brendan, Heule and emx formats), turns them
/// into one exact-cover-with-colours problem, and solves, compares or draws
/// it.
#[derive(Parser)]
#[command(name = "emx", version, propagate_version = true, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve a puzzle: count, list or find solutions.
    Solve(solve::SolveArgs),
    /// Describe a puzzle: pieces, orientations, images, items, options, symmetries.
    Info(info::InfoArgs),
    /// Maximise the matched joins of an edge-matching puzzle by local search.
    Optimize(optimize::OptimizeArgs),
    /// Compare backends side by side on one or more puzzles (one table).
    Bench(bench::BenchArgs),
    /// Draw a puzzle, or a solution or board read from a file, as SVG.
    Render(render::RenderArgs),
    /// Generate puzzles (random edge-matching puzzles with a planted solution).
    Generate(generate::GenerateArgs),
    /// Translate a puzzle: DIMACS CNF, DIMACS clique graph, Knuth .dlx, CPLEX LP.
    Encode(encode::EncodeArgs),
    /// Map an external answer (SAT model, clique, LP solution) back to a verified solution.
    Decode(decode::DecodeArgs),
    /// Score an edge-matching board: matched inner joins, border, tiles, clues.
    Score(score::ScoreArgs),
}

/// A mistake in the command line that clap cannot see (exit code 2).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Output format of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON object on stdout.
    Json,
    /// An SVG picture (solutions for `solve`, the pieces for `info`).
    Svg,
}

/// Returns a [`UsageError`] unless `cond` holds.
#[macro_export]
macro_rules! usage_ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err($crate::UsageError(format!($($fmt)+)).into());
        }
    };
}

/// A flag set by Ctrl-C; searches poll it and stop cleanly, and the
/// command prints what it found so far (exit code 3). A second Ctrl-C
/// exits at once (exit code 130).
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    // If a handler cannot be installed (already set), searches simply run
    // without Ctrl-C support.
    let _ = ctrlc::set_handler(move || {
        if f.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    flag
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Solve(args) => solve::run(args)?,
        Command::Info(args) => info::run(args)?,
        Command::Optimize(args) => optimize::run(args)?,
        Command::Bench(args) => bench::run(args)?,
        Command::Render(args) => render::run(args)?,
        Command::Generate(args) => generate::run(args)?,
        Command::Encode(args) => encode::run(args)?,
        Command::Decode(args) => decode::run(args)?,
        Command::Score(args) => score::run(args)?,
    };
    Ok(ExitCode::from(code))
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) => {
            if let Some(io) = err.downcast_ref::<std::io::Error>() {
                if io.kind() == std::io::ErrorKind::BrokenPipe {
                    return ExitCode::from(EXIT_OK);
                }
            }
            let _ = std::io::stdout().flush();
            match err.downcast_ref::<emx::frontend::LoadError>() {
                // Its message already names the file and the I/O cause;
                // the alternate form would repeat the cause.
                Some(load) => eprintln!("error: {load}"),
                None => eprintln!("error: {err:#}"),
            }
            let bad_input = err.downcast_ref::<emx::frontend::LoadError>().is_some()
                || err.downcast_ref::<emx::frontend::ParseError>().is_some()
                || err.downcast_ref::<emx::backend::BackendError>().is_some()
                || err.downcast_ref::<UsageError>().is_some();
            ExitCode::from(if bad_input { EXIT_BAD_INPUT } else { 4 })
        }
    }
}
