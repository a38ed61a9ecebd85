//! `emx solve --sample` and `emx solve --estimate`: Monte-Carlo trials and
//! Knuth's tree-size estimate with the polycube engines, and the estimate
//! of cp and scan on edge matching ([`run_edge`]).

use super::args::SolveArgs;
use super::args::SolveFormat;
use crate::report::stop_words;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use emx::backend::BackendConfig;
use emx::input::{Instance, InstanceKind};
use emx::ir::Solution;
use emx::poly::PolyEngine;
use emx::search::{Engine, Flow, Limits};
use serde_json::json;
use std::fmt::Write;
use std::time::Duration;

pub fn run(args: &SolveArgs, instance: &Instance, config: &BackendConfig, limits: &Limits) -> anyhow::Result<u8> {
    // The report, written to stdout or `-o` at the end.
    let mut out = String::new();
    crate::usage_ensure!(
        matches!(instance.kind, InstanceKind::Polycube(_)),
        "--sample and --estimate use the polycube engines: {} is not a polycube puzzle",
        instance.file
    );
    crate::usage_ensure!(
        args.sample.is_some() || (args.node_limit.is_none() && args.solution_limit.is_none()),
        "--estimate makes random probes, not a search: --node-limit and --solution-limit do not apply (--time-limit ends the probes)"
    );
    let mut poly = config.poly.clone();
    poly.equivalence = config.equivalence;
    let engine =
        PolyEngine::new(instance.problem(), &poly).map_err(|e| crate::usage_error!("{}: {e}", instance.file))?;
    let problem = instance.problem();
    if let Some(spec) = args.sample {
        let mut failure = None;
        let report = engine
            .sample(spec, limits, &mut |options| {
                if let Err(e) = instance.verify(&Solution { options: options.to_vec() }) {
                    failure = Some(e);
                    return Flow::Stop;
                }
                Flow::Continue
            })
            .map_err(|e| anyhow::anyhow!("--sample: {e}"))?;
        if let Some(e) = failure {
            anyhow::bail!("internal error: a sampled solution failed verification: {e}");
        }
        match args.format {
            SolveFormat::Json | SolveFormat::Jsonl | SolveFormat::Svg | SolveFormat::Board | SolveFormat::Bucas => {
                writeln!(
                    out,
                    "{}",
                    json!({ "command": "solve", "mode": "sample", "kind": "polycube", "file": instance.file, "puzzle": problem.name, "engine": engine.describe(), "sample": report, "solutions_per_s": report.rate() })
                )?
            }
            SolveFormat::Text => {
                writeln!(out, "{} ({}): Monte-Carlo sampling, {}", problem.name, instance.file, engine.describe())?;
                writeln!(
                    out,
                    "trials: {} ({} ending at {} remaining pieces, {} exhausted the tree), seed {}",
                    report.trials,
                    report.trials - report.exhausted,
                    spec.remaining,
                    report.exhausted,
                    spec.seed
                )?;
                writeln!(
                    out,
                    "solutions found: {} ({:.1}/s); nodes: {} ({:.2} M/s); time {:.3} s",
                    report.solutions,
                    report.rate(),
                    report.nodes,
                    report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9) / 1e6,
                    report.elapsed.as_secs_f64()
                )?;
                if report.stopped.is_some() {
                    writeln!(out, "stopped early by a limit")?;
                }
            }
        }
        crate::output::write(args.output.as_deref(), &out)?;
        return Ok(if report.stopped.is_some() { EXIT_LIMIT } else { EXIT_OK });
    }
    let Some(spec) = args.estimate else {
        crate::usage_bail!("emx solve estimates with --estimate or samples with --sample")
    };
    let run = engine.estimate(spec, limits, RATE_WINDOW);
    let e = &run.estimate;
    let threads = poly.threads.max(1);
    match args.format {
        SolveFormat::Json | SolveFormat::Jsonl | SolveFormat::Svg | SolveFormat::Board | SolveFormat::Bucas => {
            writeln!(
                out,
                "{}",
                json!({ "command": "solve", "mode": "estimate", "kind": "polycube", "file": instance.file, "puzzle": problem.name, "engine": engine.describe(), "threads": threads, "estimate": e, "stopped": run.stopped })
            )?
        }
        SolveFormat::Text => {
            writeln!(
                out,
                "{} ({}): Knuth's estimate of the full search, {}",
                problem.name,
                instance.file,
                engine.describe()
            )?;
            writeln!(out, "probes: {} (seed {})", e.probes, spec.seed)?;
            // One solution per orbit of the constrained piece: the classes
            // of the filter's symmetries.
            let classes = match engine.redundancy() {
                Some(r) if r.mirror => " up to rotation and reflection",
                Some(_) => " up to rotation",
                None => "",
            };
            writeln!(out, "solutions: {}", about(e.solutions, e.solutions_stderr, e.probes, classes))?;
            writeln!(out, "search: {}", about(e.nodes, e.nodes_stderr, e.probes, " nodes"))?;
            if run.window.is_zero() {
                writeln!(out, "time: not measured (interrupted)")?;
            } else {
                writeln!(
                    out,
                    "time: about {} at {:.2} M nodes/s on {} (measured on a {} ms run)",
                    human_seconds(e.seconds),
                    e.nodes_per_sec / 1e6,
                    if threads > 1 { format!("{threads} threads") } else { "one thread".to_string() },
                    run.window.as_millis()
                )?;
            }
            if let Some(w) = too_wide(e) {
                writeln!(out, "note: {w}")?;
            }
            let n = e.per_depth.len();
            let levels: Vec<String> = e
                .per_depth
                .iter()
                .enumerate()
                .filter(|(_, &x)| x > 0.0)
                .map(|(d, x)| format!("{}:{x:.2e}", n.saturating_sub(2 + d)))
                .collect();
            writeln!(out, "nodes by pieces left after the placement: {}", levels.join(" "))?;
            if let Some(r) = run.stopped {
                let why = stop_words(r);
                writeln!(out, "stopped: {why} (the estimate of {} of {} probes)", e.probes, spec.probes)?;
            }
        }
    }
    crate::output::write(args.output.as_deref(), &out)?;
    Ok(if run.stopped.is_some() { EXIT_LIMIT } else { EXIT_OK })
}

