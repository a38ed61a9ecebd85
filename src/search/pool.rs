//! What the engines' parallel runs (`--threads N`) share: worker threads
//! taking independent tasks (subtrees cut at a shallow depth) one at a
//! time from a queue ([`each_task`]),
//! solutions carried to the calling thread over a channel so that the
//! caller's visitor (verification, `--unique`, output) runs on one thread,
//! and one node count and one abort flag for every worker: a node, time or
//! solution limit, an interruption or a visitor's stop ends every worker
//! at its next poll.
//!
//! Solutions travel in batches ([`Outbox`]): the calling thread is a third
//! thread beside the workers, and waking it for each solution costs a
//! context switch each way per solution and much system time on a puzzle
//! with many solutions, with the workers preempted by it when they hold
//! every core (docs/tried/poly.md, "Set-up, solutions, threads, DLX",
//! solutions sent in batches).

use super::{Flow, Limits, StopReason};
use crate::ir::OptionId;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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
/// the next `send`, and the rest leave when the outbox is dropped (at the
/// end of its worker) or flushed. With `hold` off (the caller stops at a
/// solution limit and waits on each solution) every solution is sent at
/// once.
///
/// A worker keeps one outbox from task to task: flushing it at the end of
/// every task would wake the calling thread about once per task, each
/// time preempting a worker when the workers hold every core
/// (docs/tried/poly.md, "Set-up, solutions, threads, DLX", tasks from one
/// atomic counter, outbox kept across tasks).
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
            || self.last.is_none_or(|t| t.elapsed() >= Outbox::HOLD_FOR);
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

