//! Parallel search for the CP engine (`--threads N` with `--backend cp`).
//!
//! The tree is split at a shallow depth, as for the polycube engines
//! (`poly::parallel`): a first pass from the filtered root searches down to
//! depth `d` only and records each node there as a *task*, the decisions
//! `(cell, tile, rotation)` on its path (the smallest `d` giving at least
//! 24 tasks per thread; boards completed above `d` are reported at once).
//! Rayon workers then take the tasks: each clones the root searcher,
//! replays the task's decisions (placing and filtering, one single-
//! candidate frame per level: [`Searcher::replay`]) and searches below,
//! never returning into the replayed frames. Recording decisions rather
//! than sibling indices keeps the replay exact even where the candidate
//! order depends on the order of the sparse sets.
//!
//! Boards travel to the calling thread, so the caller's visitor (symmetric
//! images, verification, `--unique`) runs on one thread, and the workers
//! share one node count and one abort flag ([`crate::search::pool`]): a node,
//! time or solution limit, an interruption or a visitor's stop ends every
//! worker at its next poll, and the run reports what was found.
//!
//! The tasks partition the tree, so every count equals the sequential
//! one. Node counts can differ slightly: a worker's filtering reaches the
//! same fixpoints but not through the same sparse-set orders (heuristic
//! ties may break differently), shaving removals made above the split are
//! not replayed, and no backjump crosses a task boundary.

use super::filter::Core;
use super::search::{Counters, Searcher, POLL_MASK};
use crate::ir::OptionId;
use crate::search::pool::{run_tasks, Share};
use crate::search::{Flow, Limits, StopReason};
use std::sync::Arc;

/// A task: the decisions `(cell, tile, rotation)` from the root to its node.
pub(crate) type Path = Vec<(u32, u32, u8)>;

/// The parallel-run part of a [`Searcher`] (all off in a sequential run).
#[derive(Clone, Debug, Default)]
pub(crate) struct Split {
    /// Collect pass: record the nodes at this depth as tasks instead of
    /// searching below them.
    pub collect_depth: Option<usize>,
    /// The tasks recorded by a collect pass.
    pub tasks: Vec<Path>,
    /// Frames a worker's search never returns into (its replayed path).
    pub base: usize,
    /// Shared by the workers of one run.
    pub share: Option<Arc<Share>>,
}

impl Searcher {
    /// Checks the limits after `delta` more nodes: against this searcher's
    /// own count, or in a worker against the count shared by every worker
    /// (and the run's abort flag).
    pub(super) fn poll(&self, limits: &Limits, delta: u64) -> Option<StopReason> {
        match &self.split.share {
            // Walker placements count towards a node limit too.
            None => limits.poll(self.counters.nodes + self.counters.bottom),
            Some(share) => share.poll(limits, delta),
        }
    }
}

/// Adds `b`'s counters to `a`.
fn add(a: &mut Counters, b: &Counters) {
    a.nodes += b.nodes;
    a.solutions += b.solutions;
    a.backjumps += b.backjumps;
    a.probes += b.probes;
    a.shave_fails += b.shave_fails;
    a.shave_removals += b.shave_removals;
    a.shave_skips += b.shave_skips;
    a.edge_prunes += b.edge_prunes;
    a.refutations += b.refutations;
    a.singletons += b.singletons;
    a.bottom += b.bottom;
    a.confinements += b.confinements;
}

/// Options removed by edge filtering so far (0 without it).
fn removed(s: &Searcher) -> u64 {
    s.core.doms.as_ref().map_or(0, |d| d.removed)
}

/// What a parallel run did.
pub(crate) struct Outcome {
    pub stopped: Option<StopReason>,
    /// Summed over the collect pass and the workers (`edge_prunes`: the
    /// options edge filtering removed, replays excluded).
    pub counters: Counters,
    pub preempted: u64,
    pub split_depth: usize,
    pub tasks: usize,
}

