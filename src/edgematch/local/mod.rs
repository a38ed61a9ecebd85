//! Local search for the matched-edge score of edge-matching puzzles
//! (Eternity II has no known solution: solvers compete on the number of
//! matched inner joins).
//!
//! * [`model`]: the puzzle precomputed (rotated colours, neighbours, which
//!   tiles fit which cells); [`state`]: a full board with its score kept
//!   up to date in O(1) per moved tile.
//! * Neighbourhoods: [`assign`] (TA: non-adjacent cells re-placed by
//!   assignment; BW: checkerboard), [`swap`] (TSR: swap two tiles with all
//!   rotations), [`region`] (RO: a rectangle re-solved exactly by DLX; BO:
//!   the border re-solved with the inner part fixed).
//! * [`construct`]: start boards (random, scan-row greedy, CP-relaxed).
//! * [`search`]: the tabu VLNS of Schaus & Deville (Algorithm 1) with the
//!   multi-neighbourhood cycle of Salassa et al.; [`evolution`]: the GA and
//!   immune baselines of Muñoz et al.
//! * [`optimize`] runs independent seeded searches on threads and keeps the
//!   best board, with a [`Trace`] of the best score over time.

pub mod assign;
pub mod breaks;
pub mod construct;
pub mod evolution;
pub mod model;
mod params;
pub mod region;
pub mod search;
pub mod state;
pub mod swap;
mod trace;

pub use construct::Start;
pub use model::{Model, ModelError};
pub use params::Params;
pub use state::State;
pub use trace::{Trace, TracePoint};

use crate::edgematch::{Board, EdgePuzzle, Score};
use crate::search::clock::thread_cpu_seconds;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The optimisation method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Tabu search over the assignment neighbourhood (Schaus & Deville,
    /// Algorithm 1); at each plateau the board is polished by the other
    /// neighbourhoods (BO, BW, TSR, RO) before diversifying.
    Tabu,
    /// The multi-neighbourhood cycle of Salassa et al. (TA, BO, BW, TSR,
    /// RO), repeated with random-swap perturbations when a cycle gains
    /// nothing.
    Multi,
    /// Genetic algorithm with region crossover and region exchange /
    /// rotation mutation (Muñoz et al.).
    Ga,
    /// The artificial immune evolutionary algorithm of Muñoz et al.
    Aiea,
    /// Scan-row tree search allowed a scheduled budget of mismatched
    /// joins, with randomised restarts ([`breaks`]).
    Breaks,
}

impl Method {
    /// Names accepted by `--method`.
    pub const NAMES: &'static [&'static str] = &["tabu", "multi", "ga", "aiea", "breaks"];

    /// Parses a `--method` name.
    pub fn from_name(name: &str) -> Option<Method> {
        match name {
            "tabu" => Some(Method::Tabu),
            "multi" => Some(Method::Multi),
            "ga" => Some(Method::Ga),
            "aiea" => Some(Method::Aiea),
            "breaks" => Some(Method::Breaks),
            _ => None,
        }
    }
}

/// What counts as the time budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    /// Wall-clock time from the start of the run.
    Wall,
    /// CPU time of each search thread (fair on a loaded machine).
    Cpu,
}

/// A run's configuration.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Config {
    /// The method.
    pub method: Method,
    /// How start boards are built.
    pub start: Start,
    /// Seed of thread 0; thread `k` uses `seed + k`.
    pub seed: u64,
    /// Independent searches run in parallel.
    pub threads: usize,
    /// Time budget in seconds.
    pub seconds: f64,
    /// How the budget is measured.
    pub clock: Clock,
    /// Stop when this score is reached (default: every join).
    pub target: Option<u32>,
    /// Tuning.
    pub params: Params,
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The time budget was used up.
    Time,
    /// Cancelled from outside (Ctrl-C).
    Interrupted,
    /// The target score (by default a perfect board) was reached.
    Target,
}

