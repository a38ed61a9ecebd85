//! The iterative search loop of the MCH and EMCH stages (when every branch
//! is searched): an explicit stack instead of recursion, the search state
//! (occupancy, remaining pieces, parity and volume states) in locals, the
//! triggers inlined, and the fit counts of the holes written out as they
//! are counted, so the chosen hole's images need no second pass.
//!
//! Each depth owns two candidate slots: a hole is counted into the slot
//! that does not hold the best list so far, and the slots swap roles when
//! it wins. A count stops early once it reaches the best so far (the list
//! is then incomplete, but it lost). The holes chosen, their tie-breaking
//! and so the nodes are exactly those of [`super::mch::candidates`] and
//! [`super::emch::candidates`].

use super::bits::Bits;
use super::cover::{CoverIndex, SIMD_PAD};
use super::hybrid::{take_group, Kind, Stop, Walker, POLL_MASK};
use super::schedule::Widen;
use super::tables::Tables;
use super::volume::regions_ok;
use crate::search::{Flow, StopReason};

/// One depth of the loop: the candidates still to try are the candidate
/// buffer's entries `next..end` (absolute positions in it).
#[derive(Clone, Copy, Debug, Default)]
pub struct HoleFrame {
    next: u32,
    end: u32,
}

/// Entries tested between two checks of a count against its limit.
pub(super) const CHUNK: usize = 8;

/// Counts the fitting images of groups `avail` covering `cell`, writing
/// them to `out`; stops once the count reaches `limit`: after a group, or
/// with `CHUNKED` (long lists: MCH with many pieces left) after a chunk of
/// [`CHUNK`] entries (with `SIMD`, after each block of 4).
///
/// `out` must hold the longest list of one cell (`stride`), and with
/// `SIMD` [`SIMD_PAD`] entries more (a block writes 4 entries at the
/// current count). `SIMD` needs the index's AVX2 arrays and a caller
/// compiled with AVX2 ([`Walker::hole_kernel`] checks both).
#[inline(always)]
fn fits_into<B: Bits, const CHUNKED: bool, const SIMD: bool>(
    ci: &CoverIndex<B>,
    cell: usize,
    occ: B,
    avail: u64,
    limit: u32,
    out: &mut [u32],
) -> u32 {
    let key = ci.key(cell, &occ);
    #[cfg(target_arch = "x86_64")]
    if SIMD {
        // SAFETY: the caller has AVX2 and the arrays (see above); `key` is
        // a key.
        return unsafe {
            let (groups, row) = ci.simd_key_unchecked(key);
            let gs = avail & groups;
            if gs == 0 {
                return 0;
            }
            simd::fits_into::<B, CHUNKED>(ci, row, gs, occ.low64(), 1u64 << cell, limit, out)
        };
    }
    // SAFETY: `key` is a key; `groups` has one entry per key.
    let mut gs = avail & unsafe { *ci.groups.get_unchecked(key) } as u64;
    if gs == 0 {
        return 0;
    }
    // SAFETY: `key` is a key: its row of list starts is in bounds.
    let row = unsafe { ci.row_unchecked(key) };
    let entries = ci.entries();
    let mut n = 0usize;
    let out_len = out.len();
    let out = out.as_mut_ptr();
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        // SAFETY: `g` is a group (a bit of `groups[key]`), so `g + 1` is in
        // the row; the starts are at most `entries.len()`, and the list is
        // not empty (its bit is set).
        let (a, b) = unsafe { (*row.get_unchecked(g) as usize, *row.get_unchecked(g + 1) as usize) };
        debug_assert!(a < b && b <= entries.len());
        // SAFETY (the writes): the images of one key are at most the images
        // covering the cell, and `out` holds that many (`Shared::stride`).
        let list = unsafe { entries.get_unchecked(a..b) };
        if CHUNKED {
            for chunk in list.chunks(CHUNK) {
                for e in chunk {
                    debug_assert!(n < out_len);
                    unsafe { *out.add(n) = e.img };
                    n += e.mask.disjoint(&occ) as usize;
                }
                if n as u32 >= limit {
                    return n as u32;
                }
            }
        } else {
            for e in list {
                debug_assert!(n < out_len);
                unsafe { *out.add(n) = e.img };
                n += e.mask.disjoint(&occ) as usize;
            }
            if n as u32 >= limit {
                return n as u32;
            }
        }
    }
    let _ = out_len;
    n as u32
}

