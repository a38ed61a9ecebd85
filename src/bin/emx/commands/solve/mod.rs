//! `emx solve`: count, list or find the solutions of a puzzle, or
//! estimate or sample its search ([`estimate`]).

mod args;
mod estimate;
mod setup;
mod stopped;
mod stream;
mod summary;

pub use args::{Clock, SolveArgs, SolveFormat};
pub use setup::engine_setup;
use stream::Stream;
use summary::RunFacts;

use crate::interrupt::interrupt_flag;
use crate::progress::Ticker;
use crate::usage::{EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use emx::backend;
use emx::input;
use emx::ir::Equivalence;
use emx::search::progress::Progress;
use emx::search::{Flow, Limits};
use emx::solve::{solve_streaming, Mode, SolveOptions};
use emx::write::{AtomicFile, Guarded, OutputGuard};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Random probes for the tree-size estimate of the progress line.
const ESTIMATE_PROBES: u32 = 1000;

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    // The run's time limit, counted from the process start, for the build
    // and the search alike.
    crate::usage_ensure!(
        args.clock == Clock::Wall || emx::search::clock::process_cpu_seconds().is_some(),
        "--clock cpu: this platform gives emx no CPU clock of the process; use --clock wall"
    );
    let limit = args.time_limit.map(Duration::from_secs_f64);
    let deadline = limit.filter(|_| args.clock == Clock::Wall).map(|d| crate::started() + d);
    let cpu_budget = limit.filter(|_| args.clock == Clock::Cpu);
    let stop = Limits { deadline, cpu_budget, cancel: Some(interrupt_flag()), ..Limits::default() };
    let memory = args.memory_limit.map(|cap| emx::memory::Watcher::start(cap.bytes, interrupt_flag()));
    let load = stopped::load_options(&stop, &args);
    let instance = match input::load_with(&args.file, args.input.input_format, args.input.puzzle, &load) {
        Ok(instance) => instance,
        Err(e) => return stopped::before_search(&args, e.into(), memory.as_ref()),
    };
    let problem = instance.problem();
    let mode = match (args.all, args.first) {
        (true, _) => Mode::All,
        (false, Some(n)) => Mode::First(n),
        (false, None) => Mode::Count,
    };
    let equivalence = args.equivalence();
    crate::usage_ensure!(
        !(equivalence == Equivalence::RotationsAndMirrors && matches!(instance.kind, input::InstanceKind::EdgeMatch(_))),
        "--unique=mirror: edge-matching tiles cannot be turned over, so the mirror image of a board is no board of the puzzle; --unique identifies boards up to rotation"
    );
    let progress = Arc::new(Progress::new());
    let limits = Limits {
        max_solutions: args.solution_limit,
        max_nodes: args.node_limit,
        cancel: Some(interrupt_flag()),
        progress: Some(progress.clone()),
        deadline,
        cpu_budget,
    };
    let opts = SolveOptions { mode: Some(mode), equivalence, limits };
    let verify = |s: &emx::ir::Solution| instance.verify(s);
    let mut setup = engine_setup(&args, &instance, mode, equivalence)?;
    setup.config.stop = emx::search::StopCheck::of(&stop);
    let (backend_name, config, edge_threads) = (setup.backend.as_str(), &setup.config, setup.edge_threads);
    if args.sample.is_some() || args.estimate.is_some() {
        let flag = if args.sample.is_some() { "--sample" } else { "--estimate" };
        crate::usage_ensure!(
            !(args.sample.is_some() && args.estimate.is_some()),
            "--sample and --estimate are two different runs: give one"
        );
        crate::usage_ensure!(
            !args.all && args.first.is_none() && args.unique.is_none(),
            "{flag} reports rates and estimates, not solution lists: drop --all/--first/--unique"
        );
        crate::usage_ensure!(
            matches!(args.format, SolveFormat::Text | SolveFormat::Json | SolveFormat::Jsonl),
            "{flag} draws nothing and writes no board: use --format text, json or jsonl"
        );
        if edge_threads {
            return estimate::run_edge(&args, &instance, backend_name, config);
        }
        return estimate::run(&args, &instance, config, &opts.limits);
    }
    if backend_name == "sat" {
        emx::encode::size::cnf_size(problem, &config.cnf)?.check(args.max_size)?;
    }
    let (mut engine, decision) = match backend::make_explained(backend_name, &instance, config) {
        Ok(made) => made,
        Err(e) => return stopped::before_search(&args, e.into(), memory.as_ref()),
    };
    if let Some(d) = decision.filter(|_| !args.quiet) {
        eprintln!("note: {}", d.describe());
    }
    let show = crate::progress::Show::of(args.quiet, args.progress);
    if mode != Mode::First(1) && crate::progress::shown(show) {
        // For a progress line with the fraction done and the time left.
        if let Some(estimate) = engine.estimate_nodes(ESTIMATE_PROBES, 1) {
            progress.set_estimated_nodes(estimate);
        }
    }
    let guard = OutputGuard { cap: args.max_size, cancel: None };
    let mut target = Target::open(args.output.as_deref(), &guard)?;
    let facts = RunFacts { counters: &[], mode, backend: &args.backend };
    let scratch_dir = target.scratch_dir();
    let mut stream = Stream::start(&instance, args.format, args.quiet, target.writer(), &facts, &guard, &scratch_dir)?;
    let ticker = Ticker::start(progress, problem.name.clone(), show);
    let mut write_error = None;
    let report = solve_streaming(engine.as_mut(), problem, &opts, &verify, &mut |s| match stream.solution(s) {
        Ok(()) => Flow::Continue,
        Err(e) => {
            write_error = Some(e);
            Flow::Stop
        }
    });
    ticker.finish();
    if let Some(e) = write_error {
        return Err(target.error(e));
    }
    let report = stopped::relabel(report?, memory.as_ref());
    if let Some(err) = engine.error() {
        anyhow::bail!("{}: {err}", engine.describe());
    }
    let counters = engine.counters();
    let facts = RunFacts { counters: &counters, ..facts };
    stream.finish(&report, &facts).map_err(|e| match e.downcast::<std::io::Error>() {
        Ok(io) => target_error(args.output.as_deref(), io),
        Err(e) => e,
    })?;
    target.commit()?;
    let code = if report.hit_limit() || (args.solution_limit.is_some() && report.stats.stopped.is_some()) {
        EXIT_LIMIT
    } else if report.reported == 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    };
    // The process ends here: freeing the engine's tables, the instance and
    // the solutions piece by piece would be a measurable part of a short
    // run's set-up. The kernel takes the memory back at exit; nothing here
    // holds a file or a lock (the output was written above).
    std::mem::forget(report);
    std::mem::forget(engine);
    std::mem::forget(instance);
    Ok(code)
}

