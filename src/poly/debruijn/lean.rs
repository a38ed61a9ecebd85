//! The de Bruijn loop for the common case, with no call in its hot path:
//! no triggers, no copies or excluded rows, a flat box in rows, no piece of
//! one cell (so the single-cell check applies). The search itself runs in
//! [`run`], which returns to [`Walker::debruijn_lean`] on every rare event
//! (a solution, the hand-over to the next stage, the poll, the end) and is
//! re-entered where it left off: its registers hold only the search state,
//! never what a call or a visitor needs.
//!
//! Round 8 measured the general loop ([`Walker::debruijn_kernel`]) at 150
//! instructions per placement, about 70 of them per-node bookkeeping and
//! spills around its calls. Here the frame is three words and a flag (no
//! solution count: the flag is cleared along the path when a solution is
//! found), the group of an entry comes with the entry, the pieces left are
//! read off the frame pointer, and the cache's hit count is kept in memory.
//! 10x6 pentominoes: 120 instructions per placement (docs/poly.md, round 9).
//!
//! [`run_avx2`] is the same loop compiled for AVX2, chosen at run time when
//! the index has its [`Soa`]: a node's candidates are the set bits of its
//! list's fit bits, computed 4 entries per instruction at the node's start
//! ([`fit_bits`]), so the walk has no branch per entry, per run or per
//! group. 10x6: mispredicted branches 3.09 -> 2.14 M (docs/poly.md,
//! round 10). Since round 11 the list is the key's whole list, found by one
//! dense word per key ([`Soa::keys`]: no load of `groups` and `gstart` on
//! the way), and on boxes of at most 64 cells the same pass makes the
//! single-cell check of every fitting entry ([`fit_alive_bits`]): only live
//! placements are walked, the dead ones are counted as nodes at the node's
//! start, and the cache slots of the live children are prefetched there.
//! Since round 13 the same pass also rejects a placement that encloses a
//! new two-cell pocket when every piece has at least three cells (10x6:
//! 978 989 -> 925 412 nodes), and the cells already isolated or in pockets
//! are found once at the kernel's root. Since round 16 the halo and pocket
//! test runs only on the fitting entries, gathered 4 to a vector, after a
//! fit-only pass over the list (10x6: 171.4 -> 137.8 M instructions; 130.4 M
//! with the group masked before its shift).

use super::super::hybrid::{Stop, Visit, Walker, POLL_MASK};
use super::super::memo::{Kernel, PairTable, Probe};
use super::{Entry, LastPiece, Rows, Soa, MEMO_MIN};
use crate::poly::bits::Bits;
use crate::search::{Flow, StopReason};

mod pass;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

use pass::{fit_alive_bits, fit_bits, pair_cells, Halo};

/// What the loop reads and never changes.
struct Consts<'a, B> {
    entries: &'a [Entry<B>],
    gstart: &'a [u32],
    groups: &'a [u64],
    halo: &'a [B],
    group_of: &'a [u16],
    last: &'a LastPiece<B>,
    rows: Rows<B>,
    width: u32,
    g1: usize,
    /// Pieces left at which the next stage takes over (0: none).
    handover: u32,
    /// Depth of the kernel's root.
    base: usize,
    /// The entries as arrays for [`run_avx2`], when the index has them.
    soa: Option<&'a Soa>,
    /// Two-cell pockets are dead ends too (boxes of at most 64 cells; every
    /// piece has at least three cells).
    pair: bool,
}

/// One depth of the lean loop: where its scan stands. Addresses are kept
/// as integers (the walker stays `Send`); they point into the root index
/// of the search that wrote them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LeanFrame {
    /// Groups still to try.
    gs: u64,
    /// Address of `gstart[kg]` for the node's key (`kg` as in `Frame`);
    /// in [`run_avx2`], the index of the node's list.
    gp: usize,
    /// Address of the entry after the one placed at this depth; in
    /// [`run_avx2`], its index plus one.
    at: usize,
    /// No solution under the placement made at this depth yet (cleared
    /// along the path when one is found).
    clean: bool,
    /// The dead-state cache's tag ([`Probe::tag`]) of the state after the
    /// placement, when the placement looked it up (then the cache records
    /// it under this tag if its subtree is dead), else 0. The cache only
    /// switches off, never on: a frame written without a look-up is never
    /// recorded.
    tag: u64,
}

