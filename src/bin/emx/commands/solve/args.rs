//! The arguments of `emx solve` (also read by `emx bench --variant`).

use crate::args::cnf::CnfFlags;
use crate::args::poly::PolyArgs;
use crate::args::{parse_seconds, parse_threads, PuzzleArgs};
use clap::Args;
use emx::backend::pick::AutoPick;
use emx::edgematch::cp::CpConfig;
use emx::edgematch::scan::ScanConfig;
use emx::ir::Equivalence;
use emx::poly::run::sample::SampleSpec;
use emx::search::EstimateSpec;
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// What `emx solve --time-limit` measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Clock {
    /// Wall-clock time from the start.
    Wall,
    /// The process's CPU time.
    Cpu,
}

/// What `emx solve` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveFormat {
    /// The solutions drawn as text, and the counts.
    Text,
    /// The solutions and the counts as one JSON object, written as they come (docs/json.md).
    Json,
    /// One JSON line per solution as it is found, then the summary object (docs/json.md).
    Jsonl,
    /// An SVG picture of the solutions found (with --all, every one); the summary goes to stderr.
    Svg,
    /// Edge matching: each board found as a board file (what emx score, render and optimize --start-board read); the summary goes to stderr.
    Board,
    /// Edge matching: each board found as a bucas line (NAME jblackwood EDGES), for the e2.bucas.name viewer and what score, render and optimize --start-board read; the summary goes to stderr.
    Bucas,
}

