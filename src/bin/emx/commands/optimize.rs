//! `emx optimize`: local search for the most matched joins of an
//! edge-matching puzzle.

use crate::args::BoardFormat;
use crate::args::PuzzleArgs;
use crate::interrupt::interrupt_flag;
use crate::usage::{UsageError, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_OK};
use anyhow::Context;
use clap::Args;
use emx::edgematch::local::{self, Clock, Config, Control, Method, Params, Start, Stop};
use emx::edgematch::Board;
use emx::input::{self, InstanceKind};
use emx::render;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct OptimizeArgs {
    /// Edge-matching puzzle file.
    pub file: PathBuf,
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Time budget in seconds (per search thread with `--clock cpu`).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = crate::args::parse_seconds)]
    pub time: f64,
    /// What `--time` measures: wall or cpu.
    ///
    /// wall: wall-clock time; cpu: each search thread's own CPU time, for
    /// fair comparisons on a loaded machine.
    #[arg(long, default_value = "wall", value_parser = ["wall", "cpu"])]
    pub clock: String,
    /// Random seed of the first search; search k uses seed + k.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Independent searches run in parallel (different seeds); the best
    /// board wins.
    #[arg(long, default_value = "1", value_parser = crate::args::parse_threads)]
    pub threads: std::num::NonZeroUsize,
    /// Search method: breaks, tabu, multi, ga or aiea.
    ///
    /// breaks: scan-row tree search allowed a scheduled budget of mismatched
    /// joins, randomised restarts; tabu: Schaus & Deville's tabu VLNS,
    /// polished by BO/BW/TSR/RO at each plateau; multi: the Salassa et al.
    /// neighbourhood cycle; ga, aiea: the evolutionary baselines of Muñoz et al.
    #[arg(long, default_value = "breaks", value_parser = clap::builder::PossibleValuesParser::new(Method::NAMES))]
    pub method: String,
    /// Start board: random, scan, cp or breaks.
    ///
    /// random: tiles at random; scan: scan-row greedy, holes filled last;
    /// cp: exact DLX fill with a tenth of the cells relaxed, then
    /// assignment; breaks: the breaks search for `breaks_share` of the
    /// budget.
    #[arg(long, default_value = "scan", value_parser = clap::builder::PossibleValuesParser::new(Start::NAMES))]
    pub start: String,
    /// Start from this board instead (every thread).
    ///
    /// Any board `emx score` reads: a board file, the JSON of `emx solve`,
    /// or one e2.bucas.name board (`NAME ORDER EDGES`, a viewer URL or an
    /// edge string).
    #[arg(long, value_name = "BOARD")]
    pub start_board: Option<PathBuf>,
    /// Stop when this score is reached (default: every join matched).
    #[arg(long)]
    pub target: Option<u32>,
    /// Write the best board to this file as the search improves.
    ///
    /// An emx board file, rewritten through a temporary file and a rename
    /// at every improvement, so a killed run leaves its best board.
    #[arg(long, short, value_name = "BOARD")]
    pub output: Option<PathBuf>,
    /// Write the best score over time to this file.
    ///
    /// CSV if the name ends in .csv, an SVG chart if it ends in .svg, JSON
    /// otherwise.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// TA: cells per assignment move.
    #[arg(long, value_name = "K")]
    pub ta_cells: Option<usize>,
    /// RO: region size, `HxW`.
    #[arg(long, value_name = "HxW")]
    pub region: Option<String>,
    /// Tabu: do not run BO/BW/TSR/RO at plateaus (pure Algorithm 1).
    #[arg(long)]
    pub no_polish: bool,
    /// CP-relaxed start: cells left out of the exact fill.
    #[arg(long, value_name = "N")]
    pub relax: Option<usize>,
    /// GA/AIEA: population size.
    #[arg(long, value_name = "N")]
    pub population: Option<usize>,
    /// Set a tuning parameter, NAME=VALUE (repeatable).
    ///
    /// NAME is one of ta_cells, bias, tabu_cell (LO..HI), tabu_pair,
    /// plateau, perturb_moves, perturb_grow, kick, intensify_after,
    /// restart_after, force, accept, lahc, lahc_moves, lahc_slack, ro_kick,
    /// polish, ta_iterations, region (HxW), regions_per_cycle, max_holes,
    /// resolve_nodes, relax, relax_nodes, population, tournament,
    /// breaks_from, breaks_shape, breaks_budget, restart_nodes,
    /// breaks_polish, breaks_slack, breaks_share (docs/engines.md).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = crate::args::board_format("The best board and its score as one JSON object (docs/json.md)", "An SVG picture of the best board with its mismatched joins marked"))]
    pub format: BoardFormat,
    /// Do not draw the board (text format).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Writes `text` to `path` through [`emx::write::text_atomically`] (a
/// temporary file and a rename), so readers never see a half-written file.
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    emx::write::text_atomically(path, &emx::write::OutputGuard::default(), text)
}

