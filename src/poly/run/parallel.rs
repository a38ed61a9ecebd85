//! Sequential and parallel runs of a polycube search's walk
//! ([`crate::poly::walk`]).
//!
//! Parallel search splits the tree at a shallow depth: one pass enumerates
//! the nodes at depth `d` (the smallest depth giving enough tasks per
//! thread), then worker threads take the nodes one at a time
//! ([`crate::search::pool::each_task`]) and search below each, replaying the
//! path to it by sibling index. Each worker thread keeps one walker (its own
//! copy of the DLX matrix) from task to task, restarted at the root for each.
//! Solutions travel to the calling thread over a channel, in batches
//! ([`crate::search::pool::Outbox`]), so the caller's visitor (verification,
//! `--unique`) runs on one thread.

use crate::poly::model::bits::Bits;
use crate::poly::stages::debruijn::memo::DeadStates;
use crate::poly::walk::{Shared, Stop, Task, Walk, Walker};
use crate::search::pool::{deliver, each_task, outboxes, take_outbox, Batch, Outbox};
use crate::search::{Flow, Limits, StopReason};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Placements.
    pub nodes: u64,
    /// Solutions found by the search (before any expansion).
    pub solutions: u64,
    /// Why it stopped early.
    pub stopped: Option<StopReason>,
    /// Split depth used (parallel runs).
    pub split_depth: Option<usize>,
    /// Number of tasks (parallel runs).
    pub tasks: usize,
}

fn stop_reason(r: Result<(), Stop>) -> Option<StopReason> {
    match r {
        Ok(()) | Err(Stop::TrialEnd) => None,
        Err(Stop::Limit(reason)) => Some(reason),
    }
}

/// Searches on the calling thread.
pub fn sequential<B: Bits>(shared: &Shared<B>, limits: &Limits, visit: &mut dyn FnMut(&[u32]) -> Flow) -> Outcome {
    let mut w = shared.walker(limits, Walk::All);
    let r = w.run(visit);
    Outcome { nodes: w.nodes, solutions: w.solutions, stopped: stop_reason(r), ..Outcome::default() }
}

/// Enumerates the nodes at `depth` (solutions met above it go to `visit`).
/// With `standalone`, every node is a subproblem that stands alone (its
/// placements say everything): DLX then never branches on a group with
/// copies left above `depth`, since the rows such a branch excludes would
/// not be part of the subproblem (a file written by `emx split` cannot say
/// them). Without it, the nodes are replayed by [`Walk::Guided`] walkers,
/// which repeat the exclusions.
pub fn collect<B: Bits>(
    shared: &Shared<B>,
    depth: usize,
    standalone: bool,
    limits: &Limits,
    visit: &mut dyn FnMut(&[u32]) -> Flow,
) -> (Vec<Task>, Outcome) {
    let mut w = shared.walker(limits, Walk::Collect { depth, out: Vec::new() });
    if standalone {
        w.cell_branch_above = depth;
    }
    let r = w.run(visit);
    let out = Outcome { nodes: w.nodes, solutions: w.solutions, stopped: stop_reason(r), ..Outcome::default() };
    let Walk::Collect { out: tasks, .. } = std::mem::replace(&mut w.walk, Walk::All) else { unreachable!() };
    (tasks, out)
}

/// A walker for the task at `branch`: `old` restarted if a worker has one,
/// else a new one.
fn reuse<'s, B: Bits>(
    shared: &'s Shared<B>,
    limits: &'s Limits,
    old: Option<Walker<'s, B>>,
    branch: &[u32],
) -> Walker<'s, B> {
    let walk = Walk::Guided(branch.to_vec());
    match old {
        Some(mut w) => {
            w.restart(walk);
            w
        }
        None => shared.walker(limits, walk),
    }
}

/// What a worker thread keeps from task to task: its outbox, its de Bruijn
/// dead-state cache and its walker.
///
/// A state's subtree is the same in any task, so the cache stays valid from
/// task to task; its clones share one table when it has one-word slots,
/// so a worker cuts the dead states the others found (the hit-rate check
/// stays per worker). The walker is restarted at the root for each task:
/// a fresh one would copy the DLX matrix and its buffers for every task, a
/// large part of a short parallel run's work (docs/tried/poly.md, "Set-up,
/// solutions, threads, DLX", one walker per worker).
struct Own<'s, B> {
    outbox: Outbox,
    dead: DeadStates<B>,
    walker: Option<Walker<'s, B>>,
}