#[derive(Args, Clone)]
pub struct SolveArgs {
    /// Puzzle file: a polycube definition file, an edge-matching puzzle (META, Heule, emx) or Knuth's .dlx.
    pub file: PathBuf,
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Solving back-end (`auto` picks the best one for the puzzle).
    #[arg(long, default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(emx::backend::NAMES))]
    pub backend: String,
    /// Components of the `cp` backend, for ablation (comma-separated).
    ///
    /// Items are applied left to right on top of the defaults:
    /// `[no-]COMPONENT` (preemption, shared-edges, cycles, backjump,
    /// older-cells, shaving, patterns, instantiation, edge-filter,
    /// tile-branching, symmetry, refutation, rechoose, singletons, confined,
    /// shave-near, neighbour-ties, shave-singles, shave-branch),
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
    /// `basic` (all off) or `default` (docs/engines.md, "cp").
    #[arg(long, value_name = "SPEC", value_parser = parse_cp)]
    pub cp: Option<CpConfig>,
    /// Settings of the `scan` backend (comma-separated): [no-]symmetry, [no-]short-rows, default.
    ///
    /// `symmetry` (the default): a corner tile searched on one corner per
    /// orbit of the board rotations, each board found reported with its
    /// rotations; `no-symmetry`: the plain brute-force tree of the
    /// literature. `short-rows` (the default): a board wider than tall is
    /// searched turned a quarter, so rows run along the shorter side;
    /// `no-short-rows`: rows as in the file.
    #[arg(long, value_name = "SPEC")]
    pub scan: Option<ScanConfig>,
    /// How `auto` picks between cp and scan at the colour-count rule's bound: rule or estimate.
    ///
    /// The bound is 8x8 with 8 inner colours, 9x9 with 10, 10x10 with 12,
    /// when enumerating. `rule` (the default): the colour-count rule alone,
    /// which gives cp there (cp's `--cp bottom=auto` then walks the board on
    /// scan's kernel or searches); `estimate`: Knuth estimates of both trees
    /// (30-50 ms) and the engine predicted faster. `--first` and
    /// `--solution-limit` always use the rule.
    #[arg(long, value_name = "estimate|rule")]
    pub auto_pick: Option<AutoPick>,
    /// SAT solver for `--backend sat`: kissat, cadical, minisat or a PATH.
    ///
    /// kissat, cadical and minisat are looked up on PATH; a PATH can be any
    /// solver printing `s`/`v` lines. Without it, varisat runs in-process.
    /// Implies `--backend sat` when the backend is `auto`. With --count or
    /// --all the SAT back-end adds a blocking clause per solution and calls
    /// the solver again: for small instances only.
    #[arg(long, value_name = "NAME|PATH")]
    pub sat_solver: Option<String>,
    /// CNF encoding for the SAT back-end.
    #[command(flatten)]
    pub cnf: CnfFlags,
    /// Count all solutions, printing the first (the default).
    #[arg(long, group = "mode")]
    pub count: bool,
    /// Print every solution.
    #[arg(long, group = "mode")]
    pub all: bool,
    /// Stop after N solutions.
    #[arg(long, value_name = "N", group = "mode", value_parser = clap::value_parser!(u64).range(1..))]
    pub first: Option<u64>,
    /// One solution per symmetry class: rotations (the default), mirror or none.
    ///
    /// `--unique` identifies solutions related by a rotation of the box or
    /// board, `--unique=mirror` also mirror images (polycube puzzles only:
    /// edge-matching tiles cannot be turned over), `--unique=none` lists and
    /// counts every symmetric copy. Without the flag every copy is counted,
    /// but `--first N` lists N solutions no two of which are rotations of
    /// each other (`--unique=none` lists the copies too).
    #[arg(long, num_args = 0..=1, default_missing_value = "rotations", value_parser = parse_unique)]
    pub unique: Option<Equivalence>,
    /// Stop this many seconds after the start, reading and building included (exit code 3).
    ///
    /// The limit covers the whole run: reading the file, building the
    /// model, the search and the output. A run stopped by it prints what
    /// it found, with partial counts (`at least`).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub time_limit: Option<f64>,
    /// What --time-limit measures: wall or cpu.
    ///
    /// wall: wall-clock time from the start; cpu: the CPU time of the
    /// whole process (every thread, user and system), for runs that must
    /// stop at the same point on a loaded machine (with --threads N it runs
    /// out about N times faster than the wall clock).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    pub clock: Clock,
    /// Stop after this many search nodes (exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop after this many solutions found, counting symmetric copies (exit code 3).
    #[arg(long, value_name = "N")]
    pub solution_limit: Option<u64>,
    /// Refuse to build a model larger than this (units K, M, G, T).
    ///
    /// The IR is estimated before it is built; for --backend sat the CNF is
    /// counted before it is built.
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    pub max_size: emx::size_cap::SizeCap,
    /// Refuse a run whose memory estimate exceeds this, and stop one whose memory grows past it (exit code 3).
    ///
    /// The estimate (the IR build and the engine's tables) is checked
    /// before anything is built (exit code 2 when over). During the build
    /// and the search the resident memory is read every 10 ms (Linux); past
    /// the limit the run stops as at a time limit, printing what it found,
    /// with `stopped: memory limit`. Units K, M, G, T.
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<emx::size_cap::SizeCap>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,
    /// Do not draw solutions (text format), no progress line on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Report progress even when stderr is not a terminal, every SECONDS (10).
    ///
    /// On a terminal the redrawn line; elsewhere (logs, nohup, batch jobs)
    /// a plain line every SECONDS seconds. It overrides --quiet's silence on
    /// stderr (the solutions stay undrawn).
    #[arg(long, value_name = "SECONDS", num_args = 0..=1, default_missing_value = "10", value_parser = crate::args::parse_seconds)]
    pub progress: Option<f64>,
    /// Write the output to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub poly: PolyArgs,
    /// Worker threads: polycube engines, cp and scan (the tree is split at a shallow depth).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<NonZeroUsize>,
    /// Monte-Carlo sampling instead of a full search: TRIALS,REMAINING,SEED.
    ///
    /// Busche's trials: each dives in random order and enumerates the
    /// subtree below the first node with REMAINING - 1 pieces left
    /// (polycube engines).
    #[arg(long, value_name = "T,R,S", value_parser = SampleSpec::parse)]
    pub sample: Option<SampleSpec>,
    /// Knuth's estimate of the full search (nodes, solutions, time): PROBES[,SEED].
    ///
    /// Polycube engines (on --threads N workers: the same estimate as one
    /// thread, the time that of an N-thread run; --time-limit ends the
    /// probes), and cp and scan on edge matching (`auto`: the engine it
    /// picks; one thread, no limits).
    #[arg(long, value_name = "PROBES[,SEED]", value_parser = EstimateSpec::parse)]
    pub estimate: Option<EstimateSpec>,
}

impl SolveArgs {
    /// Which solutions the run identifies: `--unique`'s, or rotations when
    /// `--first N` lists solutions without it.
    pub fn equivalence(&self) -> Equivalence {
        match (self.unique, self.first) {
            (Some(e), _) => e,
            (None, Some(_)) => Equivalence::Rotations,
            (None, None) => Equivalence::None,
        }
    }

    /// `--threads`, 1 when not given.
    pub fn threads(&self) -> usize {
        self.threads.map_or(1, NonZeroUsize::get)
    }
}

fn parse_cp(spec: &str) -> Result<CpConfig, String> {
    CpConfig::parse(spec).map_err(|e| e.to_string())
}

fn parse_unique(s: &str) -> Result<Equivalence, String> {
    match s {
        "rotations" => Ok(Equivalence::Rotations),
        "mirror" => Ok(Equivalence::RotationsAndMirrors),
        "none" => Ok(Equivalence::None),
        _ => Err(format!("`{s}`: expected rotations, mirror or none")),
    }
}