/// The search state between two calls of [`run`]. At an event the scan
/// position of depth `d` is in `frames[d]` (written by the placement).
struct State<B> {
    occ: B,
    avail: u64,
    /// Pieces left at the node of depth `d` (before its placement).
    n_left: u32,
    nodes: u64,
    d: usize,
    /// Cache hits since the last report to the cache's `add_hits`
    /// (counted in memory: rare, and kept out of the loop's registers).
    hits: u64,
    /// At [`Event::PollScan`]: the node's candidates still to try and its
    /// list's index (`gs` and `lbase` of [`run_avx2`]).
    scan: (u64, usize),
    /// `iso` and `iso2` of [`Halo`] at the kernel's root (AVX2 pass on
    /// one-word boxes).
    iso: (u64, u64),
    /// [`TAGS`] words per depth: in [`run_avx2`] on one-word boxes, with
    /// the cache, `tags[d * TAGS + j]` is the cache tag of the state after
    /// the placement of the `j`-th entry of the list of the node at depth
    /// `d`, written for its live placements when that node starts (where
    /// their slots are prefetched) and read when they are placed. The
    /// cache only switches off, never on: a node that started without the
    /// cache never looks its children up.
    tags: Vec<u64>,
}

/// Tags per depth in [`State::tags`]: a list has at most 64 entries.
const TAGS: usize = 64;

/// Where [`run`] resumes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Resume {
    /// A node at depth `d` with pieces left: scan it from the start.
    Start,
    /// Take back the placement of `frames[d]` and go on with its list.
    Undo,
    /// The node at depth `d` is done: back to its parent.
    Finish,
    /// Go on with the scan of the node at depth `d` from `scan`.
    Scan,
}

/// Why [`run`] returned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Event {
    /// The kernel's root node is done; the state is as on entry.
    Done,
    /// A placement at depth `d` left `handover` pieces (frame written).
    Handover,
    /// A placement at depth `d` made the node count a poll point; its
    /// child (depth `d + 1`) is still to be searched.
    Poll,
    /// The node at depth `d` has one piece left and image `k` fills it.
    Last(u32),
    /// The dead placements of the node at depth `d`, counted at its start
    /// by [`run_avx2`], took the node count past a multiple of the poll
    /// interval (its scan position in `scan`).
    PollScan,
}

/// The search from `resume` to the next event. `memo`: the cache of dead
/// states (used when `MEMO`).
///
/// The scan runs on addresses (entry, `gstart` row and frame pointers), so
/// the loop keeps no slice base in a register: occupancy, groups, pieces
/// left, the node count, the scan position and bound, the groups to try,
/// the key's row and the frame are its values.
#[inline(never)]
fn run<B: Bits, T: Probe<B>, const MEMO: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    run_body::<B, T, MEMO, false>(k, st, frames, memo, resume)
}

/// [`run`] compiled for AVX2, with the fit bits of a node's whole list
/// computed at its start, 4 entries per instruction.
///
/// # Safety
/// The processor has AVX2, BMI1, BMI2, POPCNT and LZCNT, and `k.soa` is
/// the index's [`Soa`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[inline(never)]
unsafe fn run_avx2<B: Bits, T: Probe<B>, const MEMO: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    run_body::<B, T, MEMO, true>(k, st, frames, memo, resume)
}