/// What one search thread did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ThreadReport {
    /// Its seed.
    pub seed: u64,
    /// Score of its start board.
    pub start_score: u32,
    /// Its best score.
    pub score: u32,
    /// Iterations (moves for the local searches, offspring for GA/AIEA).
    pub iterations: u64,
    /// CPU seconds used.
    pub cpu_seconds: f64,
    /// Per-neighbourhood statistics (TA moves are not timed one by one).
    pub moves: Moves,
    /// Complete boards found by the breaks search (method or start).
    pub boards: u64,
}

/// The result of [`optimize`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best board found.
    pub board: Board,
    /// Its score.
    pub score: Score,
    /// Best score over time.
    pub trace: Trace,
    /// Why the run ended.
    pub stop: Stop,
    /// Wall time used.
    pub elapsed: Duration,
    /// One report per thread.
    pub threads: Vec<ThreadReport>,
}

/// Called with each new best board, its score and the wall seconds since
/// the start.
pub type OnImprove<'a> = &'a (dyn Fn(&Board, u32, f64) + Sync);

/// Hooks into a running optimisation.
#[derive(Default)]
pub struct Control<'a> {
    /// Set from outside (Ctrl-C) to stop every thread.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Called (from a search thread, under the run's lock) with each new
    /// best board, its score and the wall seconds since the start.
    pub on_improve: Option<OnImprove<'a>>,
}

/// Why an optimisation could not start.
#[derive(Debug, thiserror::Error)]
pub enum OptimizeError {
    /// The puzzle has no valid full board.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The given start board is unusable.
    #[error("start board: {0}")]
    Start(#[from] state::StateError),
    /// The breaks search cannot index this puzzle's colours.
    #[error("the breaks search handles at most 255 colours (besides grey) and 65536 tiles")]
    BreaksTables,
    /// The CPU clock is not available on this platform.
    #[error("--clock cpu is not supported on this platform")]
    NoCpuClock,
}

/// The state shared by the search threads of a run.
pub struct Shared<'a> {
    model: &'a Model,
    start: Instant,
    config: &'a Config,
    control: &'a Control<'a>,
    best: Mutex<(u32, Option<State>, Trace)>,
    done: AtomicBool,
    target: u32,
}

/// The neighbourhoods, for statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Assignment of non-adjacent cells.
    Ta,
    /// Border re-solve.
    Bo,
    /// Checkerboard assignment.
    Bw,
    /// Swap and rotate descent.
    Tsr,
    /// Region re-solve.
    Ro,
}

/// Calls, total score gain and CPU seconds of one neighbourhood.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct MoveStats {
    /// Times applied.
    pub calls: u64,
    /// Times it raised the score.
    pub improving: u64,
    /// Total score change.
    pub gain: i64,
    /// CPU seconds spent.
    pub seconds: f64,
}

/// Statistics per neighbourhood.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Moves {
    /// TA.
    pub ta: MoveStats,
    /// BO.
    pub bo: MoveStats,
    /// BW.
    pub bw: MoveStats,
    /// TSR.
    pub tsr: MoveStats,
    /// RO.
    pub ro: MoveStats,
}

impl Moves {
    /// The counters of one neighbourhood.
    pub fn get(&mut self, m: Move) -> &mut MoveStats {
        match m {
            Move::Ta => &mut self.ta,
            Move::Bo => &mut self.bo,
            Move::Bw => &mut self.bw,
            Move::Tsr => &mut self.tsr,
            Move::Ro => &mut self.ro,
        }
    }
}

/// One search thread's view: its clock, its random numbers, and how it
/// reports new bests.
pub struct Worker<'a> {
    /// The puzzle.
    pub model: &'a Model,
    /// The thread's random numbers.
    pub rng: crate::search::Rng,
    /// Tuning.
    pub params: &'a Params,
    shared: &'a Shared<'a>,
    thread: usize,
    cpu_start: f64,
    /// Iterations done (reported in traces).
    pub iterations: u64,
    /// Complete boards found by the breaks search.
    pub boards: u64,
    /// Best score this thread found (-1 before its start board).
    pub best: i64,
    /// Per-neighbourhood statistics.
    pub moves: Moves,
}