/// Searches with `threads` worker threads.
pub fn parallel<B: Bits>(
    shared: &Shared<B>,
    threads: usize,
    limits: &Limits,
    visit: &mut dyn FnMut(&[u32]) -> Flow,
) -> Outcome {
    let n_pieces = shared.n_pieces() as usize;
    // Shallowest depth with enough tasks to balance the load.
    let want = 24 * threads;
    let mut depth = 1;
    let mut pre: Vec<Vec<u32>> = Vec::new();
    let (tasks, head) = loop {
        pre.clear();
        let (tasks, head) = collect(shared, depth, false, limits, &mut |p| {
            pre.push(p.to_vec());
            Flow::Continue
        });
        if tasks.len() >= want || depth + 1 >= n_pieces || head.stopped.is_some() {
            break (tasks, head);
        }
        depth += 1;
    };
    let mut outcome = Outcome { split_depth: Some(depth), tasks: tasks.len(), ..head };
    for p in &pre {
        if visit(p) == Flow::Stop {
            outcome.stopped = Some(StopReason::Visitor);
            return outcome;
        }
    }
    if outcome.stopped.is_some() {
        return outcome;
    }
    let nodes = AtomicU64::new(outcome.nodes);
    let polled = AtomicU64::new(outcome.nodes);
    let found = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let reason: Mutex<Option<StopReason>> = Mutex::new(None);
    let (tx, rx) = mpsc::sync_channel::<Batch>(4096);
    // No solution limit waits on each solution: they may travel in batches.
    let boxes = outboxes(tx, threads, limits.max_solutions.is_none());
    let first = shared.dead_states();
    each_task(
        threads,
        &tasks,
        &|| abort.load(Ordering::Relaxed),
        &|w| Own { outbox: take_outbox(&boxes, w), dead: first.clone(), walker: None },
        &|own: &mut Own<'_, B>, task| {
            let mut w = reuse(shared, limits, own.walker.take(), &task.branch);
            w.debruijn.dead = std::mem::take(&mut own.dead);
            w.count_from = depth;
            w.poll.shared_nodes = Some(&polled);
            w.poll.abort = Some(&abort);
            let outbox = &mut own.outbox;
            let r = w.run(&mut |p| outbox.send(p.to_vec()));
            own.dead = std::mem::take(&mut w.debruijn.dead);
            nodes.fetch_add(w.nodes, Ordering::Relaxed);
            found.fetch_add(w.solutions, Ordering::Relaxed);
            // A stopped run may leave the walker below the root.
            if r.is_ok() {
                own.walker = Some(w);
            }
            if let Some(r) = stop_reason(r) {
                if r != StopReason::Interrupted || !abort.load(Ordering::Relaxed) {
                    reason.lock().expect("no poisoning").get_or_insert(r);
                }
                abort.store(true, Ordering::Relaxed);
            }
        },
        || {
            deliver(rx, visit, &mut || {
                reason.lock().expect("no poisoning").get_or_insert(StopReason::Visitor);
                abort.store(true, Ordering::Relaxed);
            });
        },
    );
    outcome.nodes = nodes.load(Ordering::Relaxed);
    outcome.solutions += found.load(Ordering::Relaxed);
    outcome.stopped = reason.into_inner().expect("no poisoning");
    outcome
}

#[cfg(test)]
mod tests {
    use crate::poly::model::{CellOrder, Images};
    use crate::poly::plan::schedule::Schedule;
    use crate::poly::run::parallel::*;
    use crate::poly::walk::Knobs;

    fn shared(file: &str, schedule: &str, knobs: Knobs) -> Shared<u64> {
        let text = std::fs::read_to_string(format!("instances/polycube/{file}")).unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, CellOrder::default()).unwrap();
        Shared::new(images, &Schedule::parse(schedule).unwrap(), knobs).unwrap()
    }

    /// One walker restarted from task to task searches each task as a
    /// fresh walker does (same nodes, same solutions in the same order) and
    /// is back at the root after each: the proof that a worker may keep
    /// its walker. The cases cover DLX with the image filters (hidden
    /// rows), identical pieces (excluded rows, `lo`) and every bit-field
    /// kernel.
    #[test]
    fn a_restarted_walker_searches_each_task_as_a_fresh_one() {
        let volume = Knobs { volume_filter: Some(9), volume_trigger: Some(6), ..Knobs::default() };
        let parity = Knobs { parity_filter: Some(5), parity_trigger: Some(4), ..Knobs::default() };
        let cases = [
            ("pentominoes_20x3_def.txt", "dlx:min-fit,debruijn@9", volume.clone(), 2),
            ("pentominoes_20x3_def.txt", "dlx:min-fit@11,mch@9,emch@6,debruijn@3", Knobs::default(), 2),
            ("pentominoes_20x3_def.txt", "dlx:min-fit,bdlx@10", Knobs::default(), 2),
            ("slothouber_graatsma_def.txt", "dlx:min-fit,bdlx@4", parity.clone(), 2),
            ("slothouber_graatsma_def.txt", "dlx:min-fit,debruijn@5", parity, 3),
            ("somacube_def.txt", "dlx:min-fit,mch@5,debruijn@3", Knobs::default(), 2),
        ];
        let limits = Limits::none();
        for (file, schedule, knobs, depth) in cases {
            let s = shared(file, schedule, knobs);
            let (tasks, _) = collect(&s, depth, false, &limits, &mut |_| Flow::Continue);
            assert!(tasks.len() > 4, "{file} {schedule}: {} tasks", tasks.len());
            let mut kept: Option<Walker<u64>> = None;
            for task in &tasks {
                let mut fresh = s.walker(&limits, Walk::Guided(task.branch.clone()));
                let mut w = reuse(&s, &limits, kept.take(), &task.branch);
                // A worker carries its dead-state cache from task to task on
                // purpose; here the reused walker gets an empty one of the
                // puzzle's layout, as the fresh walker has (a two-word cache
                // instead would cut other states and change the nodes).
                w.debruijn.dead = s.dead_states();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for (w, out) in [(&mut fresh, &mut a), (&mut w, &mut b)] {
                    w.count_from = depth;
                    w.run(&mut |p| {
                        out.push(p.to_vec());
                        Flow::Continue
                    })
                    .unwrap();
                }
                assert_eq!((w.nodes, w.solutions, &b), (fresh.nodes, fresh.solutions, &a), "{file} {schedule}");
                assert!(w.at_root(), "{file} {schedule}: task {:?}", task.branch);
                kept = Some(w);
            }
        }
    }
}
