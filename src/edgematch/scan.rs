//! The reference backtracker for edge matching (`--backend scan`): the
//! brute-force tree search the CP literature compares against (Benoist &
//! Bourreau's "doc_smith" baseline), done well.
//!
//! * Cells are filled in scan-row order (row 0 left to right, then row 1...),
//!   so when a cell is reached its west and north colours are known.
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
//!
//! Solutions are reported as IR option ids of
//! [`to_problem`](super::ir::to_problem): each (tile, cell, colours shown)
//! is looked up in the problem's geometry, so verification, `--unique` and
//! rendering are those of every other engine.

use super::{EdgePuzzle, GREY};
use crate::ir::{OptionId, Problem};
use crate::search::{Engine, Flow, Limits, SearchStats, StopReason};
use std::collections::HashMap;
use std::time::Instant;

/// Largest number of distinct colours the candidate table is built for
/// (the table has `4 * colours^2` entries).
pub const MAX_SCAN_COLORS: usize = 1024;

/// How often (in nodes) the polled limits are checked.
const POLL_MASK: u64 = 0xffff;

/// One way to put a tile in a cell: the tile, its rotation, and the
/// colours it then shows to the east and south (dense colour ids).
#[derive(Clone, Copy, Debug)]
struct Cand {
    tile: u32,
    east: u16,
    south: u16,
    rotation: u8,
}

/// The scan-row backtracker for one puzzle.
///
/// Invariants: `start` has `4 * nc * nc + 1` non-decreasing offsets into
/// `cands`; the key of a cell is `class * nc * nc + west * nc + north` where
/// `class` is `1` if the cell is in the last column plus `2` if in the last
/// row; clue tiles appear in no list but their clue's single candidate
/// (stored after the lists, at `fixed[cell]`).
pub struct Scan {
    rows: usize,
    cols: usize,
    /// Dense colour count (grey is 0).
    nc: usize,
    cands: Vec<Cand>,
    start: Vec<u32>,
    /// Per cell: `class * nc * nc`.
    base: Vec<u32>,
    /// Per cell: index into `east` of its west neighbour (or of the grey
    /// slot `n_cells`), and into `south` of its north neighbour.
    west_src: Vec<u32>,
    north_src: Vec<u32>,
    /// Per cell: the clue's candidate index and the (west, north) colours
    /// it needs.
    fixed: Vec<Option<(u32, u16, u16)>>,
    /// Option id of each (tile, cell, rotation) the search can report.
    option_of: HashMap<(u32, u32, u8), OptionId>,
    tiles: usize,
    name: String,
}

impl Scan {
    /// Prepares the search for `puzzle`, whose IR is `problem` (as built by
    /// [`to_problem`](super::ir::to_problem)). Fails when the puzzle has
    /// more than [`MAX_SCAN_COLORS`] colours.
    pub fn new(puzzle: &EdgePuzzle, problem: &Problem) -> Result<Scan, String> {
        let (rows, cols) = (puzzle.rows, puzzle.cols);
        let n = rows * cols;
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
        let clue_of: HashMap<usize, &super::Clue> = puzzle.clues.iter().map(|c| (c.tile, c)).collect();
        // Bucket every distinct look of every free tile by its key.
        let mut keyed: Vec<(u32, Cand)> = Vec::new();
        for (t, tile) in puzzle.tiles.iter().enumerate() {
            if clue_of.contains_key(&t) {
                continue;
            }
            let mut seen: Vec<[u16; 4]> = Vec::with_capacity(4);
            for r in 0..4u8 {
                let look = tile.rotated(r);
                if seen.contains(&look) {
                    continue;
                }
                seen.push(look);
                let d = look.map(|k| dense[&k]);
                let class = (d[1] == 0) as usize + 2 * (d[2] == 0) as usize;
                let key = class * nc * nc + d[3] as usize * nc + d[0] as usize;
                keyed.push((key as u32, Cand { tile: t as u32, east: d[1], south: d[2], rotation: r }));
            }
        }
        keyed.sort_by_key(|&(k, c)| (k, c.tile, c.rotation));
        let mut start = vec![0u32; 4 * nc * nc + 1];
        for &(k, _) in &keyed {
            start[k as usize + 1] += 1;
        }
        for k in 0..4 * nc * nc {
            start[k + 1] += start[k];
        }
        let mut cands: Vec<Cand> = keyed.into_iter().map(|(_, c)| c).collect();
        let mut fixed = vec![None; n];
        for clue in &puzzle.clues {
            let look = puzzle.tiles[clue.tile].rotated(clue.rotation);
            let d = look.map(|k| dense[&k]);
            let cell = puzzle.cell(clue.row, clue.col);
            fixed[cell] = Some((cands.len() as u32, d[3], d[0]));
            cands.push(Cand { tile: clue.tile as u32, east: d[1], south: d[2], rotation: clue.rotation });
        }
        let mut base = Vec::with_capacity(n);
        let mut west_src = Vec::with_capacity(n);
        let mut north_src = Vec::with_capacity(n);
        for cell in 0..n {
            let (r, c) = (cell / cols, cell % cols);
            let class = (c + 1 == cols) as usize + 2 * (r + 1 == rows) as usize;
            base.push((class * nc * nc) as u32);
            west_src.push(if c == 0 { n } else { cell - 1 } as u32);
            north_src.push(if r == 0 { n } else { cell - cols } as u32);
        }
        let geo = problem.geometry.as_ref().ok_or("the problem has no edge-matching geometry")?;
        let mut option_of = HashMap::with_capacity(geo.placements.len() * 2);
        for (o, p) in geo.placements.iter().enumerate() {
            let tile = puzzle.tiles[p.piece as usize];
            // Every rotation showing the placed look maps to this option.
            for r in 0..4u8 {
                if tile.rotated(r) == tile.rotated(p.orientation as u8) {
                    option_of.insert((p.piece, p.cells[0], r), o as OptionId);
                }
            }
        }
        Ok(Scan {
            rows,
            cols,
            nc,
            cands,
            start,
            base,
            west_src,
            north_src,
            fixed,
            option_of,
            tiles: puzzle.tiles.len(),
            name: puzzle.name.clone(),
        })
    }

