//! The scan walk for boards of at most 64 tiles: the tiles in use are one
//! `u64`, and each candidate list is a tile mask, so that the free
//! candidates of a cell are `tiles & !used`, computed once when the cell is
//! entered, and the next one is its lowest bit. Used tiles are never
//! looked at and nothing is scanned; a cell with no free candidate is left
//! at once.
//!
//! The tree is the general walk's ([`Scan::walk`]): the same keys, the same
//! candidates tried in the same order (by tile, then rotation), one node
//! per placement; the boards and node counts are identical (tested).
//!
//! A tile can show the same west and north colours in two rotations (three
//! equal adjacent sides); the list then holds it twice. Those tiles are
//! marked in a second mask: they are tried in their first rotation and
//! stay free for their second.
//!
//! In scan-row order the west neighbour of a cell is the cell placed just
//! before; at column 0 that is a last-column cell, whose candidates all
//! show grey to the east, so no sentinel is needed. [`FastTable::new`]
//! checks that (a clue in the last column could break it) and the tile
//! count; the general walk covers what it refuses.

use super::{CellInfo, Scan, Table, POLL_MASK};
use crate::ir::OptionId;
use crate::search::{Flow, SearchStats, StopReason};

/// One candidate list as tile masks.
///
/// Invariants: bit `t` of `twice` is set only if it is set in `tiles`;
/// the candidate of tile `t` (its first rotation) is at `first + rank`,
/// its second rotation at `second + rank2`, where `rank` / `rank2` count
/// the bits of `tiles` / `twice` below `t`.
#[derive(Clone, Copy, Debug, Default)]
struct Key {
    tiles: u64,
    twice: u64,
    first: u32,
    second: u32,
}

/// What a placed candidate shows: the east colour premultiplied by the
/// colour count (the west part of the next key) and the south colour.
#[derive(Clone, Copy, Debug, Default)]
struct Shows {
    east_key: u32,
    south: u32,
}

/// The fast form of one [`Table`].
///
/// Invariants: `keys` has one entry per key of the table; every index a
/// `Key` gives is below `shows.len() == general.len()`; `general[i]` is
/// the index in the table of candidate `i` (for its tile and rotation).
#[derive(Debug)]
pub(super) struct FastTable {
    keys: Vec<Key>,
    shows: Vec<Shows>,
    general: Vec<u32>,
}

/// Search state of one cell, saved when it places a tile.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// Free tiles not tried yet.
    avail: u64,
    /// Tiles whose second rotation is still to try.
    twice: u64,
    /// Tiles in use when the cell was entered.
    used: u64,
    key: *const Key,
    /// Candidate placed.
    idx: u32,
    /// South colour the placed candidate shows.
    south: u32,
    /// The cell's key base (constant).
    base: u32,
}

impl FastTable {
    /// The fast form of `table` for the cells `cells` of a board `cols`
    /// wide with `nc` colours, or `None` when the walk cannot take it: a
    /// tile id over 63, a tile three times in one list, or a last-column
    /// cell that may show a colour to the east.
    pub(super) fn new(table: &Table, cells: &[CellInfo], cols: usize, nc: usize) -> Option<FastTable> {
        let n_keys = table.start.len() - 1;
        let (mut keys, mut shows, mut general) = (Vec::with_capacity(n_keys), Vec::new(), Vec::new());
        for k in 0..n_keys {
            let range = table.start[k] as usize..table.start[k + 1] as usize;
            let mut key = Key::default();
            let mut seconds = Vec::new();
            key.first = shows.len() as u32;
            // Sorted by (tile, rotation): the first rotation comes first.
            for i in range {
                let c = table.cands[i];
                if c.tile >= 64 {
                    return None;
                }
                let bit = 1u64 << c.tile;
                let s = Shows { east_key: c.east_key, south: c.south as u32 };
                if key.tiles & bit == 0 {
                    key.tiles |= bit;
                    shows.push(s);
                    general.push(i as u32);
                } else if key.twice & bit == 0 {
                    key.twice |= bit;
                    seconds.push((s, i as u32));
                } else {
                    return None;
                }
            }
            key.second = shows.len() as u32;
            for (s, i) in seconds {
                shows.push(s);
                general.push(i);
            }
            keys.push(key);
        }
        let block = nc * nc;
        for (cell, info) in cells.iter().enumerate() {
            if cell % cols + 1 == cols {
                let base = info.base as usize;
                let lo = table.start[base] as usize;
                let hi = table.start[base + block] as usize;
                if table.cands[lo..hi].iter().any(|c| c.east_key != 0) {
                    return None;
                }
            }
        }
        Some(FastTable { keys, shows, general })
    }
}