impl Worker<'_> {
    /// Whether the thread should stop (time, Ctrl-C, target reached).
    pub fn should_stop(&self) -> bool {
        if self.shared.done.load(Ordering::Relaxed) {
            return true;
        }
        if self.shared.control.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return true;
        }
        match self.shared.config.clock {
            Clock::Wall => self.shared.start.elapsed().as_secs_f64() >= self.shared.config.seconds,
            Clock::Cpu => self.cpu_seconds() >= self.shared.config.seconds,
        }
    }

    /// Runs a neighbourhood `f` on `state`, counting it in the statistics
    /// and offering the result.
    pub fn timed(&mut self, m: Move, state: &mut State, f: impl FnOnce(&mut Self, &mut State)) {
        let t0 = self.cpu_seconds();
        let before = state.score as i64;
        f(self, state);
        let spent = self.cpu_seconds() - t0;
        let s = self.moves.get(m);
        s.calls += 1;
        s.gain += state.score as i64 - before;
        s.improving += (state.score as i64 > before) as u64;
        s.seconds += spent;
        self.offer(state);
    }

    /// How this run builds start boards.
    pub fn start_kind(&self) -> Start {
        self.shared.config.start
    }

    /// CPU seconds this thread has used.
    pub fn cpu_seconds(&self) -> f64 {
        thread_cpu_seconds().map_or(0.0, |t| t - self.cpu_start)
    }

    /// Offers a board; records it if it beats the run's best.
    pub fn offer(&mut self, state: &State) {
        if state.score as i64 <= self.best {
            return;
        }
        self.best = state.score as i64;
        let shared = self.shared;
        let mut g = shared.best.lock().unwrap_or_else(|e| e.into_inner());
        if state.score <= g.0 && g.1.is_some() {
            return;
        }
        debug_assert!(state.valid(self.model).is_ok());
        let seconds = shared.start.elapsed().as_secs_f64();
        g.0 = state.score;
        g.1 = Some(state.clone());
        g.2.push(TracePoint {
            seconds,
            cpu_seconds: self.cpu_seconds(),
            score: state.score,
            thread: self.thread,
            iteration: self.iterations,
        });
        if let Some(f) = shared.control.on_improve {
            f(&state.to_board(self.model), state.score, seconds);
        }
        if state.score >= shared.target {
            shared.done.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs `config.threads` independent searches (seeds `seed`, `seed + 1`,
/// ...) from start boards built by `config.start` (or from `start_board`)
/// until the budget, the target or a cancel; returns the best board.
pub fn optimize(
    puzzle: &EdgePuzzle,
    config: &Config,
    start_board: Option<&Board>,
    control: &Control,
) -> Result<Outcome, OptimizeError> {
    let model = Model::new(puzzle)?;
    if config.clock == Clock::Cpu && thread_cpu_seconds().is_none() {
        return Err(OptimizeError::NoCpuClock);
    }
    let uses_breaks = config.method == Method::Breaks || (config.start == Start::Breaks && start_board.is_none());
    if uses_breaks && breaks::Tables::new(&model).is_none() {
        return Err(OptimizeError::BreaksTables);
    }
    let given = start_board.map(|b| State::from_board(&model, puzzle, b)).transpose()?;
    let target = config.target.unwrap_or(model.joins as u32).min(model.joins as u32);
    let shared = Shared {
        model: &model,
        start: Instant::now(),
        config,
        control,
        best: Mutex::new((0, None, Trace::new(model.joins as u32))),
        done: AtomicBool::new(false),
        target,
    };
    let threads = config.threads.max(1);
    let reports: Vec<ThreadReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let shared = &shared;
                let given = given.clone();
                scope.spawn(move || run_thread(shared, k, given))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("search thread panicked")).collect()
    });
    let elapsed = shared.start.elapsed();
    let (score, best, trace) = shared.best.into_inner().unwrap_or_else(|e| e.into_inner());
    let best = best.expect("every thread offers its start board");
    let stop = if score >= target {
        Stop::Target
    } else if control.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
        Stop::Interrupted
    } else {
        Stop::Time
    };
    Ok(Outcome {
        board: best.to_board(&model),
        score: Score { matched: score as usize, joins: model.joins },
        trace,
        stop,
        elapsed,
        threads: reports,
    })
}

