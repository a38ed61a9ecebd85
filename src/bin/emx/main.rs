//! The `emx` command line: argument parsing and printing only; the library
//! does the work.

mod allocator;
mod args;
mod commands;
mod interrupt;
mod output;
mod pictures;
mod progress;
mod report;
mod usage;

use clap::CommandFactory;
use clap::{Parser, Subcommand};
use commands::{bench, decode, encode, generate, info, merge, optimize, render, score, shell, solve, split, task};
use std::io::Write;
use std::process::ExitCode;
use usage::{UsageError, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_OK};

const EXAMPLES: &str = "\
Examples:
  emx solve instances/polycube/pentominoes_10x6_def.txt --unique --first 1
  emx solve instances/edgematch/brendan_set2/pieces_05x05.txt --format svg -o 5x5.svg
  emx info  instances/polycube/somacube_def.txt
  emx render instances/edgematch/eternity2/e2_centre.txt \\
      --solution instances/edgematch/eternity2/blackwood470.board.txt -o e2.svg
  emx bench instances/edgematch/brendan_set2/pieces_04x04.txt --backends all --count

Every command takes --format json (schema: docs/json.md).
Exit codes: 0 ok, 1 no solution, 2 bad input or usage, 3 a limit or Ctrl-C
stopped the run (what was found so far is printed), 4 internal error.";

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
    Solve(Box<solve::SolveArgs>),
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
    /// Translate a puzzle: DIMACS CNF, DIMACS clique graph, Knuth .dlx, CPLEX LP, WCNF (MaxSAT).
    Encode(encode::EncodeArgs),
    /// Map an external answer (SAT or MaxSAT model, clique, LP solution) back to a verified solution or scored board.
    Decode(decode::DecodeArgs),
    /// Score an edge-matching board: matched inner joins, border, tiles, clues.
    Score(score::ScoreArgs),
    /// Cut a search into independent subproblem files (polycube or edge-matching puzzles).
    Split(split::SplitArgs),
    /// Run one task file of `emx split --tasks N`, writing its result for `emx merge`.
    Task(task::TaskArgs),
    /// Check and add up the results of the parts or tasks of an `emx split`.
    Merge(merge::MergeArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the manual page, or write one page per command into a directory.
    Man(shell::ManArgs),
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    interrupt::install();
    let code = match cli.command {
        Command::Solve(args) => solve::run(*args)?,
        Command::Info(args) => info::run(args)?,
        Command::Optimize(args) => optimize::run(args)?,
        Command::Bench(args) => bench::run(args)?,
        Command::Render(args) => render::run(args)?,
        Command::Generate(args) => generate::run(args)?,
        Command::Encode(args) => encode::run(args)?,
        Command::Decode(args) => decode::run(args)?,
        Command::Score(args) => score::run(args)?,
        Command::Split(args) => split::run(args)?,
        Command::Task(args) => task::run(args)?,
        Command::Merge(args) => merge::run(args)?,
        Command::Completions(args) => shell::completions(args, Cli::command())?,
        Command::Man(args) => shell::man(args, Cli::command())?,
    };
    Ok(ExitCode::from(code))
}

/// A closed standard output (`emx info F | head -1`) ends the run quietly,
/// exit code 0, as a `BrokenPipe` error returned by a command does (see
/// [`main`]): `println!` panics on it instead, so this hook takes that one
/// panic, removes unfinished outputs (as an interrupt does) and exits; every
/// other panic goes to the default hook.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            emx::write::remove_unfinished();
            std::process::exit(EXIT_OK.into());
        }
        default(info);
    }));
}

/// When the process started: `--time-limit` counts from here.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// The instant `main` began (reading and building a model count against a
/// time limit, as the search does).
pub fn started() -> std::time::Instant {
    *STARTED.get_or_init(std::time::Instant::now)
}

fn main() -> ExitCode {
    started();
    allocator::tune();
    quiet_on_closed_stdout();
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
            // An output stopped by the size cap (even from inside a writer's
            // io::Error) is a usage matter; one stopped by Ctrl-C is a limit.
            let inner = |f: &dyn Fn(&(dyn std::error::Error + 'static)) -> bool| {
                err.chain().any(|e| {
                    f(e) || e
                        .downcast_ref::<std::io::Error>()
                        .and_then(|io| io.get_ref())
                        .is_some_and(|i| f(i as &(dyn std::error::Error + 'static)))
                })
            };
            let stopped = matches!(
                err.downcast_ref::<emx::frontend::LoadError>(),
                Some(emx::frontend::LoadError::Stopped { .. })
            ) || matches!(
                err.downcast_ref::<emx::backend::BackendError>(),
                Some(emx::backend::BackendError::Stopped { .. })
            );
            if stopped || inner(&|e| e.is::<emx::write::Cancelled>()) {
                return ExitCode::from(EXIT_LIMIT);
            }
            let bad_input = err.downcast_ref::<emx::frontend::LoadError>().is_some()
                || err.downcast_ref::<emx::frontend::ParseError>().is_some()
                || inner(&|e| e.is::<emx::size_cap::TooLarge>())
                || err.downcast_ref::<UsageError>().is_some()
                || err.downcast_ref::<emx::backend::BackendError>().is_some();
            ExitCode::from(if bad_input { EXIT_BAD_INPUT } else { 4 })
        }
    }
}
