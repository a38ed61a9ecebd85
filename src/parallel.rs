//! What the engines' parallel runs (`--threads N`) share: a rayon pool
//! working through independent tasks (subtrees cut at a shallow depth),
//! solutions carried to the calling thread over a channel so that the
//! caller's visitor (verification, `--unique`, output) runs on one thread,
//! and one node count and one abort flag for every worker: a node, time or
//! solution limit, an interruption or a visitor's stop ends every worker
//! at its next poll.
//!
//! Solutions travel in batches ([`Outbox`]): the calling thread is a third
//! thread beside the workers, and waking it for each solution cost the
//! Tetris Cube's two-thread run (9 839 solutions) about 11 800 context
//! switches each way and 0.2 s of system time, with the workers preempted
//! by it on two cores.

use crate::ir::OptionId;
use crate::search::{Flow, Limits, StopReason};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Solutions on their way from a worker to the calling thread.
pub type Batch = Vec<Vec<OptionId>>;

/// A worker's outgoing solutions, held back and sent in batches so that the
/// calling thread wakes once per batch rather than once per solution.
///
/// Invariant: every solution given to [`Outbox::send`] is either held or
/// was sent; held solutions are never older than [`Outbox::HOLD_FOR`] at
/// the next `send`, and [`Outbox::flush`] (at the end of each task) sends
/// the rest. With `hold` off (the caller stops at a solution limit and
/// waits on each solution) every solution is sent at once.
pub struct Outbox {
    tx: mpsc::SyncSender<Batch>,
    held: Batch,
    /// When the last batch left; `None` before the first, so a worker's
    /// first solution is never held.
    last: Option<Instant>,
    hold: bool,
}

impl Outbox {
    /// The most solutions held back.
    pub const MAX_HELD: usize = 256;
    /// The longest a solution is held while more arrive.
    pub const HOLD_FOR: Duration = Duration::from_millis(10);

    /// An outbox sending on `tx`; `hold` allows batches.
    pub fn new(tx: mpsc::SyncSender<Batch>, hold: bool) -> Outbox {
        Outbox { tx, held: Vec::new(), last: None, hold }
    }

    /// Queues one solution; `Flow::Stop` once the caller no longer listens.
    pub fn send(&mut self, ids: Vec<OptionId>) -> Flow {
        self.held.push(ids);
        let due = !self.hold
            || self.held.len() >= Outbox::MAX_HELD
            || self.last.map_or(true, |t| t.elapsed() >= Outbox::HOLD_FOR);
        if due {
            self.flush()
        } else {
            Flow::Continue
        }
    }

    /// Sends every held solution.
    pub fn flush(&mut self) -> Flow {
        if self.held.is_empty() {
            return Flow::Continue;
        }
        self.last = Some(Instant::now());
        if self.tx.send(std::mem::take(&mut self.held)).is_err() {
            return Flow::Stop;
        }
        Flow::Continue
    }
}

/// A clone is a new, empty outbox on the same channel (rayon's
/// `for_each_with` makes one per job): it never copies held solutions,
/// which would then be sent twice.
impl Clone for Outbox {
    fn clone(&self) -> Outbox {
        Outbox::new(self.tx.clone(), self.hold)
    }
}

/// The calling thread's side: hands every solution of every batch to
/// `emit` until it stops the run, then calls `stop` once (which aborts the
/// workers) and drops what still arrives, draining the channel until every
/// worker is done. Batches that arrive after a limit or an interruption
/// aborted the workers are still emitted: they hold solutions found
/// before the stop.
pub fn deliver(rx: mpsc::Receiver<Batch>, emit: &mut dyn FnMut(&[OptionId]) -> Flow, stop: &mut dyn FnMut()) {
    let mut stopped = false;
    for batch in rx.iter() {
        for ids in &batch {
            if stopped {
                break;
            }
            if emit(ids) == Flow::Stop {
                stop();
                stopped = true;
            }
        }
    }
}

/// A solution's sender inside a worker: `Flow::Stop` once the caller no
/// longer listens.
pub type Send<'a> = dyn FnMut(Vec<OptionId>) -> Flow + 'a;

/// A worker's job: searches one task, sending its solutions; returns what
/// it counted and why it stopped, if it did.
pub type Work<'a, T, R> = dyn Fn(&T, &mut Send<'_>) -> (R, Option<StopReason>) + Sync + 'a;

