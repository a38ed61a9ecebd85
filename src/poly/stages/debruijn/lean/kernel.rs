//! The lean loop's search itself ([`run`] and its AVX2 copy [`run_avx2`]):
//! what it reads ([`Consts`]), the state it keeps between two calls
//! ([`State`]), where it resumes ([`Resume`]) and why it returns
//! ([`Event`]). The driver, [`crate::poly::walk::Walker::debruijn_lean`]
//! in `lean.rs`, handles the events; the per-node passes are in `pass.rs`.

use crate::poly::model::bits::Bits;
use crate::poly::model::rows::Rows;
use crate::poly::stages::debruijn::lean::pass::{fit_alive_bits, fit_bits, pair_cells, Halo};
use crate::poly::stages::debruijn::lean::pass512::{fit_alive_bits512, fit_bits512};
use crate::poly::stages::debruijn::memo::Probe;
use crate::poly::stages::debruijn::LeanFrame;
use crate::poly::stages::debruijn::{Entry, LastPiece, Soa, MEMO_MIN};
use crate::poly::walk::POLL_MASK;

/// What the loop reads and never changes.
pub(in crate::poly::stages::debruijn::lean) struct Consts<'a, B> {
    pub(in crate::poly::stages::debruijn::lean) entries: &'a [Entry<B>],
    pub(in crate::poly::stages::debruijn::lean) gstart: &'a [u32],
    pub(in crate::poly::stages::debruijn::lean) groups: &'a [u64],
    pub(in crate::poly::stages::debruijn::lean) halo: &'a [B],
    pub(in crate::poly::stages::debruijn::lean) group_of: &'a [u16],
    pub(in crate::poly::stages::debruijn::lean) last: &'a LastPiece<B>,
    pub(in crate::poly::stages::debruijn::lean) rows: Rows<B>,
    pub(in crate::poly::stages::debruijn::lean) width: u32,
    pub(in crate::poly::stages::debruijn::lean) g1: usize,
    /// Pieces left at which the next stage takes over (0: none).
    pub(in crate::poly::stages::debruijn::lean) handover: u32,
    /// Depth of the kernel's root.
    pub(in crate::poly::stages::debruijn::lean) base: usize,
    /// The entries as arrays for [`run_avx2`], when the index has them.
    pub(in crate::poly::stages::debruijn::lean) soa: Option<&'a Soa>,
    /// Two-cell pockets are dead ends too (boxes of at most 64 cells; every
    /// piece has at least three cells).
    pub(in crate::poly::stages::debruijn::lean) pair: bool,
}

/// The search state between two calls of [`run`]. At an event the scan
/// position of depth `d` is in `frames[d]` (written by the placement).
pub(in crate::poly::stages::debruijn::lean) struct State<B> {
    pub(in crate::poly::stages::debruijn::lean) occ: B,
    pub(in crate::poly::stages::debruijn::lean) avail: u64,
    /// Pieces left at the node of depth `d` (before its placement).
    pub(in crate::poly::stages::debruijn::lean) n_left: u32,
    pub(in crate::poly::stages::debruijn::lean) nodes: u64,
    pub(in crate::poly::stages::debruijn::lean) d: usize,
    /// Cache hits since the last report to the cache's `add_hits`
    /// (counted in memory: rare, and kept out of the loop's registers).
    pub(in crate::poly::stages::debruijn::lean) hits: u64,
    /// At [`Event::PollScan`]: the node's candidates still to try and its
    /// list's index (`gs` and `lbase` of [`run_avx2`]).
    pub(in crate::poly::stages::debruijn::lean) scan: (u64, usize),
    /// `iso` and `iso2` of [`Halo`] at the kernel's root (AVX2 pass on
    /// one-word boxes).
    pub(in crate::poly::stages::debruijn::lean) iso: (u64, u64),
    /// [`TAGS`] words per depth: in [`run_avx2`] on one-word boxes, with
    /// the cache, `tags[d * TAGS + j]` is the cache tag of the state after
    /// the placement of the `j`-th entry of the list of the node at depth
    /// `d`, written for its live placements when that node starts (where
    /// their slots are prefetched) and read when they are placed. The
    /// cache only switches off, never on: a node that started without the
    /// cache never looks its children up.
    pub(in crate::poly::stages::debruijn::lean) tags: Vec<u64>,
}

/// Tags per depth in [`State::tags`]: a list has at most 64 entries.
pub(in crate::poly::stages::debruijn::lean) const TAGS: usize = 64;

/// Where [`run`] resumes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::poly::stages::debruijn::lean) enum Resume {
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
pub(in crate::poly::stages::debruijn::lean) enum Event {
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
pub(in crate::poly::stages::debruijn::lean) fn run<B: Bits, T: Probe<B>, const MEMO: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    run_body::<B, T, MEMO, false, false>(k, st, frames, memo, resume)
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
pub(in crate::poly::stages::debruijn::lean) unsafe fn run_avx2<B: Bits, T: Probe<B>, const MEMO: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    run_body::<B, T, MEMO, true, false>(k, st, frames, memo, resume)
}

/// [`run`] compiled for AVX-512, with the passes of `pass512.rs`: the
/// same nodes as [`run_avx2`] (its passes give the same bits).
///
/// # Safety
/// As [`run_avx2`], and the level is [`crate::cpu::Level::Avx512`].
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni"
)]
#[inline(never)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn run_avx512<B: Bits, T: Probe<B>, const MEMO: bool>(
    k: &Consts<'_, B>,
    st: &mut State<B>,
    frames: &mut [LeanFrame],
    memo: &mut T,
    resume: Resume,
) -> Event {
    run_body::<B, T, MEMO, true, true>(k, st, frames, memo, resume)
}

/// The loop of [`run`] and [`run_avx2`]. `SIMD`: a node's scan is the set
/// bits of its fit bits ([`fit_bits`], the frame's `gs`) over its list
/// from the first to the last available group (the frame's `gp` is the
/// list's index), and it reads the [`Soa`] only, not the entries;
/// otherwise it walks the runs of the available groups and tests each
/// entry. `W512` (with `SIMD`): the passes are the AVX-512 ones
/// ([`fit_bits512`], [`fit_alive_bits512`]), which give the same bits.
#[inline(always)]
fn run_body<B: Bits, T: Probe<B>, const MEMO: bool, const SIMD: bool, const W512: bool>(
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
    // SAFETY (the unchecked accesses and pointer arithmetic): as in the
    // general loop (`Walker::debruijn_kernel`, `search.rs`): keys and
    // groups index `groups` and `gstart` within
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
                        debug_assert!(
                            n <= 64
                                && from + n + crate::poly::stages::debruijn::SOA_PAD <= k.soa.map_or(0, |s| s.lo.len())
                        );
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
                            let halo = Halo { right, left, w: rows.width, iso, iso2 };
                            let (fits, alive) = unsafe {
                                if W512 {
                                    fit_alive_bits512(sl.add(from), sg.add(from), n, occ.low64(), avail, halo)
                                } else {
                                    fit_alive_bits(sl.add(from), sg.add(from), n, occ.low64(), avail, halo)
                                }
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
                            let (l, h, g) = unsafe { (sl.add(from), sh.add(from), sg.add(from)) };
                            gs = unsafe {
                                if W512 {
                                    fit_bits512(l, h, g, n, occ.low64(), hi_occ, avail, two)
                                } else {
                                    fit_bits(l, h, g, n, occ.low64(), hi_occ, avail, two)
                                }
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
