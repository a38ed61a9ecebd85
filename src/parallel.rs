//! What the engines' parallel runs (`--threads N`) share: a rayon pool
//! working through independent tasks (subtrees cut at a shallow depth),
//! solutions carried to the calling thread over a channel so that the
//! caller's visitor (verification, `--unique`, output) runs on one thread,
//! and one node count and one abort flag for every worker: a node, time or
//! solution limit, an interruption or a visitor's stop ends every worker
//! at its next poll.

use crate::ir::OptionId;
use crate::search::{Flow, Limits, StopReason};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// The state the workers of one run share.
///
/// Invariant: `nodes` is the run's node count up to each worker's last
/// report (a worker reports at its polls and when its task ends); once
/// `abort` is set it stays set for the run.
#[derive(Debug, Default)]
pub struct Share {
    nodes: AtomicU64,
    abort: AtomicBool,
}

impl Share {
    /// A share whose count starts at `nodes` (the nodes searched before the
    /// tasks were handed out).
    pub fn new(nodes: u64) -> Arc<Share> {
        Arc::new(Share { nodes: AtomicU64::new(nodes), abort: AtomicBool::new(false) })
    }

    /// Adds a worker's `delta` new nodes and checks the limits against the
    /// run's total: `Interrupted` once the run is aborted.
    pub fn poll(&self, limits: &Limits, delta: u64) -> Option<StopReason> {
        if self.aborted() {
            return Some(StopReason::Interrupted);
        }
        let total = self.nodes.fetch_add(delta, Ordering::Relaxed) + delta;
        limits.poll(total)
    }

    /// Adds a worker's nodes without checking anything.
    pub fn add_nodes(&self, delta: u64) {
        self.nodes.fetch_add(delta, Ordering::Relaxed);
    }

    /// Whether the run was aborted.
    pub fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// Aborts the run; returns whether this call did it (first stop).
    fn abort(&self) -> bool {
        !self.abort.swap(true, Ordering::Relaxed)
    }
}

/// A solution's sender inside a worker: `Flow::Stop` once the caller no
/// longer listens.
pub type Send<'a> = dyn FnMut(Vec<OptionId>) -> Flow + 'a;

/// A worker's job: searches one task, sending its solutions; returns what
/// it counted and why it stopped, if it did.
pub type Work<'a, T, R> = dyn Fn(&T, &mut Send<'_>) -> (R, Option<StopReason>) + Sync + 'a;

/// Runs `work(task, send)` for every task on `threads` rayon workers
/// sharing `share`. `send` carries a solution to the calling thread, which
/// hands it to `emit`; a `Flow::Stop` from `emit` aborts the run. A worker
/// returns what it counted and why it stopped, if it did: the first reason
/// becomes the run's (workers stopped by the abort report none). Tasks not
/// started when the run is aborted are skipped. Returns the workers'
/// results (in no particular order) and the run's stop reason.
pub fn run_tasks<T: Sync, R: std::marker::Send>(
    threads: usize,
    tasks: &[T],
    share: &Arc<Share>,
    work: &Work<'_, T, R>,
    emit: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> (Vec<R>, Option<StopReason>) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(_) => rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool"),
    };
    let results: Mutex<Vec<R>> = Mutex::new(Vec::new());
    let reason: Mutex<Option<StopReason>> = Mutex::new(None);
    let (tx, rx) = mpsc::sync_channel::<Vec<OptionId>>(4096);
    std::thread::scope(|scope| {
        let (results, reason) = (&results, &reason);
        scope.spawn(move || {
            pool.install(|| {
                tasks.par_iter().for_each_with(tx, |tx, task| {
                    if share.aborted() {
                        return;
                    }
                    let mut send = |ids: Vec<OptionId>| if tx.send(ids).is_err() { Flow::Stop } else { Flow::Continue };
                    let (r, stop) = work(task, &mut send);
                    results.lock().expect("no poisoning").push(r);
                    if let Some(stop) = stop {
                        if share.abort() {
                            reason.lock().expect("no poisoning").get_or_insert(stop);
                        }
                    }
                });
            });
        });
        for ids in rx.iter() {
            if share.aborted() {
                continue;
            }
            if emit(&ids) == Flow::Stop {
                reason.lock().expect("no poisoning").get_or_insert(StopReason::Visitor);
                share.abort();
            }
        }
    });
    (results.into_inner().expect("no poisoning"), reason.into_inner().expect("no poisoning"))
}
