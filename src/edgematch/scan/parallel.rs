//! `--threads N` for the scan backtracker. The placements of the first
//! `d` cells (the smallest `d` giving at least 24 tasks per thread) are
//! enumerated on the calling thread; each surviving prefix is a task,
//! which a worker searches below with [`Scan::walk`] without ever undoing
//! it. The tasks partition the tree, so the boards are the sequential
//! ones, and since the prefix pass counts every placement above `d` and
//! the workers every one below, so is the node count.

use super::{CellState, Scan};
use crate::ir::OptionId;
use crate::search::pool::{run_tasks, Share};
use crate::search::{Flow, Limits, SearchStats};

/// Tasks wanted per worker thread, so that uneven subtrees even out.
const TASKS_PER_THREAD: usize = 24;

impl Scan {
    /// [`Scan::search`] with `self.threads` workers, under `limits`
    /// without a solution limit (the caller's reporter counts); `hold`:
    /// solutions may reach `visit` in batches (no solution limit waits on
    /// them, see [`crate::search::pool::Outbox`]).
    pub(super) fn search_parallel(
        &self,
        limits: &Limits,
        hold: bool,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        let n = self.rows * self.cols;
        let want = TASKS_PER_THREAD * self.threads;
        let mut depth = 1;
        let (tasks, head_nodes) = loop {
            let (tasks, nodes) = self.prefixes(depth);
            if tasks.len() >= want || tasks.is_empty() || depth + 2 >= n {
                break (tasks, nodes);
            }
            depth += 1;
        };
        let share = Share::new(head_nodes);
        let work = |(table, prefix): &(usize, Vec<u32>), send: &mut crate::search::pool::Send<'_>| {
            // Tasks can be shorter than the poll interval: check first.
            if let Some(stop) = share.poll(limits, 0) {
                return (SearchStats::default(), Some(stop));
            }
            let mut reported = 0;
            let mut poll = |nodes: u64| {
                let stop = share.poll(limits, nodes - reported);
                reported = nodes;
                stop
            };
            let stats = self.walk(&self.tables[*table], prefix, &mut poll, &mut |ids| send(ids.to_vec()));
            share.add_nodes(stats.nodes - reported);
            let stopped = stats.stopped;
            (stats, stopped)
        };
        let (results, stopped) = run_tasks(self.threads, &tasks, &share, &work, hold, visit);
        let mut stats = SearchStats { nodes: head_nodes, stopped, ..SearchStats::default() };
        stats.nodes += results.iter().map(|s| s.nodes).sum::<u64>();
        stats
    }

    /// The placements of the first `depth` cells that the search of each
    /// table would make (free tiles fitting their cells), as (table,
    /// candidate indices), and the number of placements made at those
    /// cells (nodes) on the way.
    fn prefixes(&self, depth: usize) -> (Vec<(usize, Vec<u32>)>, u64) {
        let n = self.rows * self.cols;
        let (mut tasks, mut nodes) = (Vec::new(), 0);
        for (t, table) in self.tables.iter().enumerate() {
            let mut walk = PrefixWalk {
                scan: self,
                table,
                depth,
                state: vec![CellState::default(); n + 1],
                used: vec![0u64; self.tiles.div_ceil(64)],
                path: Vec::with_capacity(depth),
                tasks: Vec::new(),
                nodes: 0,
            };
            walk.extend(0);
            tasks.extend(walk.tasks.into_iter().map(|prefix| (t, prefix)));
            nodes += walk.nodes;
        }
        (tasks, nodes)
    }
}

/// The depth-first enumeration of [`Scan::prefixes`].
struct PrefixWalk<'a> {
    scan: &'a Scan,
    table: &'a super::Table,
    depth: usize,
    state: Vec<CellState>,
    used: Vec<u64>,
    path: Vec<u32>,
    tasks: Vec<Vec<u32>>,
    nodes: u64,
}