/// The AVX2 counts (in `hole_kernel/simd.rs`).
#[cfg(target_arch = "x86_64")]
mod simd;

/// Two candidate slots of `stride` entries: the best list so far and the
/// scratch one.
struct Slots<'a> {
    buf: &'a mut [u32],
    stride: usize,
    best: usize,
}

impl Slots<'_> {
    #[inline(always)]
    fn scratch(&mut self) -> &mut [u32] {
        let at = (1 - self.best) * self.stride;
        // SAFETY: `buf` holds two slots.
        unsafe { self.buf.get_unchecked_mut(at..at + self.stride) }
    }
}

/// EMCH's pass (and MCH's first): the first cell of `holes` with the fewest
/// fits, its count (`u32::MAX` when `holes` is empty) and its images in the
/// best slot.
#[inline(always)]
fn fewest_of<B: Bits, const CHUNKED: bool, const SIMD: bool>(
    ci: &CoverIndex<B>,
    mut holes: B,
    occ: B,
    avail: u64,
    slots: &mut Slots<'_>,
) -> (usize, u32) {
    let mut best = u32::MAX;
    let mut best_cell = 0;
    while let Some(c) = holes.pop_lowest() {
        let n = fits_into::<B, CHUNKED, SIMD>(ci, c, occ, avail, best, slots.scratch());
        if n < best {
            (best, best_cell) = (n, c);
            slots.best = 1 - slots.best;
            if n <= 1 {
                break;
            }
        }
    }
    (best_cell, best)
}

/// MCH's choice (as [`super::mch::candidates`]): returns the count, the
/// images in the best slot.
#[inline(always)]
fn choose_mch<B: Bits, const SIMD: bool>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    occ: B,
    avail: u64,
    slots: &mut Slots<'_>,
) -> u32 {
    let free = occ.not();
    let (first, mut best) = fewest_of::<B, true, SIMD>(ci, t.counter.fewest(free), occ, avail, slots);
    if best == 0 || best == u32::MAX {
        return 0;
    }
    // Any cell before `first` with as few fits wins.
    let mut holes = free.and(B::below(first));
    let mut limit = best + 1;
    while let Some(c) = holes.pop_lowest() {
        let n = fits_into::<B, true, SIMD>(ci, c, occ, avail, limit, slots.scratch());
        if n < limit {
            (best, limit) = (n, n);
            slots.best = 1 - slots.best;
            if n == 0 {
                return 0;
            }
        }
    }
    // After it, only strictly fewer fits win.
    let mut holes = free.andnot(B::below(first + 1));
    while best > 1 {
        let Some(c) = holes.pop_lowest() else { break };
        let n = fits_into::<B, true, SIMD>(ci, c, occ, avail, best, slots.scratch());
        if n < best {
            best = n;
            slots.best = 1 - slots.best;
        }
    }
    best
}

/// EMCH's choice (as [`super::emch::candidates`]), widened by `widen_of()`.
///
/// The widening is read only after the first pass: held in registers
/// across that pass's count loop, it pushed the loop's constants and the
/// cover row out of registers (reloaded for every group: +5% instructions
/// for plain EMCH on the Tetris Cube, docs/poly.md "Round 6").
#[inline(always)]
fn choose_emch<B: Bits, const SIMD: bool>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    occ: B,
    avail: u64,
    widen_of: impl FnOnce() -> Widen,
    slots: &mut Slots<'_>,
) -> u32 {
    let free = occ.not();
    let mut best = match fewest_of::<B, false, SIMD>(ci, t.counter.fewest(free), occ, avail, slots).1 {
        u32::MAX => return 0,
        n => n,
    };
    let w = widen_of();
    if w.levels == 0 || best <= w.threshold {
        return best;
    }
    widen::<B, SIMD>(t, ci, free, occ, avail, w, &mut best, slots);
    best
}

