//! The scan walk for boards of at most 128 tiles: the tiles in use are one
//! mask (a `u64` up to 64 tiles, two words up to 128), and each candidate
//! list is a tile mask, so that the free candidates of a cell are
//! `tiles & !used`, computed once when the cell is entered, and the next
//! one is its lowest bit. Used tiles are never looked at and nothing is
//! scanned; a cell with no free candidate is left at once. One walk source
//! serves both widths ([`TileMask`]).
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
use std::fmt::Debug;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// `assert!` in tests and debug builds only: the invariants the unsafe
/// walk relies on, checked where it relies on them.
macro_rules! check {
    ($($arg:tt)*) => {
        if cfg!(any(test, debug_assertions)) {
            assert!($($arg)*);
        }
    };
}

/// A set of tiles, one bit per tile id.
pub(super) trait TileMask:
    Copy + Default + Eq + Debug + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    /// How many tiles it holds.
    const BITS: usize;
    /// The set of tile `t` (`t < BITS`).
    fn bit(t: usize) -> Self;
    fn is_empty(self) -> bool;
    /// The lowest tile of the set, as a set.
    fn lowest(self) -> Self;
    /// For a set of one tile: the tiles below it.
    fn below(self) -> Self;
    fn count(self) -> u32;
}

impl TileMask for u64 {
    const BITS: usize = u64::BITS as usize;
    #[inline(always)]
    fn bit(t: usize) -> Self {
        1 << t
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        self & self.wrapping_neg()
    }
    #[inline(always)]
    fn below(self) -> Self {
        self.wrapping_sub(1)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
}

/// 128 tiles in two words (low word first). A `u128` computes the same
/// with the same operations but is aligned to 16 bytes, which pads the
/// frames and keys: the walk then runs more instructions per node
/// (docs/tried/scan.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Pair(u64, u64);

impl Pair {
    /// As one `u128` (in registers: the carries of a negation or a
    /// decrement cross the words in two instructions).
    #[inline(always)]
    fn wide(self) -> u128 {
        self.0 as u128 | (self.1 as u128) << 64
    }
}

impl From<u128> for Pair {
    #[inline(always)]
    fn from(w: u128) -> Pair {
        Pair(w as u64, (w >> 64) as u64)
    }
}

impl BitAnd for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitand(self, o: Pair) -> Pair {
        Pair(self.0 & o.0, self.1 & o.1)
    }
}
impl BitOr for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitor(self, o: Pair) -> Pair {
        Pair(self.0 | o.0, self.1 | o.1)
    }
}
impl BitXor for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitxor(self, o: Pair) -> Pair {
        Pair(self.0 ^ o.0, self.1 ^ o.1)
    }
}
impl Not for Pair {
    type Output = Pair;
    #[inline(always)]
    fn not(self) -> Pair {
        Pair(!self.0, !self.1)
    }
}
impl TileMask for Pair {
    const BITS: usize = 128;
    #[inline(always)]
    fn bit(t: usize) -> Self {
        if t < 64 {
            Pair(1 << t, 0)
        } else {
            Pair(0, 1 << (t - 64))
        }
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0 | self.1 == 0
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        let w = self.wide();
        Pair::from(w & w.wrapping_neg())
    }
    #[inline(always)]
    fn below(self) -> Self {
        Pair::from(self.wide().wrapping_sub(1))
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.count_ones() + self.1.count_ones()
    }
}