/// Where the output goes: standard output, or a file renamed into place
/// when complete.
enum Target {
    Stdout(std::io::BufWriter<Guarded<std::io::Stdout>>),
    File(AtomicFile, PathBuf),
}

impl Target {
    fn open(path: Option<&Path>, guard: &OutputGuard) -> anyhow::Result<Self> {
        Ok(match path.filter(|p| p.as_os_str() != "-") {
            Some(p) => {
                Target::File(AtomicFile::create(p, guard).map_err(|e| target_error(Some(p), e))?, p.to_path_buf())
            }
            None => Target::Stdout(std::io::BufWriter::with_capacity(
                1 << 16,
                Guarded::new(std::io::stdout(), guard, "standard output"),
            )),
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Target::Stdout(w) => w,
            Target::File(f, _) => f.writer(),
        }
    }

    /// Where a scratch file of this output goes: beside the output file,
    /// or in the system's temporary directory.
    fn scratch_dir(&self) -> PathBuf {
        match self {
            Target::File(_, p) => {
                p.parent().filter(|d| !d.as_os_str().is_empty()).map_or_else(|| ".".into(), Path::to_path_buf)
            }
            Target::Stdout(_) => std::env::temp_dir(),
        }
    }

    fn error(&self, e: std::io::Error) -> anyhow::Error {
        match self {
            Target::File(_, p) => target_error(Some(p), e),
            Target::Stdout(_) => target_error(None, e),
        }
    }

    fn commit(self) -> anyhow::Result<()> {
        match self {
            Target::Stdout(mut w) => w.flush().map_err(|e| target_error(None, e)),
            Target::File(f, p) => f.commit().map_err(|e| target_error(Some(&p), e)),
        }
    }
}

/// A failed write as the user reads it: the size cap, an interrupt and a
/// closed standard output keep their own errors (the exit code depends on
/// them); other failures name the file.
fn target_error(path: Option<&Path>, e: std::io::Error) -> anyhow::Error {
    let own = e.kind() == std::io::ErrorKind::BrokenPipe
        || e.get_ref().is_some_and(|i| i.is::<emx::size_cap::TooLarge>() || i.is::<emx::write::Cancelled>());
    match path {
        Some(p) if !own => crate::output::cannot_write(p, e),
        _ => e.into(),
    }
}