/// Whether the processor has POPCNT (checked at run time; without it a
/// rank costs a dozen instructions).
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Why [`run_body`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The first free cell is exhausted: the search is over.
    Done,
    /// The board is full (the walker is at the last cell).
    Board,
    /// The node count reached the poll point.
    Poll,
}

/// The walk's moving state, kept in registers by [`run_body`] and saved here
/// when it returns.
struct Walker {
    /// Frame of the current cell.
    f: *mut Frame,
    /// Tiles in use when the current cell was entered.
    used: u64,
    avail: u64,
    twice: u64,
    /// The current cell's key.
    kp: *const Key,
    nodes: u64,
}

/// What [`run_body`] reads: the frames of the first free cell and of the last
/// cell, the distance in bytes to the north neighbour's frame, the tables, and
/// the node count at which to return [`Event::Poll`].
#[derive(Clone, Copy)]
struct Bounds {
    first: *mut Frame,
    last: *mut Frame,
    /// `cols` frames, in bytes.
    north: usize,
    keys: *const Key,
    shows: *const Shows,
    poll_at: u64,
}

/// The inner loop of the fast walk: no call, so that its state stays in
/// registers. Tries the candidates of the current cell, enters the next
/// cell after each placement, backs up from exhausted cells, and returns
/// on an [`Event`]; called again, it goes on where it stopped.
///
/// # Safety
/// `w.f` lies in `b.first..=b.last`, the frames from `b.north` bytes before `b.first` to
/// `b.last` are valid, and every key index (a cell base plus an east key
/// plus a south colour) and candidate index met is in its table (the
/// [`FastTable`] invariants).
#[inline(always)]
unsafe fn run_body(w: &mut Walker, b: Bounds) -> Event {
    let Walker { mut f, mut used, mut avail, mut twice, mut kp, mut nodes } = *w;
    let event = loop {
        if avail == 0 {
            // The cell is exhausted: back to the previous one.
            if f == b.first {
                break Event::Done;
            }
            f = f.sub(1);
            (avail, twice, used, kp) = ((*f).avail, (*f).twice, (*f).used, (*f).key);
            continue;
        }
        let bit = avail & avail.wrapping_neg();
        let below = bit - 1;
        let key = &*kp;
        let idx = if twice & bit != 0 {
            twice ^= bit;
            key.first + (key.tiles & below).count_ones()
        } else {
            avail ^= bit;
            if key.twice & bit != 0 {
                key.second + (key.twice & below).count_ones()
            } else {
                key.first + (key.tiles & below).count_ones()
            }
        };
        let c = *b.shows.add(idx as usize);
        (*f).avail = avail;
        (*f).twice = twice;
        (*f).used = used;
        (*f).key = kp;
        (*f).idx = idx;
        (*f).south = c.south;
        nodes += 1;
        if f == b.last {
            break Event::Board;
        }
        // Enter the next cell.
        used |= bit;
        f = f.add(1);
        kp = b.keys.add(((*f).base + c.east_key + (*f.byte_sub(b.north)).south) as usize);
        avail = (*kp).tiles & !used;
        twice = (*kp).twice;
        if nodes == b.poll_at {
            break Event::Poll;
        }
    };
    *w = Walker { f, used, avail, twice, kp, nodes };
    event
}

/// [`run_body`] compiled with POPCNT.
///
/// # Safety
/// As [`run_body`]; the processor has POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline(never)]
unsafe fn run_popcnt(w: &mut Walker, b: Bounds) -> Event {
    run_body(w, b)
}

/// [`run_body`] for any processor.
///
/// # Safety
/// As [`run_body`].
#[inline(never)]
unsafe fn run_plain(w: &mut Walker, b: Bounds) -> Event {
    run_body(w, b)
}

