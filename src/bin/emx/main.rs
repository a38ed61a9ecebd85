//! The `emx` command line: argument parsing and printing only; the library
//! does the work.

mod cnf_flags;
mod decode;
mod encode;
mod generate;
mod info;
mod solve;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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
/// Reads polyomino/polycube definition files (Busche's D:/C:/L: format),
/// turns them into one exact-cover-with-colours problem and solves it.
#[derive(Parser)]
#[command(name = "emx", version, propagate_version = true)]
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
    /// Generate puzzles (random edge-matching puzzles with a planted solution).
    Generate(generate::GenerateArgs),
    /// Translate a puzzle: DIMACS CNF, DIMACS clique graph, Knuth .dlx, CPLEX LP.
    Encode(encode::EncodeArgs),
    /// Map an external answer (SAT model, clique, LP solution) back to a verified solution.
    Decode(decode::DecodeArgs),
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
}

/// A flag set by Ctrl-C; searches poll it and stop cleanly.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    // If a handler cannot be installed (already set), searches simply run
    // without Ctrl-C support.
    let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
    flag
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Solve(args) => solve::run(args)?,
        Command::Info(args) => info::run(args)?,
        Command::Generate(args) => generate::run(args)?,
        Command::Encode(args) => encode::run(args)?,
        Command::Decode(args) => decode::run(args)?,
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
            eprintln!("error: {err:#}");
            let bad_input = err.downcast_ref::<emx::frontend::LoadError>().is_some()
                || err.downcast_ref::<UsageError>().is_some()
                || err.downcast_ref::<emx::backend::BackendError>().is_some();
            ExitCode::from(if bad_input { EXIT_BAD_INPUT } else { 4 })
        }
    }
}
