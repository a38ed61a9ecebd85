//! The `emx` command line: argument parsing and printing only; the library
//! does the work.

mod bench;
mod cnf_flags;
mod decode;
mod encode;
mod generate;
mod info;
mod merge;
mod optimize;
mod output;
mod progress;
mod render;
mod sample;
mod score;
mod solve;
mod split;
mod split_edge;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

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
    /// Translate a puzzle: DIMACS CNF, DIMACS clique graph, Knuth .dlx, CPLEX LP.
    Encode(encode::EncodeArgs),
    /// Map an external answer (SAT model, clique, LP solution) back to a verified solution.
    Decode(decode::DecodeArgs),
    /// Score an edge-matching board: matched inner joins, border, tiles, clues.
    Score(score::ScoreArgs),
    /// Cut a search into independent subproblem files (polycube or edge-matching puzzles).
    Split(split::SplitArgs),
    /// Add up the results of the parts of an `emx split`.
    Merge(merge::MergeArgs),
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

/// Returns a [`UsageError`] at once: a mistake in the command line (exit code 2).
#[macro_export]
macro_rules! usage_bail {
    ($($fmt:tt)+) => {
        return Err($crate::UsageError(format!($($fmt)+)).into())
    };
}

/// A [`UsageError`] built in place, for `map_err` on the parse of a flag's value.
#[macro_export]
macro_rules! usage_error {
    ($($fmt:tt)+) => {
        anyhow::Error::from($crate::UsageError(format!($($fmt)+)))
    };
}

/// The flag Ctrl-C sets.
static INTERRUPT: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// Whether the running command polls [`INTERRUPT`] (a search).
static POLLED: AtomicBool = AtomicBool::new(false);

/// A flag set by Ctrl-C; searches poll it and stop cleanly (printing what
/// they found, exit code 3). Calling this tells the Ctrl-C handler that the
/// command polls the flag.
fn interrupt_flag() -> Arc<AtomicBool> {
    POLLED.store(true, Ordering::SeqCst);
    INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone()
}

/// Ctrl-C: in a command that polls the flag (a search), the first Ctrl-C
/// sets it and the search stops cleanly. Otherwise, or on a second Ctrl-C,
/// the temporary files of unfinished outputs are removed (the targets were
/// never touched) and emx exits with code 3.
///
/// Until the first temporary file is made there is nothing to remove, and a
/// plain signal handler does it all (an atomic flag, or a message and
/// `_exit`); the `ctrlc` handler, which needs a thread of its own (about
/// 0.15 ms of a 4.5 ms small run; docs/poly.md, round 11), is installed
/// only then, through [`emx::write::before_first_temp`].
fn install_interrupt_handler() {
    INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false)));
    // SAFETY: `sa` is fully initialised (zeroed, then an empty mask) before
    // `sigaction` reads it; `on_sigint` only does async-signal-safe work.
    // If it fails, Ctrl-C keeps its default effect: the process ends, and
    // unfinished outputs stay under their temporary names, never at their
    // targets.
    let rc = unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        sa.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut())
    };
    debug_assert_eq!(rc, 0, "sigaction(SIGINT)");
    emx::write::before_first_temp(install_removing_handler);
}

/// The signal handler while no output is in progress: atomics, `write`
/// and `_exit` only (so, unlike `process::exit`, it does not flush a
/// partly written line of standard output).
extern "C" fn on_sigint(_: libc::c_int) {
    if let Some(flag) = INTERRUPT.get() {
        if POLLED.load(Ordering::SeqCst) && !flag.swap(true, Ordering::SeqCst) {
            return;
        }
    }
    const MSG: &[u8] = b"emx: interrupted: unfinished outputs removed\n";
    // SAFETY: `write` and `_exit` are async-signal-safe; `MSG` is static.
    unsafe {
        libc::write(2, MSG.as_ptr().cast(), MSG.len());
        libc::_exit(EXIT_LIMIT.into());
    }
}

/// Replaces [`on_sigint`] by a `ctrlc` handler that also removes the
/// temporary files of unfinished outputs (once; before the first is made).
fn install_removing_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let flag = INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
        // If a handler cannot be installed, [`on_sigint`] stays: the process
        // ends on a second Ctrl-C, and unfinished outputs stay under their
        // temporary names, never at their targets.
        let _ = ctrlc::set_handler(move || {
            if POLLED.load(Ordering::SeqCst) && !flag.swap(true, Ordering::SeqCst) {
                return;
            }
            emx::write::remove_unfinished();
            eprintln!("emx: interrupted: unfinished outputs removed");
            std::process::exit(EXIT_LIMIT.into());
        });
    });
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    install_interrupt_handler();
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
        Command::Merge(args) => merge::run(args)?,
    };
    Ok(ExitCode::from(code))
}