/// The loop of [`run`] and [`run_avx2`]. `SIMD`: a node's scan is the set
/// bits of its fit bits ([`fit_bits`], the frame's `gs`) over its list
/// from the first to the last available group (the frame's `gp` is the
/// list's index), and it reads the [`Soa`] only, not the entries;
/// otherwise it walks the runs of the available groups and tests each
/// entry.
#[inline(always)]
fn run_body<B: Bits, T: Probe<B>, const MEMO: bool, const SIMD: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    let (groups, halo) = (k.groups, k.halo);
    let (rows, width, g1, handover) = (k.rows, k.width, k.g1, k.handover);
    let eb = k.entries.as_ptr();
    let gb = k.gstart.as_ptr();
    assert!(k.base <= st.d && st.d < frames.len() && st.d + st.n_left as usize <= frames.len());
    assert!(!SIMD || k.soa.is_some());
    assert!(st.tags.len() >= frames.len() * TAGS);
    let tb = st.tags.as_mut_ptr();
    let (sl, sh, sg, si, sk) = match k.soa {
        Some(s) if SIMD => (s.lo.as_ptr(), s.hi.as_ptr(), s.grp.as_ptr(), s.img.as_ptr(), s.keys.as_ptr()),
        _ => (std::ptr::null(), std::ptr::null(), std::ptr::null(), std::ptr::null(), std::ptr::null()),
    };
    let two = B::CAPACITY > 64;
    // The free cells with no free neighbour, and those in two-cell
    // pockets, for the single-cell and pocket checks of the AVX2 pass: the
    // same at every node the pass runs at as at the kernel's root, where
    // they are found (such cells stay free: no piece of one cell, or of two
    // when pockets are checked; every checked placement that would make
    // new ones is rejected; the unchecked last placements make no node
    // that runs the pass).
    let (right, left) = (rows.right.low64(), rows.left.low64());
    if SIMD && !two && resume == Resume::Start && st.d == k.base {
        let free = st.occ.not();
        let iso = free.andnot(rows.with_free_neighbour(free)).low64();
        st.iso = (iso, if k.pair { pair_cells(free.low64(), right, left, rows.width) } else { !0 });
    }
    let (iso, iso2) = st.iso;
    let fb = frames.as_mut_ptr();
    let mut occ = st.occ;
    let mut avail = st.avail;
    let mut nodes = st.nodes;
    let hits: *mut u64 = &mut st.hits;
    // SAFETY (the unchecked accesses and pointer arithmetic): as in
    // `debruijn_loop`: keys and groups index `groups` and `gstart` within
    // the index invariant, scan positions stay within `entries` (a run's
    // bounds come from `gstart`), depths stay in `base..base + n_left <=
    // frames.len()` (asserted above), cache slots are masked to the table
    // (in `memo`'s probes).
    // With `SIMD` the `Soa` arrays are the entries' (asserted above) and a
    // list's fit bits are those of its entries only.
    let froot = unsafe { fb.add(k.base) };
    let mut fp = unsafe { fb.add(st.d) };
    // The pieces left are not kept: at the node whose frame is `fp` they
    // are `n_root - (fp - froot)`, so each test on them is a comparison of
    // `fp` with an address (as an integer: some lie past the stack).
    let n_root = st.n_left as usize + (st.d - k.base);
    let fsize = std::mem::size_of::<LeanFrame>();
    let at_depth = |n: usize| froot as usize + n * fsize;
    // The driver enters with pieces left (`n_root >= 1`) and a hand-over
    // below them (`handover < n_root`), so the addresses below are within
    // or just past the stack.
    // A placement at `fp` leaves `n_root - depth - 1` pieces: more than one
    // below `f_single`, at least `MEMO_MIN` below `f_memo`, `handover` at
    // `f_hand`; the node at `f_last` has one piece left.
    let f_single = at_depth(n_root.saturating_sub(2));
    let f_memo = at_depth(n_root.saturating_sub(MEMO_MIN as usize));
    let f_hand = at_depth(n_root.wrapping_sub(1 + handover as usize));
    let f_last = at_depth(n_root.wrapping_sub(1));
    // With `SIMD`, `lbase` is the index of the node's list (in the
    // entries and the `Soa`) and `gs` its fit bits still to try; `gp`,
    // `cur` and `end` are unused.
    let mut gs: u64;
    let (mut gp, mut cur, mut end): (*const u32, *const Entry<B>, *const Entry<B>) = (gb, eb, eb);
    let mut lbase = 0usize;
    // Entry `i`'s cells and group bit, from the `Soa`.
    let soa_entry =
        |i: usize| unsafe { (B::from_words(*sl.add(i), if two { *sh.add(i) } else { 0 }), 1u64 << *sg.add(i)) };
    let event = 'run: {
        // The node at `fp` starts: its key's groups, no run open yet; the
        // last piece is looked up instead.
        macro_rules! node_start {
            () => {
                if fp as usize == f_last {
                    if let Some(img) = k.last.find(&occ.not()) {
                        let gk = unsafe { *k.group_of.get_unchecked(img as usize) };
                        if avail >> gk & 1 != 0 {
                            nodes += 1;
                            break 'run Event::Last(img);
                        }
                    }
                    (gs, gp, cur, end) = (0, gb, eb, eb);
                } else {
                    let hole = occ.not().lowest().expect("free cells remain while pieces do");
                    let key = (hole << width) | occ.window_after(hole, width) as usize;
                    if SIMD {
                        // The key's whole list: the fit bits drop the
                        // entries of used groups (no load of `groups` on
                        // the way to the list).
                        let kw = unsafe { *sk.add(key) };
                        let (from, n) = (kw as u32 as usize, (kw >> 32) as usize);
                        debug_assert!(n <= 64 && from + n + super::SOA_PAD <= k.soa.map_or(0, |s| s.lo.len()));
                        lbase = from;
                        if !two && (fp as usize) < f_single {
                            // The single-cell check of every fitting entry
                            // here: only the live placements are walked;
                            // the dead ones are counted as nodes now.
                            debug_assert!({
                                let free = occ.not();
                                let pairs = pair_cells(free.low64(), right, left, rows.width);
                                free.andnot(rows.with_free_neighbour(free)).low64() == iso && (!k.pair || pairs == iso2)
                            });
                            let (fits, alive) = unsafe {
                                fit_alive_bits(
                                    sl.add(from),
                                    sg.add(from),
                                    n,
                                    occ.low64(),
                                    avail,
                                    Halo { right, left, w: rows.width, iso, iso2 },
                                )
                            };
                            gs = alive;
                            // The cache slots of the live children, early:
                            // their look-ups then find them near.
                            if MEMO && (fp as usize) < f_memo {
                                let tp = unsafe { tb.add(fp.offset_from(fb) as usize * TAGS) };
                                let mut a = alive;
                                while a != 0 {
                                    let j = a.trailing_zeros() as usize;
                                    a &= a - 1;
                                    let (m, g) = soa_entry(from + j);
                                    let tag = memo.tag(&occ.or(m), avail ^ g);
                                    unsafe { *tp.add(j) = tag };
                                    memo.prefetch(tag);
                                }
                            }
                            let before = nodes;
                            nodes += u64::from(fits.count_ones() - alive.count_ones());
                            if (before ^ nodes) & !POLL_MASK != 0 {
                                st.scan = (gs, lbase);
                                break 'run Event::PollScan;
                            }
                        } else {
                            let hi_occ = if two { occ.shr(64).low64() } else { 0 };
                            gs = unsafe {
                                fit_bits(sl.add(from), sh.add(from), sg.add(from), n, occ.low64(), hi_occ, avail, two)
                            };
                        }
                    } else {
                        gs = avail & unsafe { *groups.get_unchecked(key) };
                        gp = unsafe { gb.add(key * g1) };
                        (cur, end) = (eb, eb);
                    }
                }
            };
        }
        // Back in the node at `fp` after its placement: the scan
        // position from the frame, the placement taken back.
        macro_rules! restore {
            ($f:expr) => {
                let f: LeanFrame = $f;
                gs = f.gs;
                if SIMD {
                    lbase = f.gp;
                    let (m, g) = soa_entry(f.at - 1);
                    occ = occ.andnot(m);
                    avail |= g;
                } else {
                    let e = unsafe { &*(f.at as *const Entry<B>).sub(1) };
                    gp = f.gp as *const u32;
                    cur = f.at as *const Entry<B>;
                    end = unsafe { eb.add(*gp.add(e.grp as usize + 1) as usize) };
                    occ = occ.andnot(e.mask);
                    avail |= 1 << e.grp;
                }
            };
        }
        // Place the entry with cells `m`, group bit `gbit` and image `img`
        // (the frame's `at`: `next`), check the child, push it and start
        // it; `continue` on a dead child.
        macro_rules! place {
            ($m:expr, $gbit:expr, $img:expr, $next:expr) => {
                let (m, gbit): (B, u64) = ($m, $gbit);
                occ = occ.or(m);
                avail ^= gbit;
                nodes += 1;
                let mut tag = 0;
                // With `SIMD` on one word the node's start has dropped the
                // dead placements.
                if (fp as usize) < f_single {
                    let mut undo = false;
                    if !(SIMD && !two) {
                        let free = occ.not();
                        let h = unsafe { *halo.get_unchecked($img as usize) }.and(free);
                        undo = !h.andnot(rows.with_free_neighbour(free)).is_zero();
                        // Two-cell pockets (one-word boxes), as the AVX2
                        // pass: only those the placement made.
                        if !two && k.pair && !undo {
                            let (right, left, w) = (rows.right.low64(), rows.left.low64(), rows.width);
                            let after = pair_cells(free.low64(), right, left, w);
                            let before = pair_cells(free.low64() | m.low64(), right, left, w);
                            undo = after & !before != 0;
                        }
                    }
                    if MEMO && !undo && (fp as usize) < f_memo {
                        tag = if SIMD && !two {
                            // Written at the node's start (the same
                            // conditions).
                            unsafe { *tb.add(fp.offset_from(fb) as usize * TAGS + ($next as usize - 1 - lbase)) }
                        } else {
                            memo.tag(&occ, avail)
                        };
                        if memo.find(tag, &occ, avail) {
                            unsafe { hits.write_volatile(hits.read_volatile() + 1) };
                            undo = true;
                        }
                    }
                    if undo {
                        occ = occ.andnot(m);
                        avail |= gbit;
                        continue;
                    }
                }
                let gpw = if SIMD { lbase } else { gp as usize };
                unsafe { *fp = LeanFrame { gs, gp: gpw, at: $next as usize, clean: true, tag } };
                if fp as usize == f_hand {
                    break 'run Event::Handover;
                }
                if nodes & POLL_MASK == 0 {
                    break 'run Event::Poll;
                }
                fp = unsafe { fp.add(1) };
                node_start!();
            };
        }
        match resume {
            Resume::Start => node_start!(),
            Resume::Undo => {
                restore!(unsafe { *fp });
            }
            Resume::Finish => (gs, gp, cur, end) = (0, gb, eb, eb),
            Resume::Scan => (gs, lbase) = st.scan,
        }
        loop {
            if SIMD {
                while gs != 0 {
                    let i = lbase + gs.trailing_zeros() as usize;
                    gs &= gs - 1;
                    let (m, g) = soa_entry(i);
                    let img = unsafe { *si.add(i) };
                    place!(m, g, img, i + 1);
                }
            } else {
                loop {
                    while cur < end {
                        let e = unsafe { &*cur };
                        cur = unsafe { cur.add(1) };
                        if !e.mask.disjoint(&occ) {
                            continue;
                        }
                        place!(e.mask, 1 << e.grp, e.img, cur);
                    }
                    if gs == 0 {
                        break;
                    }
                    let g = gs.trailing_zeros() as usize;
                    gs &= gs - 1;
                    unsafe {
                        cur = eb.add(*gp.add(g) as usize);
                        end = eb.add(*gp.add(g + 1) as usize);
                    }
                }
            }
            // This node is done: back to the parent's list.
            if fp == froot {
                break 'run Event::Done;
            }
            fp = unsafe { fp.sub(1) };
            let f = unsafe { *fp };
            if MEMO && (fp as usize) < f_memo && f.clean {
                memo.put(f.tag, &occ, avail);
            }
            restore!(f);
        }
    };
    st.occ = occ;
    st.avail = avail;
    st.nodes = nodes;
    st.d = unsafe { fp.offset_from(fb) } as usize;
    st.n_left = (n_root - (st.d - k.base)) as u32;
    event
}

