//! The reference backtracker for edge matching (`--backend scan`): the
//! brute-force tree search the CP literature compares against (Benoist &
//! Bourreau's "doc_smith" baseline), done well.
//!
//! * Cells are filled in scan-row order (row 0 left to right, then row 1...),
//!   so when a cell is reached its west and north colours are known.
//! * Rows run along the shorter side: a board wider than tall is searched
//!   turned a quarter ([`EdgePuzzle::quarter_turn`]), which keeps the open
//!   frontier short (on oblong boards the tree shrinks by orders of
//!   magnitude: docs/tried/scan.md). Boards are reported on the puzzle as
//!   given.
//! * Candidate lists are precomputed for every (border class, west colour,
//!   north colour): the (tile, rotation) pairs showing exactly those colours
//!   on W and N, and grey on E / S exactly when the cell is in the last
//!   column / row. Grey on W / N is implied by the colours looked up (the
//!   border is grey, the inside never is). Rotations of a tile that look
//!   the same are listed once, as in the IR.
//! * Tiles in use are a bitset; there is no other reasoning (no look-ahead,
//!   no global counting).
//! * The loop is iterative over preallocated arrays: nothing is allocated
//!   while searching. A node is one placement, as in DLX.
//! * Boards of at most 128 tiles (up to 11x11) take the fast walk of
//!   `scan/fast.rs`: the same tree, with each list a tile mask, so a
//!   cell's free candidates are one AND with the tiles in use.
//!
//! Solutions are reported as IR option ids of
//! [`to_problem`](super::ir::to_problem): each (tile, cell, colours shown)
//! is looked up in the problem's geometry, so verification, `--unique` and
//! rendering are those of every other engine.

use super::option_table::OptionTable;
use super::pivot::Pivot;
use super::{EdgePuzzle, GREY};
use crate::ir::{OptionId, Problem};
use crate::search::{Engine, Flow, Limits, Reporter, SearchStats, StopReason};
use std::collections::HashMap;
use std::time::Instant;

mod build;
mod estimate;
mod fast;
mod parallel;
mod table;

use table::Table;

/// Largest number of distinct colours the candidate table is built for
/// (the table has `4 * colours^2` entries).
pub const MAX_SCAN_COLORS: usize = 1024;

/// Largest number of candidate lists (`(4 + clues) * colours^2`) built.
pub const MAX_SCAN_KEYS: usize = 1 << 24;

/// How often (in nodes) the polled limits are checked.
const POLL_MASK: u64 = 0xffff;

/// One way to put a tile in a cell: the tile and the colours it then
/// shows to the east (premultiplied by the colour count, ready to be the
/// west part of the next cell's key) and south (dense colour ids).
#[derive(Clone, Copy, Debug, Default)]
struct Cand {
    east_key: u32,
    south: u16,
    tile: u16,
}

/// Per-cell constants: where its key's table starts and where its west
/// and north colours are read (index `n_cells` is a grey sentinel).
#[derive(Clone, Copy, Debug)]
struct CellInfo {
    base: u32,
    west: u32,
    north: u32,
}

/// Per-cell search state: the candidate range still to try and the colours
/// the placed tile shows east and south.
#[derive(Clone, Copy, Debug, Default)]
struct CellState {
    cur: u32,
    end: u32,
    east_key: u32,
    south: u32,
}