    /// Enumerates solutions; see [`Engine::run`].
    pub fn search(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        let started = Instant::now();
        let n = self.rows * self.cols;
        let nc = self.nc as u32;
        let mut stats = SearchStats::default();
        // Colours shown east / south by each placed cell; slot n is grey.
        let mut east = vec![0u16; n + 1];
        let mut south = vec![0u16; n + 1];
        let mut cur = vec![0u32; n];
        let mut end = vec![0u32; n];
        let mut used = vec![0u64; self.tiles.div_ceil(64)];
        let mut options: Vec<OptionId> = vec![0; n];
        let (cands, start, base) = (&self.cands[..], &self.start[..], &self.base[..]);
        let mut nodes = 0u64;
        let mut p = 0usize;
        let mut entering = true;
        let stopped = 'search: loop {
            if entering {
                let w = east[self.west_src[p] as usize];
                let nn = south[self.north_src[p] as usize];
                let (lo, hi) = match self.fixed[p] {
                    None => {
                        let k = (base[p] + w as u32 * nc + nn as u32) as usize;
                        (start[k], start[k + 1])
                    }
                    Some((i, fw, fnn)) if fw == w && fnn == nn => (i, i + 1),
                    Some((i, _, _)) => (i, i),
                };
                cur[p] = lo;
                end[p] = hi;
            }
            // Try the next free candidate of cell p.
            let (mut i, hi) = (cur[p], end[p]);
            let mut placed = false;
            while i < hi {
                let c = cands[i as usize];
                i += 1;
                let (word, bit) = ((c.tile >> 6) as usize, 1u64 << (c.tile & 63));
                if used[word] & bit == 0 {
                    used[word] |= bit;
                    east[p] = c.east;
                    south[p] = c.south;
                    placed = true;
                    break;
                }
            }
            cur[p] = i;
            if placed {
                nodes += 1;
                if nodes & POLL_MASK == 0 {
                    if let Some(stop) = limits.poll(nodes) {
                        break 'search Some(stop);
                    }
                }
                if p + 1 < n {
                    p += 1;
                    entering = true;
                    continue;
                }
                // A full board.
                stats.solutions += 1;
                for (cell, o) in options.iter_mut().enumerate() {
                    let c = cands[cur[cell] as usize - 1];
                    *o = self.option_of[&(c.tile, cell as u32, c.rotation)];
                }
                if visit(&options) == Flow::Stop {
                    break 'search Some(StopReason::Visitor);
                }
                if limits.max_solutions.is_some_and(|m| stats.solutions >= m) {
                    break 'search Some(StopReason::SolutionLimit);
                }
                // Take the last tile back and go on at the last cell.
                let t = cands[cur[p] as usize - 1].tile;
                used[(t >> 6) as usize] &= !(1u64 << (t & 63));
                entering = false;
                continue;
            }
            // Cell p exhausted: back to the previous cell.
            if p == 0 {
                break None;
            }
            p -= 1;
            let t = cands[cur[p] as usize - 1].tile;
            used[(t >> 6) as usize] &= !(1u64 << (t & 63));
            entering = false;
        };
        stats.nodes = nodes;
        stats.elapsed = started.elapsed();
        stats.stopped = stopped;
        stats
    }
}

