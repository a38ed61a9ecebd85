//! de Bruijn's algorithm (Busche, "De Bruijn's Algorithm"): fill the first
//! empty cell in the engines' cell order. Every earlier cell is full, so
//! only images whose *root* (least cell) is that hole can fill it: one fit
//! test per orientation instead of one per orientation and cube.
//!
//! [`RootIndex`] refines the per-root lists by the occupancy of the few
//! cells right after the hole (a *window* of `width` bits): the list for a
//! window pattern holds only the images whose cells in the window are free,
//! so most images that cannot fit are never looked at. The search loop
//! ([`Walker::debruijn_kernel`]) is iterative and allocation-free: per depth
//! it keeps the position in one contiguous list of `(mask, image, group)`
//! entries; the remaining pieces are a bitmask (with counts when pieces
//! have identical copies).

mod lean;

pub use lean::LeanFrame;

use super::bits::Bits;
use super::hybrid::{take_group, Kind, Stop, Walker};
use super::model::Images;
use super::tables::Tables;
use crate::search::{Flow, StopReason};

/// Writes the images that fill the first empty cell and fit into `out`;
/// returns how many. `occ` includes the padding bits, so a free cell exists
/// whenever pieces remain.
#[inline]
pub fn candidates<B: Bits>(t: &Tables<B>, occ: B, avail: u128, out: &mut [u32]) -> usize {
    let Some(hole) = occ.not().lowest() else { return 0 };
    let mut n = 0;
    let mut gs = avail & t.root.groups[hole];
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let r = t.root.range(hole, g);
        for (m, &k) in t.root.mask[r.clone()].iter().zip(&t.root.img[r]) {
            if m.disjoint(&occ) {
                out[n] = k;
                n += 1;
            }
        }
    }
    n
}

/// One image of a root list: its cells and id, side by side.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Entry<B> {
    /// The image's cells.
    pub mask: B,
    /// Image id.
    pub img: u32,
    /// The image's piece group (in the padding after `img` for `u64` and
    /// `u128` masks), so a kernel need not keep the group of the run it
    /// scans.
    pub grp: u32,
}

/// The images rooted at each cell, by the occupancy of the `width` cells
/// after it, and by piece group.
///
/// Invariant: for cell `c` and pattern `p` (bit `i` set iff cell `c + 1 + i`
/// is occupied), key `k = (c << width) | p` has `groups[k]` = the groups
/// with an image in its lists, and with `G` groups the images of group `g`
/// are `entries[gstart[k * (G + 1) + g]..gstart[k * (G + 1) + g + 1]]`, in
/// image order: exactly the images of `g` whose least cell is `c` and whose
/// cells among `c + 1 ..= c + width` are all free under `p`. Groups are
/// below 64.
#[derive(Clone, Debug)]
pub struct RootIndex<B> {
    width: u32,
    n_groups: usize,
    groups: Vec<u64>,
    gstart: Vec<u32>,
    entries: Vec<Entry<B>>,
    /// The images by exact cell set, to place a last piece by one lookup.
    last: LastPiece<B>,
    /// Cells next to each image.
    halo: Vec<B>,
    /// Whether an empty cell with no empty neighbour is a dead end (no
    /// piece has a single cell).
    prune_single: bool,
    /// The cells as rows of a flat box, when they are: the single-cell
    /// check is then a few shifts instead of a walk over the halo.
    rows: Option<Rows<B>>,
    /// The entries' cells and groups as a structure of arrays for the
    /// AVX2 fit test of [`lean`], when it applies (the processor has AVX2,
    /// at most 128 cells, no key with more than 64 entries).
    simd: Option<Soa>,
}

