//! `emx solve --sample` and `emx solve --estimate`: Monte-Carlo trials and
//! Knuth's tree-size estimate with the polycube engines, and the estimate
//! of cp and scan on edge matching ([`run_edge`]).

use super::args::SolveArgs;
use crate::args::Format;
use crate::report::stop_words;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use emx::backend::BackendConfig;
use emx::input::{Instance, InstanceKind};
use emx::ir::Solution;
use emx::poly::PolyEngine;
use emx::search::{Engine, Flow, Limits};
use serde_json::json;
use std::time::Duration;

pub fn run(args: &SolveArgs, instance: &Instance, config: &BackendConfig, limits: &Limits) -> anyhow::Result<u8> {
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
            Format::Json | Format::Svg => println!(
                "{}",
                json!({ "command": "solve", "mode": "sample", "kind": "polycube", "file": instance.file, "puzzle": problem.name, "engine": engine.describe(), "sample": report, "solutions_per_s": report.rate() })
            ),
            Format::Text => {
                println!("{} ({}): Monte-Carlo sampling, {}", problem.name, instance.file, engine.describe());
                println!(
                    "trials: {} ({} ending at {} remaining pieces, {} exhausted the tree), seed {}",
                    report.trials,
                    report.trials - report.exhausted,
                    spec.remaining,
                    report.exhausted,
                    spec.seed
                );
                println!(
                    "solutions found: {} ({:.1}/s); nodes: {} ({:.2} M/s); time {:.3} s",
                    report.solutions,
                    report.rate(),
                    report.nodes,
                    report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9) / 1e6,
                    report.elapsed.as_secs_f64()
                );
                if report.stopped.is_some() {
                    println!("stopped early by a limit");
                }
            }
        }
        return Ok(if report.stopped.is_some() { EXIT_LIMIT } else { EXIT_OK });
    }
    let Some(spec) = args.estimate else {
        crate::usage_bail!("emx solve estimates with --estimate or samples with --sample")
    };
    let run = engine.estimate(spec, limits, RATE_WINDOW);
    let e = &run.estimate;
    let threads = poly.threads.max(1);
    match args.format {
        Format::Json | Format::Svg => println!(
            "{}",
            json!({ "command": "solve", "mode": "estimate", "kind": "polycube", "file": instance.file, "puzzle": problem.name, "engine": engine.describe(), "threads": threads, "estimate": e, "stopped": run.stopped })
        ),
        Format::Text => {
            println!("{} ({}): Knuth estimate, {}", problem.name, instance.file, engine.describe());
            println!("probes: {} (seed {})", e.probes, spec.seed);
            println!("nodes: {:.4e} ± {:.2e}", e.nodes, e.nodes_stderr);
            println!(
                "solutions found by the search: {:.4e} ± {:.2e}{}",
                e.solutions,
                e.solutions_stderr,
                if engine.redundancy().is_some() { " (one per symmetry orbit of the constrained piece)" } else { "" }
            );
            if run.window.is_zero() {
                println!("time: not measured (interrupted)");
            } else {
                println!(
                    "time: about {} at {:.2} M nodes/s on {} (measured on a {} ms run)",
                    human_seconds(e.seconds),
                    e.nodes_per_sec / 1e6,
                    if threads > 1 { format!("{threads} threads") } else { "one thread".to_string() },
                    run.window.as_millis()
                );
            }
            let n = e.per_depth.len();
            let levels: Vec<String> = e
                .per_depth
                .iter()
                .enumerate()
                .filter(|(_, &x)| x > 0.0)
                .map(|(d, x)| format!("{}:{x:.2e}", n.saturating_sub(2 + d)))
                .collect();
            println!("nodes by pieces left after the placement: {}", levels.join(" "));
            if let Some(r) = run.stopped {
                let why = stop_words(r);
                println!("stopped: {why} (the estimate of {} of {} probes)", e.probes, spec.probes);
            }
        }
    }
    Ok(if run.stopped.is_some() { EXIT_LIMIT } else { EXIT_OK })
}

/// How long the real search runs to measure its rate (`--estimate`).
const RATE_WINDOW: Duration = Duration::from_millis(500);

/// `emx solve --estimate` on an edge-matching puzzle: Knuth's estimate of
/// the search of the engine `backend` builds (cp, scan, or `auto`'s pick).
pub fn run_edge(args: &SolveArgs, instance: &Instance, backend: &str, config: &BackendConfig) -> anyhow::Result<u8> {
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
        Format::Json | Format::Svg => println!(
            "{}",
            json!({ "command": "solve", "mode": "estimate", "kind": "edgematch", "file": instance.file, "puzzle": problem.name, "backend": backend, "engine": engine.describe(), "estimate": e, "boards_per_solution": weight, "boards": boards, "boards_stderr": boards_err, "auto_pick": decision.as_ref().map(|d| d.describe()) })
        ),
        Format::Text => {
            println!("{} ({}): Knuth estimate, {}", problem.name, instance.file, engine.describe());
            if let Some(d) = &decision {
                println!("{}", d.describe());
            }
            println!("probes: {} (seed {})", e.probes, spec.seed);
            println!("nodes: {:.4e} ± {:.2e}", e.nodes, e.nodes_stderr);
            print!("boards: {boards:.4e} ± {boards_err:.2e}");
            if weight > 1 {
                print!(" ({:.4e} found by the search, each with its {} rotations)", e.solutions, weight - 1);
            }
            println!();
            println!(
                "time: about {} of CPU at {:.2} M nodes per CPU second (measured on a {} ms run)",
                human_seconds(e.seconds),
                e.nodes_per_sec / 1e6,
                RATE_WINDOW.as_millis()
            );
            let levels: Vec<String> =
                e.per_depth.iter().enumerate().filter(|(_, &x)| x > 0.0).map(|(d, x)| format!("{d}:{x:.2e}")).collect();
            println!("nodes by cells filled: {}", levels.join(" "));
        }
    }
    Ok(EXIT_OK)
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
