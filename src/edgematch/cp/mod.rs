//! The native CP engine for edge matching (`--backend cp`), after Benoist &
//! Bourreau, "Fast global filtering for eternity II" (2008).
//!
//! The model keeps the board and, for every clockwise colour sequence pair
//! and every opposite pair, a *ColorPair*: the available tiles showing the
//! pair (Offer) and the empty cells whose known sides require it (Demand),
//! as sparse sets with O(1) insertion and removal ([`state`]). There are no
//! per-cell domains. After each placement the rules of [`filter`] run
//! (contradiction, instantiation, preemption, shared-edge bound, border
//! cycles), then, by default, edge filtering over cell domains
//! ([`domains`]); the search ([`search`], [`dsearch`]) branches on a
//! near-forced cell, the places of a scarce tile, or the most urgent
//! ColorPair, backjumps on conflict explanations, and can shave small
//! candidate lists.
//!
//! Every component can be switched off ([`CpConfig`], `--cp`), for
//! ablation. Solutions are reported as option ids of
//! [`edgematch::ir::to_problem`](crate::edgematch::ir::to_problem)'s IR: a
//! tile's rotations that look the same in a cell are one option, and the
//! engine only ever tries one of them, so no board is reported twice.
//!
//! One import cycle is kept on purpose: `search.rs` (the searcher's state
//! and its node loop) and the three parts that extend it, `frontier.rs`
//! (the empty cells next to filled ones), `singles.rs` (placements forced
//! by singleton propagation) and `parallel.rs` (the tree cut into tasks),
//! import each other. The searcher holds each part's state, and each part
//! adds the methods that keep that state; the parts are separate files
//! because each is a component that `--cp` switches on or off, with its
//! own tests. The completion walker (`bottom.rs`) and its row sweep
//! (`sweep.rs`) share one walker type the same way.

mod bottom;
mod config;
mod domains;
mod dsearch;
mod dshave;
mod estimate;
mod filter;
mod frontier;
mod model;
mod parallel;
mod root;
mod search;
mod singles;
mod state;
mod sweep;
#[cfg(test)]
mod tests;

pub use config::BottomOrder;
pub use config::{Bottom, CpConfig, CpConfigError, Heuristic, COMPONENTS};
pub use estimate::CpEstimate;

use crate::edgematch::option_table::OptionTable;
use crate::edgematch::pivot::Pivot;
use crate::edgematch::scan::Scan;
use crate::edgematch::EdgePuzzle;
use crate::ir::{OptionId, Problem};
use crate::search::{Engine, Flow, Limits, Reporter, SearchStats};
use filter::Core;
use model::{Model, NONE};
use search::{Counters, Searcher};
use std::time::Instant;

/// The CP engine for one edge-matching puzzle.
pub struct CpEngine {
    searcher: Searcher,
    clues: Vec<(usize, usize, u8)>,
    options: OptionTable,
    /// Option maps of the board rotations used for symmetry breaking
    /// (empty when it is off or does not apply).
    images: Vec<Vec<OptionId>>,
    last: Counters,
    last_preempted: u64,
    /// Worker threads (1: search on the calling thread).
    threads: usize,
    /// Split depth and task count of the latest parallel run.
    last_split: Option<(usize, usize)>,
    /// The puzzle and options for the root walk on scan's kernel.
    kernel: root::RootKernel,
    /// The latest run's root decision: whether the root went to scan's
    /// walk, and (`bottom=auto`) the estimates it was decided on.
    last_root: (bool, Option<root::AutoEstimates>),
}

impl CpEngine {
    /// Builds the engine for `puzzle`, whose IR is `problem` (from
    /// [`to_problem`](crate::edgematch::ir::to_problem), with geometry).
    pub fn new(puzzle: &EdgePuzzle, problem: &Problem, config: CpConfig) -> CpEngine {
        let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
        let placements: Vec<(u32, u32, u8)> =
            geo.placements.iter().map(|p| (p.piece, p.cells[0], p.orientation as u8)).collect();
        let options = OptionTable::new(puzzle, &placements, &|cell| cell, 0);
        let clues = puzzle.clues.iter().map(|c| (puzzle.cell(c.row, c.col), c.tile, c.rotation)).collect();
        let mut model = Model::new(puzzle);
        let mut images = Vec::new();
        if config.symmetry {
            if let Some(pivot) = Pivot::find(puzzle, problem) {
                model.pivot = pivot.tile;
                model.pivot_allowed = pivot.allowed;
                images = pivot.images;
            }
        }
        let core = Core::new(model, config);
        CpEngine {
            searcher: Searcher::new(core),
            clues,
            options,
            images,
            last: Counters::default(),
            last_preempted: 0,
            threads: 1,
            last_split: None,
            kernel: root::RootKernel { puzzle: puzzle.clone(), placements },
            last_root: (false, None),
        }
    }

