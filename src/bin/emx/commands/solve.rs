//! `emx solve`.

use crate::progress::Ticker;
use crate::{interrupt_flag, Format, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::backend::pick::AutoPick;
use emx::backend::{self, BackendConfig};
use emx::cp::CpConfig;
use emx::edgematch::scan::ScanConfig;
use emx::input::{self, InputFormat};
use emx::ir::Equivalence;
use emx::poly::model::CellOrder;
use emx::poly::redundancy::RedundancyMode;
use emx::poly::schedule::ScheduleSpec;
use emx::poly::{FitFilter, PolyConfig, Threshold};
use emx::search::progress::Progress;
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions, SolveReport};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Random probes for the tree-size estimate of the progress line.
const ESTIMATE_PROBES: u32 = 1000;

#[derive(Args)]
pub struct SolveArgs {
    /// Puzzle file (polycube definition file).
    pub file: PathBuf,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
    /// Solving back-end (`auto` picks the best one for the puzzle).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(backend::NAMES))]
    pub backend: String,
    /// Components of the `cp` backend, for ablation: comma-separated items
    /// applied left to right on top of the defaults: `[no-]COMPONENT`
    /// (preemption, shared-edges, cycles, backjump, older-cells, shaving,
    /// patterns, instantiation, edge-filter, tile-branching, symmetry,
    /// refutation, rechoose, singletons, confined, shave-near,
    /// neighbour-ties, shave-singles, shave-branch),
    /// `heuristic=min-offer|min-expected-offer|min-expected-gap|min-expected-ratio|min-domain|min-domain-gap|domain-then-gap|dom-wdeg|domain-then-wdeg|scan`,
    /// `shave-limit=L`, `shave-depth=D`, `shave-dirty=R`, `shave-yield=P`,
    /// `tile-slack=S`, `near-forced=N`, `bottom=E|P%|auto` (nodes with at
    /// most E empty cells, or P% of the cells, go to a completion walker; 0 =
    /// off; the default auto: the whole board to scan's walk at the root when
    /// its estimated tree is small, or (up to 1e13 placements) small against
    /// cp's estimated search, else 60%),
    /// `bottom-order=static|dynamic|row|col|sweep` (the walker's cell order:
    /// default dynamic; row = scan's order, from the root on scan's walk),
    /// `edge-filter-above=E|P%` (the edge-filtering cascade only at nodes
    /// with more empty cells, forward checking below; default 0 = every
    /// depth), `edge-filter-waves=W` (cascade waves kept below it; 0),
    /// `basic` (all off) or `default` (docs/cp.md, "`--cp SPEC`").
    #[arg(long, value_name = "SPEC", value_parser = parse_cp)]
    pub cp: Option<CpConfig>,
    /// Settings of the `scan` backend, comma-separated: `symmetry` (the
    /// default: a corner tile searched on one corner per orbit of the board
    /// rotations, each board found reported with its rotations) or
    /// `no-symmetry` (the plain brute-force tree of the literature);
    /// `short-rows` (the default: a board wider than tall is searched turned
    /// a quarter, so rows run along the shorter side) or `no-short-rows`
    /// (rows as in the file); `default`.
    #[arg(long, value_name = "SPEC")]
    pub scan: Option<ScanConfig>,
    /// How `--backend auto` picks between cp and scan on edge-matching
    /// boards at the colour-count rule's bound (8x8 with 8 inner colours,
    /// 9x9 with 10, 10x10 with 12) when enumerating: `rule` (the default:
    /// the colour-count rule alone, which gives cp there; cp's `--cp
    /// bottom=auto` then walks the board on scan's kernel or searches) or
    /// `estimate` (Knuth estimates of both trees, 30-50 ms, and the engine
    /// predicted faster). `--first` and `--solution-limit` always use the
    /// rule.
    #[arg(long, value_name = "estimate|rule")]
    pub auto_pick: Option<AutoPick>,
    /// SAT solver for `--backend sat`: kissat, cadical, minisat (looked up
    /// on PATH) or the path of any solver printing `s`/`v` lines; without
    /// it, varisat runs in-process. Implies `--backend sat` when the backend
    /// is `auto`. With --count/--all the SAT back-end adds a blocking clause
    /// per solution and calls the solver again: for small instances only.
    #[arg(long, value_name = "NAME|PATH")]
    pub sat_solver: Option<String>,
    /// CNF encoding for the SAT back-end.
    #[command(flatten)]
    pub cnf: crate::cnf_flags::CnfFlags,
    /// Count all solutions, printing the first (the default).
    #[arg(long, group = "mode")]
    pub count: bool,
    /// Print every solution.
    #[arg(long, group = "mode")]
    pub all: bool,
    /// Stop after N solutions.
    #[arg(long, value_name = "N", group = "mode")]
    pub first: Option<u64>,
    /// Report one solution per symmetry class: `--unique` identifies
    /// solutions related by a rotation of the box, `--unique=mirror` also
    /// mirror images.
    #[arg(long, num_args = 0..=1, default_missing_value = "rotations", value_parser = ["rotations", "mirror"])]
    pub unique: Option<String>,
    /// Stop after this many seconds (exit code 3, partial counts printed).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Stop after this many search nodes (exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop after this many solutions found, counting symmetric copies (exit code 3).
    #[arg(long, value_name = "N")]
    pub solution_limit: Option<u64>,
    /// Refuse to build a model larger than this many bytes (units K, M, G,
    /// T): the IR (estimated before building) and, for --backend sat, the
    /// CNF (counted before building).
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    pub max_size: emx::size_cap::SizeCap,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Do not draw solutions (text format), no progress line on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write the output to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub poly: PolyArgs,
}