/// Writes each improved board to `-o` as it comes, on a thread of its own
/// (a synced write takes milliseconds, which the search does not wait
/// for). Every improvement is written, in order; one that arrives while a
/// write is under way replaces any still waiting, so the file trails the
/// best board by at most one write, and a killed run leaves the best board
/// written so far.
struct BestWriter {
    send: std::sync::mpsc::Sender<(u32, String)>,
    thread: std::thread::JoinHandle<()>,
}

impl BestWriter {
    fn start(path: PathBuf) -> Self {
        let (send, receive) = std::sync::mpsc::channel::<(u32, String)>();
        let thread = std::thread::spawn(move || {
            let mut written = None;
            while let Ok(mut next) = receive.recv() {
                // The latest improvement waiting wins.
                while let Ok(newer) = receive.try_recv() {
                    next = newer;
                }
                if written.is_some_and(|w| next.0 <= w) {
                    continue;
                }
                // A failed write is retried with the next improvement and
                // at the end, where it is reported.
                if write_atomic(&path, &next.1).is_ok() {
                    written = Some(next.0);
                }
            }
        });
        BestWriter { send, thread }
    }

    /// Queues the board of `score` (as its file text).
    fn offer(&self, score: u32, text: String) {
        let _ = self.send.send((score, text));
    }

    /// Writes what is queued, then ends the thread.
    fn finish(self) {
        drop(self.send);
        let _ = self.thread.join();
    }
}

fn board_file(puzzle: &str, board: &Board, score: u32, joins: usize, note: &str) -> String {
    format!("# {puzzle}: score {score}/{joins} ({note})\n{}", render::text::board(board))
}

fn parse_region(s: &str) -> Result<(usize, usize), UsageError> {
    let bad = || UsageError(format!("--region `{s}`: expected HxW with positive sides, e.g. 5x5"));
    let (h, w) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    match (h.parse::<usize>(), w.parse::<usize>()) {
        (Ok(h), Ok(w)) if h > 0 && w > 0 => Ok((h, w)),
        _ => Err(bad()),
    }
}