/// The further neighbour levels of a widened EMCH (inlined: a call out of
/// the AVX2 copy of the loop would lose its target features).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn widen<B: Bits, const SIMD: bool>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    free: B,
    occ: B,
    avail: u64,
    w: Widen,
    best: &mut u32,
    slots: &mut Slots<'_>,
) {
    let levels = t.counter.levels(free);
    let mut k = levels.iter().position(|l| !l.is_zero()).unwrap_or(levels.len()) + 1;
    let mut extra = w.levels;
    while extra > 0 && k < levels.len() {
        let mut holes = levels[k];
        k += 1;
        if holes.is_zero() {
            continue;
        }
        extra -= 1;
        while *best > w.threshold {
            let Some(c) = holes.pop_lowest() else { break };
            let n = fits_into::<B, false, SIMD>(ci, c, occ, avail, *best, slots.scratch());
            if n < *best {
                *best = n;
                slots.best = 1 - slots.best;
            }
        }
        if *best <= w.threshold {
            break;
        }
    }
}

/// The candidates of one MCH or EMCH node (`kind`), written to `out`
/// exactly as [`super::mch::candidates`] and [`super::emch::candidates`]
/// write them (the same hole, the same images in the same order: the
/// kernel's choice, tested against them), counted with the kernel's
/// counts, AVX2 ones when the index has its arrays. For the recursive
/// walks (the Knuth probes of the piece choice and of `auto`), which
/// otherwise count with the scalar reference. Groups must be at most 64;
/// `out` must hold the longest list of one cell; `scratch`: any buffer
/// (resized here to two slots).
pub(super) fn node_candidates<B: Bits>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    occ: B,
    avail: u64,
    kind: Kind,
    scratch: &mut Vec<u32>,
    out: &mut [u32],
) -> usize {
    let stride = out.len() + SIMD_PAD;
    if scratch.len() < 2 * stride {
        scratch.resize(2 * stride, 0);
    }
    let mut slots = Slots { buf: &mut scratch[..2 * stride], stride, best: 0 };
    #[cfg(target_arch = "x86_64")]
    if ci.has_simd() {
        // SAFETY: the index has its AVX2 arrays only when the processor
        // has AVX2 (and the bit instructions `hole_loop_avx2` names).
        let n = unsafe { choose_avx2(t, ci, occ, avail, kind, &mut slots) } as usize;
        let at = slots.best * stride;
        out[..n].copy_from_slice(&scratch[at..at + n]);
        return n;
    }
    let n = choose_scalar(t, ci, occ, avail, kind, &mut slots) as usize;
    let at = slots.best * stride;
    out[..n].copy_from_slice(&scratch[at..at + n]);
    n
}

/// [`choose_mch`] or [`choose_emch`] by `kind`, scalar counts.
fn choose_scalar<B: Bits>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    occ: B,
    avail: u64,
    kind: Kind,
    slots: &mut Slots<'_>,
) -> u32 {
    match kind {
        Kind::Emch(w) => choose_emch::<B, false>(t, ci, occ, avail, || w, slots),
        _ => choose_mch::<B, false>(t, ci, occ, avail, slots),
    }
}

/// [`choose_scalar`] with the AVX2 counts.
///
/// # Safety
/// As [`Walker::hole_loop_avx2`]: the processor has AVX2, BMI1, BMI2,
/// POPCNT and LZCNT, and the cover index has its AVX2 arrays.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn choose_avx2<B: Bits>(
    t: &Tables<B>,
    ci: &CoverIndex<B>,
    occ: B,
    avail: u64,
    kind: Kind,
    slots: &mut Slots<'_>,
) -> u32 {
    debug_assert!(ci.has_simd());
    match kind {
        Kind::Emch(w) => choose_emch::<B, true>(t, ci, occ, avail, || w, slots),
        _ => choose_mch::<B, true>(t, ci, occ, avail, slots),
    }
}