/// Entry `i` of [`RootIndex::entries`] as a structure of arrays: `lo[i]`
/// its cells `0..64`, `hi[i]` its cells `64..128` (no `hi` for boxes of at
/// most 64 cells), `grp[i]` its group, `img[i]` its image.
/// Invariant: `lo`, `grp` (and `hi` when not empty) have the entries'
/// length plus [`SOA_PAD`], the padding words zero (the 8 words from any
/// entry, and from the end, are inside); `img` has the entries' length.
#[derive(Clone, Debug)]
struct Soa {
    lo: Vec<u64>,
    hi: Vec<u64>,
    grp: Vec<u8>,
    img: Vec<u32>,
}

/// Padding words after the [`Soa`] arrays.
const SOA_PAD: usize = 8;

/// The widest window when the lean loop's AVX2 copy applies: a key's fit
/// bits cost little per entry there, and the narrower index misses the
/// caches less (docs/poly.md, round 10: 10x6 41.3 against 41.5 ms, 12x5
/// 19.1 against 20.3 ms, one-sided 30x3 15.8 against 16.4 ms at width 7).
const SIMD_WINDOW: u32 = 6;

/// Whether the processor and masks `B` allow a [`Soa`]: at most 128
/// cells, AVX2 and the bit instructions (`EMX_NO_AVX2` in the environment
/// says no).
fn simd_possible<B: Bits>() -> bool {
    B::CAPACITY <= 128 && super::cover::has_avx2() && std::env::var_os("EMX_NO_AVX2").is_none()
}

/// A flat box whose cell `c` has exactly the neighbours `c + 1` (if `c`
/// is in `right`), `c - 1` (if in `left`), `c + width` and `c - width`
/// (when those are cells): the free cells with a free neighbour are then
/// `(free >> 1 & right) | (free << 1 & left) | free >> width | free <<
/// width`, the free set having no bit past the last cell.
#[derive(Clone, Copy, Debug)]
struct Rows<B> {
    right: B,
    left: B,
    width: u32,
}

impl<B: Bits> Rows<B> {
    /// The row layout of the cells with neighbour lists `nb`, if they have one.
    fn of(nb: &[Vec<u32>]) -> Option<Self> {
        let n = nb.len();
        let width = nb
            .iter()
            .enumerate()
            .flat_map(|(c, bs)| bs.iter().map(move |&b| b as usize).filter(move |&b| b > c + 1).map(move |b| b - c))
            .min()?;
        let (mut right, mut left) = (B::default(), B::default());
        for (c, bs) in nb.iter().enumerate() {
            if bs.contains(&(c as u32 + 1)) {
                right = right.or(B::bit(c));
            }
            if c > 0 && bs.contains(&(c as u32 - 1)) {
                left = left.or(B::bit(c));
            }
        }
        for (c, bs) in nb.iter().enumerate() {
            let mut want: Vec<usize> = Vec::new();
            if right.test(c) {
                want.push(c + 1);
            }
            if left.test(c) {
                want.push(c - 1);
            }
            if c + width < n {
                want.push(c + width);
            }
            if c >= width {
                want.push(c - width);
            }
            let mut have: Vec<usize> = bs.iter().map(|&b| b as usize).collect();
            want.sort_unstable();
            have.sort_unstable();
            if want != have {
                return None;
            }
        }
        Some(Rows { right, left, width: width as u32 })
    }

    /// The members of `free` with a member of `free` next to them.
    #[inline(always)]
    fn with_free_neighbour(&self, free: B) -> B {
        free.shr(1).and(self.right).or(free.shl(1).and(self.left)).or(free.shr(self.width)).or(free.shl(self.width))
    }
}

/// Memory the index may take (bytes); the window narrows to stay below.
const INDEX_BUDGET: usize = 24 << 20;

