//! How the MCH and EMCH stages choose a hole: the fit counts of the
//! candidate holes (scalar, or AVX2 in [`crate::poly::stages::hole::simd`]), written into two
//! candidate slots so that the winner's list is ready, and the choice for
//! the recursive walks ([`node_candidates`]). The search loop that uses
//! them is [`super`].

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::plan::schedule::Kind;
use crate::poly::plan::schedule::Widen;
use crate::poly::stages::hole::cover::{CoverIndex, SIMD_PAD};
#[cfg(target_arch = "x86_64")]
use crate::poly::stages::hole::simd;

/// Entries tested between two checks of a count against its limit.
pub(in crate::poly) const CHUNK: usize = 8;

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
pub(in crate::poly::stages::hole) fn fits_into<B: Bits, const CHUNKED: bool, const SIMD: bool>(
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

/// Two candidate slots of `stride` entries: the best list so far and the
/// scratch one.
pub(in crate::poly::stages::hole) struct Slots<'a> {
    pub(in crate::poly::stages::hole) buf: &'a mut [u32],
    pub(in crate::poly::stages::hole) stride: usize,
    pub(in crate::poly::stages::hole) best: usize,
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

/// MCH's choice (as [`crate::poly::stages::hole::mch::candidates`]): returns the count, the
/// images in the best slot.
#[inline(always)]
pub(in crate::poly::stages::hole) fn choose_mch<B: Bits, const SIMD: bool>(
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

/// EMCH's choice (as [`crate::poly::stages::hole::emch::candidates`]), widened by `widen_of()`.
///
/// The widening is read only after the first pass: held in registers
/// across that pass's count loop, it pushed the loop's constants and the
/// cover row out of registers (reloaded for every group, which made plain
/// EMCH measurably slower on the 3-D puzzles).
#[inline(always)]
pub(in crate::poly::stages::hole) fn choose_emch<B: Bits, const SIMD: bool>(
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
/// exactly as [`crate::poly::stages::hole::mch::candidates`] and [`crate::poly::stages::hole::emch::candidates`]
/// write them (the same hole, the same images in the same order: the
/// kernel's choice, tested against them), counted with the kernel's
/// counts, AVX2 ones when the index has its arrays. For the recursive
/// walks (the Knuth probes of the piece choice and of `auto`), which
/// otherwise count with the scalar reference. Groups must be at most 64;
/// `out` must hold the longest list of one cell; `scratch`: any buffer
/// (resized here to two slots).
pub(in crate::poly) fn node_candidates<B: Bits>(
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