pub fn run(args: OptimizeArgs) -> anyhow::Result<u8> {
    let instance = input::load(&args.file, args.input.input_format, args.input.puzzle)?;
    let InstanceKind::EdgeMatch(edge) = &instance.kind else {
        eprintln!("error: {}: emx optimize needs an edge-matching puzzle", instance.file);
        return Ok(EXIT_BAD_INPUT);
    };
    let puzzle = &edge.puzzle;
    let mut params = Params::default();
    if let Some(k) = args.ta_cells {
        if k == 0 {
            return Err(UsageError("--ta-cells needs at least 1".into()).into());
        }
        params.ta_cells = k;
    }
    if let Some(r) = &args.region {
        params.region = parse_region(r)?;
    }
    params.polish = !args.no_polish;
    if let Some(n) = args.relax {
        params.relax = n;
    }
    if let Some(n) = args.population {
        if n < 2 {
            return Err(UsageError("--population needs at least 2".into()).into());
        }
        params.population = n;
    }
    for kv in &args.params {
        let (k, v) = kv.split_once('=').ok_or_else(|| UsageError(format!("--param `{kv}`: expected NAME=VALUE")))?;
        params.set(k.trim(), v).map_err(|e| UsageError(format!("--param {kv}: {e}")))?;
    }
    let start_board = match &args.start_board {
        Some(path) => {
            let file = path.display().to_string();
            let text = emx::frontend::read_text(path)?;
            let mut boards = emx::solution_file::read_boards(puzzle, &text, &file)
                .map_err(|e| crate::usage_error!("the start board: {e}"))?;
            crate::usage_ensure!(
                boards.len() == 1,
                "{file} holds {} boards: --start-board takes one (keep it alone in a file)",
                boards.len()
            );
            Some(boards.remove(0))
        }
        None => None,
    };
    let config = Config {
        method: Method::from_name(&args.method).expect("clap checked the name"),
        start: Start::from_name(&args.start).expect("clap checked the name"),
        seed: args.seed,
        threads: args.threads.get(),
        seconds: args.time,
        clock: if args.clock == "cpu" { Clock::Cpu } else { Clock::Wall },
        target: args.target,
        params,
    };
    let note = format!("emx optimize --method {} --seed {}", args.method, args.seed);
    let best_writer = args.output.clone().map(BestWriter::start);
    let on_improve = |board: &Board, score: u32, _seconds: f64| {
        if let Some(w) = &best_writer {
            w.offer(score, board_file(&puzzle.name, board, score, puzzle.n_joins(), &note));
        }
    };
    let control = Control { cancel: Some(interrupt_flag()), on_improve: Some(&on_improve) };
    let outcome = local::optimize(puzzle, &config, start_board.as_ref(), &control);
    if let Some(w) = best_writer {
        w.finish();
    }
    let outcome = match outcome {
        Ok(o) => o,
        Err(
            e @ (local::OptimizeError::Model(_) | local::OptimizeError::Start(_) | local::OptimizeError::BreaksTables),
        ) => {
            eprintln!("error: {}: {e}", instance.file);
            return Ok(EXIT_BAD_INPUT);
        }
        Err(e) => return Err(e.into()),
    };
    let score = outcome.score.matched as u32;
    if let Some(path) = &args.output {
        write_atomic(path, &board_file(&puzzle.name, &outcome.board, score, puzzle.n_joins(), &note))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.trace {
        let ext = |x: &str| path.extension().is_some_and(|e| e.eq_ignore_ascii_case(x));
        let text = if ext("csv") {
            outcome.trace.to_csv()
        } else if ext("svg") {
            // The best score over wall-clock time, as a chart.
            let mut chart = render::svg::Trace::default();
            for p in &outcome.trace.points {
                chart.push(p.seconds, p.score);
            }
            // The best score held to the end of the run: the time axis
            // spans the whole run, not only up to the last improvement.
            if let Some(last) = outcome.trace.points.last() {
                chart.push(outcome.elapsed.as_secs_f64(), last.score);
            }
            let title = format!("{} ({})", puzzle.name, args.method);
            render::svg::score_traces(&title, &[(args.method.as_str(), &chart)], Some(puzzle.n_joins() as u32))
        } else {
            serde_json::to_string_pretty(&outcome.trace)? + "\n"
        };
        write_atomic(path, &text).with_context(|| format!("writing {}", path.display()))?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let stopped = serde_json::to_value(outcome.stop)?;
    // The viewer URL of the best board (none when a colour has no letter).
    let url = emx::frontend::edgematch::viewer_url(&puzzle.name, puzzle, &outcome.board).ok();
    let cpu: f64 = outcome.threads.iter().map(|t| t.cpu_seconds).sum();
    let iterations: u64 = outcome.threads.iter().map(|t| t.iterations).sum();
    match args.format {
        BoardFormat::Bucas => {
            let line = emx::frontend::edgematch::bucas_line(&puzzle.name, puzzle, &outcome.board)
                .map_err(|e| UsageError(format!("{}: --format bucas: {e}", instance.file)))?;
            out.write_all(line.as_bytes())?;
        }
        BoardFormat::Svg => {
            // The best board, mismatched joins drawn in red.
            let style = render::svg::BoardStyle::solution();
            let title = format!("{}: {}/{}", puzzle.name, score, puzzle.n_joins());
            out.write_all(render::svg::board(puzzle, &outcome.board, &title, &style).as_bytes())?;
        }
        BoardFormat::Json => {
            let v = json!({
                "command": "optimize",
                "file": instance.file,
                "puzzle": puzzle.name,
                "kind": "edgematch",
                "method": config.method,
                "start": if start_board.is_some() { json!("board") } else { json!(config.start) },
                "seed": config.seed,
                "threads": config.threads,
                "clock": config.clock,
                "score": score,
                "joins": puzzle.n_joins(),
                "stopped": stopped,
                "time_s": outcome.elapsed.as_secs_f64(),
                "cpu_s": cpu,
                "iterations": iterations,
                "searches": outcome.threads,
                "board": outcome.board.to_json(),
                "bucas_url": url,
                "trace": outcome.trace.points,
            });
            serde_json::to_writer(&mut out, &v)?;
            writeln!(out)?;
        }
        BoardFormat::Text => {
            writeln!(
                out,
                "{} ({}): {}x{}, {} joins; method {}, seed {}, {} thread(s)",
                puzzle.name,
                instance.file,
                puzzle.rows,
                puzzle.cols,
                puzzle.n_joins(),
                args.method,
                args.seed,
                args.threads
            )?;
            for (k, t) in outcome.threads.iter().enumerate() {
                writeln!(
                    out,
                    "search {k} (seed {}): start {}, best {}, {} iterations, {:.1} s CPU",
                    t.seed, t.start_score, t.score, t.iterations, t.cpu_seconds
                )?;
                let m = &t.moves;
                for (name, s) in [("TA", m.ta), ("BO", m.bo), ("BW", m.bw), ("TSR", m.tsr), ("RO", m.ro)] {
                    if s.calls > 0 {
                        writeln!(
                            out,
                            "  {name:>3}: {} calls, {} improving, gain {:+}, {:.1} s",
                            s.calls, s.improving, s.gain, s.seconds
                        )?;
                    }
                }
            }
            if !args.quiet && args.output.is_none() {
                writeln!(out)?;
                write!(out, "{}", render::text::board(&outcome.board))?;
                writeln!(out)?;
            }
            writeln!(
                out,
                "score: {}/{} after {:.1} s ({})",
                score,
                puzzle.n_joins(),
                outcome.elapsed.as_secs_f64(),
                stopped.as_str().unwrap_or("")
            )?;
            if let Some(url) = &url {
                writeln!(out, "viewer: {url}")?;
            }
        }
    }
    out.flush()?;
    Ok(if outcome.stop == Stop::Interrupted { EXIT_LIMIT } else { EXIT_OK })
}