    /// Searches with `threads` worker threads (`--threads`; 0 and 1: on
    /// the calling thread). See [`parallel`].
    pub fn with_threads(mut self, threads: usize) -> CpEngine {
        self.threads = threads.max(1);
        self
    }

    /// The configuration.
    pub fn config(&self) -> &CpConfig {
        &self.searcher.core.cfg
    }

    /// Places the clues at level 0 and filters the root. `false` when the
    /// puzzle has no solution.
    fn root(&mut self) -> bool {
        let core = &mut self.searcher.core;
        for &(cell, tile, rot) in &self.clues {
            if core.st.cell_of[tile] != NONE
                || core.st.tile_at[cell] != NONE
                || !core.st.fits(&core.m, cell, tile, rot as usize)
            {
                return false;
            }
            core.st.assign(&core.m, cell, tile, rot, 0);
        }
        core.filter(NONE)
    }
}

impl CpEngine {
    /// Knuth's estimate of the search tree from `probes` random probes
    /// (see [`CpEstimate`]); leaves the engine ready to run.
    pub fn estimate(&mut self, probes: u64, seed: u64) -> CpEstimate {
        self.searcher.core.reset();
        if !self.root() {
            return CpEstimate { probes, ..CpEstimate::default() };
        }
        self.searcher.estimate(probes, seed)
    }
}

impl CpEngine {
    /// Knuth's estimate of the root walk's tree (placements, and boards
    /// one per symmetry class) when the filtered root goes to scan's walk
    /// ([`root`]); `None` when cp searches. Leaves the engine ready to run.
    fn walk_estimate(&mut self, probes: u64, seed: u64) -> Option<crate::search::Estimate> {
        self.searcher.core.reset();
        if !self.root() {
            return None;
        }
        let forced = self.searcher.forced.len();
        let singles = !self.searcher.singletons_on() || self.searcher.force_singles(0);
        let walk = match singles {
            true => root_walk(&self.kernel, &mut self.searcher).ok().and_then(|w| w.0),
            false => None,
        };
        let estimate = walk.map(|scan| scan.estimate(probes, seed));
        self.searcher.unwind_singles(forced);
        estimate
    }
}

impl Engine for CpEngine {
    /// The root walk's placements when the root goes to scan's walk, else
    /// cp's decisions (as the run counts its nodes).
    fn estimate_nodes(&mut self, probes: u32, seed: u64) -> Option<f64> {
        match self.walk_estimate(probes.into(), seed) {
            Some(e) => Some(e.nodes),
            None => Some(self.estimate(probes.into(), seed).nodes),
        }
    }

    fn knuth_estimate(&mut self, probes: u64, seed: u64) -> Option<crate::search::Estimate> {
        match self.walk_estimate(probes, seed) {
            Some(e) => Some(e),
            None => Some(self.estimate(probes, seed).into()),
        }
    }

    fn solution_weight(&self) -> u64 {
        self.images.len() as u64 + 1
    }

