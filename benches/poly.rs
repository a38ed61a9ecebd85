//! The polycube engines against plain DLX, in one run: for each bundled
//! puzzle, plain DLX (min-fit, no filters), the best configuration we know
//! and `auto`, each counting the solutions up to rotation with every
//! solution verified, printing time, nodes, nodes/s and solutions/s.
//!
//! A last row runs `auto` on two threads (`auto x2`), its speed-up against
//! the one-thread `auto` row in the last column.
//!
//! Run: `cargo bench --bench poly`. The Tetris Cube runs with
//! `EMX_BENCH_TETRIS=1` (its plain-DLX run, minutes long, with
//! `EMX_BENCH_TETRIS=dlx`). `EMX_BENCH_RUNS=N` sets the runs per row
//! (median reported, default 3).

use emx::backend::{self, BackendConfig};
use emx::input::{self, Instance};
use emx::ir::Equivalence;
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::plan::schedule::ScheduleSpec;
use emx::poly::{PolyConfig, Threshold};
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions, SolveReport};
use std::path::Path;

fn run(inst: &Instance, backend: &str, poly: &PolyConfig) -> SolveReport {
    let config = BackendConfig { equivalence: Equivalence::Rotations, poly: poly.clone(), ..BackendConfig::default() };
    let mut engine = backend::make(backend, inst, &config).expect("engine builds");
    let opts = SolveOptions { mode: Some(Mode::Count), equivalence: Equivalence::Rotations, limits: Limits::none() };
    solve(engine.as_mut(), inst.problem(), &opts, &|s| inst.verify(s)).expect("every solution verifies")
}

fn median(inst: &Instance, backend: &str, poly: &PolyConfig, runs: usize) -> SolveReport {
    let mut all: Vec<SolveReport> = (0..runs).map(|_| run(inst, backend, poly)).collect();
    all.sort_by_key(|r| r.stats.elapsed);
    all.swap_remove(runs / 2)
}

fn best(name: &str) -> PolyConfig {
    let sched = |s: &str| Some(ScheduleSpec::parse(s).expect("schedule parses"));
    match name {
        "tetriscube" => PolyConfig {
            schedule: sched("dlx:min-fit,mch@11,emch@6"),
            redundancy: Some(RedundancyMode::parse("rot:L").expect("mode parses")),
            parity_trigger: Some(Threshold::From(1)),
            ..PolyConfig::default()
        },
        "pentominoes_onesided_30x3" => PolyConfig { schedule: sched("debruijn"), ..PolyConfig::default() },
        _ => PolyConfig::default(),
    }
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    let runs: usize = std::env::var("EMX_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(3).max(1);
    let tetris = std::env::var("EMX_BENCH_TETRIS").ok();
    println!(
        "{:<26} {:<8} {:>7} {:>8} {:>12} {:>9} {:>10} {:>12} {:>8}  configuration",
        "puzzle", "run", "unique", "fixed", "nodes", "time_s", "Mnodes/s", "unique/s", "vs auto"
    );
    let mut names = vec!["pentominoes_10x6", "pentominoes_onesided_30x3", "somacube"];
    if tetris.is_some() {
        names.push("tetriscube");
    }
    for name in names {
        let inst = input::load(Path::new(&format!("{root}/instances/polycube/{name}_def.txt")), None, 1)
            .expect("bundled instance loads");
        let mut rows: Vec<(&str, &str, PolyConfig)> = Vec::new();
        if name != "tetriscube" || tetris.as_deref() == Some("dlx") {
            rows.push(("dlx", "dlx", PolyConfig::default()));
        }
        rows.push(("best", "poly", best(name)));
        rows.push(("auto", "auto", PolyConfig::default()));
        rows.push(("auto x2", "auto", PolyConfig { threads: 2, ..PolyConfig::default() }));
        let mut auto_time = None;
        for (label, backend, cfg) in rows {
            let r = if backend == "dlx" && name == "tetriscube" {
                run(&inst, backend, &cfg)
            } else {
                median(&inst, backend, &cfg, runs)
            };
            let t = r.stats.elapsed.as_secs_f64();
            if label == "auto" {
                auto_time = Some(t);
            }
            let against_auto = auto_time.map_or_else(|| "-".to_string(), |a| format!("{:.2}x", a / t));
            println!(
                "{:<26} {:<8} {:>7} {:>8} {:>12} {:>9.4} {:>10.2} {:>12.0} {:>8}  {}",
                name,
                label,
                r.reported,
                r.found,
                r.stats.nodes,
                t,
                r.stats.nodes_per_sec() / 1e6,
                r.reported as f64 / t,
                against_auto,
                r.engine
            );
        }
    }
}
