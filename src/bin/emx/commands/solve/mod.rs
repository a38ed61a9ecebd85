//! `emx solve`: count, list or find the solutions of a puzzle, or
//! estimate or sample its search ([`estimate`]).

mod args;
mod estimate;
mod setup;
mod stopped;

pub use args::{SolveArgs, SolveFormat};
pub use setup::engine_setup;

use crate::interrupt::interrupt_flag;
use crate::progress::Ticker;
use crate::report::{instance_kind, stop_words};
use crate::usage::{EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use emx::backend;
use emx::input;
use emx::ir::Equivalence;
use emx::search::progress::Progress;
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions, SolveReport};
use serde_json::json;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Random probes for the tree-size estimate of the progress line.
const ESTIMATE_PROBES: u32 = 1000;

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    // The run's deadline, for the build and the search alike.
    let deadline = args.time_limit.map(|s| std::time::Instant::now() + Duration::from_secs_f64(s));
    let memory = args.memory_limit.map(|cap| emx::memory::Watcher::start(cap.bytes, interrupt_flag()));
    let load = stopped::load_options(&args, deadline, interrupt_flag());
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
    };
    let opts = SolveOptions { mode: Some(mode), equivalence, limits };
    let verify = |s: &emx::ir::Solution| instance.verify(s);
    let mut setup = engine_setup(&args, &instance, mode, equivalence)?;
    setup.config.stop = emx::search::StopCheck::new(deadline, Some(interrupt_flag()));
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
            matches!(args.format, SolveFormat::Text | SolveFormat::Json),
            "{flag} draws nothing and writes no board: use --format text or json"
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
    let ticker = Ticker::start(progress, problem.name.clone(), show);
    let report = solve(engine.as_mut(), problem, &opts, &verify);
    ticker.finish();
    let report = stopped::relabel(report?, memory.as_ref());
    if let Some(err) = engine.error() {
        anyhow::bail!("{}: {err}", engine.describe());
    }
    let counters = engine.counters();
    let mut out = Vec::new();
    match args.format {
        SolveFormat::Json => print_json(&mut out, &instance, &report, &counters, mode, &args.backend)?,
        SolveFormat::Text => print_text(&mut out, &instance, &report, &counters, args.quiet)?,
        SolveFormat::Svg | SolveFormat::Board => {
            if args.format == SolveFormat::Svg {
                let picture = crate::pictures::solutions_picture(&instance, &problem.name, &report.solutions)?;
                out.extend_from_slice(picture.as_bytes());
            } else {
                write_boards(&mut out, &instance, &report)?;
            }
            if !args.quiet {
                // The picture or the boards go to stdout; the summary to stderr.
                let mut summary = Vec::new();
                print_text(&mut summary, &instance, &report, &counters, true)?;
                eprint!("{}", String::from_utf8_lossy(&summary));
            }
        }
    }
    crate::output::write(args.output.as_deref(), &String::from_utf8_lossy(&out))?;
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

/// The boards found, as board files one after the other (each under a
/// comment line naming it), which `emx score` scores one by one and
/// `render` and `optimize --start-board` read.
fn write_boards(out: &mut impl Write, instance: &input::Instance, report: &SolveReport) -> anyhow::Result<()> {
    let input::InstanceKind::EdgeMatch(e) = &instance.kind else {
        crate::usage_bail!(
            "--format board writes edge-matching boards: {} is not an edge-matching puzzle",
            instance.file
        )
    };
    for (k, s) in report.solutions.iter().enumerate() {
        let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &s.options);
        writeln!(out, "# {} board {} of {}", instance.problem().name, k + 1, report.solutions.len())?;
        write!(out, "{}", emx::render::text::board(&board))?;
        writeln!(out)?;
    }
    Ok(())
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
    counters: &[(&str, u64)],
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
    } else if !problem.symmetries.is_empty() {
        write!(out, " (every symmetric copy counted; --unique counts up to rotation)")?;
    }
    if report.stats.fixed_box.is_some() && report.found != report.stats.solutions {
        write!(
            out,
            "\n  ({} searched under the redundancy filter, each weighted by its orbit to give the fixed-box count {})",
            report.stats.solutions, report.found
        )?;
    }
    writeln!(out)?;
    if let input::InstanceKind::EdgeMatch(e) = &instance.kind {
        let groups = emx::edgematch::identical_tiles(&e.puzzle);
        if !groups.is_empty() {
            let copies: usize = groups.iter().map(Vec::len).sum();
            writeln!(
                out,
                "note: {copies} tiles fall in {} groups of identical tiles; boards that differ only by swapping identical tiles are counted separately",
                groups.len()
            )?;
        }
    }
    let s = &report.stats;
    // Engines that do not count elementary work report 0 updates: say nothing then.
    let updates = if s.updates > 0 { format!(", {} updates", s.updates) } else { String::new() };
    writeln!(
        out,
        "search: {}, {} nodes{updates}, {:.3} s, {:.2} M nodes/s",
        report.engine,
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.nodes_per_sec() / 1e6
    )?;
    if !counters.is_empty() {
        let list: Vec<String> = counters.iter().map(|(k, v)| format!("{} {v}", k.replace('_', " "))).collect();
        writeln!(out, "counters: {}", list.join(", "))?;
    }
    if let Some(reason) = s.stopped {
        writeln!(out, "stopped: {} (the search did not finish)", stop_words(reason))?;
    }
    Ok(())
}

fn print_json(
    out: &mut impl Write,
    instance: &input::Instance,
    report: &SolveReport,
    counters: &[(&str, u64)],
    mode: Mode,
    backend: &str,
) -> std::io::Result<()> {
    let problem = instance.problem();
    let s = &report.stats;
    let mut v = json!({
        "command": "solve",
        "file": instance.file,
        "puzzle": problem.name,
        "kind": instance_kind(instance),
        "backend": backend,
        "engine": report.engine,
        "mode": mode_name(mode),
        "first": match mode {
            Mode::First(n) => Some(n),
            _ => None,
        },
        "solutions": report.reported,
        "found": report.found,
        "searched": s.solutions,
        "equivalence": report.equivalence,
        "complete": s.complete(),
        "stopped": s.stopped,
        "nodes": s.nodes,
        "updates": (s.updates > 0).then_some(s.updates),
        "time_s": s.elapsed.as_secs_f64(),
        "nodes_per_s": s.nodes_per_sec(),
        "items": problem.items().len(),
        "options": problem.n_options(),
        "solution_list": report.solutions.iter().map(|s| instance.solution_json(s)).collect::<Vec<_>>(),
    });
    if !counters.is_empty() {
        v["counters"] =
            counters.iter().map(|(k, v)| (k.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into();
    }
    serde_json::to_writer(&mut *out, &v)?;
    writeln!(out)
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Count => "count",
        Mode::All => "all",
        Mode::First(_) => "first",
    }
}