fn run_thread(shared: &Shared, k: usize, given: Option<State>) -> ThreadReport {
    let config = shared.config;
    let seed = config.seed.wrapping_add(k as u64);
    let mut w = Worker {
        model: shared.model,
        rng: crate::search::Rng::new(seed),
        params: &config.params,
        shared,
        thread: k,
        cpu_start: thread_cpu_seconds().unwrap_or(0.0),
        iterations: 0,
        boards: 0,
        best: -1,
        moves: Moves::default(),
    };
    let start = match given {
        Some(s) => s,
        None => build_start(&mut w, config.start),
    };
    let start_score = start.score;
    // Always offer the start, so that even a zero budget returns a board.
    w.offer(&start);
    match config.method {
        Method::Tabu => search::tabu(&mut w, start),
        Method::Multi => search::multi(&mut w, start),
        Method::Ga => evolution::genetic(&mut w, start),
        Method::Aiea => evolution::immune(&mut w, start),
        Method::Breaks => {
            let found = breaks::search(&mut w, breaks_knobs(&config.params), f64::INFINITY);
            found.best.iter().for_each(|b| w.offer(b));
        }
    }
    ThreadReport {
        seed,
        start_score,
        score: w.best.max(0) as u32,
        iterations: w.iterations,
        cpu_seconds: w.cpu_seconds(),
        moves: w.moves,
        boards: w.boards,
    }
}

/// Builds one start board.
pub fn build_start(w: &mut Worker, start: Start) -> State {
    match start {
        Start::Random => construct::random(w.model, &mut w.rng),
        Start::Scan => construct::scan(w.model, &mut w.rng),
        Start::Breaks => {
            let p = w.params;
            let limit = w.shared.config.seconds * p.breaks_share;
            match breaks::search(w, breaks_knobs(p), limit).best {
                Some(s) => s,
                None => construct::scan(w.model, &mut w.rng),
            }
        }
        Start::Cp => {
            let p = w.params;
            let relax = if p.relax > 0 { p.relax } else { default_relax(w.model) };
            construct::cp_relaxed(w.model, relax, p.relax_nodes, 4, &mut w.rng).0
        }
    }
}

/// The breaks search's knobs from the tuning parameters.
pub fn breaks_knobs(p: &Params) -> breaks::Knobs {
    breaks::Knobs {
        from: p.breaks_from,
        shape: p.breaks_shape,
        budget: p.breaks_budget,
        restart_nodes: p.restart_nodes,
        polish: p.breaks_polish,
        slack: p.breaks_slack,
    }
}

/// Cells left out by the CP-relaxed start by default: about a tenth of the
/// board (Schaus & Deville relaxed 24 to 30 of Eternity II's 256).
pub fn default_relax(model: &Model) -> usize {
    (model.n() / 10).max(1)
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::edgematch::EdgePuzzle;

    /// A bundled edge-matching instance, relative to `instances/edgematch/`.
    pub fn meta(rel: &str) -> EdgePuzzle {
        let path = format!("{}/instances/edgematch/{rel}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        crate::frontend::edgematch::parse_meta(&text, &path, rel).unwrap()
    }
}