    fn describe(&self) -> String {
        format!("cp {}", self.searcher.core.cfg)
    }

    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        let start = Instant::now();
        self.searcher.core.reset();
        self.searcher.core.preempted = 0;
        self.searcher.counters = Counters::default();
        let mut stopped = None;
        self.last_split = None;
        let mut parallel_counters = None;
        // The searcher sees no solution limit: it finds one board per
        // symmetry class, the reporter passes on the class.
        let mut reporter = Reporter::new(limits, visit);
        if self.root() {
            // The root walk on scan's kernel ([`root`]), after the root's
            // forced placements (singleton propagation, as the search makes
            // them first; the pivot tile's one corner among them), which
            // are taken back unless the walk runs. When scan cannot build
            // its lists (too many colours or lists), `bottom-order=row`
            // from the root is the sweep walker (`sweep.rs`); the counter
            // `root_walk` says which ran.
            let (forced, counted) = (self.searcher.forced.len(), self.searcher.counters.clone());
            let singles = !self.searcher.singletons_on() || self.searcher.force_singles(0);
            let walk = match singles {
                true => root_walk(&self.kernel, &mut self.searcher).unwrap_or((None, None)),
                false => (None, None),
            };
            if walk.0.is_none() {
                self.searcher.unwind_singles(forced);
                self.searcher.counters = counted;
            }
            self.last_root = (walk.0.is_some(), walk.1);
            let (options, images) = (&self.options, &self.images);
            let mut ids = Vec::new();
            let inner = Reporter::inner_limits(limits);
            let mut emit = |ids: &[OptionId]| reporter.report_with_images(ids, images);
            if let (Some(scan), _) = walk {
                let stats =
                    scan.with_threads(self.threads).search_holding(&inner, limits.max_solutions.is_none(), &mut emit);
                stopped = stats.stopped;
                self.searcher.counters.bottom = stats.nodes;
                self.searcher.counters.solutions = stats.solutions;
                self.searcher.unwind_singles(forced);
            } else if self.threads > 1 {
                let board = |core: &Core, ids: &mut Vec<OptionId>| board_ids(options, core, ids);
                let out = parallel::run(
                    &self.searcher,
                    self.threads,
                    &inner,
                    limits.max_solutions.is_none(),
                    &board,
                    &mut emit,
                );
                stopped = out.stopped;
                self.last_split = Some((out.split_depth, out.tasks));
                parallel_counters = Some((out.counters, out.preempted));
            } else {
                stopped = self.searcher.run(&inner, &mut |core: &Core| {
                    board_ids(options, core, &mut ids);
                    emit(&ids)
                });
            }
        }
        let stopped = reporter.stopped(stopped);
        let emitted = reporter.reported;
        let (c, preempted) = match parallel_counters {
            Some(pc) => pc,
            None => {
                let mut c = self.searcher.counters.clone();
                if let Some(d) = &self.searcher.core.doms {
                    // Domain mode: options removed by edge filtering.
                    c.edge_prunes = d.removed;
                }
                (c, self.searcher.core.preempted)
            }
        };
        self.last_preempted = preempted;
        self.last = c.clone();
        SearchStats {
            solutions: emitted,
            // The root walk's nodes are its placements, as scan counts them
            // (also `bottom nodes`); cp's search counts its decisions.
            nodes: if self.last_root.0 { c.bottom } else { c.nodes },
            // Elementary work: every placement (decision, forced, walker or shaving probe)
            // plus every option edge filtering removed from a domain.
            updates: c.nodes + c.singletons + c.bottom + c.probes + c.edge_prunes,
            elapsed: start.elapsed(),
            stopped,
            fixed_box: None,
        }
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let mut v = vec![
            ("backjumps", self.last.backjumps),
            ("shaving_probes", self.last.probes),
            ("shaving_failures", self.last.shave_fails),
            ("shaving_removals", self.last.shave_removals),
            ("shaving_skips", self.last.shave_skips),
            ("edge_prunes", self.last.edge_prunes),
            ("refutations", self.last.refutations),
            ("singletons", self.last.singletons),
            ("bottom_nodes", self.last.bottom),
            ("confinements", self.last.confinements),
            ("preempted_tiles", self.last_preempted),
        ];
        v.push(("root_walk", self.last_root.0 as u64));
        if self.last_root.0 && self.threads > 1 {
            // Scan's threads: the walk's tree split after its first cells.
            v.push(("threads", self.threads as u64));
        }
        if let Some(est) = self.last_root.1 {
            v.push(("root_walk_estimate", est.walk.round() as u64));
            if let Some(search) = est.search {
                v.push(("root_search_estimate", search.round() as u64));
                v.push(("root_search_probes", est.search_probes));
            }
        }
        if let Some((depth, tasks)) = self.last_split {
            v.extend([("threads", self.threads as u64), ("split_depth", depth as u64), ("tasks", tasks as u64)]);
        }
        v
    }
}