/// The scan-row backtracker for one puzzle.
///
/// Invariants: the key of a cell is `info.base + west * nc + north`. Keys
/// `class * nc^2 + ...` (class = 1 if the cell is in the last column, + 2
/// if in the last row) list every free tile's distinct looks; a clued cell
/// has its own block of `nc^2` keys holding only the clue's look, and clue
/// tiles appear in no other list. The search is the union of the searches
/// of `tables`, whose solution sets are disjoint: one table without
/// symmetry breaking; with a pivot, one per corner the pivot may take,
/// where that corner lists only the pivot and the other corners omit it.
pub struct Scan {
    /// The searched board: the puzzle's, or its quarter turn (`turned`).
    rows: usize,
    cols: usize,
    /// Whether the board is searched turned a quarter (the puzzle is wider
    /// than tall); cells, keys and lists are then those of the turned
    /// board, and `option_of` maps back to the puzzle's options.
    turned: bool,
    /// Dense colour count (grey is 0).
    nc: usize,
    tables: Vec<Table>,
    cells: Vec<CellInfo>,
    /// Option id (of the puzzle as given) of each (tile, cell, rotation)
    /// of the searched board.
    option_of: OptionTable,
    tiles: usize,
    name: String,
    /// Worker threads (`--threads`); 1: the plain sequential search.
    threads: usize,
    /// The corner tile restricted to one corner per orbit of the board
    /// rotations (its other corners' lists omit it); each board found is
    /// reported with its images. `None`: every board is searched.
    pivot: Option<Pivot>,
}

/// The symmetry breaking of a board given the map of the puzzle's cells
/// to the searched board's ([`Scan::build`]).
type PivotOf<'a> = &'a dyn Fn(&dyn Fn(usize) -> usize) -> Option<Pivot>;

/// Settings of the scan backtracker (`--scan SPEC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanConfig {
    /// Break the board rotations: a corner tile is searched on one corner
    /// per orbit and each board found is reported with its rotations
    /// ([`Pivot`]). Off: the plain brute-force tree of the literature.
    pub symmetry: bool,
    /// Run the rows along the shorter side (turn a board wider than tall a
    /// quarter). Off: rows as in the file, whatever their length.
    pub short_rows: bool,
}

impl Default for ScanConfig {
    fn default() -> Self {
        ScanConfig { symmetry: true, short_rows: true }
    }
}

impl std::str::FromStr for ScanConfig {
    type Err = String;
    /// Comma-separated `symmetry` / `no-symmetry`, `short-rows` /
    /// `no-short-rows`, or `default`.
    fn from_str(spec: &str) -> Result<Self, String> {
        let mut config = ScanConfig::default();
        for word in spec.split(',').map(str::trim) {
            match word {
                "default" => config = ScanConfig::default(),
                "symmetry" => config.symmetry = true,
                "no-symmetry" => config.symmetry = false,
                "short-rows" => config.short_rows = true,
                "no-short-rows" => config.short_rows = false,
                other => {
                    return Err(format!(
                        "unknown scan setting `{other}` (expected symmetry, no-symmetry, short-rows, no-short-rows \
                         or default)"
                    ))
                }
            }
        }
        Ok(config)
    }
}

/// Whether scan searches `puzzle` turned a quarter under `config`: with
/// `short_rows`, a board wider than tall.
pub fn turns(puzzle: &EdgePuzzle, config: ScanConfig) -> bool {
    config.short_rows && puzzle.cols > puzzle.rows
}

/// The cells of `puzzle` (its own indices) in the order scan fills them
/// with the default settings: row-major, or on a board wider than tall
/// row-major on the turned board, i.e. by columns from the bottom left.
pub fn cell_order(puzzle: &EdgePuzzle) -> Vec<usize> {
    let mut cells: Vec<usize> = (0..puzzle.n_cells()).collect();
    if turns(puzzle, ScanConfig::default()) {
        cells.sort_by_key(|&c| puzzle.quarter_turn_cell(c));
    }
    cells
}

impl Scan {
    /// Prepares the search for `puzzle`, whose IR is `problem` (as built by
    /// [`to_problem`](super::ir::to_problem)), with the default settings.
    /// Fails when the puzzle has more than [`MAX_SCAN_COLORS`] colours.
    pub fn new(puzzle: &EdgePuzzle, problem: &Problem) -> Result<Scan, String> {
        Scan::with_config(puzzle, problem, ScanConfig::default())
    }

