//! The per-node passes of the lean loop's AVX2 copy ([`crate::poly::stages::debruijn::lean::run_avx2`]):
//! a node's fit bits over its whole list, 4 entries per instruction, and on
//! boxes of at most 64 cells the single-cell and two-cell-pocket check of
//! the fitting entries. Apart from the loop itself (`kernel.rs`) so that each
//! file stays readable; both are `#[inline(always)]` into the loop.

/// The fit bits of the `n` entries (`1..=64`) whose [`crate::poly::stages::debruijn::lean::Soa`] words start at
/// `lo`, `hi`, `grp` (its group, a byte): bit `i` set iff entry `i` misses `occ` (as its words
/// `occ_lo`, `occ_hi`; the high words only when `two`) and its group is in
/// `avail`. No branch per entry: 4 entries per AVX2 instruction; `n` may
/// be 0.
///
/// # Safety
/// AVX2 and BMI2 are present (the caller is compiled for them) and the
/// arrays hold `max(n, 8)` words rounded up to 4 from the pointers
/// ([`crate::poly::stages::debruijn::SOA_PAD`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_bits(
    lo: *const u64,
    hi: *const u64,
    grp: *const u8,
    n: usize,
    occ_lo: u64,
    occ_hi: u64,
    avail: u64,
    two: bool,
) -> u64 {
    use std::arch::x86_64::*;
    let one = _mm256_set1_epi64x(1);
    debug_assert!(n <= 64);
    let ol = _mm256_set1_epi64x(occ_lo as i64);
    let oh = _mm256_set1_epi64x(occ_hi as i64);
    let av = _mm256_set1_epi64x(avail as i64);
    let g63 = _mm256_set1_epi64x(63);
    let zero = _mm256_setzero_si256();
    // A macro, not a closure: a closure is not compiled for AVX2 and would
    // call the intrinsics.
    macro_rules! chunk {
        ($i:expr) => {{
            let i: usize = $i;
            let mut x = _mm256_and_si256(_mm256_loadu_si256(lo.add(i) as *const __m256i), ol);
            if two {
                x = _mm256_or_si256(x, _mm256_and_si256(_mm256_loadu_si256(hi.add(i) as *const __m256i), oh));
            }
            // Bit 0 of `avail >> group`, zero when the group is used. The
            // group masked to 0..64: without it the compiler keeps the
            // shift's result for counts past 63 by a compare and a blend,
            // extra instructions in every chunk.
            let g = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(std::ptr::read_unaligned(grp.add(i) as *const i32)));
            let g = _mm256_and_si256(g, g63);
            x = _mm256_or_si256(x, _mm256_andnot_si256(_mm256_srlv_epi64(av, g), one));
            _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(x, zero))) as u32 as u64
        }};
    }
    // The first 8 entries without a loop test (most lists are short).
    let mut bits = chunk!(0) | chunk!(4) << 4;
    let mut i = 8;
    while i < n {
        bits |= chunk!(i) << i;
        i += 4;
    }
    _bzhi_u64(bits, n as u32)
}

/// What the single-cell check of a placement reads in a box of at most 64
/// cells: the box's [`Rows`] (`right`, `left`: the cells that have a
/// neighbour on that side; `w`: the row width) and `iso`, the free cells
/// that already have no free neighbour before the placement; `iso2`, the
/// free cells already in a two-cell pocket ([`pair_cells`]), or all cells
/// when two-cell pockets are not dead ends.
#[derive(Clone, Copy, Debug)]
pub(in crate::poly::stages::debruijn) struct Halo {
    pub(in crate::poly::stages::debruijn::lean) right: u64,
    pub(in crate::poly::stages::debruijn::lean) left: u64,
    pub(in crate::poly::stages::debruijn::lean) w: u32,
    pub(in crate::poly::stages::debruijn::lean) iso: u64,
    pub(in crate::poly::stages::debruijn::lean) iso2: u64,
}

/// The free cells `f` (no bit past the last cell) that lie in a two-cell
/// pocket: two free cells next to each other, each with no other free
/// neighbour. `right`, `left`, `w` as in [`Halo`].
#[inline(always)]
pub(in crate::poly::stages::debruijn) fn pair_cells(f: u64, right: u64, left: u64, w: u32) -> u64 {
    let (nr, nl, nd, nu) = (f >> 1 & right, f << 1 & left, f >> w, f << w);
    let (h, v) = (nr | nl, nd | nu);
    let one = f & (h | v) & !(nr & nl | h & v | nd & nu);
    let first = one & (nr & one >> 1 | nd & one >> w);
    first | first << 1 & (one & nl) | first << w & (one & nu)
}