/// Whether the filtered root (the state of `searcher`) goes to scan's walk
/// ([`root`]): with `bottom-order=row` when `bottom` covers every empty
/// cell, with `bottom=auto` when [`root::auto_walks`] says so from the
/// walk's Knuth estimate and, when that is large, one of cp's search. The
/// restricted scan when it does, and the estimates when they were made.
/// An error when the walk was asked for (`row`) but the scan cannot be
/// built.
fn root_walk(
    kernel: &root::RootKernel,
    searcher: &mut Searcher,
) -> Result<(Option<Scan>, Option<root::AutoEstimates>), String> {
    let core = &searcher.core;
    let cfg = &core.cfg;
    if core.doms.is_none() {
        return Ok((None, None));
    }
    if cfg.bottom == Bottom::Auto {
        // The estimates decide; a scan that cannot be built is cp's to
        // search.
        let Ok(scan) = kernel.scan(core) else { return Ok((None, None)) };
        let walk = root::RootKernel::estimate(&scan);
        let (cells, few_colours) = (searcher.core.m.n_cells, prefer_cp(&kernel.puzzle));
        // cp's probes stop as soon as the least their mean can come to
        // walks the root (the walk wins against any larger search).
        let walks_at = |search: f64| {
            let est = root::AutoEstimates { walk, search: Some(search), search_probes: 0 };
            root::auto_walks(&est, cells, few_colours)
        };
        let (search, search_probes) = match root::asks_search(walk) {
            true => {
                let (nodes, probes) = search_estimate(searcher, walks_at);
                (Some(nodes), probes)
            }
            false => (None, 0),
        };
        let est = root::AutoEstimates { walk, search, search_probes };
        let walks = root::auto_walks(&est, cells, few_colours);
        return Ok((walks.then_some(scan), Some(est)));
    }
    if cfg.bottom_order == BottomOrder::Row && core.st.n_empty <= cfg.bottom.cells(core.m.n_cells) {
        return Ok((Some(kernel.scan(core)?), None));
    }
    Ok((None, None))
}

/// cp's own Knuth estimate of its search from the filtered root, for
/// `bottom=auto` ([`root::AUTO_CP_PROBES`] probes, fewer once `settled`
/// holds of the least their mean can come to: [`Searcher::estimate_until`]),
/// and the probes made; the searcher's state,
/// its forced placements and statistics are left as they were (the probes
/// start from this state and return to it, but clear the forced stack and
/// count their own forced placements and pruned options).
fn search_estimate(searcher: &mut Searcher, settled: impl Fn(f64) -> bool) -> (f64, u64) {
    let forced = std::mem::take(&mut searcher.forced);
    let counters = searcher.counters.clone();
    let preempted = searcher.core.preempted;
    let removed = searcher.core.doms.as_ref().map(|d| d.removed);
    let e = searcher.estimate_until(root::AUTO_CP_PROBES, root::AUTO_CP_SEED, settled);
    (searcher.forced, searcher.counters) = (forced, counters);
    searcher.core.preempted = preempted;
    if let (Some(d), Some(r)) = (searcher.core.doms.as_mut(), removed) {
        d.removed = r;
    }
    (e.nodes, e.probes)
}

/// The IR options of the full board of `core`, into `ids` (cell order).
fn board_ids(options: &OptionTable, core: &Core, ids: &mut Vec<OptionId>) {
    ids.clear();
    for c in 0..core.m.n_cells {
        let t = core.st.tile_at[c] as usize;
        let look = core.st.colors_at[c];
        let r = (0..4).find(|&q| core.m.rot_colors[t][q] == look).expect("a placed tile shows one of its rotations");
        ids.push(options.get(c, t, r as u8));
    }
}

/// Whether `auto` should pick this engine over the scan backtracker: boards
/// of at least 64 cells with few inner colours, where scan's node count
/// explodes: at most `1.2 min(rows, cols)` of them, or at most
/// `min(rows, cols)` on boards of at most 64 tiles (there scan's fast walk
/// is faster in sum already with 9 colours on 8x8; on 9x9 and 10x10 it is
/// not, at `1.2 min(rows, cols)`). With more colours scan's cheap nodes
/// win. The bounds are where cp was faster in sum on groups of generated
/// puzzles against scan with its symmetry breaking and fast walk
/// (docs/tried/cp.md, "`auto`'s pick between cp and scan").
pub fn prefer_cp(puzzle: &EdgePuzzle) -> bool {
    inner_colour_bound(puzzle).is_some_and(|bound| puzzle.n_colors().saturating_sub(1) <= bound)
}

/// The most inner colours with which [`prefer_cp`] picks cp on a board of
/// `puzzle`'s size; `None` below 64 cells.
pub fn inner_colour_bound(puzzle: &EdgePuzzle) -> Option<usize> {
    let side = puzzle.rows.min(puzzle.cols);
    let cells = puzzle.n_cells();
    let limit_x5 = if cells <= STRICT_TILES { 5 * side } else { 6 * side };
    (cells >= 64).then_some(limit_x5 / 5)
}

/// Boards of up to this many tiles go to cp only with at most
/// `min(rows, cols)` inner colours (see [`prefer_cp`]).
const STRICT_TILES: usize = 64;
