//! Monte-Carlo sampling (Busche's `-s TRIALS,REMAINING,SEED`), the Knuth
//! probes of the piece choice, and the generator and specs they share with
//! the tree-size estimate of [`crate::poly::run::estimate`] (`--estimate`), with which
//! a user can ask how long a full enumeration would take before starting it.
//!
//! * A *trial* searches with the children of every node in random order and
//!   ends the first time a piece is removed leaving `REMAINING` pieces: it
//!   dives to the first node with `REMAINING - 1` pieces left, enumerates
//!   everything below it, and stops. Solutions per second over many trials
//!   compare configurations on puzzles too large to enumerate.
//! * A *probe* (Knuth 1975) follows one random path from the root; with
//!   `d_1, d_2, ...` the numbers of children met, `d_1 + d_1 d_2 + ...` is an
//!   unbiased estimate of the number of placements of the full search, and
//!   `d_1 ... d_n` (when the path ends in a solution) of the number of
//!   solutions. The mean over many probes is the estimate.

use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::Kind;
use crate::poly::walk::{Shared, Stop, Walk, Walker};
use crate::search::pool::{deliver, each_task, outboxes, take_outbox, Batch, Outbox};
use crate::search::{Flow, Limits, Rng, StopReason};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// `--sample TRIALS,REMAINING,SEED`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleSpec {
    /// Number of trials.
    pub trials: u64,
    /// A trial ends when a removal leaves this many pieces.
    pub remaining: u32,
    /// Seed.
    pub seed: u64,
}

impl SampleSpec {
    /// Parses `TRIALS,REMAINING,SEED`.
    pub fn parse(s: &str) -> Result<SampleSpec, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [t, r, seed] = parts.as_slice() else {
            return Err(format!("`{s}`: expected TRIALS,REMAINING,SEED (e.g. 10000,16,5)"));
        };
        let num = |x: &str, what: &str| x.parse::<u64>().map_err(|_| format!("`{s}`: {what} `{x}` is not a number"));
        let trials = num(t, "TRIALS")?;
        let remaining = num(r, "REMAINING")?;
        if trials == 0 {
            return Err(format!("`{s}`: TRIALS must be at least 1"));
        }
        if remaining == 0 || remaining > u32::MAX as u64 {
            return Err(format!("`{s}`: REMAINING must be at least 1"));
        }
        Ok(SampleSpec { trials, remaining: remaining as u32, seed: num(seed, "SEED")? })
    }
}

/// What sampling measured.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SampleReport {
    /// Trials run.
    pub trials: u64,
    /// Solutions found over all trials (a solution can recur in several).
    pub solutions: u64,
    /// Placements over all trials.
    pub nodes: u64,
    /// Wall time.
    #[serde(serialize_with = "secs")]
    pub elapsed: Duration,
    /// Trials that exhausted the whole tree before ending.
    pub exhausted: u64,
    /// Set when a limit cut the sampling short.
    pub stopped: Option<StopReason>,
}

fn secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl SampleReport {
    /// Solutions per second.
    pub fn rate(&self) -> f64 {
        let t = self.elapsed.as_secs_f64();
        if t > 0.0 {
            self.solutions as f64 / t
        } else {
            0.0
        }
    }
}