impl Scan {
    /// [`Scan::walk`] on the fast form `fast` of `table`.
    ///
    /// `frames[cols + p]` is cell `p`'s frame; the first `cols` frames are
    /// the grey above row 0 (south 0), so the north neighbour's frame is
    /// always `cols` frames back.
    pub(super) fn walk_fast(
        &self,
        table: &Table,
        fast: &FastTable,
        prefix: &[u32],
        poll: &mut dyn FnMut(u64) -> Option<StopReason>,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        let (n, cols) = (self.rows * self.cols, self.cols);
        assert!(prefix.len() < n && self.cells.len() == n);
        let keys = &fast.keys[..];
        let empty = Frame { avail: 0, twice: 0, used: 0, key: keys.as_ptr(), idx: 0, south: 0, base: 0 };
        let mut frames = vec![empty; cols + n];
        for (f, info) in frames[cols..].iter_mut().zip(&self.cells) {
            f.base = info.base;
        }
        let (mut used, mut east) = (0u64, 0u32);
        for (cell, &i) in prefix.iter().enumerate() {
            let c = table.cands[i as usize];
            used |= 1u64 << c.tile;
            frames[cols + cell].south = c.south as u32;
            east = c.east_key;
        }
        let mut options: Vec<OptionId> = vec![0; n];
        let popcnt = has_popcnt();
        let mut solutions = 0u64;
        let fp = frames.as_mut_ptr();
        // SAFETY: the frames from fp to fp + cols + n - 1 are `frames`,
        // which is not touched otherwise while the walk runs; prefix.len()
        // < n. The first key index is a base plus an east key plus a
        // south colour, a key by the table's construction.
        let (mut w, mut b) = unsafe {
            let first = fp.add(cols + prefix.len());
            let k = ((*first).base + east + (*first.sub(cols)).south) as usize;
            assert!(k < keys.len());
            let kp = keys.as_ptr().add(k);
            let w = Walker { f: first, used, avail: (*kp).tiles & !used, twice: (*kp).twice, kp, nodes: 0 };
            let last = fp.add(cols + n - 1);
            let north = cols * std::mem::size_of::<Frame>();
            let b = Bounds { first, last, north, keys: keys.as_ptr(), shows: fast.shows.as_ptr(), poll_at: 0 };
            (w, b)
        };
        let stopped = loop {
            b.poll_at = (w.nodes | POLL_MASK) + 1;
            // SAFETY: the walker starts (and stays) within first..=last;
            // see above and run_body.
            let event = unsafe {
                #[cfg(target_arch = "x86_64")]
                if popcnt {
                    run_popcnt(&mut w, b)
                } else {
                    run_plain(&mut w, b)
                }
                #[cfg(not(target_arch = "x86_64"))]
                run_plain(&mut w, b)
            };
            if event == Event::Done {
                break None;
            }
            if event == Event::Board {
                solutions += 1;
                // SAFETY: as above; the walk is not running.
                let placed = unsafe { std::slice::from_raw_parts(fp.add(cols), n) };
                if self.report_fast(table, fast, prefix, placed, &mut options, visit) == Flow::Stop {
                    break Some(StopReason::Visitor);
                }
            }
            if w.nodes & POLL_MASK == 0 {
                if let Some(stop) = poll(w.nodes) {
                    break Some(stop);
                }
            }
        };
        let _ = popcnt;
        SearchStats { nodes: w.nodes, solutions, stopped, ..SearchStats::default() }
    }