/// Settings of the polycube engines (`--backend poly`, and `auto` on
/// polycube puzzles). Each defaults to `auto`'s choice.
#[derive(Args, Debug, Default)]
pub struct PolyArgs {
    /// Engine schedule: `auto`, or stages `ENGINE[:HEURISTIC][@N]` taking
    /// over at N remaining pieces, e.g. `dlx:min-fit@12,mch@11,emch@6,debruijn@4`
    /// (engines dlx, mch, emch, debruijn; DLX heuristics min-fit, x, y, z,
    /// X, Y, Z, R, a@DEG; see docs/poly.md).
    #[arg(long, value_name = "SPEC")]
    pub schedule: Option<String>,
    /// Rotational-redundancy filter: off, auto, rot, mirror, rot:PIECE or
    /// mirror:PIECE (constrain one uniquely shaped piece so that one
    /// solution per symmetry class is searched).
    #[arg(long, value_name = "MODE")]
    pub redundancy: Option<String>,
    /// Place the piece constrained by the redundancy filter first.
    #[arg(long)]
    pub force_first: bool,
    /// Parity backtrack trigger while at least N pieces remain (`off`).
    #[arg(long, value_name = "N|off")]
    pub parity_trigger: Option<String>,
    /// Volume backtrack trigger while at least N pieces remain (`off`).
    #[arg(long, value_name = "N|off")]
    pub volume_trigger: Option<String>,
    /// Parity image filter: once before the search when N >= the number
    /// of pieces, and at every DLX step while at least N pieces remain.
    #[arg(long, value_name = "N|off")]
    pub parity_filter: Option<String>,
    /// Volume image filter (same semantics as --parity-filter).
    #[arg(long, value_name = "N|off")]
    pub volume_filter: Option<String>,
    /// Fit image filter before the search: off, once, fixpoint.
    #[arg(long, value_name = "MODE")]
    pub fit_filter: Option<String>,
    /// Cell order of the bit-field engines: short (shortest axis fastest),
    /// xyz (Busche's order) or a@DEG (by angle about the centre,
    /// counter-clockwise from DEG degrees: de Bruijn fills a ring around it).
    #[arg(long, value_name = "ORDER")]
    pub cell_order: Option<String>,
    /// Worker threads (the search tree is split at a shallow depth): polycube engines, cp and scan.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Monte-Carlo sampling instead of a full search: TRIALS,REMAINING,SEED.
    #[arg(long, value_name = "T,R,S")]
    pub sample: Option<String>,
    /// Knuth's estimate of the full search (nodes, solutions, time) from
    /// PROBES random paths: PROBES[,SEED]. Polycube engines (on --threads N
    /// workers, the same estimate as one thread, the time that of an
    /// N-thread run; --time-limit ends the probes), and cp and scan on edge
    /// matching (`auto`: the engine it picks; one thread, no limits).
    #[arg(long, value_name = "PROBES[,SEED]")]
    pub estimate: Option<String>,
}