/// Searches below the filtered root `root` with `threads` workers.
/// `board` writes the IR options of a full board; `emit` receives every
/// board found, on the calling thread, and may stop the run; with `hold`
/// the boards may arrive in batches (see [`crate::search::pool::Outbox`]).
pub(crate) fn run(
    root: &Searcher,
    threads: usize,
    limits: &Limits,
    hold: bool,
    board: &(dyn Fn(&Core, &mut Vec<OptionId>) + Sync),
    emit: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> Outcome {
    let want = 24 * threads;
    let n_cells = root.core.m.n_cells;
    // Collect pass at the shallowest depth with enough tasks.
    let mut depth = 1;
    let (head, stopped, early) = loop {
        let mut s = root.clone();
        s.split.collect_depth = Some(depth);
        let mut early: Vec<Vec<OptionId>> = Vec::new();
        let stopped = s.run(limits, &mut |core: &Core| {
            let mut ids = Vec::new();
            board(core, &mut ids);
            early.push(ids);
            Flow::Continue
        });
        // No node at this depth (the collect pass searched the whole tree)
        // means none deeper either.
        let done = s.split.tasks.is_empty() || depth >= n_cells;
        if s.split.tasks.len() >= want || done || stopped.is_some() {
            break (s, stopped, early);
        }
        depth += 1;
    };
    let mut counters = head.counters.clone();
    counters.edge_prunes = removed(&head) - removed(root);
    let mut out = Outcome {
        stopped,
        counters,
        preempted: head.core.preempted - root.core.preempted,
        split_depth: depth,
        tasks: head.split.tasks.len(),
    };
    for ids in &early {
        if emit(ids) == Flow::Stop {
            out.stopped = Some(StopReason::Visitor);
            return out;
        }
    }
    if out.stopped.is_some() || head.split.tasks.is_empty() {
        return out;
    }
    let share = Share::new(out.counters.nodes + out.counters.bottom);
    let work = |path: &Path, send: &mut crate::search::pool::Send<'_>| {
        let mut s = root.clone();
        s.split = Split { share: Some(share.clone()), ..Split::default() };
        s.counters = Counters::default();
        // Tasks can be shorter than the poll interval: check before each.
        let mut stop = s.poll(limits, 0);
        let ok = stop.is_none() && s.replay(path);
        let (removed0, preempted0) = (removed(&s), s.core.preempted);
        if ok {
            stop = s.search(limits, &mut |core: &Core| {
                let mut ids = Vec::new();
                board(core, &mut ids);
                send(ids)
            });
        }
        // The nodes and walker placements since the last poll.
        share.add_nodes((s.counters.nodes & POLL_MASK) + (s.counters.bottom & super::bottom::WALK_POLL));
        let mut c = s.counters.clone();
        c.edge_prunes = removed(&s) - removed0;
        ((c, s.core.preempted - preempted0), stop)
    };
    let (results, stopped) = run_tasks(threads, &head.split.tasks, &share, &work, hold, emit);
    for (c, preempted) in &results {
        add(&mut out.counters, c);
        out.preempted += preempted;
    }
    out.stopped = stopped;
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests::{brendan, distinct_boards, verifier};
    use super::super::{CpConfig, CpEngine};
    use crate::edgematch::{ir, EdgePuzzle};
    use crate::ir::Problem;
    use crate::search::{Engine, Limits};
    use crate::solve::{solve, Mode, SolveOptions, SolveReport};

    /// Solves with every board verified (IR and board check).
    fn run(e: &mut dyn Engine, p: &EdgePuzzle, pr: &Problem, mode: Mode, limits: Limits) -> SolveReport {
        let opts = SolveOptions { mode: Some(mode), limits, ..Default::default() };
        solve(e, pr, &opts, &verifier(p, pr)).unwrap()
    }

    /// The boards of a complete enumeration, sorted, each checked distinct.
    fn boards(e: &mut dyn Engine, p: &EdgePuzzle, pr: &Problem) -> Vec<Vec<u32>> {
        distinct_boards(&run(e, p, pr, Mode::All, Limits::none()))
    }

    #[test]
    fn threads_find_the_same_boards_as_one() {
        use crate::edgematch::generate::{generate, GenerateSpec, Style};
        let mut puzzles: Vec<EdgePuzzle> = ["04x04", "05x04", "05x05", "06x04", "07x03"].map(brendan).into();
        for seed in 1..=2 {
            let spec = GenerateSpec { rows: 6, cols: 6, style: Style::Uniform { colors: 6 }, seed };
            puzzles.push(generate(&spec).unwrap().puzzle);
        }
        let specs = [
            "default",
            "no-edge-filter",
            "shaving",
            "basic",
            "no-symmetry,no-tile-branching",
            "refutation",
            "heuristic=dom-wdeg",
            "heuristic=domain-then-wdeg",
            "bottom=9",
            "bottom=12,bottom-order=static",
            "bottom=100%,bottom-order=row",
        ];
        for p in &puzzles {
            let pr = ir::to_problem(p);
            for spec in specs {
                let cfg = CpConfig::parse(spec).unwrap();
                let want = boards(&mut CpEngine::new(p, &pr, cfg.clone()), p, &pr);
                for threads in [2, 3] {
                    let mut e = CpEngine::new(p, &pr, cfg.clone()).with_threads(threads);
                    let got = boards(&mut e, p, &pr);
                    assert_eq!(got, want, "{} --cp {spec} --threads {threads}", p.name);
                    let counters = e.counters();
                    assert!(counters.contains(&("threads", threads as u64)), "{counters:?}");
                }
            }
        }
    }

    #[test]
    fn limits_stop_every_worker() {
        let p = brendan("05x04");
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::default()).with_threads(2);
        let r = run(&mut e, &p, &pr, Mode::Count, Limits::solutions(10));
        assert_eq!(r.found, 10);
        let r = run(&mut e, &p, &pr, Mode::Count, Limits { max_nodes: Some(2000), ..Limits::default() });
        assert!(r.hit_limit() && r.found < 1648, "{:?}", r.stats);
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let r = run(&mut e, &p, &pr, Mode::Count, Limits { cancel: Some(cancel), ..Limits::default() });
        assert!(r.hit_limit() && r.found < 1648, "{:?}", r.stats);
        // The engine can run again after a stop.
        assert_eq!(run(&mut e, &p, &pr, Mode::Count, Limits::none()).found, 1648);
    }
}
