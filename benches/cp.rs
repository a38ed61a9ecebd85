//! The CP engine against the other emx backends and OR-tools CP-SAT:
//! enumerating every solution of edge-matching puzzles.
//!
//! Run: `cargo bench --bench cp -- [--time-limit S] [--no-ablation]
//! [--no-cpsat] [--generated] [--estimate PROBES [--cp SPEC]...] [FILE...]`.
//! With `--estimate`, nothing is enumerated: per instance and `--cp`
//! configuration (the default when none is given) it prints Knuth's
//! estimate of cp's nodes and boards (one per symmetry class) from
//! PROBES random probes, with the standard error. Without files: Brendan set-2 6x6, 7x7 and 8x8,
//! then Benoist-style puzzles from `emx::edgematch::generate` (uniform
//! colours; sizes, colour counts and seeds in `GENERATED`, chosen so that
//! each has few solutions, as in the paper), written as META files to a
//! temporary directory so CP-SAT reads the same puzzles; `--generated`
//! adds the generated puzzles to the files given.
//! Per instance and engine it prints solutions, whether the enumeration
//! finished, nodes, wall time, CPU time (Linux), nodes per CPU second, and
//! for cp its forced and completion-walker placements and (decisions +
//! walker placements) per CPU second: `scan` and `dlx` (when the
//! registry has them), `cp` with the default configuration, `cp` with each
//! component switched off (the ablation), and CP-SAT through
//! `benches/cpsat_edgematch.py` (skipped, with the reason, when python3 or ortools
//! is missing). Every solution is verified. Engines run one after the
//! other on one thread; run on an idle machine, or compare nodes.

use emx::backend::{self, BackendConfig, BackendError};
use emx::edgematch::cp::{CpConfig, COMPONENTS};
use emx::edgematch::generate::{generate, GenerateSpec, Style};
use emx::input;
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Generated instances: (side, colours, seed).
const GENERATED: &[(usize, u16, u64)] = &[(8, 8, 1), (8, 9, 2), (9, 11, 1), (10, 13, 1)];

/// Writes the generated instances as META files and returns their paths.
fn generated_files() -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("emx-cp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    GENERATED
        .iter()
        .map(|&(n, k, seed)| {
            let g = generate(&GenerateSpec { rows: n, cols: n, style: Style::Uniform { colors: k }, seed })
                .expect("valid generator spec");
            let mut text = format!("{} {}\n", g.puzzle.cols, g.puzzle.rows);
            for t in &g.puzzle.tiles {
                text += &format!("{} {} {} {}\n", t.0[0], t.0[1], t.0[2], t.0[3]);
            }
            let path = dir.join(format!("benoist_{n}x{n}_k{k}_s{seed}.txt"));
            std::fs::write(&path, text).expect("write instance");
            path.display().to_string()
        })
        .collect()
}

struct Row {
    engine: String,
    solutions: u64,
    complete: bool,
    nodes: Option<u64>,
    secs: f64,
    /// CPU seconds of this process during the run (Linux), which a loaded
    /// machine does not inflate.
    cpu: Option<f64>,
    /// cp's forced placements (`singletons`) and completion-walker
    /// placements (`bottom_nodes`), which `nodes` (decisions) leaves out.
    forced: Option<u64>,
    bottom: Option<u64>,
}

/// User + system CPU seconds of this process, from /proc (Linux only).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn run(inst: &input::Instance, name: &str, cp: CpConfig, label: &str, limit: Duration) -> Option<Row> {
    let config = BackendConfig { cp, ..BackendConfig::default() };
    let mut engine = match backend::make(name, inst, &config) {
        Ok(e) => e,
        Err(BackendError::Unknown(_)) => return None,
        Err(e) => panic!("{e}"),
    };
    let opts = SolveOptions {
        mode: Some(Mode::Count),
        limits: Limits::none().with_time_limit(Some(limit)),
        ..SolveOptions::default()
    };
    let cpu0 = cpu_seconds();
    let report = solve(engine.as_mut(), inst.problem(), &opts, &|s| inst.verify(s)).expect("verified solutions");
    let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
    let s = &report.stats;
    let counter = |name: &str| engine.counters().into_iter().find(|&(k, _)| k == name).map(|(_, v)| v);
    Some(Row {
        engine: label.to_string(),
        solutions: report.found,
        complete: s.complete(),
        nodes: Some(s.nodes),
        secs: s.elapsed.as_secs_f64(),
        cpu,
        forced: counter("singletons"),
        bottom: counter("bottom_nodes"),
    })
}

