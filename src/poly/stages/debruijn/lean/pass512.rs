//! The per-node passes of the lean loop's AVX-512 copy
//! ([`crate::poly::stages::debruijn::lean::kernel::run_avx512`]): the same results as the AVX2 passes of
//! `pass.rs` ([`crate::poly::stages::debruijn::lean::pass::fit_bits`], [`crate::poly::stages::debruijn::lean::pass::fit_alive_bits`]),
//! bit for bit, so the search makes the same nodes in the same order.
//!
//! What AVX-512 changes: 8 entries per instruction instead of 4, the
//! disjointness test straight into a mask register (`vptestnmq`, the
//! entries' words read from memory by the test itself), the group test of
//! the whole list (up to 64 entries) in one instruction (`vpshufbitqmb`
//! picks bit `grp[i]` of `avail` for each entry byte `i`), and the halo
//! and pocket test's three-input logic in `vpternlogq`, run on 8 entries
//! at once in the same pass as the fit test.
//!
//! Off x86-64 the names stand for the portable passes, never called: the
//! level there is [`crate::cpu::Level::Scalar`].

#[cfg(target_arch = "x86_64")]
use crate::poly::stages::debruijn::lean::pass::Halo;

/// The truth tables of `vpternlogq`'s three inputs: a function of them
/// written with these as its operands is its immediate.
#[cfg(target_arch = "x86_64")]
const A: i32 = 0xf0;
#[cfg(target_arch = "x86_64")]
const B: i32 = 0xcc;
#[cfg(target_arch = "x86_64")]
const C: i32 = 0xaa;

/// [`crate::poly::stages::debruijn::lean::pass::fit_bits`] with AVX-512: bit `i` set iff entry `i` (of
/// `n`, `0..=64`) misses `occ` and its group is in `avail`.
///
/// # Safety
/// AVX-512 F, BW and BITALG, and BMI2, are present (the caller
/// is compiled for them), the words of `lo` (and `hi` when `two`) are
/// readable 8 at a time up to `n` rounded up to 8, and 64 bytes of `grp`
/// are readable ([`crate::poly::stages::debruijn::SOA_PAD`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_bits512(
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
    debug_assert!(n <= 64);
    let ol = _mm512_set1_epi64(occ_lo as i64);
    let oh = _mm512_set1_epi64(occ_hi as i64);
    // Bit `i`: bit `grp[i]` of `avail` (the group's index is below 64).
    let free_group = _mm512_bitshuffle_epi64_mask(_mm512_set1_epi64(avail as i64), _mm512_loadu_si512(grp.cast()));
    macro_rules! chunk {
        ($i:expr) => {{
            let i: usize = $i;
            let mut k = _mm512_testn_epi64_mask(_mm512_loadu_si512(lo.add(i).cast()), ol);
            if two {
                k &= _mm512_testn_epi64_mask(_mm512_loadu_si512(hi.add(i).cast()), oh);
            }
            u64::from(k)
        }};
    }
    let mut bits = chunk!(0);
    let mut i = 8;
    while i < n {
        bits |= chunk!(i) << i;
        i += 8;
    }
    _bzhi_u64(bits & free_group, n as u32)
}

/// [`crate::poly::stages::debruijn::lean::pass::fit_alive_bits`] with AVX-512: the fit bits and, among
/// them, the entries whose placement isolates no new free cell and makes
/// no new two-cell pocket (`halo` as there). Unlike the AVX2 pass, the
/// halo and pocket test runs on every entry of the list, 8 per vector,
/// in the same pass as the fit test, its verdicts masked by the fit bits:
/// no gather of the fitting entries (a `vpcompressb` of their indices and
/// a `vpgatherqq` of their cells, 8 at a time, was slower: the node's
/// start waits for the gather).
///
/// # Safety
/// As [`fit_bits512`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(in crate::poly::stages::debruijn::lean) unsafe fn fit_alive_bits512(
    lo: *const u64,
    grp: *const u8,
    n: usize,
    occ: u64,
    avail: u64,
    halo: Halo,
) -> (u64, u64) {
    use std::arch::x86_64::*;
    debug_assert!(n <= 64);
    let free_group = _mm512_bitshuffle_epi64_mask(_mm512_set1_epi64(avail as i64), _mm512_loadu_si512(grp.cast()));
    let oc = _mm512_set1_epi64(occ as i64);
    let rr = _mm512_set1_epi64(halo.right as i64);
    let ll = _mm512_set1_epi64(halo.left as i64);
    let is = _mm512_set1_epi64(halo.iso as i64);
    let is2 = _mm512_set1_epi64(halo.iso2 as i64);
    let wc = _mm_cvtsi32_si128(halo.w as i32);
    let (mut fits, mut alive) = (0u64, 0u64);
    let mut i = 0;
    loop {
        let m = _mm512_loadu_si512(lo.add(i).cast());
        let kf = _mm512_testn_epi64_mask(m, oc);
        let fr = _mm512_ternarylogic_epi64::<{ !(A | B) & 0xff }>(m, oc, oc);
        let nr = _mm512_and_si512(_mm512_srli_epi64::<1>(fr), rr);
        let nl = _mm512_and_si512(_mm512_slli_epi64::<1>(fr), ll);
        let nd = _mm512_srl_epi64(fr, wc);
        let nu = _mm512_sll_epi64(fr, wc);
        let h = _mm512_or_si512(nr, nl);
        let v = _mm512_or_si512(nd, nu);
        let nb = _mm512_or_si512(h, v);
        let lone = _mm512_ternarylogic_epi64::<{ A & !B & !C & 0xff }>(fr, nb, is);
        let hh_vv = _mm512_ternarylogic_epi64::<{ (A & B) | C }>(nr, nl, _mm512_and_si512(nd, nu));
        let many = _mm512_ternarylogic_epi64::<{ A | (B & C) }>(hh_vv, h, v);
        let one = _mm512_ternarylogic_epi64::<{ A & B & !C & 0xff }>(fr, nb, many);
        let down = _mm512_and_si512(nd, _mm512_srl_epi64(one, wc));
        let partner = _mm512_ternarylogic_epi64::<{ (A & B) | C }>(nr, _mm512_srli_epi64::<1>(one), down);
        let pair = _mm512_ternarylogic_epi64::<{ A & B & !C & 0xff }>(one, partner, is2);
        let dead = _mm512_or_si512(lone, pair);
        let ok = _mm512_mask_testn_epi64_mask(kf, dead, dead);
        fits |= u64::from(kf) << i;
        alive |= u64::from(ok) << i;
        i += 8;
        if i >= n {
            break;
        }
    }
    let keep = _bzhi_u64(free_group, n as u32);
    (fits & keep, alive & keep)
}

#[cfg(not(target_arch = "x86_64"))]
pub(in crate::poly::stages::debruijn::lean) use crate::poly::stages::debruijn::lean::pass::{
    fit_alive_bits as fit_alive_bits512, fit_bits as fit_bits512,
};
