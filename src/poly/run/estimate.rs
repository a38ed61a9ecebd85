//! Knuth's estimate of a polycube search (`emx solve --estimate`), on one
//! thread or several: how many placements and solutions the full search
//! would make, and how long it would take on the engine's threads.
//!
//! Probe `k` draws from its own generator, seeded with the `k`-th number of
//! the seed's sequence ([`Rng::nth`]), as the Monte-Carlo trials do: a
//! probe's path does not depend on the probes before it nor on the thread
//! that walks it. The probes are taken in fixed chunks (their bounds depend
//! only on the number of probes), each chunk's sums are kept apart, and the
//! chunks are added in order at the end, so one thread and several give the
//! same estimate to the last bit.
//!
//! The piece choice's screening probes ([`crate::poly::run::sample::Probes`]) are a
//! different sequence (one generator carried from probe to probe) and are
//! left as they are: the choices of `auto` do not move with this module.

use crate::poly::model::bits::Bits;
use crate::poly::run::parallel;
use crate::poly::walk::{Shared, Walk};
use crate::search::knuth::Tally;
use crate::search::pool::each_task;
use crate::search::{Estimate, EstimateSpec, Rng};
use crate::search::{Flow, Limits, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most chunks of the queue: enough to balance the workers (each
/// worker checks the limits between two probes, not two chunks), few enough
/// that the chunks' sums stay small for any number of probes.
const MAX_CHUNKS: u64 = 256;

/// The shortest rate run under a time limit (see [`estimate`]).
const MIN_RATE_WINDOW: Duration = Duration::from_millis(100);

/// What [`estimate`] did: the estimate, and why it stopped probing before
/// `spec.probes` (then the estimate is that of the probes made).
#[derive(Clone, Debug)]
pub struct EstimateRun {
    /// The estimate of the probes made (all of them unless `stopped`).
    pub estimate: Estimate,
    /// A time limit or an interruption ended the probes early.
    pub stopped: Option<StopReason>,
    /// How long the rate run was given (zero: no rate run).
    pub window: Duration,
}

/// The chunks of `probes` probes: `[from, to)` ranges in order.
fn chunks(probes: u64) -> Vec<(u64, u64)> {
    let size = probes.div_ceil(MAX_CHUNKS).max(1);
    (0..probes.div_ceil(size)).map(|i| (i * size, ((i + 1) * size).min(probes))).collect()
}

/// Runs `spec.probes` probes on `threads` workers, then a real search of
/// `window` on as many threads to turn the node estimate into seconds
/// (skipped when `window` is zero or the run was interrupted).
///
/// Of `limits`, only the deadline and the cancel flag apply: they end the
/// probing (between two probes), and the estimate is that of the probes
/// made. Under a deadline the rate run takes what is left of the time, at
/// least [`MIN_RATE_WINDOW`] and at most `window`. Node and solution limits
/// have no meaning here (a probe's nodes are estimates) and are not read.
pub fn estimate<B: Bits>(
    shared: &Shared<B>,
    spec: EstimateSpec,
    limits: &Limits,
    threads: usize,
    window: Duration,
) -> EstimateRun {
    let threads = threads.max(1);
    let depth = shared.n_pieces() as usize + 1;
    // Each chunk of probes with the slot of its sums.
    let tasks: Vec<((u64, u64), Mutex<Tally>)> =
        chunks(spec.probes).into_iter().map(|c| (c, Mutex::new(Tally::default()))).collect();
    let stopped: Mutex<Option<StopReason>> = Mutex::new(None);
    let abort = AtomicBool::new(false);
    let over = || {
        if limits.out_of_time() {
            Some(StopReason::TimeLimit)
        } else if limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(StopReason::Interrupted)
        } else {
            None
        }
    };
    let none = Limits::none();
    each_task(
        threads,
        &tasks,
        &|| abort.load(Ordering::Relaxed),
        // One walker per worker for all its probes: a probe ends back at
        // the root with the state restored, and building a walker (it
        // clones the DLX matrix) costs more than a probe.
        &|_| shared.walker(&none, Walk::All),
        &|w, ((from, to), slot)| {
            let mut tally = Tally::new(depth);
            for k in *from..*to {
                if let Some(r) = over() {
                    stopped.lock().expect("no poisoning").get_or_insert(r);
                    abort.store(true, Ordering::Relaxed);
                    break;
                }
                let rng = Rng::new(Rng::nth(spec.seed, k));
                w.walk = Walk::Probe { rng, weight: 1.0, nodes: 0.0, solutions: 0.0, per_depth: vec![0.0; depth] };
                let _ = w.run(&mut |_| Flow::Continue);
                debug_assert_eq!(w.depth, 0, "a probe returns to the root");
                if let Walk::Probe { nodes, solutions, per_depth, .. } = &w.walk {
                    for (d, &x) in per_depth.iter().enumerate() {
                        tally.at_depth(d, x);
                    }
                    tally.end_probe(*nodes, *solutions);
                }
            }
            *slot.lock().expect("no poisoning") = tally;
        },
        || {},
    );
    let mut total = Tally::new(depth);
    for (_, t) in tasks {
        total.merge(&t.into_inner().expect("no poisoning"));
    }
    let mut estimate = total.estimate();
    let stopped = stopped.into_inner().expect("no poisoning");
    let window = match limits.deadline {
        Some(d) => window.min(d.saturating_duration_since(Instant::now()).max(MIN_RATE_WINDOW)),
        None => window,
    };
    let window = if stopped == Some(StopReason::Interrupted) { Duration::ZERO } else { window };
    if !window.is_zero() {
        let timed = Limits { cancel: limits.cancel.clone(), ..Limits::none() }.with_time_limit(Some(window));
        let start = Instant::now();
        let outcome = if threads > 1 {
            parallel::parallel(shared, threads, &timed, &mut |_| Flow::Continue)
        } else {
            parallel::sequential(shared, &timed, &mut |_| Flow::Continue)
        };
        let t = start.elapsed().as_secs_f64();
        if t > 0.0 && outcome.nodes > 0 {
            estimate.nodes_per_sec = outcome.nodes as f64 / t;
            estimate.seconds = estimate.nodes / estimate.nodes_per_sec;
        }
    }
    EstimateRun { estimate, stopped, window }
}

#[cfg(test)]
mod tests {
    use crate::frontend::polycube;
    use crate::poly::run::estimate::*;
    use crate::poly::{PolyConfig, PolyEngine};

    fn engine(file: &str, threads: usize) -> (crate::ir::Problem, PolyConfig) {
        let text = std::fs::read_to_string(format!("instances/polycube/{file}")).expect("bundled instance");
        let puzzle = polycube::parse(&text, "t").expect("parses").remove(0);
        let built = polycube::build(&puzzle, "t").expect("builds");
        (built.problem, PolyConfig { threads, ..PolyConfig::default() })
    }

    #[test]
    fn chunks_cover_every_probe_once_in_order() {
        for probes in [1, 2, 255, 256, 257, 1000, 100_000, 2_000_000, 10_000_000_000] {
            let c = chunks(probes);
            assert_eq!(c.first().map(|x| x.0), Some(0));
            assert_eq!(c.last().map(|x| x.1), Some(probes));
            assert!(c.windows(2).all(|w| w[0].1 == w[1].0 && w[0].0 < w[0].1));
            let n = c.len() as u64;
            assert!(n <= MAX_CHUNKS && 2 * n >= probes.min(MAX_CHUNKS), "{probes}: {n} chunks");
        }
    }

    #[test]
    fn threads_give_the_same_estimate_to_the_last_bit() {
        // The 10x6 (a tree of 862 674 nodes under `auto`) and
        // Soma (4 321 nodes, where probes end in solutions often).
        for (file, nodes_range) in [("pentominoes_10x6_def.txt", 0.5e6..2.0e6), ("somacube_def.txt", 2e3..8e3)] {
            let spec = EstimateSpec { probes: 3000, seed: 7 };
            let run = |threads| {
                let (problem, config) = engine(file, threads);
                let e = PolyEngine::new(&problem, &config).expect("engine");
                e.estimate(spec, &Limits::none(), Duration::ZERO)
            };
            let one = run(1);
            assert_eq!((one.stopped, one.estimate.probes), (None, 3000));
            assert!(nodes_range.contains(&one.estimate.nodes), "{file}: {:?}", one.estimate);
            if file.starts_with("soma") {
                assert!(one.estimate.solutions > 0.0, "{:?}", one.estimate);
            }
            for threads in [2, 3] {
                let many = run(threads).estimate;
                let bits = |e: &Estimate| {
                    [e.nodes, e.nodes_stderr, e.solutions, e.solutions_stderr].map(f64::to_bits).to_vec()
                };
                assert_eq!(many.probes, one.estimate.probes);
                assert_eq!(bits(&many), bits(&one.estimate), "{file}, {threads} threads");
                assert_eq!(many.per_depth, one.estimate.per_depth, "{file}, {threads} threads");
            }
        }
    }

    #[test]
    fn a_passed_deadline_or_a_cancel_ends_the_probes_early() {
        let (problem, config) = engine("pentominoes_10x6_def.txt", 2);
        let e = PolyEngine::new(&problem, &config).expect("engine");
        let spec = EstimateSpec { probes: 10_000_000, seed: 1 };
        let past = Limits { deadline: Some(Instant::now()), ..Limits::none() };
        let run = e.estimate(spec, &past, Duration::from_millis(20));
        assert_eq!(run.stopped, Some(StopReason::TimeLimit));
        assert!(run.estimate.probes < spec.probes);
        // The rate run still measured a rate (at least its minimum window).
        assert!(run.estimate.nodes_per_sec > 0.0, "{:?}", run.estimate);
        let flag = std::sync::Arc::new(AtomicBool::new(true));
        let cancelled = Limits { cancel: Some(flag), ..Limits::none() };
        let run = e.estimate(spec, &cancelled, Duration::from_millis(20));
        assert_eq!(run.stopped, Some(StopReason::Interrupted));
        assert_eq!(run.estimate.probes, 0);
        assert_eq!(run.estimate.nodes_per_sec, 0.0, "no rate run after an interruption");
    }
}