    /// Passes the board of `frames` (one per cell; the first
    /// `prefix.len()` cells placed by `prefix`) to `visit` as option ids.
    #[cold]
    #[inline(never)]
    fn report_fast(
        &self,
        table: &Table,
        fast: &FastTable,
        prefix: &[u32],
        frames: &[Frame],
        options: &mut [OptionId],
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Flow {
        for (cell, o) in options.iter_mut().enumerate() {
            let i = if cell < prefix.len() { prefix[cell] } else { fast.general[frames[cell].idx as usize] } as usize;
            *o = self.option_of[&(table.cands[i].tile as u32, cell as u32, table.rotation[i])];
        }
        visit(options)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Scan, ScanConfig};
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    use crate::edgematch::ir::{board_of, to_problem};
    use crate::edgematch::{brendan_set2, Clue, EdgePuzzle};
    use crate::ir::{verify, OptionId, Solution};
    use crate::search::{Engine, Flow, Limits, SearchStats};

    /// The boards in the order found (each verified on the IR and on the
    /// board) and the statistics of `scan` under `limits`.
    fn run(scan: &mut Scan, p: &EdgePuzzle, limits: &Limits) -> (Vec<Vec<OptionId>>, SearchStats) {
        let problem = to_problem(p);
        let mut out = Vec::new();
        let stats = scan.run(limits, &mut |s| {
            verify(&problem, &Solution { options: s.to_vec() }).unwrap();
            board_of(p, &problem, s).check_solution(p).unwrap();
            out.push(s.to_vec());
            Flow::Continue
        });
        (out, stats)
    }

    /// The fast and the general walk of `p` (with `config`, `threads`)
    /// find the same boards in the same order in the same nodes.
    fn same_walks(p: &EdgePuzzle, config: ScanConfig, threads: usize, limits: &Limits) -> usize {
        let problem = to_problem(p);
        let mut fast = Scan::with_config(p, &problem, config).unwrap().with_threads(threads);
        assert!(fast.tables.iter().all(|t| t.fast.is_some()), "{}", p.name);
        let mut general = Scan::with_config(p, &problem, config).unwrap().with_threads(threads);
        for t in &mut general.tables {
            t.fast = None;
        }
        let (mut a, sa) = run(&mut fast, p, limits);
        let (mut b, sb) = run(&mut general, p, limits);
        if threads > 1 {
            a.sort();
            b.sort();
        }
        let what = format!("{} {config:?} threads {threads}", p.name);
        assert_eq!(a, b, "{what}");
        assert_eq!((sa.nodes, sa.solutions, sa.stopped), (sb.nodes, sb.solutions, sb.stopped), "{what}");
        a.len()
    }

    #[test]
    fn fast_walk_matches_the_general_walk() {
        let mut puzzles: Vec<EdgePuzzle> = ["04x04", "05x04", "05x05", "06x04"].map(brendan_set2).into();
        for (rows, cols, style, seed) in [
            (3, 3, Style::Uniform { colors: 1 }, 0),
            (3, 4, Style::Uniform { colors: 2 }, 2),
            (4, 4, Style::Frame { border_colors: 1, inner_colors: 2 }, 3),
            (2, 5, Style::Uniform { colors: 2 }, 4),
            (4, 5, Style::Frame { border_colors: 2, inner_colors: 3 }, 5),
            (5, 5, Style::Uniform { colors: 3 }, 6),
            (4, 6, Style::Uniform { colors: 3 }, 7),
        ] {
            puzzles.push(generate(&GenerateSpec { rows, cols, style, seed }).unwrap().puzzle);
        }
        let mut twice = false;
        for p in &puzzles {
            // A tile showing one west and north colour in two rotations.
            twice |= p.tiles.iter().any(|t| (0..4).any(|r| t.0[r] == t.0[(r + 1) % 4] && t.0[r] == t.0[(r + 2) % 4]));
            for symmetry in [true, false] {
                let config = ScanConfig { symmetry };
                assert!(same_walks(p, config, 1, &Limits::none()) > 0, "{}", p.name);
                same_walks(p, config, 2, &Limits::none());
                let limits = Limits { max_nodes: Some(1 << 16), ..Limits::default() };
                same_walks(p, config, 1, &limits);
            }
        }
        assert!(twice, "no puzzle has a tile twice in one list");
    }

    #[test]
    fn fast_walk_keeps_clues() {
        for seed in [8, 9] {
            let mut g =
                generate(&GenerateSpec { rows: 4, cols: 4, style: Style::Uniform { colors: 2 }, seed }).unwrap();
            for (row, col) in [(1, 1), (0, 3), (2, 3)] {
                let p = g.solution.cells[row * 4 + col].unwrap();
                g.puzzle.clues.push(Clue { tile: p.tile as usize, row, col, rotation: p.rotation });
            }
            assert!(same_walks(&g.puzzle, ScanConfig::default(), 1, &Limits::none()) > 0);
        }
    }

    #[test]
    fn boards_over_64_tiles_take_the_general_walk() {
        let g = generate(&GenerateSpec { rows: 9, cols: 8, style: Style::Uniform { colors: 6 }, seed: 1 }).unwrap();
        let problem = to_problem(&g.puzzle);
        let scan = Scan::new(&g.puzzle, &problem).unwrap();
        assert!(scan.tables.iter().all(|t| t.fast.is_none()));
        let g = generate(&GenerateSpec { rows: 8, cols: 8, style: Style::Uniform { colors: 6 }, seed: 1 }).unwrap();
        let scan = Scan::new(&g.puzzle, &to_problem(&g.puzzle)).unwrap();
        assert!(scan.tables.iter().all(|t| t.fast.is_some()));
    }
}