impl PolyArgs {
    /// The flags given, by name (to reject them where they cannot act).
    pub fn given(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        let flags: [(&'static str, bool); 12] = [
            ("--schedule", self.schedule.is_some()),
            ("--redundancy", self.redundancy.is_some()),
            ("--force-first", self.force_first),
            ("--parity-trigger", self.parity_trigger.is_some()),
            ("--volume-trigger", self.volume_trigger.is_some()),
            ("--parity-filter", self.parity_filter.is_some()),
            ("--volume-filter", self.volume_filter.is_some()),
            ("--fit-filter", self.fit_filter.is_some()),
            ("--cell-order", self.cell_order.is_some()),
            ("--threads", self.threads.is_some()),
            ("--sample", self.sample.is_some()),
            ("--estimate", self.estimate.is_some()),
        ];
        for (name, set) in flags {
            if set {
                v.push(name);
            }
        }
        v
    }

    /// The engine configuration these flags describe.
    pub fn config(&self) -> anyhow::Result<PolyConfig> {
        let threshold = |flag: &str, v: &Option<String>| -> anyhow::Result<Option<Threshold>> {
            v.as_deref().map(|s| Threshold::parse(s).map_err(|e| crate::usage_error!("{flag}: {e}"))).transpose()
        };
        let threads = match self.threads {
            Some(0) => crate::usage_bail!("--threads needs at least 1"),
            Some(n) => n,
            None => 1,
        };
        Ok(PolyConfig {
            schedule: self
                .schedule
                .as_deref()
                .map(|s| ScheduleSpec::parse(s).map_err(|e| crate::usage_error!("--schedule: {e}")))
                .transpose()?,
            redundancy: self
                .redundancy
                .as_deref()
                .map(|s| RedundancyMode::parse(s).map_err(|e| crate::usage_error!("--redundancy: {e}")))
                .transpose()?,
            force_first: self.force_first.then_some(true),
            parity_trigger: threshold("--parity-trigger", &self.parity_trigger)?,
            volume_trigger: threshold("--volume-trigger", &self.volume_trigger)?,
            parity_filter: threshold("--parity-filter", &self.parity_filter)?,
            volume_filter: threshold("--volume-filter", &self.volume_filter)?,
            fit_filter: self
                .fit_filter
                .as_deref()
                .map(|s| FitFilter::parse(s).map_err(|e| crate::usage_error!("--fit-filter: {e}")))
                .transpose()?,
            cell_order: self
                .cell_order
                .as_deref()
                .map(|s| CellOrder::parse(s).map_err(|e| crate::usage_error!("--cell-order: {e}")))
                .transpose()?,
            threads,
            equivalence: Equivalence::None,
        })
    }
}

/// The engine `emx solve ARGS` runs on a puzzle, and its settings.
pub struct EngineSetup {
    /// The [`backend`] name (`sat` when `--sat-solver` implies it).
    pub backend: String,
    /// Its settings.
    pub config: BackendConfig,
    /// cp, scan or `auto` on an edge-matching puzzle: `--threads` and
    /// `--estimate` go to those engines.
    pub edge_threads: bool,
}

/// The [`EngineSetup`] of `args` on `instance`, after checking that every
/// engine flag given acts on it (a flag for an engine that does not run is
/// a usage error). `mode` and `--solution-limit` are the run's (a run that
/// stops early keeps `auto`'s colour rule); `equivalence` is what the
/// caller identifies. `emx bench --variant` sets its engines up with it too.
pub fn engine_setup(
    args: &SolveArgs,
    instance: &input::Instance,
    mode: Mode,
    equivalence: Equivalence,
) -> anyhow::Result<EngineSetup> {
    let backend_name = match (args.backend.as_str(), &args.sat_solver) {
        ("auto", Some(_)) => "sat",
        ("sat", _) | (_, None) => args.backend.as_str(),
        (other, Some(_)) => crate::usage_bail!("--sat-solver needs --backend sat (got --backend {other})"),
    };
    let mut given = args.poly.given();
    // The edge-matching engines split their trees too (`auto` picks cp or
    // scan there, and refuses --threads where it would fall back to DLX).
    let edge_threads =
        matches!(instance.kind, input::InstanceKind::EdgeMatch(_)) && matches!(backend_name, "cp" | "scan" | "auto");
    if edge_threads {
        // cp and scan estimate their own trees too (`--estimate`).
        given.retain(|&flag| flag != "--threads" && flag != "--estimate");
    }
    let uses_poly = backend_name == "poly"
        || (backend_name == "auto"
            && matches!(instance.kind, input::InstanceKind::Polycube(_))
            && instance.poly_handles());
    if !uses_poly {
        if let Some(&flag) = given.first() {
            if flag == "--threads" {
                crate::usage_bail!(
                    "--threads splits the search of the polycube engines (--backend poly) and of the edge-matching engines cp and scan; backend `{backend_name}` on {} runs on one thread",
                    instance.file
                );
            }
            if flag == "--estimate" {
                crate::usage_bail!(
                    "--estimate estimates the search of the polycube engines (--backend poly) and of the edge-matching engines cp and scan; backend `{backend_name}` on {} cannot",
                    instance.file
                );
            }
            crate::usage_bail!(
                "{flag} sets the polycube engines, which do not run here (backend `{backend_name}` on {}): use --backend poly on a polycube puzzle",
                instance.file
            );
        }
    }
    crate::usage_ensure!(args.cp.is_none() || backend_name == "cp", "--cp configures the cp backend: add --backend cp");
    crate::usage_ensure!(
        args.scan.is_none() || backend_name == "scan",
        "--scan configures the scan backend: add --backend scan"
    );
    crate::usage_ensure!(
        args.auto_pick.is_none() || (backend_name == "auto" && edge_threads),
        "--auto-pick sets how --backend auto picks between cp and scan on edge-matching puzzles"
    );
    let config = BackendConfig {
        sat_solver: args.sat_solver.clone(),
        cnf: args.cnf.options(instance, vec![])?,
        equivalence,
        poly: args.poly.config()?,
        cp: args.cp.clone().unwrap_or_default(),
        scan: args.scan.unwrap_or_default(),
        threads: if edge_threads { args.poly.threads.unwrap_or(1) } else { 1 },
        // The estimates are of the whole tree: a run that stops early
        // keeps the rule.
        auto_pick: if matches!(mode, Mode::First(_)) || args.solution_limit.is_some() {
            AutoPick::Rule
        } else {
            args.auto_pick.unwrap_or_default()
        },
    };
    Ok(EngineSetup { backend: backend_name.to_string(), config, edge_threads })
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let instance = input::load_with(&args.file, format, args.puzzle, &input::LoadOptions { max_size: args.max_size })?;
    let problem = instance.problem();
    let mode = if args.all {
        Mode::All
    } else if let Some(n) = args.first {
        crate::usage_ensure!(n > 0, "--first needs a positive number");
        Mode::First(n)
    } else {
        Mode::Count
    };
    let equivalence = match args.unique.as_deref() {
        None => Equivalence::None,
        Some("mirror") => Equivalence::RotationsAndMirrors,
        Some(_) => Equivalence::Rotations,
    };
    if let Some(t) = args.time_limit {
        crate::usage_ensure!(t.is_finite() && t >= 0.0, "--time-limit needs a non-negative number of seconds");
    }
    let progress = Arc::new(Progress::new());
    let limits = Limits {
        max_solutions: args.solution_limit,
        max_nodes: args.node_limit,
        cancel: Some(interrupt_flag()),
        progress: Some(progress.clone()),
        ..Limits::default()
    }
    .with_time_limit(args.time_limit.map(Duration::from_secs_f64));
    let opts = SolveOptions { mode: Some(mode), equivalence, limits };
    let verify = |s: &emx::ir::Solution| instance.verify(s);
    let setup = engine_setup(&args, &instance, mode, equivalence)?;
    let (backend_name, config, edge_threads) = (setup.backend.as_str(), &setup.config, setup.edge_threads);
    if args.poly.sample.is_some() || args.poly.estimate.is_some() {
        let flag = if args.poly.sample.is_some() { "--sample" } else { "--estimate" };
        crate::usage_ensure!(
            !(args.poly.sample.is_some() && args.poly.estimate.is_some()),
            "--sample and --estimate are two different runs: give one"
        );
        crate::usage_ensure!(
            !args.all && args.first.is_none() && args.unique.is_none(),
            "{flag} reports rates and estimates, not solution lists: drop --all/--first/--unique"
        );
        crate::usage_ensure!(args.format != Format::Svg, "{flag} draws nothing: use --format text or json");
        if edge_threads {
            return crate::sample::run_edge(&args, &instance, backend_name, config);
        }
        return crate::sample::run(&args, &instance, config, &opts.limits);
    }
    if backend_name == "sat" {
        emx::encode::size::cnf_size(problem, &config.cnf)?.check(args.max_size)?;
    }
    let (mut engine, decision) = backend::make_explained(backend_name, &instance, config)?;
    if let Some(d) = decision.filter(|_| !args.quiet) {
        eprintln!("note: {}", d.describe());
    }
    if mode != Mode::First(1) && crate::progress::wanted(args.quiet) {
        // For a progress line with the fraction done and the time left.
        if let Some(estimate) = engine.estimate_nodes(ESTIMATE_PROBES, 1) {
            progress.set_estimated_nodes(estimate);
        }
    }
    let ticker = Ticker::start(progress, problem.name.clone(), args.quiet);
    let report = solve(engine.as_mut(), problem, &opts, &verify);
    ticker.finish();
    let report = report?;
    if let Some(err) = engine.error() {
        anyhow::bail!("{}: {err}", engine.describe());
    }
    let counters = engine.counters();
    let mut out = Vec::new();
    match args.format {
        Format::Json => print_json(&mut out, &instance, &report, &counters, mode, &args.backend)?,
        Format::Text => print_text(&mut out, &instance, &report, &counters, args.quiet)?,
        Format::Svg => {
            let picture = crate::render::solutions_picture(&instance, &problem.name, &report.solutions)?;
            out.extend_from_slice(picture.as_bytes());
            if !args.quiet {
                // The picture goes to stdout; the summary to stderr.
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
    // the solutions piece by piece cost about 0.9 M instructions on the
    // 10x6 pentominoes (4% of its set-up; docs/poly.md, round 11). The
    // kernel takes the memory back at exit; nothing here holds a file or a
    // lock (the output was written above).
    std::mem::forget(report);
    std::mem::forget(engine);
    std::mem::forget(instance);
    Ok(code)
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

/// `polycube`, `edgematch` or `cover`, as in every command's JSON.
pub fn instance_kind(instance: &input::Instance) -> &'static str {
    match instance.kind {
        input::InstanceKind::Polycube(_) => "polycube",
        input::InstanceKind::EdgeMatch(_) => "edgematch",
        input::InstanceKind::Cover(_) => "cover",
    }
}

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Count => "count",
        Mode::All => "all",
        Mode::First(_) => "first",
    }
}

fn parse_cp(spec: &str) -> Result<CpConfig, String> {
    CpConfig::parse(spec).map_err(|e| e.to_string())
}

/// A stop reason as the text reports say it: its JSON name with spaces
/// (`time limit`, `interrupted`, ...).
pub fn stop_words(reason: emx::search::StopReason) -> String {
    let name = serde_json::to_value(reason).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    name.replace('_', " ")
}