fn cpsat(file: &str, limit: Duration) -> Result<Row, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/cpsat_edgematch.py");
    let out = Command::new("python3")
        .arg(script)
        .arg("--time-limit")
        .arg(limit.as_secs_f64().to_string())
        .arg(file)
        .output()
        .map_err(|e| format!("python3 not runnable: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("cpsat_edgematch.py printed no result ({e}): {text}"))?;
    if let Some(reason) = v["skipped"].as_str() {
        return Err(reason.to_string());
    }
    Ok(Row {
        engine: "cp-sat (1 worker)".into(),
        solutions: v["solutions"].as_u64().unwrap_or(0),
        complete: v["complete"].as_bool().unwrap_or(false),
        nodes: v["branches"].as_u64(),
        secs: v["time_s"].as_f64().unwrap_or(0.0),
        cpu: None,
        forced: None,
        bottom: None,
    })
}

fn print(file: &str, r: &Row) {
    let nodes = r.nodes.map_or("-".to_string(), |n| n.to_string());
    // Nodes per CPU second when known (a loaded machine inflates wall time).
    let per = r.cpu.filter(|&c| c > 0.0).unwrap_or(r.secs);
    let rate = r.nodes.filter(|_| per > 0.0).map_or("-".to_string(), |n| format!("{:.0}", n as f64 / per));
    let cpu = r.cpu.map_or("-".to_string(), |c| format!("{c:.2}"));
    let count = |n: Option<u64>| n.map_or("-".to_string(), |n| n.to_string());
    // Decisions plus walker placements per CPU second (cp only).
    let with_walker = r
        .nodes
        .zip(r.bottom)
        .filter(|_| per > 0.0)
        .map_or("-".to_string(), |(n, b)| format!("{:.0}", (n + b) as f64 / per));
    println!(
        "{:<16} {:<30} {:>10} {:>5} {:>12} {:>9.2} {:>8} {:>11} {:>10} {:>10} {:>11}",
        file,
        r.engine,
        r.solutions,
        if r.complete { "yes" } else { "NO" },
        nodes,
        r.secs,
        cpu,
        rate,
        count(r.forced),
        count(r.bottom),
        with_walker
    );
}

/// `--estimate`: Knuth's estimate of the cp tree per configuration.
fn estimate(file: &str, short: &str, specs: &[String], probes: u64) {
    let inst = input::load(Path::new(file), None, 1).expect("instance loads");
    let input::InstanceKind::EdgeMatch(e) = &inst.kind else {
        println!("{short:<16} not an edge-matching puzzle");
        return;
    };
    for spec in specs {
        let cfg = CpConfig::parse(spec).expect("--cp spec");
        let mut engine = emx::edgematch::cp::CpEngine::new(&e.puzzle, inst.problem(), cfg);
        let cpu0 = cpu_seconds();
        let est = engine.estimate(probes, 1);
        let cpu = cpu_seconds().zip(cpu0).map_or("-".to_string(), |(b, a)| format!("{:.2}", b - a));
        println!(
            "{short:<16} cp {spec:<40} {:>8} probes: nodes {:.3e} +- {:.1e}, boards {:.3e} ({cpu} CPU s)",
            est.probes, est.nodes, est.nodes_error, est.solutions
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut limit = Duration::from_secs(300);
    let (mut ablation, mut with_cpsat, mut with_generated) = (true, true, false);
    let mut files = Vec::new();
    let (mut probes, mut specs) = (None, Vec::new());
    while !args.is_empty() {
        let a = args.remove(0);
        match a.as_str() {
            "--time-limit" => limit = Duration::from_secs_f64(args.remove(0).parse().expect("seconds")),
            "--no-ablation" => ablation = false,
            "--no-cpsat" => with_cpsat = false,
            "--generated" => with_generated = true,
            "--estimate" => probes = Some(args.remove(0).parse::<u64>().expect("probes")),
            "--cp" => specs.push(args.remove(0)),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        let root = env!("CARGO_MANIFEST_DIR");
        files = ["06x06", "07x07", "08x08"]
            .iter()
            .map(|n| format!("{root}/instances/edgematch/brendan_set2/pieces_{n}.txt"))
            .collect();
        files.extend(generated_files());
    } else if with_generated {
        files.extend(generated_files());
    }
    if let Some(probes) = probes {
        if specs.is_empty() {
            specs.push("default".to_string());
        }
        for file in &files {
            let short = Path::new(file).file_stem().map_or(file.clone(), |s| s.to_string_lossy().into_owned());
            estimate(file, &short, &specs, probes);
        }
        return;
    }
    println!("time limit per run: {} s", limit.as_secs_f64());
    println!(
        "{:<16} {:<30} {:>10} {:>5} {:>12} {:>9} {:>8} {:>11} {:>10} {:>10} {:>11}",
        "instance",
        "engine",
        "solutions",
        "done",
        "nodes",
        "wall_s",
        "cpu_s",
        "nodes/s",
        "forced",
        "bottom",
        "+bottom/s"
    );
    for file in &files {
        let inst = input::load(Path::new(file), None, 1).expect("instance loads");
        let short = Path::new(file).file_stem().map_or(file.clone(), |s| s.to_string_lossy().into_owned());
        for name in ["scan", "dlx"] {
            match run(&inst, name, CpConfig::default(), name, limit) {
                Some(r) => print(&short, &r),
                None => println!("{short:<16} {name:<30} (not in this build's backend registry)"),
            }
        }
        let mut configs = vec![("cp".to_string(), CpConfig::default())];
        if ablation {
            // Each component flipped from its default (shaving is off by
            // default, so its row switches it on).
            let default = CpConfig::default().to_string();
            // `rechoose` acts only with `refutation`: one row with both.
            for c in COMPONENTS.iter().map(|&c| if c == "rechoose" { "refutation,rechoose" } else { c }) {
                let on = CpConfig::parse(&format!("{default},{c}")).expect("component");
                let spec = if on == CpConfig::default() { format!("no-{c}") } else { c.to_string() };
                configs.push((format!("cp {spec}"), CpConfig::parse(&spec).expect("component")));
            }
            let heuristics = ["min-offer", "min-expected-gap", "min-domain", "dom-wdeg"];
            for spec in heuristics.iter().map(|h| format!("heuristic={h}")).chain(["tile-slack=0".to_string()]) {
                configs.push((format!("cp {spec}"), CpConfig::parse(&spec).expect("spec")));
            }
            // The completion walker off, and a schedule of edge filtering by
            // depth (forward checking below 70% empty), both departures
            // from the defaults (docs/tried/cp.md).
            for spec in ["bottom=0", "edge-filter-above=70%"] {
                configs.push((format!("cp {spec}"), CpConfig::parse(spec).expect("spec")));
            }
            configs.push(("cp basic".into(), CpConfig::basic()));
        }
        for (label, cfg) in configs {
            if let Some(r) = run(&inst, "cp", cfg, &label, limit) {
                print(&short, &r);
            }
        }
        if with_cpsat {
            match cpsat(file, limit) {
                Ok(r) => print(&short, &r),
                Err(why) => println!("{short:<16} {:<30} skipped: {why}", "cp-sat"),
            }
        }
    }
}