impl<B: Bits> RootIndex<B> {
    /// Builds the index with the widest window (at most `max_width` bits,
    /// at most [`SIMD_WINDOW`] for the lean loop's AVX2 copy) that fits
    /// the memory budget, and its [`Soa`] for that copy when no key has
    /// more than 64 entries. Needs at most 64 groups.
    pub fn new(images: &Images, masks: &[B], max_width: u32) -> Self {
        assert!(images.groups.len() <= 64);
        let n = images.n_cells;
        let n_groups = images.groups.len();
        let entry = std::mem::size_of::<Entry<B>>();
        let per_key = 8 + 4 * (n_groups + 1);
        let nb = images.neighbours();
        let prune_single = images.groups.iter().all(|g| g.size > 1);
        let rows = Rows::of(&nb);
        // The lean loop's AVX2 copy applies (when no key has more than 64
        // entries; triggers and copies of pieces are the walker's to see).
        let lean_simd = rows.is_some() && prune_single && simd_possible::<B>();
        let mut width = max_width.min(if lean_simd { SIMD_WINDOW } else { 16 });
        let copies = loop {
            let copies: usize = images
                .cells
                .iter()
                .map(|cs| {
                    let root = cs[0] as usize;
                    let inside = cs.iter().filter(|&&c| (c as usize) > root && (c as usize) <= root + width as usize);
                    1usize << (width as usize - inside.count())
                })
                .sum();
            if width == 0 || copies * entry + (n << width) * per_key <= INDEX_BUDGET {
                break copies;
            }
            width -= 1;
        };
        let mut rooted: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, cs) in images.cells.iter().enumerate() {
            rooted[cs[0] as usize].push(k as u32);
        }
        let g1 = n_groups + 1;
        let n_pat = 1usize << width;
        let all = (n_pat - 1) as u64;
        let mut groups = Vec::with_capacity(n << width);
        let mut gstart = vec![0u32; (n << width) * g1];
        let mut entries = Vec::with_capacity(copies);
        // Per root cell, by counting: an image belongs to the lists of the
        // patterns that leave its window cells free, the subsets of the
        // complement of its window bits. The images of the cell are taken
        // in (group, image) order, so each list comes out in image order.
        // The work is the index's size, not patterns times images.
        let mut cand: Vec<(u64, u16, Entry<B>)> = Vec::new();
        // `count[p * n_groups + g]`: images of group `g` in pattern `p`'s
        // list, then the next free position of that list in `entries`.
        let mut count = vec![0u32; n_pat * n_groups];
        let mut filled = 0usize;
        for (c, ks) in rooted.iter_mut().enumerate() {
            ks.sort_by_key(|&k| (images.group[k as usize], k));
            cand.clear();
            cand.extend(ks.iter().map(|&k| {
                let mask = masks[k as usize];
                let g = images.group[k as usize];
                (!mask.window(c + 1, width) & all, g, Entry { mask, img: k, grp: g as u32 })
            }));
            count.fill(0);
            for &(free, g, _) in &cand {
                let mut p = free;
                loop {
                    count[p as usize * n_groups + g as usize] += 1;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & free;
                }
            }
            for p in 0..n_pat {
                let key = (c << width) | p;
                let starts = &mut gstart[key * g1..(key + 1) * g1];
                let counts = &mut count[p * n_groups..(p + 1) * n_groups];
                let mut present = 0u64;
                for (g, (start, n_in)) in starts.iter_mut().zip(counts.iter_mut()).enumerate() {
                    let k = *n_in;
                    *start = filled as u32;
                    *n_in = filled as u32;
                    present |= u64::from(k != 0) << g;
                    filled += k as usize;
                }
                starts[n_groups] = filled as u32;
                groups.push(present);
            }
            entries.resize(filled, Entry { mask: B::default(), img: 0, grp: 0 });
            for &(free, g, e) in &cand {
                let mut p = free;
                loop {
                    let at = &mut count[p as usize * n_groups + g as usize];
                    entries[*at as usize] = e;
                    *at += 1;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & free;
                }
            }
        }
        let last = LastPiece::new(images, masks);
        let halo = images
            .cells
            .iter()
            .enumerate()
            .map(|(k, cs)| {
                cs.iter()
                    .flat_map(|&c| nb[c as usize].iter())
                    .fold(B::default(), |h, &b| h.or(B::bit(b as usize)))
                    .andnot(masks[k])
            })
            .collect();
        let longest = (0..groups.len()).map(|key| gstart[key * g1 + n_groups] - gstart[key * g1]).max().unwrap_or(0);
        let simd = (longest <= 64 && lean_simd).then(|| {
            let pad = |v: Vec<u64>| v.into_iter().chain([0; SOA_PAD]).collect::<Vec<u64>>();
            Soa {
                lo: pad(entries.iter().map(|e| e.mask.low64()).collect()),
                hi: if B::CAPACITY > 64 {
                    pad(entries.iter().map(|e| e.mask.shr(64).low64()).collect())
                } else {
                    Vec::new()
                },
                grp: entries.iter().map(|e| e.grp as u8).chain([0; SOA_PAD]).collect(),
                img: entries.iter().map(|e| e.img).collect(),
            }
        });
        RootIndex { width, n_groups, groups, gstart, entries, last, halo, prune_single, rows, simd }
    }

    /// Window width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }
}