impl Engine for Scan {
    fn describe(&self) -> String {
        format!("scan row-order backtracker ({} x {}, {} colours)", self.rows, self.cols, self.nc)
    }
    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        self.search(limits, visit)
    }
}

impl std::fmt::Debug for Scan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scan({}, {} candidates)", self.name, self.cands.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    use crate::edgematch::ir::{board_of, to_problem};
    use crate::edgematch::{Clue, Tile};
    use crate::ir::{verify, Solution};

    fn all_solutions(engine: &mut dyn Engine, problem: &Problem) -> Vec<Vec<OptionId>> {
        let mut out = Vec::new();
        let stats = engine.run(&Limits::none(), &mut |s| {
            verify(problem, &Solution { options: s.to_vec() }).unwrap();
            let mut v = s.to_vec();
            v.sort_unstable();
            out.push(v);
            Flow::Continue
        });
        assert!(stats.complete());
        assert_eq!(stats.solutions as usize, out.len());
        out.sort();
        out
    }

    #[test]
    fn agrees_with_dlx_on_generated_puzzles() {
        for (rows, cols, style, seed) in [
            (3, 3, Style::Uniform { colors: 2 }, 1),
            (3, 4, Style::Uniform { colors: 3 }, 2),
            (4, 4, Style::Frame { border_colors: 1, inner_colors: 3 }, 3),
            (2, 5, Style::Uniform { colors: 2 }, 4),
            (4, 5, Style::Frame { border_colors: 2, inner_colors: 4 }, 5),
        ] {
            let g = generate(&GenerateSpec { rows, cols, style, seed }).unwrap();
            let problem = to_problem(&g.puzzle);
            let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
            let dlx = all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem);
            assert!(!scan.is_empty());
            assert_eq!(scan, dlx, "{rows}x{cols} {style:?}");
            for s in &scan {
                board_of(&g.puzzle, &problem, s).check_solution(&g.puzzle).unwrap();
            }
        }
    }

    #[test]
    fn clues_are_respected() {
        let mut g = generate(&GenerateSpec { rows: 3, cols: 4, style: Style::Uniform { colors: 2 }, seed: 8 }).unwrap();
        // Fix the planted tile of cell (1, 1) and of a corner.
        for (row, col) in [(1, 1), (0, 3)] {
            let p = g.solution.cells[row * 4 + col].unwrap();
            g.puzzle.clues.push(Clue { tile: p.tile as usize, row, col, rotation: p.rotation });
        }
        let problem = to_problem(&g.puzzle);
        let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
        let dlx = all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem);
        assert!(!scan.is_empty());
        assert_eq!(scan, dlx);
    }

    #[test]
    fn symmetric_tiles_are_placed_once() {
        // One colour: identical corners, identical edges, and a centre that
        // looks the same in all four rotations.
        let mut g = generate(&GenerateSpec { rows: 3, cols: 3, style: Style::Uniform { colors: 1 }, seed: 0 }).unwrap();
        let centre = g.solution.cells[4].unwrap().tile as usize;
        assert_eq!(g.puzzle.tiles[centre], Tile([1, 1, 1, 1]));
        g.puzzle.clues.clear();
        let problem = to_problem(&g.puzzle);
        let scan = all_solutions(&mut Scan::new(&g.puzzle, &problem).unwrap(), &problem);
        // 4! corner orders x 4! edge orders, one centre look.
        assert_eq!(scan.len(), 24 * 24);
        assert_eq!(scan, all_solutions(&mut crate::dlx::Dlx::new(&problem), &problem));
    }

    #[test]
    fn limits_stop_the_search() {
        let g = generate(&GenerateSpec { rows: 3, cols: 3, style: Style::Uniform { colors: 1 }, seed: 0 }).unwrap();
        let problem = to_problem(&g.puzzle);
        let mut scan = Scan::new(&g.puzzle, &problem).unwrap();
        let stats = scan.run(&Limits::solutions(10), &mut |_| Flow::Continue);
        assert_eq!((stats.solutions, stats.stopped), (10, Some(StopReason::SolutionLimit)));
        let mut k = 0;
        let stats = scan.run(&Limits::none(), &mut |_| {
            k += 1;
            if k == 3 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
        assert_eq!((stats.solutions, stats.stopped), (3, Some(StopReason::Visitor)));
    }
}