/// One candidate list as tile masks.
///
/// Invariants: bit `t` of `twice` is set only if it is set in `tiles`;
/// the candidate of tile `t` (its first rotation) is at `first + rank`,
/// its second rotation at `second + rank2`, where `rank` / `rank2` count
/// the bits of `tiles` / `twice` below `t`.
#[derive(Clone, Copy, Debug, Default)]
struct Key<M> {
    tiles: M,
    twice: M,
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

/// A [`Table`] as masks of width `M`.
///
/// Invariants: `keys` has one entry per key of the table; every index a
/// `Key` gives is below `shows.len() == general.len()`; `general[i]` is
/// the index in the table of candidate `i` (for its tile and rotation).
#[derive(Debug)]
pub(super) struct Masks<M> {
    keys: Vec<Key<M>>,
    shows: Vec<Shows>,
    general: Vec<u32>,
}

/// The fast form of one [`Table`]: one `u64` per tile set on boards of at
/// most 64 tiles, one [`Pair`] of words up to 128.
#[derive(Debug)]
pub(super) enum FastTable {
    Narrow(Masks<u64>),
    Wide(Masks<Pair>),
}

/// Search state of one cell, saved when it places a tile.
#[derive(Clone, Copy, Debug)]
struct Frame<M> {
    /// Free tiles not tried yet.
    avail: M,
    /// Tiles whose second rotation is still to try.
    twice: M,
    /// Tiles in use when the cell was entered (set then).
    used: M,
    key: *const Key<M>,
    /// Candidate placed.
    idx: u32,
    /// South colour the placed candidate shows.
    south: u32,
    /// The cell's key base (constant).
    base: u32,
}

impl FastTable {
    /// The fast form of `table` for the cells `cells` of a board `cols`
    /// wide with `nc` colours and `tiles` tiles, or `None` when the walk
    /// cannot take it: over 128 tiles, a tile three times in one list, or
    /// a last-column cell that may show a colour to the east.
    pub(super) fn new(table: &Table, cells: &[CellInfo], cols: usize, nc: usize, tiles: usize) -> Option<FastTable> {
        if tiles <= u64::BITS as usize {
            Masks::new(table, cells, cols, nc).map(FastTable::Narrow)
        } else if tiles <= Pair::BITS {
            Masks::new(table, cells, cols, nc).map(FastTable::Wide)
        } else {
            None
        }
    }
}

impl<M: TileMask> Masks<M> {
    /// [`FastTable::new`] for the width `M`.
    fn new(table: &Table, cells: &[CellInfo], cols: usize, nc: usize) -> Option<Masks<M>> {
        let n_keys = table.start.len() - 1;
        let (mut keys, mut shows, mut general) = (Vec::with_capacity(n_keys), Vec::new(), Vec::new());
        for k in 0..n_keys {
            let range = table.start[k] as usize..table.start[k + 1] as usize;
            let mut key = Key::<M>::default();
            let mut seconds = Vec::new();
            key.first = shows.len() as u32;
            // Sorted by (tile, rotation): the first rotation comes first.
            for i in range {
                let c = table.cands[i];
                if c.tile as usize >= M::BITS {
                    return None;
                }
                let bit = M::bit(c.tile as usize);
                let s = Shows { east_key: c.east_key, south: c.south as u32 };
                if (key.tiles & bit).is_empty() {
                    key.tiles = key.tiles | bit;
                    shows.push(s);
                    general.push(i as u32);
                } else if (key.twice & bit).is_empty() {
                    key.twice = key.twice | bit;
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
        Some(Masks { keys, shows, general })
    }
}

/// Whether the processor has POPCNT (checked at run time; without it a
/// rank costs a dozen instructions).
fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        crate::cpu::popcnt()
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
struct Walker<M> {
    /// Frame of the current cell (which holds the tiles in use).
    f: *mut Frame<M>,
    avail: M,
    twice: M,
    /// The current cell's key.
    kp: *const Key<M>,
    nodes: u64,
}

/// What [`run_body`] reads: the frames of the first free cell and of the last
/// cell, the distance in bytes to the north neighbour's frame, the tables, and
/// the node count at which to return [`Event::Poll`]. The frames' start and
/// the tables' lengths are for the checks of tests and debug builds.
#[derive(Clone, Copy)]
struct Bounds<M> {
    first: *mut Frame<M>,
    last: *mut Frame<M>,
    /// `cols` frames, in bytes.
    north: usize,
    keys: *const Key<M>,
    shows: *const Shows,
    poll_at: u64,
    frames: *const Frame<M>,
    n_keys: usize,
    n_shows: usize,
}

/// The inner loop of the fast walk: no call, so that its state stays in
/// registers. Tries the candidates of the current cell, enters the next
/// cell after each placement, backs up from exhausted cells, and returns
/// on an [`Event`]; called again, it goes on where it stopped.
///
/// # Safety
/// `w.f` lies in `b.first..=b.last`, the frames from `b.frames` (`b.north`
/// bytes before `b.first` or earlier) to `b.last` are valid, `w.kp` is in
/// `b.keys`, and every key index (a cell base plus an east key plus a south
/// colour) and candidate index met is in its table (the [`Masks`]
/// invariants).
#[inline(always)]
unsafe fn run_body<M: TileMask>(w: &mut Walker<M>, b: Bounds<M>) -> Event {
    let Walker { mut f, mut avail, mut twice, mut kp, mut nodes } = *w;
    let event = loop {
        check!(b.first <= f && f <= b.last);
        if avail.is_empty() {
            // The cell is exhausted: back to the previous one.
            if f == b.first {
                break Event::Done;
            }
            f = f.sub(1);
            (avail, twice, kp) = ((*f).avail, (*f).twice, (*f).key);
            continue;
        }
        let bit = avail.lowest();
        let below = bit.below();
        let key = &*kp;
        check!((key.twice & !key.tiles).is_empty() && (twice & !key.twice).is_empty());
        check!(!(key.tiles & bit).is_empty() && ((*f).used & bit).is_empty());
        let idx = if !(twice & bit).is_empty() {
            twice = twice ^ bit;
            key.first + (key.tiles & below).count()
        } else {
            avail = avail ^ bit;
            if !(key.twice & bit).is_empty() {
                key.second + (key.twice & below).count()
            } else {
                key.first + (key.tiles & below).count()
            }
        };
        check!((idx as usize) < b.n_shows);
        let c = *b.shows.add(idx as usize);
        (*f).avail = avail;
        (*f).twice = twice;
        (*f).key = kp;
        (*f).idx = idx;
        (*f).south = c.south;
        nodes += 1;
        if f == b.last {
            break Event::Board;
        }
        // Enter the next cell.
        let used = (*f).used | bit;
        f = f.add(1);
        (*f).used = used;
        let north = f.byte_sub(b.north);
        check!(b.frames <= north as *const Frame<M>);
        let k = ((*f).base + c.east_key + (*north).south) as usize;
        check!(k < b.n_keys);
        kp = b.keys.add(k);
        avail = (*kp).tiles & !used;
        twice = (*kp).twice;
        if nodes == b.poll_at {
            break Event::Poll;
        }
    };
    *w = Walker { f, avail, twice, kp, nodes };
    event
}

/// [`run_body`] compiled with POPCNT.
///
/// # Safety
/// As [`run_body`]; the processor has POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
#[inline(never)]
unsafe fn run_popcnt<M: TileMask>(w: &mut Walker<M>, b: Bounds<M>) -> Event {
    run_body(w, b)
}

/// [`run_body`] for any processor.
///
/// # Safety
/// As [`run_body`].
#[inline(never)]
unsafe fn run_plain<M: TileMask>(w: &mut Walker<M>, b: Bounds<M>) -> Event {
    run_body(w, b)
}

impl Scan {
    /// [`Scan::walk`] on the fast form `fast` of `table`.
    pub(super) fn walk_fast(
        &self,
        table: &Table,
        fast: &FastTable,
        prefix: &[u32],
        poll: &mut dyn FnMut(u64) -> Option<StopReason>,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        match fast {
            FastTable::Narrow(masks) => self.walk_masks(table, masks, prefix, poll, visit),
            FastTable::Wide(masks) => self.walk_masks(table, masks, prefix, poll, visit),
        }
    }

    /// [`Scan::walk_fast`] for the width `M`.
    ///
    /// `frames[cols + p]` is cell `p`'s frame; the first `cols` frames are
    /// the grey above row 0 (south 0), so the north neighbour's frame is
    /// always `cols` frames back.
    fn walk_masks<M: TileMask>(
        &self,
        table: &Table,
        fast: &Masks<M>,
        prefix: &[u32],
        poll: &mut dyn FnMut(u64) -> Option<StopReason>,
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> SearchStats {
        let (n, cols) = (self.rows * self.cols, self.cols);
        assert!(prefix.len() < n && self.cells.len() == n);
        let keys = &fast.keys[..];
        let empty = Frame {
            avail: M::default(),
            twice: M::default(),
            used: M::default(),
            key: keys.as_ptr(),
            idx: 0,
            south: 0,
            base: 0,
        };
        let mut frames = vec![empty; cols + n];
        for (f, info) in frames[cols..].iter_mut().zip(&self.cells) {
            f.base = info.base;
        }
        let (mut used, mut east) = (M::default(), 0u32);
        for (cell, &i) in prefix.iter().enumerate() {
            let c = table.cands[i as usize];
            used = used | M::bit(c.tile as usize);
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
            (*first).used = used;
            let w = Walker { f: first, avail: (*kp).tiles & !used, twice: (*kp).twice, kp, nodes: 0 };
            let last = fp.add(cols + n - 1);
            let north = cols * std::mem::size_of::<Frame<M>>();
            let b = Bounds {
                first,
                last,
                north,
                keys: keys.as_ptr(),
                shows: fast.shows.as_ptr(),
                poll_at: 0,
                frames: fp,
                n_keys: keys.len(),
                n_shows: fast.shows.len(),
            };
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
    fn report_fast<M: TileMask>(
        &self,
        table: &Table,
        fast: &Masks<M>,
        prefix: &[u32],
        frames: &[Frame<M>],
        options: &mut [OptionId],
        visit: &mut dyn FnMut(&[OptionId]) -> Flow,
    ) -> Flow {
        for (cell, o) in options.iter_mut().enumerate() {
            let i = if cell < prefix.len() { prefix[cell] } else { fast.general[frames[cell].idx as usize] } as usize;
            *o = self.option_of.get(cell, table.cands[i].tile as usize, table.rotation[i]);
        }
        visit(options)
    }
}

#[cfg(test)]
mod tests;
