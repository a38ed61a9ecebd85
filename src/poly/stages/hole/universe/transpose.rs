//! The 64 x 64 bit transpose that turns a block of 64 image masks into
//! 64 cell rows (one bit per image) for [`crate::poly::stages::hole::universe::Universe::build`].
#![allow(clippy::incompatible_msrv)]

use std::arch::x86_64::*;

/// 64 byte indices, aligned for one load.
#[repr(C, align(64))]
struct ByteIndex([u8; 64]);

/// [`transpose64`]'s first shuffle: word `b` of register `k`, byte `i`,
/// takes row `8k + 7 - i`, byte `b` (the rows reversed, since the affine
/// product puts row `7 - i` at bit `i`).
static GATHER: ByteIndex = ByteIndex({
    let mut x = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let (b, i) = (p / 8, p % 8);
        x[p] = (8 * (7 - i) + b) as u8;
        p += 1;
    }
    x
});

/// Its last shuffle: word `t`, byte `k` takes word `k`, byte `t`.
static SPREAD: ByteIndex = ByteIndex({
    let mut x = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let (t, k) = (p / 8, p % 8);
        x[p] = (8 * k + t) as u8;
        p += 1;
    }
    x
});

/// `out[c]` bit `j` = `masks[j]` bit `c`, for 64 masks (a 64 x 64 bit
/// transpose): bytes regrouped so that each word holds an 8 x 8 block,
/// each block transposed by `gf2p8affineqb`, the blocks put in place.
///
/// # Safety
/// As [`Universe::build`]; `masks` and `out` hold 64 words.
#[target_feature(
    enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni"
)]
pub(in crate::poly::stages::hole::universe) unsafe fn transpose64(masks: *const u64, out: *mut u64) {
    let gather = _mm512_loadu_si512(GATHER.0.as_ptr() as *const __m512i);
    let spread = _mm512_loadu_si512(SPREAD.0.as_ptr() as *const __m512i);
    let units = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    let mut z = [_mm512_setzero_si512(); 8];
    for (k, zk) in z.iter_mut().enumerate() {
        let v = _mm512_loadu_si512(masks.add(8 * k) as *const __m512i);
        let v = _mm512_permutexvar_epi8(gather, v);
        // Word b, byte t: bit i = row 8k + i, column 8b + t.
        *zk = _mm512_gf2p8affine_epi64_epi8::<0>(units, v);
    }
    // An 8 x 8 transpose of words across the registers: q[b] word k = z[k] word b.
    let q = transpose_words(z);
    for (b, qb) in q.iter().enumerate() {
        let v = _mm512_permutexvar_epi8(spread, *qb);
        _mm512_storeu_si512(out.add(8 * b) as *mut __m512i, v);
    }
}

/// The 8 x 8 transpose of 64-bit words held in 8 registers: `q[b]`
/// word `k` = `z[k]` word `b`.
#[inline(always)]
unsafe fn transpose_words(z: [__m512i; 8]) -> [__m512i; 8] {
    // Pairs: t[2p] = z[2p][0], z[2p+1][0], z[2p][2], z[2p+1][2], ...;
    // t[2p+1] the odd words.
    let mut t = [_mm512_setzero_si512(); 8];
    for p in 0..4 {
        t[2 * p] = _mm512_unpacklo_epi64(z[2 * p], z[2 * p + 1]);
        t[2 * p + 1] = _mm512_unpackhi_epi64(z[2 * p], z[2 * p + 1]);
    }
    // Quads: words b and b + 4 of four registers.
    let lo = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let hi = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    let mut u = [_mm512_setzero_si512(); 8];
    for h in 0..2 {
        let (a, b) = (4 * h, 4 * h + 2);
        u[4 * h] = _mm512_permutex2var_epi64(t[a], lo, t[b]);
        u[4 * h + 2] = _mm512_permutex2var_epi64(t[a], hi, t[b]);
        u[4 * h + 1] = _mm512_permutex2var_epi64(t[a + 1], lo, t[b + 1]);
        u[4 * h + 3] = _mm512_permutex2var_epi64(t[a + 1], hi, t[b + 1]);
    }
    let first = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0);
    let second = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
    let mut q = [_mm512_setzero_si512(); 8];
    for b in 0..4 {
        q[b] = _mm512_permutex2var_epi64(u[b], first, u[4 + b]);
        q[b + 4] = _mm512_permutex2var_epi64(u[b], second, u[4 + b]);
    }
    q
}

#[cfg(test)]
mod tests {
    use crate::poly::stages::hole::universe::transpose::*;

    #[test]
    fn transpose_is_a_transpose() {
        if crate::cpu::detected() < crate::cpu::Level::Avx512 {
            eprintln!("skipped: no AVX-512 (VBMI, VPOPCNTDQ, GFNI) on this processor");
            return;
        }
        let mut rng = crate::search::Rng::new(0x1234_5678_9abc_def1);
        let masks: Vec<u64> = (0..64).map(|_| rng.next_u64()).collect();
        let mut out = [0u64; 64];
        // SAFETY: checked above.
        unsafe { transpose64(masks.as_ptr(), out.as_mut_ptr()) };
        for (c, row) in out.iter().enumerate() {
            for (j, m) in masks.iter().enumerate() {
                assert_eq!(row >> j & 1, m >> c & 1, "cell {c}, image {j}");
            }
        }
    }
}