/// How long the real search runs to measure its rate (`--estimate`).
const RATE_WINDOW: Duration = Duration::from_millis(500);

/// `emx solve --estimate` on an edge-matching puzzle: Knuth's estimate of
/// the search of the engine `backend` builds (cp, scan, or `auto`'s pick).
pub fn run_edge(args: &SolveArgs, instance: &Instance, backend: &str, config: &BackendConfig) -> anyhow::Result<u8> {
    // The report, written to stdout or `-o` at the end.
    let mut out = String::new();
    crate::usage_ensure!(
        config.threads <= 1,
        "--estimate of the edge-matching engines runs on one thread: drop --threads"
    );
    crate::usage_ensure!(
        args.node_limit.is_none() && args.solution_limit.is_none() && args.time_limit.is_none(),
        "--estimate of the edge-matching engines takes no limit: drop --node-limit/--solution-limit/--time-limit (fewer PROBES take less time)"
    );
    let Some(spec) = args.estimate else {
        crate::usage_bail!("--sample runs Busche's trials with the polycube engines; on edge matching use --estimate")
    };
    let (mut engine, decision) = emx::backend::make_explained(backend, instance, config)?;
    let Some(e) = engine.knuth_estimate(spec.probes, spec.seed) else {
        crate::usage_bail!("--estimate: {} cannot estimate its search (use --backend cp or scan)", engine.describe());
    };
    let e = emx::search::knuth::with_rate(engine.as_mut(), e, RATE_WINDOW);
    let weight = engine.solution_weight();
    let (boards, boards_err) = (e.solutions * weight as f64, e.solutions_stderr * weight as f64);
    let problem = instance.problem();
    match args.format {
        SolveFormat::Json | SolveFormat::Jsonl | SolveFormat::Svg | SolveFormat::Board | SolveFormat::Bucas => {
            writeln!(
                out,
                "{}",
                json!({ "command": "solve", "mode": "estimate", "kind": "edgematch", "file": instance.file, "puzzle": problem.name, "backend": backend, "engine": engine.describe(), "estimate": e, "boards_per_solution": weight, "boards": boards, "boards_stderr": boards_err, "auto_pick": decision.as_ref().map(|d| d.describe()) })
            )?
        }
        SolveFormat::Text => {
            writeln!(
                out,
                "{} ({}): Knuth's estimate of the full search, {}",
                problem.name,
                instance.file,
                engine.describe()
            )?;
            if let Some(d) = &decision {
                writeln!(out, "{}", d.describe())?;
            }
            writeln!(out, "probes: {} (seed {})", e.probes, spec.seed)?;
            print!("boards: {}", about(boards, boards_err, e.probes, ""));
            if weight > 1 && e.solutions > 0.0 {
                print!(" (about {} up to rotation)", sig(e.solutions));
            }
            writeln!(out)?;
            writeln!(out, "search: {}", about(e.nodes, e.nodes_stderr, e.probes, " nodes"))?;
            writeln!(
                out,
                "time: about {} of CPU at {:.2} M nodes per CPU second (measured on a {} ms run)",
                human_seconds(e.seconds),
                e.nodes_per_sec / 1e6,
                RATE_WINDOW.as_millis()
            )?;
            let levels: Vec<String> =
                e.per_depth.iter().enumerate().filter(|(_, &x)| x > 0.0).map(|(d, x)| format!("{d}:{x:.2e}")).collect();
            writeln!(out, "nodes by cells filled: {}", levels.join(" "))?;
            if let Some(w) = too_wide(&e) {
                writeln!(out, "note: {w}")?;
            }
        }
    }
    crate::output::write(args.output.as_deref(), &out)?;
    Ok(EXIT_OK)
}

