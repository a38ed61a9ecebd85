//! The reference backtracker for edge matching (`--backend scan`): the
//! brute-force tree search the CP literature compares against (Benoist &
//! Bourreau's "doc_smith" baseline), done well.
//!
//! * Cells are filled in scan-row order (row 0 left to right, then row 1...),
//!   so when a cell is reached its west and north colours are known.
//! * Rows run along the shorter side: a board wider than tall is searched
//!   turned a quarter ([`EdgePuzzle::quarter_turn`]), which keeps the open
//!   frontier short (set-2 9x4: 7.6 M nodes instead of 294 M). Boards are
//!   reported on the puzzle as given.
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

    /// [`Scan::with_config`] and [`Scan::restricted`]: `placements` as
    /// there, `pivot` the symmetry breaking given the map of the puzzle's
    /// cells to the searched board's.
    fn build(
        puzzle: &EdgePuzzle,
        placements: &[(u32, u32, u8)],
        short_rows: bool,
        pivot: PivotOf,
        allowed: Option<&dyn Fn(usize, usize, u8) -> bool>,
    ) -> Result<Scan, String> {
        let config = ScanConfig { symmetry: false, short_rows };
        // The board searched: rows along the shorter side.
        let turned = turns(puzzle, config);
        let turned_puzzle;
        let board = if turned {
            turned_puzzle = puzzle.quarter_turn();
            &turned_puzzle
        } else {
            puzzle
        };
        let to_board = |cell: usize| if turned { puzzle.quarter_turn_cell(cell) } else { cell };
        let (rows, cols) = (board.rows, board.cols);
        let n = rows * cols;
        if puzzle.tiles.len() > 1 << 16 {
            return Err(format!("{} tiles; scan handles at most 65536", puzzle.tiles.len()));
        }
        // Dense colours, grey first.
        let mut dense: HashMap<u16, u16> = HashMap::from([(GREY, 0)]);
        for t in &puzzle.tiles {
            for k in t.0 {
                let next = dense.len() as u16;
                dense.entry(k).or_insert(next);
            }
        }
        let nc = dense.len();
        if nc > MAX_SCAN_COLORS {
            return Err(format!("{nc} colours; the scan table is built for at most {MAX_SCAN_COLORS}"));
        }
        let block = nc * nc;
        let clued: HashMap<usize, &super::Clue> = board.clues.iter().map(|c| (c.tile, c)).collect();
        let key_of = |base: usize, look: [u16; 4]| {
            let d = look.map(|k| dense[&k] as usize);
            let cand = Cand { east_key: (d[1] * nc) as u32, south: d[2] as u16, tile: 0 };
            (base + d[3] * nc + d[0], cand)
        };
        // Every distinct look of every free tile, keyed; then the clues,
        // each in its own block after the four class blocks.
        let mut keyed: Vec<(usize, Cand, u8)> = Vec::new();
        let mut clue_base = vec![None; n];
        for (k, clue) in board.clues.iter().enumerate() {
            let base = (4 + k) * block;
            clue_base[board.cell(clue.row, clue.col)] = Some(base as u32);
            let (key, cand) = key_of(base, puzzle.tiles[clue.tile].rotated(clue.rotation));
            keyed.push((key, Cand { tile: clue.tile as u16, ..cand }, clue.rotation));
        }
        // The cell of the puzzle at each cell of the searched board.
        let mut from_board = vec![0; n];
        for cell in 0..n {
            from_board[to_board(cell)] = cell;
        }
        let class_of = |cell: usize| (cell % cols + 1 == cols) as usize + 2 * (cell / cols + 1 == rows) as usize;
        // Every distinct look of every free tile, in (tile, rotation) order.
        let mut looks: Vec<(usize, u8, [u16; 4], usize)> = Vec::new();
        for (t, tile) in puzzle.tiles.iter().enumerate() {
            if clued.contains_key(&t) {
                continue;
            }
            for r in 0..4u8 {
                let look = tile.rotated(r);
                if !(0..r).any(|q| tile.rotated(q) == look) {
                    let class = (look[1] == GREY) as usize + 2 * (look[2] == GREY) as usize;
                    looks.push((t, r, look, class));
                }
            }
        }
        // With a restriction, the cells whose lists must differ from their
        // class's get a block of their own (after the clues' blocks); the
        // others share their class's block, which then holds every look
        // allowed in some cell of the class. A cell reads only the keys
        // whose west and north greys match its place (grey west only in
        // the first column, grey north only in the first row), so it can
        // share when, among the looks with its place's greys, it allows
        // exactly those its class's block holds.
        let mut own_base: Vec<Option<usize>> = vec![None; n];
        let mut in_class = vec![[false; 4]; looks.len()];
        let mut grid = Vec::new();
        if let Some(allowed) = allowed {
            let free_cells: Vec<usize> = (0..n).filter(|&c| clue_base[c].is_none()).collect();
            // grid[i * n + cell]: look i allowed in the cell (the rotation
            // on the puzzle as given: the turned board shows one more
            // quarter turn).
            grid = vec![false; looks.len() * n];
            for (i, &(t, r, _, class)) in looks.iter().enumerate() {
                let r_puzzle = (r + 4 - turned as u8) % 4;
                for &cell in free_cells.iter().filter(|&&c| class_of(c) == class) {
                    if allowed(from_board[cell], t, r_puzzle) {
                        grid[i * n + cell] = true;
                        in_class[i][class] = true;
                    }
                }
            }
            let mut next = 4 + puzzle.clues.len();
            for &cell in &free_cells {
                let (class, place) = (class_of(cell), (cell % cols == 0, cell / cols == 0));
                let differs = looks.iter().enumerate().any(|(i, &(_, _, look, k))| {
                    k == class && (look[3] == GREY, look[0] == GREY) == place && grid[i * n + cell] != in_class[i][k]
                });
                if differs {
                    own_base[cell] = Some(next * block);
                    next += 1;
                }
            }
        }
        let blocks = 4 + puzzle.clues.len() + own_base.iter().filter(|b| b.is_some()).count();
        if blocks * block > MAX_SCAN_KEYS {
            return Err(format!(
                "{nc} colours and {} clues{} make {} candidate lists; scan builds at most {MAX_SCAN_KEYS}",
                puzzle.clues.len(),
                if allowed.is_some() { " with a block per restricted cell" } else { "" },
                blocks * block
            ));
        }
        for (i, &(t, r, look, class)) in looks.iter().enumerate() {
            let (key, cand) = key_of(0, look);
            let cand = Cand { tile: t as u16, ..cand };
            if allowed.is_none() || in_class[i][class] {
                keyed.push((class * block + key, cand, r));
            }
            if allowed.is_some() {
                for cell in (0..n).filter(|&c| grid[i * n + c]) {
                    if let Some(base) = own_base[cell] {
                        keyed.push((base + key, cand, r));
                    }
                }
            }
        }
        // Pushed by tile, then rotation (a clue alone in its lists): what
        // `Table::new` needs.
        let n_keys = blocks * block;
        // With a pivot, one case per corner it may take: that corner's list
        // holds only the pivot, the pivot is dropped from the other corners.
        // A corner look (two adjacent grey sides) fits one corner cell only.
        // The pivot is found on the puzzle as given (its images are option
        // maps of `problem`), its allowed corners the first of their orbits
        // on the searched board; they are moved to that board.
        let pivot = pivot(&to_board);
        let mut tables = match &pivot {
            None => vec![Table::new(&keyed, n_keys)],
            Some(pv) => {
                let mut allowed = vec![false; n];
                for cell in (0..n).filter(|&c| pv.allowed[c]) {
                    allowed[to_board(cell)] = true;
                }
                let corner_of = |look: [u16; 4]| match look.map(|k| k == GREY) {
                    [true, _, _, true] => Some(0),
                    [true, true, _, _] => Some(cols - 1),
                    [_, true, true, _] => Some(n - 1),
                    [_, _, true, true] => Some((rows - 1) * cols),
                    _ => None,
                };
                (0..n)
                    .filter(|&a| allowed[a])
                    .map(|a| {
                        let case: Vec<_> = keyed
                            .iter()
                            .copied()
                            .filter(|&(k, c, r)| {
                                let corner = corner_of(puzzle.tiles[c.tile as usize].rotated(r));
                                if c.tile as u32 == pv.tile {
                                    corner == Some(a)
                                } else {
                                    k >= 4 * block || corner != Some(a)
                                }
                            })
                            .collect();
                        Table::new(&case, n_keys)
                    })
                    .collect()
            }
        };
        let cells = (0..n)
            .map(|cell| {
                let (r, c) = (cell / cols, cell % cols);
                let own = own_base[cell].unwrap_or(class_of(cell) * block);
                CellInfo {
                    base: clue_base[cell].unwrap_or(own as u32),
                    west: if c == 0 { n } else { cell - 1 } as u32,
                    north: if r == 0 { n } else { cell - cols } as u32,
                }
            })
            .collect::<Vec<_>>();
        for table in &mut tables {
            table.fast = fast::FastTable::new(table, &cells, cols, nc, puzzle.tiles.len());
        }
        let option_of = OptionTable::new(puzzle, placements, &to_board, turned as u8);
        Ok(Scan {
            rows,
            cols,
            turned,
            nc,
            tables,
            cells,
            option_of,
            tiles: puzzle.tiles.len(),
            name: puzzle.name.clone(),
            threads: 1,
            pivot,
        })
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
    /// (cp's root walk): `hold` as [`crate::parallel::Outbox`] takes it.
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
    fn knuth_estimate(&mut self, probes: u64, seed: u64) -> Option<crate::poly::sample::Estimate> {
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