    /// [`Scan::new`] with the settings `config`.
    pub fn with_config(puzzle: &EdgePuzzle, problem: &Problem, config: ScanConfig) -> Result<Scan, String> {
        let geo = problem.geometry.as_ref().ok_or("the problem has no edge-matching geometry")?;
        let placements: Vec<(u32, u32, u8)> =
            geo.placements.iter().map(|p| (p.piece, p.cells[0], p.orientation as u8)).collect();
        let pivot = |to_board: &dyn Fn(usize) -> usize| {
            if config.symmetry {
                Pivot::find_in_order(puzzle, problem, to_board)
            } else {
                None
            }
        };
        Scan::build(puzzle, &placements, config.short_rows, &pivot, None)
    }

    /// The scan of `puzzle` restricted to the placements `allowed(cell,
    /// tile, rotation)` accepts (cells and rotations of the puzzle as
    /// given), rows along the shorter side, no symmetry breaking: every
    /// cell that is not a clue gets its own block of candidate lists,
    /// holding only its allowed looks, so the walks (fast or general),
    /// the threads' prefixes and the estimate all see the restriction and
    /// the fast walk's placements cost what scan's do. `placements`: the
    /// IR option of each id, as (tile, cell, rotation). For cp's root walk
    /// (`cp::root`), whose domains carry cp's symmetry breaking.
    pub fn restricted(
        puzzle: &EdgePuzzle,
        placements: &[(u32, u32, u8)],
        allowed: &dyn Fn(usize, usize, u8) -> bool,
    ) -> Result<Scan, String> {
        Scan::build(puzzle, placements, true, &|_| None, Some(allowed))
    }

    /// Searches with `threads` workers (see [`Scan::search`]).
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Enumerates solutions; see [`Engine::run`]. With several threads
    /// the tree is cut after its first cells into tasks that workers
    /// search (`parallel`): the same boards and the same node count.
    pub fn search(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        self.search_holding(limits, limits.max_solutions.is_none(), visit)
    }

    /// [`Scan::search`] for a caller that counts a solution limit itself
    /// (cp's root walk): `hold` as [`crate::search::pool::Outbox`] takes it.
    pub(crate) fn search_holding(
        &mut self,
        limits: &Limits,
        hold: bool,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        let started = Instant::now();
        let images: &[Vec<OptionId>] = self.pivot.as_ref().map_or(&[], |p| &p.images);
        // The walk finds one board per symmetry class and sees no solution
        // limit; the reporter passes on the class and counts.
        let mut reporter = Reporter::new(limits, visit);
        let inner = Reporter::inner_limits(limits);
        let mut report = |ids: &[OptionId]| reporter.report_with_images(ids, images);
        let mut stats = if self.threads > 1 && self.rows * self.cols > 2 {
            self.search_parallel(&inner, hold, &mut report)
        } else {
            // The cases one after the other, nodes counted across them.
            let mut stats = SearchStats::default();
            for table in &self.tables {
                let done = stats.nodes;
                let case = self.walk(table, &[], &mut |nodes| inner.poll(done + nodes), &mut report);
                stats.nodes += case.nodes;
                stats.stopped = case.stopped;
                if stats.stopped.is_some() {
                    break;
                }
            }
            stats
        };
        stats.solutions = reporter.reported;
        stats.stopped = reporter.stopped(stats.stopped);
        stats.elapsed = started.elapsed();
        stats
    }