impl<B: Bits> Walker<'_, B> {
    /// Whether [`Self::debruijn_lean`] applies (given no triggers and no
    /// copies or excluded rows).
    pub(super) fn lean_applies(&self) -> bool {
        let idx = self.s.bruijn.as_ref().expect("de Bruijn stages have a root index");
        idx.rows.is_some() && idx.prune_single && idx.n_groups <= 64
    }

    /// [`Self::debruijn_kernel`] for no triggers, one copy per group, no
    /// excluded rows, a box in rows and no piece of one cell: the rare
    /// events handled here, the search in [`run`].
    pub(super) fn debruijn_lean(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let s = self.s;
        let idx = s.bruijn.as_ref().expect("de Bruijn stages have a root index");
        let handover = (1..self.n_left).rev().find(|&n| s.stage_of[n as usize] != super::Kind::DeBruijn).unwrap_or(0);
        let k = Consts {
            entries: &idx.entries,
            gstart: &idx.gstart,
            groups: &idx.groups,
            halo: &idx.halo,
            group_of: &s.tables.group,
            last: &idx.last,
            rows: idx.rows.expect("lean_applies"),
            width: idx.width,
            g1: idx.n_groups + 1,
            handover,
            base: self.depth,
            soa: idx.simd.as_ref(),
            pair: idx.prune_pair && B::CAPACITY <= 64,
        };
        let base = self.depth;
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        let mut st = State {
            occ: self.occ,
            avail: self.avail as u64,
            n_left: self.n_left,
            nodes: self.nodes,
            d: base,
            hits: 0,
            scan: (0, 0),
            iso: (0, 0),
            tags: std::mem::take(&mut self.lean_tags),
        };
        let want = self.lean_frames.len() * TAGS;
        if st.tags.len() < want {
            st.tags.resize(want, 0);
        }
        let mut frames = std::mem::take(&mut self.lean_frames);
        let mut dead = std::mem::take(&mut self.dead);
        debug_assert!(frames.len() > base + self.n_left as usize);
        let fill_path = |path: &mut [u32], frames: &[LeanFrame], to: usize| {
            for (dd, f) in frames.iter().enumerate().take(to).skip(base) {
                path[dd] = match k.soa {
                    Some(soa) => soa.img[f.at - 1],
                    // SAFETY: `at` is past an entry of `k.entries` (the frame's placement).
                    None => unsafe { &*(f.at as *const Entry<B>).sub(1) }.img,
                };
            }
        };
        // A solution under the placements of depths `base..to`: their
        // subtrees are not dead.
        let soil = |frames: &mut [LeanFrame], to: usize| {
            for f in &mut frames[base..to] {
                f.clean = false;
            }
        };
        let mut resume = Resume::Start;
        let result: Result<(), Stop> = loop {
            let simd = k.soa.is_some();
            let (st, fr) = (&mut st, &mut frames[..]);
            let event = match (dead.off, simd) {
                // SAFETY (`run_avx2`): the index has its `Soa` only when the
                // processor has AVX2 and the bit instructions (`cover::has_avx2`).
                #[cfg(target_arch = "x86_64")]
                (true, true) => unsafe { run_avx2::<B, _, false>(&k, st, fr, &mut PairTable::none(), resume) },
                (true, _) => run::<B, _, false>(&k, st, fr, &mut PairTable::none(), resume),
                (false, _) => match dead.table() {
                    #[cfg(target_arch = "x86_64")]
                    Kernel::Pairs(mut t) if simd => unsafe { run_avx2::<B, _, true>(&k, st, fr, &mut t, resume) },
                    #[cfg(target_arch = "x86_64")]
                    Kernel::Words(mut t) if simd => unsafe { run_avx2::<B, _, true>(&k, st, fr, &mut t, resume) },
                    Kernel::Pairs(mut t) => run::<B, _, true>(&k, st, fr, &mut t, resume),
                    Kernel::Words(mut t) => run::<B, _, true>(&k, st, fr, &mut t, resume),
                },
            };
            let d = st.d;
            match event {
                Event::Done => break Ok(()),
                Event::Last(img) => {
                    self.solutions += 1;
                    fill_path(&mut self.path, &frames, d);
                    self.path[d] = img;
                    soil(&mut frames, d);
                    if visit(&self.path[..=d]) == Flow::Stop {
                        break Err(Stop::Limit(StopReason::Visitor));
                    }
                    resume = Resume::Finish;
                    continue;
                }
                Event::Handover => {
                    fill_path(&mut self.path, &frames, d + 1);
                    self.sync(st.occ, st.avail, &[0; 64], st.n_left - 1, d + 1, st.nodes);
                    let before = self.solutions;
                    self.lean_frames = std::mem::take(&mut frames);
                    self.lean_tags = std::mem::take(&mut st.tags);
                    self.dead = std::mem::take(&mut dead);
                    let r = self.node(visit);
                    frames = std::mem::take(&mut self.lean_frames);
                    st.tags = std::mem::take(&mut self.lean_tags);
                    dead = std::mem::take(&mut self.dead);
                    st.nodes = self.nodes;
                    if self.solutions != before {
                        soil(&mut frames, d + 1);
                    }
                    if r.is_err() {
                        break r;
                    }
                    resume = Resume::Undo;
                }
                Event::Poll => resume = Resume::Start,
                Event::PollScan => resume = Resume::Scan,
            }
            // The poll, after a placement (`Handover`, `Poll`) or at the
            // multiple of the interval that a node's dead placements
            // passed (`PollScan`: the walker's count is that multiple
            // while it polls, as its `tick` wants).
            let poll_at = match event {
                Event::PollScan => Some(st.nodes & !POLL_MASK),
                _ => (st.nodes & POLL_MASK == 0).then_some(st.nodes),
            };
            if let Some(at) = poll_at {
                self.nodes = at;
                dead.add_hits(std::mem::take(&mut st.hits));
                dead.review(st.nodes);
                if let Err(stop) = self.tick() {
                    break Err(stop);
                }
            }
            if event == Event::Poll {
                st.d = d + 1;
                st.n_left -= 1;
            }
        };
        self.lean_frames = frames;
        self.lean_tags = std::mem::take(&mut st.tags);
        dead.add_hits(st.hits);
        self.dead = dead;
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(st.occ == occ_entry && st.n_left == n_left_entry && st.d == base);
            self.sync(st.occ, st.avail, &[0; 64], st.n_left, base, st.nodes);
        }
        self.nodes = st.nodes;
        self.depth = base;
        result
    }
}