/// Runs `work(task, send)` for every task on `threads` rayon workers
/// sharing `share`. `send` carries a solution to the calling thread (in
/// batches when `hold`, see [`Outbox`]), which hands it to `emit`; a
/// `Flow::Stop` from `emit` aborts the run. A worker
/// returns what it counted and why it stopped, if it did: the first reason
/// becomes the run's (workers stopped by the abort report none). Tasks not
/// started when the run is aborted are skipped. Returns the workers'
/// results (in no particular order) and the run's stop reason.
pub fn run_tasks<T: Sync, R: std::marker::Send>(
    threads: usize,
    tasks: &[T],
    share: &Arc<Share>,
    work: &Work<'_, T, R>,
    hold: bool,
    emit: &mut dyn FnMut(&[OptionId]) -> Flow,
) -> (Vec<R>, Option<StopReason>) {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(_) => rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread pool"),
    };
    let results: Mutex<Vec<R>> = Mutex::new(Vec::new());
    let reason: Mutex<Option<StopReason>> = Mutex::new(None);
    let (tx, rx) = mpsc::sync_channel::<Batch>(4096);
    std::thread::scope(|scope| {
        let (results, reason_ref) = (&results, &reason);
        scope.spawn(move || {
            pool.install(|| {
                tasks.par_iter().for_each_with(Outbox::new(tx, hold), |outbox, task| {
                    if share.aborted() {
                        return;
                    }
                    let (r, stop) = work(task, &mut |ids| outbox.send(ids));
                    outbox.flush();
                    results.lock().expect("no poisoning").push(r);
                    if let Some(stop) = stop {
                        if share.abort() {
                            reason_ref.lock().expect("no poisoning").get_or_insert(stop);
                        }
                    }
                });
            });
        });
        deliver(rx, emit, &mut || {
            reason_ref.lock().expect("no poisoning").get_or_insert(StopReason::Visitor);
            share.abort();
        });
    });
    (results.into_inner().expect("no poisoning"), reason.into_inner().expect("no poisoning"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(i: u32) -> Vec<OptionId> {
        vec![i, i + 1]
    }

    #[test]
    fn outbox_sends_every_solution_in_order_and_fewer_batches_when_holding() {
        for hold in [false, true] {
            let (tx, rx) = mpsc::sync_channel::<Batch>(4096);
            let mut outbox = Outbox::new(tx, hold);
            let n = 3 * Outbox::MAX_HELD as u32 + 7;
            for i in 0..n {
                assert_eq!(outbox.send(solution(i)), Flow::Continue);
            }
            assert_eq!(outbox.flush(), Flow::Continue);
            drop(outbox);
            let batches: Vec<Batch> = rx.iter().collect();
            let all: Vec<Vec<OptionId>> = batches.iter().flatten().cloned().collect();
            assert_eq!(all, (0..n).map(solution).collect::<Vec<_>>());
            assert!(batches.iter().all(|b| !b.is_empty() && b.len() <= Outbox::MAX_HELD));
            if hold {
                // The first solution leaves at once; the rest wait for a
                // full batch, the hold time or the flush.
                assert_eq!(batches[0].len(), 1);
                assert!(batches.len() < n as usize / 2, "{} batches for {n} solutions", batches.len());
            } else {
                assert_eq!(batches.len(), n as usize);
            }
        }
    }

    #[test]
    fn a_cloned_outbox_holds_nothing_of_the_original() {
        let (tx, rx) = mpsc::sync_channel::<Batch>(16);
        let mut outbox = Outbox::new(tx, true);
        assert_eq!(outbox.send(solution(0)), Flow::Continue); // the first leaves at once
        assert_eq!(outbox.send(solution(1)), Flow::Continue); // held
        let mut copy = outbox.clone();
        assert_eq!(copy.flush(), Flow::Continue);
        assert_eq!(outbox.flush(), Flow::Continue);
        drop((outbox, copy));
        let all: Vec<Vec<OptionId>> = rx.iter().flatten().collect();
        assert_eq!(all, vec![solution(0), solution(1)]);
    }

    #[test]
    fn outbox_stops_when_nobody_listens() {
        let (tx, rx) = mpsc::sync_channel::<Batch>(4);
        drop(rx);
        let mut outbox = Outbox::new(tx, false);
        assert_eq!(outbox.send(solution(0)), Flow::Stop);
    }

    #[test]
    fn deliver_stops_once_and_drains_the_rest() {
        let (tx, rx) = mpsc::sync_channel::<Batch>(16);
        for b in 0..4u32 {
            tx.send((0..5).map(|i| solution(5 * b + i)).collect()).unwrap();
        }
        drop(tx);
        let mut seen = Vec::new();
        let mut stops = 0;
        deliver(
            rx,
            &mut |ids| {
                seen.push(ids[0]);
                if seen.len() == 7 {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            },
            &mut || stops += 1,
        );
        assert_eq!(seen, (0..7).collect::<Vec<_>>());
        assert_eq!(stops, 1);
    }
}