impl PrefixWalk<'_> {
    fn extend(&mut self, p: usize) {
        let s = self.scan;
        let info = s.cells[p];
        let k = (info.base + self.state[info.west as usize].east_key + self.state[info.north as usize].south) as usize;
        for i in self.table.start[k]..self.table.start[k + 1] {
            let c = self.table.cands[i as usize];
            let (word, bit) = ((c.tile >> 6) as usize, 1u64 << (c.tile & 63));
            if self.used[word] & bit != 0 {
                continue;
            }
            self.nodes += 1;
            self.path.push(i);
            if p + 1 == self.depth {
                self.tasks.push(self.path.clone());
            } else {
                self.used[word] |= bit;
                self.state[p] = CellState { cur: i + 1, end: i + 1, east_key: c.east_key, south: c.south as u32 };
                self.extend(p + 1);
                self.used[word] &= !bit;
            }
            self.path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Scan;
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    use crate::edgematch::ir::{board_of, to_problem};
    use crate::edgematch::{brendan_set2, EdgePuzzle};
    use crate::ir::{verify, OptionId, Solution};
    use crate::search::{Engine, Flow, Limits, SearchStats, StopReason};

    /// Every board (sorted option ids, each verified on the IR and the
    /// board) and the run's statistics.
    fn boards(p: &EdgePuzzle, threads: usize, limits: &Limits) -> (Vec<Vec<OptionId>>, SearchStats) {
        let problem = to_problem(p);
        let mut scan = Scan::new(p, &problem).unwrap().with_threads(threads);
        let mut out = Vec::new();
        let stats = scan.run(limits, &mut |s| {
            verify(&problem, &Solution { options: s.to_vec() }).unwrap();
            board_of(p, &problem, s).check_solution(p).unwrap();
            let mut v = s.to_vec();
            v.sort_unstable();
            out.push(v);
            Flow::Continue
        });
        assert_eq!(stats.solutions as usize, out.len());
        out.sort();
        (out, stats)
    }

    #[test]
    fn threads_find_the_same_boards_and_nodes_as_one() {
        let mut puzzles: Vec<EdgePuzzle> = ["04x04", "05x04", "05x05", "06x04", "07x03"].map(brendan_set2).into();
        for seed in 1..=2 {
            let spec = GenerateSpec { rows: 5, cols: 6, style: Style::Uniform { colors: 4 }, seed };
            puzzles.push(generate(&spec).unwrap().puzzle);
        }
        for p in &puzzles {
            let (want, one) = boards(p, 1, &Limits::none());
            assert!(!want.is_empty() && one.complete(), "{}", p.name);
            for threads in [2, 3] {
                let (got, many) = boards(p, threads, &Limits::none());
                assert!(many.complete(), "{} --threads {threads}", p.name);
                assert_eq!(got, want, "{} --threads {threads}", p.name);
                assert_eq!(many.nodes, one.nodes, "{} --threads {threads}", p.name);
            }
        }
    }

    #[test]
    fn limits_stop_every_worker() {
        let p = brendan_set2("05x04");
        let (all, _) = boards(&p, 1, &Limits::none());
        assert_eq!(all.len(), 1648);
        let (some, stats) = boards(&p, 2, &Limits::solutions(10));
        assert_eq!((some.len(), stats.stopped), (10, Some(StopReason::SolutionLimit)));
        let (_, stats) = boards(&p, 2, &Limits { max_nodes: Some(2000), ..Limits::default() });
        assert_eq!(stats.stopped, Some(StopReason::NodeLimit));
        assert!(stats.solutions < 1648);
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (_, stats) = boards(&p, 2, &Limits { cancel: Some(cancel), ..Limits::default() });
        assert_eq!(stats.stopped, Some(StopReason::Interrupted));
        // A visitor's stop ends the run.
        let problem = to_problem(&p);
        let mut scan = Scan::new(&p, &problem).unwrap().with_threads(2);
        let mut seen = 0;
        let stats = scan.run(&Limits::none(), &mut |_| {
            seen += 1;
            if seen == 5 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        assert_eq!((seen, stats.stopped), (5, Some(StopReason::Visitor)));
    }
}