/// Tunes glibc's allocator for the set-up: blocks up to [`MMAP_BELOW`] come
/// from the heap (glibc's default maps every block of 128 KB or more on
/// its own and unmaps it when freed, so the next large block faults in
/// fresh pages again), and freed memory stays in the heap for the next
/// tables (up to [`TRIM_ABOVE`] kept at the top).
///
/// Then the heap is grown once by [`HEAP_RESERVE`] of address space (a
/// block allocated and freed at once: it stays as the heap's free top, no
/// page of it touched) and the whole 2 MB pages inside it are marked
/// `MADV_HUGEPAGE`, so the tables the set-up builds there fault in 2 MB at
/// a time instead of 4 KB (10x6: about 1 000 faults down to 140, each
/// about 0.9 µs). The part below the first 2 MB boundary is taken by one
/// block that is never touched, so the next blocks start on huge pages.
/// Memory is only committed where the program writes, as before, rounded
/// to 2 MB where the kernel grants huge pages (its THP mode `madvise` or
/// `always`); where it does not, nothing changes.
///
/// Worker threads allocate from that heap too (one arena, `M_ARENA_MAX`):
/// glibc otherwise gives each new thread an arena of its own, a fresh
/// mapping without huge pages, where a worker's first walker (its copy of
/// the DLX matrix, its buffers) faulted in 4 KB at a time (10x6 on two
/// threads: 663 page faults, 174 with one arena). The searches allocate
/// little once started, and small blocks come from each thread's cache.
fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets allocator parameters; called first in
        // `main`, before any thread exists. It returns 1 on success.
        let ok = unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_BELOW)
                + libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_ABOVE)
                + libc::mallopt(libc::M_ARENA_MAX, 1)
        };
        debug_assert_eq!(ok, 3, "mallopt");
        if ok == 3 {
            reserve_huge_heap();
        }
    }
}

/// The heap growth of [`tune_allocator`]: best effort, a no-op where the
/// allocator does not behave as expected.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn reserve_huge_heap() {
    const HUGE: usize = 2 << 20;
    /// glibc's chunk header before a block, and the chunk alignment.
    const HEADER: usize = 16;
    // SAFETY: plain malloc/free of blocks this function owns; the pointers
    // are only compared and turned into addresses, never dereferenced. The
    // head block is leaked on purpose (address space, never touched).
    //
    // Two traps, both measured on the 10x6's set-up (round 25, docs/poly.md):
    // the blocks pass through `black_box`, since the compiler knows `malloc`
    // and `free` and otherwise took `taken != block` as always true (two
    // allocations) and deleted the head block's `malloc`/`free` pair, so the
    // first blocks went below the huge pages; and the huge pages are asked
    // for before the head is taken, since taking it writes the heap top's
    // header at the boundary, and a 2 MB range with a 4 KB page in it
    // already faults in 4 KB pages for good.
    unsafe {
        let block = std::hint::black_box(libc::malloc(HEAP_RESERVE));
        if block.is_null() {
            return;
        }
        let chunk = block as usize - HEADER;
        let end = chunk + HEAP_RESERVE;
        libc::free(block);
        // The freed block merged back into the heap's top: a block of
        // `head - 8` bytes from the top takes a chunk of exactly `head`
        // (glibc rounds request + 8 up to 16), ending at the boundary.
        let aligned = (chunk + HEADER + HUGE - 1) & !(HUGE - 1);
        let head = aligned - chunk;
        let huge_end = end & !(HUGE - 1);
        if huge_end > aligned {
            libc::madvise(aligned as *mut libc::c_void, huge_end - aligned, libc::MADV_HUGEPAGE);
        }
        let taken = std::hint::black_box(libc::malloc(head - 8));
        if !std::ptr::eq(taken, block) {
            // Not carved from the top (a free block of that size was
            // reused): give it back; the first blocks then start below
            // the huge pages.
            libc::free(taken);
        }
    }
}

/// See [`tune_allocator`].
const MMAP_BELOW: libc::c_int = 32 << 20;
/// See [`tune_allocator`].
const TRIM_ABOVE: libc::c_int = 64 << 20;
/// See [`tune_allocator`]: just under [`MMAP_BELOW`], so it comes from the
/// heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_RESERVE: usize = (32 << 20) - (64 << 10);

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

fn main() -> ExitCode {
    tune_allocator();
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
            if inner(&|e| e.is::<emx::write::Cancelled>()) {
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