    /// The search of `table` below the placements `prefix` (candidate
    /// indices of the first cells, each a free tile fitting its cell),
    /// never undoing them. `poll(nodes)` checks the limits every few
    /// thousand nodes; the solution limit is the caller's to count.
    fn walk(
        &self,
        table: &Table,
        prefix: &[u32],
        poll: &mut dyn FnMut(u64) -> Option<StopReason>,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        if let Some(fast) = &table.fast {
            return self.walk_fast(table, fast, prefix, poll, visit);
        }
        let n = self.rows * self.cols;
        let mut stats = SearchStats::default();
        // State of each cell; slot n is the grey sentinel (all zero).
        let mut state = vec![CellState::default(); n + 1];
        let mut used = vec![0u64; self.tiles.div_ceil(64)];
        let mut options: Vec<OptionId> = vec![0; n];
        let (cands, start, cells) = (&table.cands[..], &table.start[..], &self.cells[..]);
        let mut nodes = 0u64;
        for (cell, &i) in prefix.iter().enumerate() {
            let c = cands[i as usize];
            state[cell] = CellState { cur: i + 1, end: i + 1, east_key: c.east_key, south: c.south as u32 };
            used[(c.tile >> 6) as usize] |= 1u64 << (c.tile & 63);
        }
        let base = prefix.len();
        let mut p = base;
        // Enter the first free cell.
        let info = cells[p];
        let k = (info.base + state[info.west as usize].east_key + state[info.north as usize].south) as usize;
        state[p].cur = start[k];
        state[p].end = start[k + 1];
        let stopped = 'search: loop {
            // Try the next free candidate of cell p.
            let CellState { cur, end, .. } = state[p];
            let mut i = cur;
            let mut found = None;
            for &c in &cands[cur as usize..end as usize] {
                i += 1;
                let (word, bit) = ((c.tile >> 6) as usize, 1u64 << (c.tile & 63));
                if used[word] & bit == 0 {
                    used[word] |= bit;
                    found = Some(c);
                    break;
                }
            }
            let Some(c) = found else {
                // Cell p exhausted: back to the previous cell.
                if p == base {
                    break None;
                }
                p -= 1;
                let t = cands[state[p].cur as usize - 1].tile;
                used[(t >> 6) as usize] &= !(1u64 << (t & 63));
                continue;
            };
            state[p].cur = i;
            state[p].east_key = c.east_key;
            state[p].south = c.south as u32;
            nodes += 1;
            if nodes & POLL_MASK == 0 {
                if let Some(stop) = poll(nodes) {
                    break 'search Some(stop);
                }
            }
            if p + 1 < n {
                // Enter the next cell.
                p += 1;
                let info = cells[p];
                let k = (info.base + state[info.west as usize].east_key + state[info.north as usize].south) as usize;
                state[p].cur = start[k];
                state[p].end = start[k + 1];
                continue;
            }
            // A full board.
            stats.solutions += 1;
            for (cell, o) in options.iter_mut().enumerate() {
                let i = state[cell].cur as usize - 1;
                *o = self.option_of.get(cell, cands[i].tile as usize, table.rotation[i]);
            }
            if visit(&options) == Flow::Stop {
                break 'search Some(StopReason::Visitor);
            }
            // Take the last tile back and go on at the last cell.
            let t = c.tile;
            used[(t >> 6) as usize] &= !(1u64 << (t & 63));
        };
        stats.nodes = nodes;
        stats.stopped = stopped;
        stats
    }
}

impl Engine for Scan {
    fn describe(&self) -> String {
        let threads = if self.threads > 1 { format!(", {} threads", self.threads) } else { String::new() };
        // The puzzle's own size and corners; the turned board is searched
        // with rows of `self.cols` cells.
        let (rows, cols, turned) = match self.turned {
            true => (self.cols, self.rows, format!(" turned a quarter: rows of {}", self.cols)),
            false => (self.rows, self.cols, String::new()),
        };
        let symmetry = match &self.pivot {
            Some(p) => format!(", {}", p.describe(cols)),
            None => String::new(),
        };
        format!("scan row-order backtracker ({rows} x {cols}{turned}, {} colours{threads}{symmetry})", self.nc)
    }
    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        self.search(limits, visit)
    }
    fn estimate_nodes(&mut self, probes: u32, seed: u64) -> Option<f64> {
        Some(self.estimate(probes.into(), seed).nodes)
    }
    fn knuth_estimate(&mut self, probes: u64, seed: u64) -> Option<crate::search::Estimate> {
        Some(self.estimate(probes, seed))
    }
    fn solution_weight(&self) -> u64 {
        self.pivot.as_ref().map_or(1, Pivot::weight)
    }
}

impl std::fmt::Debug for Scan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cands: usize = self.tables.iter().map(|t| t.cands.len()).sum();
        write!(f, "Scan({}, {} candidates in {} tables)", self.name, cands, self.tables.len())
    }
}

#[cfg(test)]
mod tests;