/// [`fit_bits`] for boxes of at most 64 cells (one word), with the
/// single-cell and two-cell-pocket check of each fitting entry too (only
/// of those: few of a node's entries fit, often none, so the check of the
/// gathered fitting entries costs less than one of every entry;
/// docs/tried/poly.md, "de Bruijn's loop", the halo checks only for the
/// entries that fit): returns the fit bits and, among them, the bits of
/// the entries whose placement leaves no free cell without a free
/// neighbour that `iso` (the free cells already without one) does not
/// hold. A free cell isolated by a placement is next to it,
/// so this is the halo test of [`crate::poly::stages::debruijn::lean::run`]'s placement. `occ` has the bits
/// past the last cell set.
///
/// # Safety
/// As [`fit_bits`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_alive_bits(
    lo: *const u64,
    grp: *const u8,
    n: usize,
    occ: u64,
    avail: u64,
    halo: Halo,
) -> (u64, u64) {
    use std::arch::x86_64::*;
    debug_assert!(n <= 64);
    // The fit bits first (the cheap pass over the whole list), then the
    // halo and pocket test only on the fitting entries, 4 at a time: their
    // masks gathered into one vector, each lane's verdict put back at its
    // entry's bit by `pdep`.
    let fits = fit_bits(lo, lo, grp, n, occ, 0, avail, false);
    let oc = _mm256_set1_epi64x(occ as i64);
    let rr = _mm256_set1_epi64x(halo.right as i64);
    let ll = _mm256_set1_epi64x(halo.left as i64);
    let is = _mm256_set1_epi64x(halo.iso as i64);
    let is2 = _mm256_set1_epi64x(halo.iso2 as i64);
    let wc = _mm_cvtsi32_si128(halo.w as i32);
    let ones = _mm256_set1_epi64x(-1);
    let zero = _mm256_setzero_si256();
    let mut alive = 0;
    let mut f = fits;
    while f != 0 {
        // The indices of the (up to) 4 lowest fit bits; a missing one reads
        // entry 0 (always readable: the padding), its verdict is dropped.
        let f1 = _blsr_u64(f);
        let f2 = _blsr_u64(f1);
        let f3 = _blsr_u64(f2);
        let rest = _blsr_u64(f3);
        let at = |x: u64| *lo.add(x.trailing_zeros() as usize & 63) as i64;
        let m = _mm256_set_epi64x(at(f3), at(f2), at(f1), at(f));
        // The free cells after the placement, those with a free neighbour,
        // the newly isolated ones.
        let fr = _mm256_xor_si256(_mm256_or_si256(m, oc), ones);
        let nr = _mm256_and_si256(_mm256_srli_epi64(fr, 1), rr);
        let nl = _mm256_and_si256(_mm256_slli_epi64(fr, 1), ll);
        let nd = _mm256_srl_epi64(fr, wc);
        let nu = _mm256_sll_epi64(fr, wc);
        let nb = _mm256_or_si256(_mm256_or_si256(nr, nl), _mm256_or_si256(nd, nu));
        let lone = _mm256_andnot_si256(is, _mm256_andnot_si256(nb, fr));
        // The cells with exactly one free neighbour; a two-cell pocket has
        // its lower cell among them with its partner (right or below)
        // among them too.
        let h = _mm256_or_si256(nr, nl);
        let v = _mm256_or_si256(nd, nu);
        let many = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(nr, nl), _mm256_and_si256(h, v)),
            _mm256_and_si256(nd, nu),
        );
        let one = _mm256_andnot_si256(many, _mm256_and_si256(fr, nb));
        let pair = _mm256_and_si256(
            one,
            _mm256_or_si256(
                _mm256_and_si256(nr, _mm256_srli_epi64(one, 1)),
                _mm256_and_si256(nd, _mm256_srl_epi64(one, wc)),
            ),
        );
        let dead = _mm256_or_si256(lone, _mm256_andnot_si256(is2, pair));
        let ok = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(dead, zero))) as u32 as u64;
        alive |= _pdep_u64(ok, f ^ rest);
        f = rest;
    }
    (fits, alive)
}

/// [`fit_bits`] where there is no AVX2 (never called: [`crate::poly::stages::debruijn::lean::Soa`] is only
/// built with AVX2). `n` in `0..=64`.
#[cfg(not(target_arch = "x86_64"))]
#[allow(clippy::too_many_arguments)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_bits(
    lo: *const u64,
    hi: *const u64,
    grp: *const u8,
    n: usize,
    occ_lo: u64,
    occ_hi: u64,
    avail: u64,
    two: bool,
) -> u64 {
    (0..n).fold(0, |bits, i| {
        let ok = *lo.add(i) & occ_lo == 0 && (!two || *hi.add(i) & occ_hi == 0) && avail >> *grp.add(i) & 1 != 0;
        bits | (ok as u64) << i
    })
}

/// [`fit_alive_bits`] where there is no AVX2 (never called, as
/// [`fit_bits`] there).
#[cfg(not(target_arch = "x86_64"))]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_alive_bits(
    lo: *const u64,
    grp: *const u8,
    n: usize,
    occ: u64,
    avail: u64,
    halo: Halo,
) -> (u64, u64) {
    (0..n).fold((0, 0), |(fits, alive), i| {
        let m = *lo.add(i);
        let fit = m & occ == 0 && avail >> *grp.add(i) & 1 != 0;
        let f = !(m | occ);
        let nb = (f >> 1 & halo.right) | (f << 1 & halo.left) | f >> halo.w | f << halo.w;
        let pair = pair_cells(f, halo.right, halo.left, halo.w) & !halo.iso2;
        let ok = fit && f & !nb & !halo.iso == 0 && pair == 0;
        (fits | (fit as u64) << i, alive | (ok as u64) << i)
    })
}