/// An open-addressing table from an image's exact cell set to the image.
///
/// Invariant: `slots.len()` is a power of two at least twice the number
/// of images; a slot holds `(mask, image)` or `u32::MAX` as image when
/// empty; every image sits in the first free slot of its probe sequence
/// (linear probing from `hash(mask)`). Masks of distinct images differ
/// (identical pieces form one group; distinct groups differ in shape).
#[derive(Clone, Debug)]
struct LastPiece<B> {
    slots: Vec<(B, u32)>,
    shift: u32,
}

impl<B: Bits> LastPiece<B> {
    fn new(images: &Images, masks: &[B]) -> Self {
        let bits = (2 * images.len().max(1)).next_power_of_two().trailing_zeros().max(1);
        let mut t = LastPiece { slots: vec![(B::default(), u32::MAX); 1 << bits], shift: 64 - bits };
        for (k, m) in masks.iter().enumerate() {
            let mut i = t.slot(m);
            while t.slots[i].1 != u32::MAX {
                if t.slots[i].0 == *m {
                    break;
                }
                i = (i + 1) & (t.slots.len() - 1);
            }
            if t.slots[i].1 == u32::MAX {
                t.slots[i] = (*m, k as u32);
            }
        }
        t
    }

    #[inline(always)]
    fn slot(&self, m: &B) -> usize {
        (m.hash64().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The image covering exactly `cells`, if any.
    #[inline(always)]
    fn find(&self, cells: &B) -> Option<u32> {
        let mut i = self.slot(cells);
        loop {
            // SAFETY: `i` is masked to the table size.
            let (m, k) = unsafe { *self.slots.get_unchecked(i) };
            if k == u32::MAX {
                return None;
            }
            if m == *cells {
                return Some(k);
            }
            i = (i + 1) & (self.slots.len() - 1);
        }
    }
}

/// Marks the branch that calls it as rarely taken (a call to a cold
/// function), so the compiler lays the hot path out around it and keeps
/// its registers there: `std::hint::cold_path` before Rust 1.95 (the
/// crate's minimum is older).
#[cold]
#[inline(never)]
pub(super) fn cold_path() {}

/// Least number of pieces left at which a node's state is looked up in
/// (and, when dead, added to) the cache of dead states.
const MEMO_MIN: u32 = 3;

/// The state of one depth of the de Bruijn loop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    /// Groups still to try.
    gs: u64,
    /// Index in `gstart` of the node's key.
    kg: u32,
    /// Group being tried.
    g: u32,
    /// Next entry of that group.
    cur: u32,
    /// Solutions found before the placement made at this depth (to tell
    /// whether the child's subtree held one).
    sols: u64,
}

impl<B: Bits> Walker<'_, B> {
    /// de Bruijn's algorithm from this node down to the leaves or to the
    /// next stage of the schedule, every branch searched. Needs at most 64
    /// piece groups and a [`RootIndex`]. `TRIG`: backtrack triggers are on;
    /// `MULTI`: some group has copies (counts instead of one bit per group)
    /// or a DLX branch above excluded images (`lo`).
    ///
    /// The last piece is placed by looking the empty cells up among the
    /// images instead of scanning the hole's lists.
    pub(super) fn debruijn_kernel<const TRIG: bool, const MULTI: bool>(
        &mut self,
        visit: &mut super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        if !TRIG && !MULTI && self.lean_applies() {
            return self.debruijn_lean(visit);
        }
        // Dead states are cached only when the state is (occupancy,
        // available groups): no copies, no excluded rows.
        if !MULTI && !self.dead.off {
            self.debruijn_loop::<TRIG, MULTI, true>(visit)
        } else {
            self.debruijn_loop::<TRIG, MULTI, false>(visit)
        }
    }