/// Runs Monte-Carlo trials on `threads` worker threads; `visit` sees every
/// solution found (image ids), on the calling thread.
///
/// Trial `k` draws from its own generator, seeded with the `k`-th number
/// of `Rng::new(seed)` ([`Rng::nth`]): a trial's dive does not depend on
/// what earlier trials drew, nor on which thread runs it, so one thread
/// and several find the same solutions (in another order) over the same
/// nodes, and two schedules that differ only below the trials' end search
/// the same subtrees. The workers take chunks of consecutive trials from
/// one queue and share one node count for the limits.
pub fn sample<B: Bits>(
    shared: &Shared<B>,
    spec: SampleSpec,
    limits: &Limits,
    threads: usize,
    visit: &mut dyn FnMut(&[u32]) -> Flow,
) -> SampleReport {
    let start = Instant::now();
    let threads = threads.max(1);
    // Enough chunks to balance the load, few enough that the queue and the
    // per-chunk bookkeeping stay out of the way of millions of trials.
    let chunk = (spec.trials / (64 * threads as u64)).max(1);
    let chunks: Vec<(u64, u64)> =
        (0..spec.trials.div_ceil(chunk)).map(|i| (i * chunk, ((i + 1) * chunk).min(spec.trials))).collect();
    let polled = AtomicU64::new(0);
    let (nodes, found, trials, exhausted) =
        (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let abort = AtomicBool::new(false);
    let reason: Mutex<Option<StopReason>> = Mutex::new(None);
    let stop_with = |r: StopReason| {
        reason.lock().expect("no poisoning").get_or_insert(r);
        abort.store(true, Ordering::Relaxed);
    };
    let (tx, rx) = mpsc::sync_channel::<Batch>(4096);
    let boxes = outboxes(tx, threads, limits.max_solutions.is_none());
    each_task(
        threads,
        &chunks,
        &|| abort.load(Ordering::Relaxed),
        &|w| take_outbox(&boxes, w),
        &|outbox: &mut Outbox, &(from, to)| {
            for k in from..to {
                if abort.load(Ordering::Relaxed) {
                    return;
                }
                // Trials too short to reach a poll still count toward a
                // node limit: checked between trials too.
                if let Some(r) = limits.poll(polled.load(Ordering::Relaxed)) {
                    return stop_with(r);
                }
                let walk = Walk::Sample { rng: Rng::new(Rng::nth(spec.seed, k)), stop_left: spec.remaining };
                let mut w = shared.walker(limits, walk);
                w.poll.shared_nodes = Some(&polled);
                w.poll.abort = Some(&abort);
                let r = w.run(&mut |p| outbox.send(p.to_vec()));
                // The walker added its nodes in steps of a poll interval.
                polled.fetch_add(w.nodes & crate::poly::walk::POLL_MASK, Ordering::Relaxed);
                nodes.fetch_add(w.nodes, Ordering::Relaxed);
                found.fetch_add(w.solutions, Ordering::Relaxed);
                trials.fetch_add(1, Ordering::Relaxed);
                match r {
                    Ok(()) => {
                        exhausted.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(Stop::TrialEnd) => {}
                    // Another worker's stop reaches this one as an interruption.
                    Err(Stop::Limit(StopReason::Interrupted)) if abort.load(Ordering::Relaxed) => return,
                    Err(Stop::Limit(r)) => return stop_with(r),
                }
            }
        },
        || deliver(rx, visit, &mut || stop_with(StopReason::Visitor)),
    );
    SampleReport {
        trials: trials.into_inner(),
        solutions: found.into_inner(),
        nodes: nodes.into_inner(),
        elapsed: start.elapsed(),
        exhausted: exhausted.into_inner(),
        stopped: reason.into_inner().expect("no poisoning"),
    }
}

/// The piece choice's Knuth probes run so far: more probes continue the
/// same random sequence (one generator carried from probe to probe), so `n`
/// probes and then `m` more give what `n + m` probes at once give (the
/// choice screens every candidate with a few probes and extends the best
/// ones). `--estimate` draws its probes otherwise ([`crate::poly::run::estimate`]).
///
/// Invariant: `nodes[i]` is probe `i`'s estimate of the placements of the
/// full search; `rng` is the generator the next probe starts from.
#[derive(Clone, Debug)]
pub struct Probes {
    rng: Rng,
    nodes: Vec<f64>,
}

impl Probes {
    /// Records the probe `walk` has just made (its estimates and generator)
    /// and moves the generator on for the next probe.
    fn record(&mut self, walk: &mut Walk) {
        if let Walk::Probe { rng: used, nodes: n, .. } = walk {
            self.rng = used.clone();
            self.nodes.push(*n);
        }
        self.rng.next_u64();
    }

    /// No probe yet.
    pub fn new(seed: u64) -> Probes {
        Probes { rng: Rng::new(seed), nodes: Vec::new() }
    }

    /// Number of probes run.
    pub fn len(&self) -> u64 {
        self.nodes.len() as u64
    }

    /// Whether no probe ran.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Mean estimated placements of the full search.
    pub fn nodes(&self) -> f64 {
        self.nodes.iter().sum::<f64>() / self.nodes.len() as f64
    }

    /// Runs probes until `total` have run.
    pub fn extend_to<B: Bits>(&mut self, shared: &Shared<B>, total: u64) {
        let none = Limits::none();
        let depth = shared.n_pieces() as usize + 1;
        // One walker for every probe: a probe ends back at the root with the
        // state restored, and building a walker (it clones the DLX matrix)
        // costs more than a probe.
        let mut w = shared.walker(&none, Walk::All);
        while self.len() < total {
            let rng = self.rng.clone();
            w.walk = Walk::Probe { rng, weight: 1.0, nodes: 0.0, solutions: 0.0, per_depth: vec![0.0; depth] };
            let _ = w.run(&mut |_| Flow::Continue);
            debug_assert_eq!(w.depth, 0, "a probe returns to the root");
            self.record(&mut w.walk);
        }
    }
}

impl Probes {
    /// Runs probes until `total` have run on the tree whose root branches
    /// over the images `roots` (in that order), with `w` (at the root) for
    /// everything below: the tree of the same search with the constrained
    /// piece's images cut to `roots` and placed first. The piece choice
    /// probes every candidate piece this way on one engine without the
    /// filter, instead of building an engine per candidate: when DLX's
    /// root branches on the constrained piece (the caller checks that it
    /// does), the subtree under a root image is the same in both engines
    /// (the other pieces keep every image, the placed piece's are never
    /// counted again, and a DLX stage below sees the candidate's matrix),
    /// and so are the random draws: the estimates are the candidate engine's, bit for
    /// bit.
    pub fn extend_rooted<B: Bits>(&mut self, w: &mut Walker<'_, B>, roots: &[u32], total: u64) {
        let depth = w.s.n_pieces() as usize + 1;
        // With DLX below the root, the matrix follows as in `dlx_once`:
        // committing the piece's column removes every image of the piece,
        // kept or not, so the matrix below is the candidate engine's (its
        // other rows, in the same order).
        let follow = w.s.stages.kinds()[..w.n_left as usize].iter().any(|k| matches!(k, Kind::Dlx(_)));
        let m = &w.dlx.m;
        let (header, rows) = match roots.first() {
            Some(&k) if follow => {
                let header = w.s.images.n_cells as u32 + w.s.tables.group[k as usize] as u32 + 1;
                let mut rows = Vec::with_capacity(roots.len());
                let mut x = m.down(header);
                while x != header {
                    if roots.binary_search(&m.option_of(x)).is_ok() {
                        rows.push(x);
                    }
                    x = m.down(x);
                }
                debug_assert_eq!(rows.len(), roots.len(), "the roots are images of one group, ascending");
                (header, rows)
            }
            _ => (0, Vec::new()),
        };
        while self.len() < total {
            let rng = self.rng.clone();
            w.walk = Walk::Probe { rng, weight: 1.0, nodes: 0.0, solutions: 0.0, per_depth: vec![0.0; depth] };
            // The root node as `node` and `dlx_once` run it: the triggers,
            // then one random child (the root cannot be a solution: pieces
            // are left).
            if !roots.is_empty() && w.triggers_ok() {
                let n = roots.len();
                let k = match &mut w.walk {
                    Walk::Probe { rng, weight, nodes, per_depth, .. } => {
                        let j = rng.below(n as u64) as usize;
                        *weight *= n as f64;
                        *nodes += *weight;
                        per_depth[0] += *weight;
                        w.branch[0] = j as u32;
                        roots[j]
                    }
                    _ => unreachable!("the walk was just set"),
                };
                if !rows.is_empty() {
                    let m = &mut w.dlx.m;
                    let x = rows[w.branch[0] as usize];
                    m.commit_primary(header);
                    m.commit_row_except(x);
                    w.place(k);
                    let _ = w.node(&mut |_| Flow::Continue);
                    w.unplace(k);
                    let m = &mut w.dlx.m;
                    m.uncommit_row_except(x);
                    m.uncommit_primary(header);
                } else {
                    w.place(k);
                    let _ = w.node(&mut |_| Flow::Continue);
                    w.unplace(k);
                }
            }
            debug_assert_eq!(w.depth, 0, "a probe returns to the root");
            self.record(&mut w.walk);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::run::sample::*;

    #[test]
    fn specs_parse() {
        assert_eq!(SampleSpec::parse("10000,16,5").unwrap(), SampleSpec { trials: 10000, remaining: 16, seed: 5 });
        assert!(SampleSpec::parse("10,16").is_err());
        assert!(SampleSpec::parse("0,16,1").is_err());
        assert!(SampleSpec::parse("1,x,1").unwrap_err().contains("REMAINING"));
    }

    /// Each trial has its own generator, so schedules that differ only below
    /// the trials' end (where the bit-field engines run their tight loops)
    /// dive to the same nodes and find the same solutions, each an exact
    /// cover. A schedule whose dive differs draws other trials (so does
    /// another cell order: DLX's items are the cells in that order, and its
    /// ties go to the first).
    #[test]
    fn trials_below_the_dive_are_the_same_whatever_the_engine() {
        use crate::poly::plan::schedule::{Schedule, ScheduleSpec};
        use crate::poly::{PolyConfig, PolyEngine};
        let text = std::fs::read_to_string("instances/polycube/pentominoes_10x6_def.txt").unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        let spec = SampleSpec { trials: 60, remaining: 8, seed: 3 };
        let run_on = |schedule: &str, threads: usize| {
            let config = PolyConfig {
                schedule: Some(ScheduleSpec::Fixed(Schedule::parse(schedule).unwrap())),
                threads,
                ..PolyConfig::default()
            };
            let engine = PolyEngine::new(&built.problem, &config).unwrap();
            let mut found = Vec::new();
            let report = engine
                .sample(spec, &Limits::none(), &mut |options| {
                    let solution = crate::ir::Solution { options: options.to_vec() };
                    crate::ir::verify(&built.problem, &solution).expect("an exact cover");
                    let mut sorted = options.to_vec();
                    sorted.sort_unstable();
                    found.push(sorted);
                    Flow::Continue
                })
                .unwrap();
            assert_eq!((report.trials, report.exhausted, report.solutions), (60, 0, found.len() as u64));
            found.sort();
            (found, report.nodes)
        };
        let run = |schedule: &str| run_on(schedule, 1).0;
        let want = run("dlx:min-fit");
        assert!(want.len() > 10, "{} solutions", want.len());
        for schedule in ["dlx:min-fit,debruijn@7", "dlx:min-fit,mch@7", "dlx:min-fit,emch+2@7", "dlx:min-fit,bdlx@7"] {
            assert_eq!(run(schedule), want, "{schedule}");
        }
        assert_ne!(run("dlx:min-fit,debruijn@8"), want);
        // Trials on two and three threads: the same solutions, the same nodes.
        let one = run_on("dlx:min-fit,emch+2@9", 1);
        assert_eq!(run_on("dlx:min-fit,emch+2@9", 2), one);
        assert_eq!(run_on("dlx:min-fit,emch+2@9", 3), one);
    }

    /// `Rng::nth(seed, k)` is the `k + 1`-th draw of `Rng::new(seed)`.
    #[test]
    fn nth_draw_without_the_draws_before() {
        for seed in [0, 7, u64::MAX] {
            let mut rng = Rng::new(seed);
            for k in 0..50 {
                assert_eq!(Rng::nth(seed, k), rng.next_u64(), "seed {seed}, draw {k}");
            }
        }
    }

    /// A node limit counts every trial's nodes, short trials too, on any
    /// number of threads; a stopped sampling reports why.
    #[test]
    fn a_node_limit_counts_all_trials() {
        use crate::poly::{PolyConfig, PolyEngine};
        let text = std::fs::read_to_string("instances/polycube/somacube_def.txt").unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        for threads in [1, 2] {
            let engine = PolyEngine::new(&built.problem, &PolyConfig { threads, ..PolyConfig::default() }).unwrap();
            let spec = SampleSpec { trials: 100_000, remaining: 3, seed: 7 };
            let limits = Limits { max_nodes: Some(5_000), ..Limits::none() };
            let report = engine.sample(spec, &limits, &mut |_| Flow::Continue).unwrap();
            assert_eq!(report.stopped, Some(StopReason::NodeLimit), "{threads} threads");
            assert!(report.trials < 100_000 && report.nodes >= 5_000, "{threads} threads: {report:?}");
        }
    }

    /// Probes extended in steps give what one run of as many probes gives
    /// (the piece choice extends its finalists' screening probes).
    #[test]
    fn probes_extended_in_steps_equal_one_run() {
        use crate::poly::filters::redundancy::RedundancyMode;
        use crate::poly::{PolyConfig, PolyEngine};
        let text = std::fs::read_to_string("instances/polycube/tetriscube_def.txt").unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        let config = PolyConfig {
            redundancy: Some(RedundancyMode::Rotations { piece: Some("L".into()) }),
            ..PolyConfig::default()
        };
        let engine = PolyEngine::new(&built.problem, &config).unwrap();
        let mut stepped = Probes::new(5);
        engine.runner.probe(&mut stepped, 40);
        engine.runner.probe(&mut stepped, 40);
        assert_eq!(stepped.len(), 40);
        engine.runner.probe(&mut stepped, 150);
        let mut once = Probes::new(5);
        engine.runner.probe(&mut once, 150);
        assert_eq!(stepped.len(), 150);
        assert!(stepped.nodes() > 0.0);
        assert_eq!(stepped.nodes().to_bits(), once.nodes().to_bits());
    }

    /// Probes rooted at a candidate piece's kept images, on one engine
    /// without the redundancy filter, give the candidate engine's
    /// estimates bit for bit (the piece choice relies on it), with one
    /// walker for several candidates and on two threads.
    #[test]
    fn rooted_probes_equal_the_candidate_engines() {
        let text = std::fs::read_to_string("instances/polycube/tetriscube_def.txt").unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        for text in ["dlx:min-fit,mch@11,emch@8", "dlx:min-fit,mch@10,emch@8", "dlx:min-fit,emch@9"] {
            rooted_probes_equal_under(&built.problem, text);
        }
    }

    fn rooted_probes_equal_under(built: &crate::ir::Problem, schedule: &str) {
        use crate::poly::filters::redundancy::{self, RedundancyMode};
        use crate::poly::plan::schedule::{Schedule, ScheduleSpec};
        use crate::poly::{PolyConfig, PolyEngine};
        let schedule = Some(ScheduleSpec::Fixed(Schedule::parse(schedule).unwrap()));
        let full_cfg =
            PolyConfig { redundancy: Some(RedundancyMode::Off), schedule: schedule.clone(), ..PolyConfig::default() };
        let full = PolyEngine::new(built, &full_cfg).unwrap();
        let mut expected = Vec::new();
        let mut jobs = Vec::new();
        for piece in ["L", "G", "A"] {
            let mode = RedundancyMode::Rotations { piece: Some(piece.into()) };
            let cfg =
                PolyConfig { redundancy: Some(mode.clone()), schedule: schedule.clone(), ..PolyConfig::default() };
            let engine = PolyEngine::new(built, &cfg).unwrap();
            let mut probes = Probes::new(1);
            engine.runner.probe(&mut probes, 120);
            expected.push((probes.nodes().to_bits(), probes.nodes.clone()));
            let (_, kept) = redundancy::kept(built, full.images(), &mode).unwrap().unwrap();
            assert_eq!(kept.len(), engine.redundancy().unwrap().after);
            jobs.push((Probes::new(1), kept.iter().map(|&k| k as u32).collect::<Vec<u32>>()));
        }
        let mut parallel = jobs.clone();
        crate::poly::probe_rooted(&*full.runner, &mut jobs, 60, 1);
        crate::poly::probe_rooted(&*full.runner, &mut jobs, 120, 1);
        crate::poly::probe_rooted(&*full.runner, &mut parallel, 120, 2);
        for ((a, b), e) in jobs.iter().zip(&parallel).zip(&expected) {
            assert!(a.0.nodes() > 0.0);
            assert_eq!((a.0.nodes().to_bits(), a.0.nodes.clone()), *e);
            assert_eq!((b.0.nodes().to_bits(), b.0.nodes.clone()), *e);
        }
    }
}