impl<B: Bits> Walker<'_, B> {
    /// The MCH / EMCH loop, entered at a node with pieces left, triggers
    /// checked and an MCH or EMCH stage; hands over to [`Walker::node`] when
    /// the schedule reaches another engine. Groups must be at most 64.
    /// `MULTI`: some group has copies (or rows excluded by a DLX branch),
    /// so remaining counts are kept per group.
    pub(super) fn hole_kernel<const TRIG: bool, const MULTI: bool>(
        &mut self,
        visit: &mut super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        #[cfg(target_arch = "x86_64")]
        if self.s.cover.as_ref().is_some_and(|ci| ci.has_simd()) {
            let wide = self.s.stage_of.iter().any(|k| matches!(k, Kind::Emch(w) if w.levels > 0));
            // SAFETY: the index has its AVX2 arrays only when the processor
            // has AVX2.
            return unsafe {
                if wide {
                    self.hole_loop_avx2::<TRIG, MULTI, true>(visit)
                } else {
                    self.hole_loop_avx2::<TRIG, MULTI, false>(visit)
                }
            };
        }
        self.hole_loop::<TRIG, MULTI, false, true>(visit)
    }

    /// [`Walker::hole_loop`] compiled for AVX2 (and the bit instructions
    /// that come with it), with the AVX2 counts. `WIDE`: some EMCH stage
    /// is widened (a copy without the widening keeps plain EMCH's count
    /// loop as tight as before it: docs/poly.md "Round 6").
    ///
    /// # Safety
    /// The processor has AVX2, BMI1, BMI2, POPCNT and LZCNT, and the cover
    /// index has its AVX2 arrays.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn hole_loop_avx2<const TRIG: bool, const MULTI: bool, const WIDE: bool>(
        &mut self,
        visit: &mut super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        self.hole_loop::<TRIG, MULTI, true, WIDE>(visit)
    }

    /// The loop itself; `SIMD`: count with AVX2 (only from
    /// [`Walker::hole_loop_avx2`]); without `WIDE`, every EMCH stage is
    /// plain.
    #[inline(always)]
    fn hole_loop<const TRIG: bool, const MULTI: bool, const SIMD: bool, const WIDE: bool>(
        &mut self,
        visit: &mut super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        let ci = s.cover.as_ref().expect("MCH and EMCH stages have a cover index");
        // Room for a block of 4 written at the end of a list.
        let stride = s.stride + SIMD_PAD;
        let masks = &t.mask[..];
        let group_of = &t.group[..];
        let is_hole_stage = |n: u32| matches!(s.stage_of[n as usize], Kind::Mch | Kind::Emch(_));
        let handover = (1..self.n_left).rev().find(|&n| !is_hole_stage(n)).unwrap_or(0);
        let parity = s.parity.as_ref();
        let volume = s.volume.as_ref();
        let pmin = if parity.is_some() { s.knobs.parity_trigger } else { None };
        let vmin = if volume.is_some() { s.knobs.volume_trigger } else { None };
        let base = self.depth;
        // Depths `base..base + n_left` (absolute, so that a kernel entered
        // again below a hand-over uses the depths past ours).
        let levels = base + self.n_left as usize;
        let mut buf = std::mem::take(&mut self.hole_buf);
        if buf.len() < 2 * stride * levels {
            buf.resize(2 * stride * levels, 0);
        }
        let mut frames = std::mem::take(&mut self.hole_frames);
        if frames.len() < levels {
            frames.resize(levels, HoleFrame::default());
        }
        assert!(buf.len() <= u32::MAX as usize, "candidate offsets fit in 32 bits");
        let mut occ = self.occ;
        let mut avail = self.avail as u64;
        let (mut left, lo) = if MULTI { self.group_arrays() } else { ([0; 64], [0; 64]) };
        let mut n_left = self.n_left;
        let mut nodes = self.nodes;
        let (mut pstate, mut prem, mut vstate) = (self.pstate, self.prem, self.vstate);
        // The trigger tables' state changes per group, read once here
        // (zero without the table).
        let mut pdelta = [0usize; 64];
        let mut vdelta = [0usize; 64];
        for g in 0..t.n_groups.min(64) {
            pdelta[g] = parity.map_or(0, |p| p.table.delta(g));
            vdelta[g] = volume.map_or(0, |v| v.table.delta(g));
        }
        let image_parity: &[i32] = parity.map_or(&[], |p| &p.image_parity);
        // The parity table in locals (the lookup runs at every node).
        let (pbits, poffset, pwidth, pwords) = parity.map_or((&[][..], 0, 0, 0), |p| p.table.parts());
        let mut path = std::mem::take(&mut self.path);
        // The unchecked reads below rely on these: image ids (from the cover
        // lists and the path) index `masks`, `group_of` and `image_parity`;
        // groups are below 64; depths below `levels`; candidate offsets
        // below `buf.len()` (a frame's `end` is its slot's start plus a
        // count of at most `stride`).
        assert!(t.n_groups <= 64 && group_of.len() == masks.len());
        assert!(image_parity.is_empty() || image_parity.len() == masks.len());
        assert!(path.len() >= levels && frames.len() >= levels && s.stage_of.len() > n_left as usize);
        // Reads `$v[$i]` without a bounds check (see the asserts above).
        macro_rules! get {
            ($v:expr, $i:expr) => {{
                let i = $i;
                debug_assert!(i < $v.len());
                // SAFETY: in bounds by the asserts above and the loop's invariants.
                unsafe { *$v.get_unchecked(i) }
            }};
        }
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        // Depth `d` uses `frames[d]` and the two slots at `buf[2 * stride * d..]`.
        // Takes image `k` of group `g` off the board (the inverse of the
        // placement below).
        macro_rules! unplace {
            ($k:expr, $g:expr) => {{
                let (k, g) = ($k, $g);
                occ = occ.andnot(get!(masks, k));
                n_left += 1;
                if MULTI {
                    left[g] += 1;
                }
                avail |= 1 << g;
                if parity.is_some() {
                    pstate += get!(pdelta, g);
                    prem += get!(image_parity, k) as i64;
                }
                vstate += get!(vdelta, g);
            }};
        }
        let mut d = base;
        let result: Result<(), Stop> = 'search: loop {
            // A node with pieces left in an MCH or EMCH stage.
            {
                let at = 2 * stride * d;
                let mut slots = Slots { buf: &mut buf[at..at + 2 * stride], stride, best: 0 };
                let n = match get!(s.stage_of, n_left as usize) {
                    Kind::Emch(_) => {
                        let widen_of = || match get!(s.stage_of, n_left as usize) {
                            Kind::Emch(w) if WIDE => w,
                            _ => Widen::default(),
                        };
                        choose_emch::<B, SIMD>(t, ci, occ, avail, widen_of, &mut slots)
                    }
                    _ => choose_mch::<B, SIMD>(t, ci, occ, avail, &mut slots),
                };
                let next = (at + slots.best * stride) as u32;
                debug_assert!(d < frames.len());
                // SAFETY: `d < levels <= frames.len()`.
                unsafe { *frames.get_unchecked_mut(d) = HoleFrame { next, end: next + n } };
            }
            loop {
                let f = get!(frames, d);
                if f.next == f.end {
                    // This node is done: undo the parent's placement.
                    if d == base {
                        break 'search Ok(());
                    }
                    d -= 1;
                    let k = get!(path, d) as usize;
                    unplace!(k, get!(group_of, k) as usize);
                    continue;
                }
                // SAFETY: `d < levels <= frames.len()`.
                unsafe { frames.get_unchecked_mut(d).next = f.next + 1 };
                let k = get!(buf, f.next as usize) as usize;
                let g = get!(group_of, k) as usize;
                if MULTI && (k as u32) < lo[g] {
                    continue;
                }
                // Place image `k`.
                occ = occ.or(get!(masks, k));
                take_group::<MULTI>(&mut left, &mut avail, g);
                n_left -= 1;
                nodes += 1;
                if parity.is_some() {
                    pstate -= get!(pdelta, g);
                    prem -= get!(image_parity, k) as i64;
                }
                vstate -= get!(vdelta, g);
                debug_assert!(d < path.len());
                // SAFETY: `d < levels <= path.len()`.
                unsafe { *path.get_unchecked_mut(d) = k as u32 };
                let mut descend = true;
                if n_left == 0 {
                    self.solutions += 1;
                    if visit(&path[..=d]) == Flow::Stop {
                        self.nodes = nodes;
                        break 'search Err(Stop::Limit(StopReason::Visitor));
                    }
                    descend = false;
                } else {
                    if TRIG {
                        if let Some(min) = pmin {
                            // `p.table.achievable(pstate, prem)`, inlined.
                            let v = (prem + poffset) as usize;
                            descend = n_left < min
                                || (v < pwidth && get!(pbits, pstate * pwords + v / 64) >> (v % 64) & 1 != 0);
                        }
                        if let (true, Some(min), Some(v)) = (descend, vmin, volume) {
                            if n_left >= min {
                                let free = occ.not();
                                descend = regions_ok(free, free.count(), &t.neighbours, &v.table, vstate);
                            }
                        }
                    }
                    if descend && n_left == handover {
                        self.path = std::mem::take(&mut path);
                        self.store::<MULTI>(occ, avail, &left, n_left, d + 1, nodes, (pstate, prem, vstate));
                        self.hole_buf = std::mem::take(&mut buf);
                        self.hole_frames = std::mem::take(&mut frames);
                        let r = self.node(visit);
                        buf = std::mem::take(&mut self.hole_buf);
                        frames = std::mem::take(&mut self.hole_frames);
                        path = std::mem::take(&mut self.path);
                        nodes = self.nodes;
                        descend = false;
                        if r.is_err() {
                            break 'search r;
                        }
                    }
                }
                if nodes & POLL_MASK == 0 {
                    self.nodes = nodes;
                    if let Err(stop) = self.tick() {
                        break 'search Err(stop);
                    }
                }
                if descend {
                    d += 1;
                    continue 'search;
                }
                // Undo a leaf placement.
                unplace!(k, g);
            }
        };
        self.path = path;
        self.hole_buf = buf;
        self.hole_frames = frames;
        // On an early stop the walker is abandoned (a stopped search is
        // over): only the counters matter. On completion the state is as on
        // entry.
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(occ == occ_entry && n_left == n_left_entry && d == base);
            self.store::<MULTI>(occ, avail, &left, n_left, base, nodes, (pstate, prem, vstate));
        }
        self.nodes = nodes;
        self.depth = base;
        result
    }

    /// Writes the loop's local state back to the walker.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store<const MULTI: bool>(
        &mut self,
        occ: B,
        avail: u64,
        left: &[u32; 64],
        n_left: u32,
        depth: usize,
        nodes: u64,
        (pstate, prem, vstate): (usize, i64, usize),
    ) {
        self.occ = occ;
        self.avail = avail as u128;
        // Without copies every group has one piece: its bit says it.
        for (g, l) in self.left.iter_mut().enumerate() {
            *l = if MULTI { left[g] } else { (avail >> g & 1) as u32 };
        }
        self.n_left = n_left;
        self.depth = depth;
        self.nodes = nodes;
        (self.pstate, self.prem, self.vstate) = (pstate, prem, vstate);
    }
}

#[cfg(test)]
mod tests;