/// The held solutions leave with the outbox.
impl Drop for Outbox {
    fn drop(&mut self) {
        // A caller that stopped listening wants nothing more.
        let _ = self.flush();
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

/// Runs `work(state, task)` for every task on `threads` scoped worker
/// threads, handing the tasks out one at a time in their order from one
/// atomic counter, while `main()` runs on the calling thread; returns when
/// `main` has returned and every worker is done. Worker `w` (in
/// `0..threads`) makes its `state` with `init(w)` on its own thread and
/// drops it when no task is left, so that a channel sender it holds
/// closes then. `stop()` is asked before each task: once it says so, the
/// tasks not yet started are skipped.
///
/// One task at a time keeps the workers busy to the end. Rayon's
/// `par_iter` cuts the tasks into a few runs, each searched in sequence:
/// a worker whose runs are done sits idle while another searches a run
/// holding one of the large tasks, a sizeable part of a short parallel
/// phase (docs/tried/poly.md, "Set-up, solutions, threads, DLX", tasks
/// from one atomic counter). Here a worker that finishes a task takes the
/// next one, so the workers end at most one task apart.
pub fn each_task<T: Sync, S>(
    threads: usize,
    tasks: &[T],
    stop: &(dyn Fn() -> bool + Sync),
    init: &(dyn Fn(usize) -> S + Sync),
    work: &(dyn Fn(&mut S, &T) + Sync),
    main: impl FnOnce(),
) {
    let next = AtomicUsize::new(0);
    let take = || {
        let i = next.fetch_add(1, Ordering::Relaxed);
        tasks.get(i).filter(|_| !stop())
    };
    std::thread::scope(|scope| {
        for worker in 0..threads.max(1) {
            let take = &take;
            scope.spawn(move || {
                let mut state = init(worker);
                while let Some(task) = take() {
                    work(&mut state, task);
                }
            });
        }
        main();
    });
}

/// Runs `work` on every task on `threads` worker threads, one task at a
/// time from a queue as [`each_task`] does, each worker folding its tasks
/// into a state of its own made by `init` and turned by `finish` into what
/// it returns; the results come in no particular order. A panic in a
/// worker is raised again on the calling thread. With one thread the tasks
/// run on the calling thread, in order.
pub fn fold_tasks<T: std::marker::Send, S, R: std::marker::Send>(
    threads: usize,
    tasks: Vec<T>,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, T) + Sync,
    finish: impl Fn(S) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || tasks.len() <= 1 {
        let mut state = init();
        for t in tasks {
            work(&mut state, t);
        }
        return vec![finish(state)];
    }
    let slots: Vec<Mutex<Option<T>>> = tasks.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let take = || {
        let i = next.fetch_add(1, Ordering::Relaxed);
        slots.get(i).map(|slot| slot.lock().expect("no poisoning").take().expect("each task is taken once"))
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(slots.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut state = init();
                    while let Some(t) = take() {
                        work(&mut state, t);
                    }
                    finish(state)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

/// One outbox per worker on `tx` (`hold` as [`Outbox::new`] takes it),
/// each taken once by its worker with [`take_outbox`]; `tx` itself is
/// dropped here, so the channel closes when the last worker's outbox goes.
pub fn outboxes(tx: mpsc::SyncSender<Batch>, threads: usize, hold: bool) -> Vec<Mutex<Option<Outbox>>> {
    (0..threads.max(1)).map(|_| Mutex::new(Some(Outbox::new(tx.clone(), hold)))).collect()
}

/// Worker `w`'s outbox from [`outboxes`].
///
/// # Panics
/// When worker `w` took it already.
pub fn take_outbox(outboxes: &[Mutex<Option<Outbox>>], w: usize) -> Outbox {
    outboxes[w].lock().expect("no poisoning").take().expect("each worker takes its outbox once")
}

/// Runs `work(task, send)` for every task on `threads` worker threads
/// ([`each_task`]) sharing `share`. `send` carries a solution to the
/// calling thread (in batches when `hold`, see [`Outbox`]), which hands it
/// to `emit`; a `Flow::Stop` from `emit` aborts the run. A worker
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
    let results: Mutex<Vec<R>> = Mutex::new(Vec::new());
    let reason: Mutex<Option<StopReason>> = Mutex::new(None);
    let (tx, rx) = mpsc::sync_channel::<Batch>(4096);
    let boxes = outboxes(tx, threads, hold);
    each_task(
        threads,
        tasks,
        &|| share.aborted(),
        &|w| take_outbox(&boxes, w),
        &|outbox, task| {
            let (r, stop) = work(task, &mut |ids| outbox.send(ids));
            results.lock().expect("no poisoning").push(r);
            if let Some(stop) = stop {
                if share.abort() {
                    reason.lock().expect("no poisoning").get_or_insert(stop);
                }
            }
        },
        || {
            deliver(rx, emit, &mut || {
                reason.lock().expect("no poisoning").get_or_insert(StopReason::Visitor);
                share.abort();
            });
        },
    );
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
    fn a_dropped_outbox_sends_what_it_held() {
        let (tx, rx) = mpsc::sync_channel::<Batch>(16);
        let mut outbox = Outbox::new(tx, true);
        assert_eq!(outbox.send(solution(0)), Flow::Continue); // the first leaves at once
        assert_eq!(outbox.send(solution(1)), Flow::Continue); // held
        assert_eq!(outbox.send(solution(2)), Flow::Continue); // held
        drop(outbox);
        let all: Vec<Vec<OptionId>> = rx.iter().flatten().collect();
        assert_eq!(all, vec![solution(0), solution(1), solution(2)]);
    }

    #[test]
    fn each_task_runs_every_task_once_on_every_worker_it_starts() {
        for threads in [1, 2, 3, 8] {
            let tasks: Vec<u64> = (0..500).collect();
            let done: Vec<AtomicU64> = (0..500).map(|_| AtomicU64::new(0)).collect();
            let inits = AtomicU64::new(0);
            let mut main_ran = 0;
            each_task(
                threads,
                &tasks,
                &|| false,
                &|w| {
                    assert!(w < threads);
                    inits.fetch_add(1, Ordering::Relaxed);
                    w
                },
                &|_, &t| {
                    done[t as usize].fetch_add(1, Ordering::Relaxed);
                },
                || main_ran += 1,
            );
            assert_eq!(main_ran, 1);
            assert_eq!(inits.load(Ordering::Relaxed), threads as u64);
            assert!(done.iter().all(|d| d.load(Ordering::Relaxed) == 1), "{threads} threads");
        }
    }

    #[test]
    fn fold_tasks_runs_every_task_once() {
        for threads in [1, 2, 3] {
            let sums = fold_tasks(threads, (1..=100u64).collect(), || 0u64, |s, t| *s += t, |s| s);
            assert_eq!(sums.iter().sum::<u64>(), 5050, "{threads} threads");
            assert!(sums.len() <= threads.max(1));
        }
        assert_eq!(fold_tasks(2, Vec::<u64>::new(), || 7u64, |_, _| {}, |s| s), vec![7]);
    }

    #[test]
    fn each_task_skips_the_tasks_after_a_stop() {
        let tasks: Vec<u64> = (0..1000).collect();
        let started = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        each_task(
            2,
            &tasks,
            &|| stop.load(Ordering::Relaxed),
            &|_| (),
            &|_, &t| {
                started.fetch_add(1, Ordering::Relaxed);
                if t == 10 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
            || {},
        );
        // Task 10 stops the run; each worker may have taken one more task
        // before it saw the flag.
        let n = started.load(Ordering::Relaxed);
        assert!((11..=13).contains(&n), "{n} tasks started");
    }

    #[test]
    fn run_tasks_delivers_every_solution_and_closes_the_channel() {
        // Each task sends `t` solutions, held in the workers' outboxes
        // across tasks: all of them arrive, and `run_tasks` returns (the
        // channel closes once the last worker is done).
        let tasks: Vec<u32> = (0..60).collect();
        for (threads, hold) in [(1, true), (2, true), (2, false), (4, true)] {
            let share = Share::new(0);
            let work = |&t: &u32, send: &mut Send<'_>| {
                for i in 0..t {
                    assert_eq!(send(vec![t, i]), Flow::Continue);
                }
                (t as u64, None)
            };
            let mut seen = Vec::new();
            let (results, stopped) = run_tasks(threads, &tasks, &share, &work, hold, &mut |ids| {
                seen.push(ids.to_vec());
                Flow::Continue
            });
            seen.sort();
            let want: Vec<Vec<u32>> = (0..60).flat_map(|t| (0..t).map(move |i| vec![t, i])).collect();
            assert_eq!(seen, want, "{threads} threads, hold {hold}");
            assert_eq!(results.iter().sum::<u64>(), (0..60).sum::<u64>());
            assert_eq!(stopped, None);
        }
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