    /// [`Self::debruijn_kernel`], `MEMO`: with the cache of dead states.
    fn debruijn_loop<const TRIG: bool, const MULTI: bool, const MEMO: bool>(
        &mut self,
        visit: &mut super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let idx = s.bruijn.as_ref().expect("de Bruijn stages have a root index");
        let entries = &idx.entries[..];
        let gstart = &idx.gstart[..];
        let groups = &idx.groups[..];
        let g1 = idx.n_groups + 1;
        let group_of = &s.tables.group[..];
        let halo = &idx.halo[..];
        let rows = idx.rows;
        // Copies of the index's scalars: locals stay put across the calls
        // in the loop, fields behind `idx` are read again after each.
        let (width, prune_single) = (idx.width, idx.prune_single);
        // The kernel runs while de Bruijn is the stage; `handover` is the
        // remaining-piece count at which the next stage takes over (0: none).
        let handover = (1..self.n_left).rev().find(|&n| s.stage_of[n as usize] != Kind::DeBruijn).unwrap_or(0);
        let base = self.depth;
        let mut d = base;
        let mut occ = self.occ;
        let mut avail = self.avail as u64;
        let (mut left, lo) = if MULTI { self.group_arrays() } else { ([0; 64], [0; 64]) };
        let mut n_left = self.n_left;
        let mut nodes = self.nodes;
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        let mut frames = std::mem::take(&mut self.frames);
        let mut dead = std::mem::take(&mut self.dead);
        debug_assert!(frames.len() > base + n_left as usize);
        // SAFETY (all unchecked accesses below): `kg + g + 1 < gstart.len()`
        // for a key `kg / g1 < groups.len()` and a group `g < n_groups`;
        // `cur < end <= entries.len()` by the index invariant; depths stay
        // below `base + n_left <= frames.len()`.
        let (mut kg, mut gs, mut g, mut cur, mut end);
        // The path of placements below `base` is in `frames` (entry
        // `cur - 1` of each depth); `self.path` is filled for reports.
        let fill_path = |path: &mut [u32], frames: &[Frame], to: usize| {
            for (dd, f) in frames.iter().enumerate().take(to).skip(base) {
                path[dd] = unsafe { entries.get_unchecked(f.cur as usize - 1) }.img;
            }
        };
        let result: Result<(), Stop> = 'search: loop {
            // A node with pieces left.
            if n_left == 1 {
                // The empty cells must be exactly an image of the last piece.
                if let Some(k) = idx.last.find(&occ.not()) {
                    let gk = group_of[k as usize] as usize;
                    let ok = if MULTI { left[gk] > 0 && k >= lo[gk] } else { avail >> gk & 1 != 0 };
                    if ok {
                        cold_path();
                        nodes += 1;
                        self.solutions += 1;
                        fill_path(&mut self.path, &frames, d);
                        self.path[d] = k;
                        if visit(&self.path[..=d]) == Flow::Stop {
                            break 'search Err(Stop::Limit(StopReason::Visitor));
                        }
                    }
                }
                (gs, kg, g, cur, end) = (0, 0, 0, 0, 0);
            } else {
                let hole = occ.not().lowest().expect("free cells remain while pieces do");
                let key = (hole << width) | occ.window_after(hole, width) as usize;
                gs = avail & unsafe { *groups.get_unchecked(key) };
                kg = key * g1;
                (g, cur, end) = (0, 0, 0);
            }
            loop {
                loop {
                    while cur < end {
                        let e = unsafe { entries.get_unchecked(cur) };
                        cur += 1;
                        if (MULTI && e.img < lo[g as usize]) || !e.mask.disjoint(&occ) {
                            continue;
                        }
                        let gu = g as usize;
                        occ = occ.or(e.mask);
                        take_group::<MULTI>(&mut left, &mut avail, gu);
                        n_left -= 1;
                        nodes += 1;
                        if prune_single && n_left > 1 {
                            let free = occ.not();
                            let h = unsafe { *halo.get_unchecked(e.img as usize) }.and(free);
                            let dead = if let Some(rows) = &rows {
                                !h.andnot(rows.with_free_neighbour(free)).is_zero()
                            } else {
                                let mut h = h;
                                let mut dead = false;
                                while let Some(c) = h.pop_lowest() {
                                    if s.tables.neighbours[c].and(free).is_zero() {
                                        dead = true;
                                        break;
                                    }
                                }
                                dead
                            };
                            if dead {
                                occ = occ.andnot(e.mask);
                                n_left += 1;
                                if MULTI {
                                    left[gu] += 1;
                                }
                                avail |= 1 << g;
                                continue;
                            }
                        }
                        if MEMO && n_left >= MEMO_MIN && dead.contains(&occ, avail) {
                            occ = occ.andnot(e.mask);
                            n_left += 1;
                            avail |= 1 << g;
                            continue;
                        }
                        let f = Frame { gs, kg: kg as u32, g, cur: cur as u32, sols: self.solutions };
                        unsafe { *frames.get_unchecked_mut(d) = f };
                        // The common case first: an inner node, no triggers,
                        // no hand-over, no poll.
                        if !TRIG && n_left != 0 && n_left != handover && nodes & super::hybrid::POLL_MASK != 0 {
                            d += 1;
                            continue 'search;
                        }
                        let mut descend = true;
                        if n_left == 0 {
                            cold_path();
                            self.solutions += 1;
                            fill_path(&mut self.path, &frames, d + 1);
                            if visit(&self.path[..=d]) == Flow::Stop {
                                break 'search Err(Stop::Limit(StopReason::Visitor));
                            }
                            descend = false;
                        } else if TRIG || n_left == handover {
                            if !TRIG {
                                cold_path();
                            }
                            // The parity and volume states are kept only when
                            // triggers read them (bit-field stages use no filters).
                            self.sync(occ, avail, &left, n_left, d + 1, nodes);
                            if TRIG {
                                self.constraints_place(e.img);
                                descend = self.triggers_ok();
                            }
                            if descend && n_left == handover {
                                fill_path(&mut self.path, &frames, d + 1);
                                // A later de Bruijn stage uses the depths
                                // below ours of the same stack.
                                self.frames = std::mem::take(&mut frames);
                                self.dead = std::mem::take(&mut dead);
                                let r = self.node(visit);
                                frames = std::mem::take(&mut self.frames);
                                dead = std::mem::take(&mut self.dead);
                                nodes = self.nodes;
                                descend = false;
                                if r.is_err() {
                                    break 'search r;
                                }
                            }
                            if TRIG && !descend {
                                self.constraints_unplace(e.img);
                            }
                        }
                        if nodes & super::hybrid::POLL_MASK == 0 {
                            cold_path();
                            self.nodes = nodes;
                            if MEMO {
                                dead.review(nodes);
                            }
                            if let Err(stop) = self.tick() {
                                break 'search Err(stop);
                            }
                        }
                        if descend {
                            d += 1;
                            continue 'search;
                        }
                        // Undo a leaf placement.
                        occ = occ.andnot(e.mask);
                        n_left += 1;
                        if MULTI {
                            left[gu] += 1;
                        }
                        avail |= 1 << g;
                    }
                    if gs == 0 {
                        break;
                    }
                    g = gs.trailing_zeros();
                    gs &= gs - 1;
                    unsafe {
                        cur = *gstart.get_unchecked(kg + g as usize) as usize;
                        end = *gstart.get_unchecked(kg + g as usize + 1) as usize;
                    }
                }
                // This node is done: back to the parent's list.
                if d == base {
                    cold_path();
                    break 'search Ok(());
                }
                d -= 1;
                let f = unsafe { *frames.get_unchecked(d) };
                if MEMO && n_left >= MEMO_MIN && self.solutions == f.sols {
                    dead.insert(occ, avail);
                }
                (gs, kg, g, cur) = (f.gs, f.kg as usize, f.g, f.cur as usize);
                end = unsafe { *gstart.get_unchecked(kg + g as usize + 1) } as usize;
                let e = unsafe { entries.get_unchecked(cur - 1) };
                occ = occ.andnot(e.mask);
                n_left += 1;
                if MULTI {
                    left[g as usize] += 1;
                }
                avail |= 1 << g;
                if TRIG {
                    self.constraints_unplace(e.img);
                }
            }
        };
        // On an early stop the walker is abandoned (a stopped search is
        // over): only the counters matter. On completion the state is as on
        // entry.
        self.frames = frames;
        self.dead = dead;
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(occ == occ_entry && n_left == n_left_entry && d == base);
            self.sync(occ, avail, &left, n_left, base, nodes);
        }
        self.nodes = nodes;
        self.depth = base;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbour lists of the cells of a `w` x `h` x `d` box, `x` fastest,
    /// without the cells in `holes` (the others renumbered in order).
    fn grid(w: i32, h: i32, d: i32, holes: &[[i32; 3]]) -> Vec<Vec<u32>> {
        let cells: Vec<[i32; 3]> = (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| [x, y, z])))
            .filter(|p| !holes.contains(p))
            .collect();
        let at = |p: [i32; 3]| cells.iter().position(|&q| q == p).map(|i| i as u32);
        cells
            .iter()
            .map(|&p| {
                let mut v = Vec::new();
                for axis in 0..3 {
                    for step in [-1, 1] {
                        let mut q = p;
                        q[axis] += step;
                        v.extend(at(q));
                    }
                }
                v
            })
            .collect()
    }

    #[test]
    fn rows_find_the_free_cells_with_a_free_neighbour() {
        for (w, h) in [(10, 6), (6, 10), (3, 20), (8, 8), (2, 2)] {
            let nb = grid(w, h, 1, &[]);
            let rows = Rows::<u64>::of(&nb).expect("a flat box is rows");
            let n = nb.len();
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let free = x & u64::below(n);
                let want =
                    (0..n).filter(|&c| nb[c].iter().any(|&b| free.test(b as usize))).fold(0u64, |m, c| m | 1 << c);
                assert_eq!(rows.with_free_neighbour(free) & free, want & free, "{w}x{h} free {free:#x}");
            }
        }
    }

    #[test]
    fn rows_refuse_boxes_that_are_not_rows() {
        assert!(Rows::<u64>::of(&grid(4, 3, 2, &[])).is_none());
        assert!(Rows::<u64>::of(&grid(8, 8, 1, &[[3, 3, 0], [4, 3, 0], [3, 4, 0], [4, 4, 0]])).is_none());
        assert!(Rows::<u64>::of(&grid(7, 1, 1, &[])).is_none());
    }
}