/// `x` to three significant figures.
fn sig(x: f64) -> String {
    match x.abs() {
        a if a >= 1e3 || (a != 0.0 && a < 1e-2) => format!("{x:.2e}"),
        a if a >= 100.0 => format!("{x:.0}"),
        a if a >= 10.0 => format!("{x:.1}"),
        _ => format!("{x:.2}"),
    }
}

/// An estimated count as a reader takes it: `about 9.8e3 up to rotation
/// (± 12%)`, or why there is none.
fn about(mean: f64, stderr: f64, probes: u64, what: &str) -> String {
    if mean == 0.0 {
        return format!(
            "none met by the {probes} probes (fewer than the probes can see; more probes or a full run tell)"
        );
    }
    let spread = if stderr.is_finite() { format!(" (± {:.0}%)", 100.0 * stderr / mean) } else { String::new() };
    format!("about {}{what}{spread}", sig(mean))
}

/// Relative standard error above which an estimate is flagged as too wide
/// to trust.
const WIDE: f64 = 0.3;

/// Why the estimate's spread is too wide to trust, if it is.
fn too_wide(e: &emx::search::Estimate) -> Option<String> {
    let rel = |m: f64, s: f64| if m > 0.0 { s / m } else { 0.0 };
    let worst = rel(e.nodes, e.nodes_stderr).max(rel(e.solutions, e.solutions_stderr));
    (worst > WIDE || e.probes < 2).then(|| {
        format!(
            "the spread (± {:.0}% at worst) is too wide to trust: Knuth's estimate converges slowly on uneven trees; more probes (--estimate {}) narrow it",
            100.0 * worst,
            (e.probes * 10).max(100)
        )
    })
}

/// `s` seconds for a reader: seconds, and the larger unit when it helps.
fn human_seconds(s: f64) -> String {
    const UNITS: [(f64, &str); 4] =
        [(86400.0 * 365.25, "years"), (86400.0, "days"), (3600.0, "hours"), (60.0, "minutes")];
    if !s.is_finite() {
        return "an unknown time (no rate measured)".to_string();
    }
    match UNITS.iter().find(|(u, _)| s >= *u) {
        Some((u, name)) => format!("{s:.3e} s ({:.3} {name})", s / u),
        None => format!("{s:.3} s"),
    }
}
