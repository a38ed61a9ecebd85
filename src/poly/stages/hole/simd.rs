//! The AVX2 fit counts of the hole kernel: 4 masks tested per
//! instruction, the ids of the fitting ones packed by one byte shuffle.
//! Compiled into the kernel copy built for AVX2 and chosen at run time;
//! `simd_counts_equal_scalar_counts` checks them against the scalar loop.

use crate::poly::model::bits::Bits;
use crate::poly::stages::hole::cover::CoverIndex;
use std::arch::x86_64::*;

/// Byte shuffles packing the 32-bit lanes set in a 4-bit mask to the
/// front (in lane order).
#[repr(align(16))]
struct Packs([[u8; 16]; 16]);

static PACKS: Packs = {
    let mut t = [[0x80u8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            if m >> lane & 1 != 0 {
                let mut b = 0;
                while b < 4 {
                    t[m][out * 4 + b] = (lane * 4 + b) as u8;
                    b += 1;
                }
                out += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    Packs(t)
};

/// [`crate::poly::stages::hole::fits_into`] for `gs` (the available groups with a list
/// under the key whose row of padded list starts is `row`) with
/// occupancy `occ`, at the cell whose bit is `cell`.
///
/// # Safety
/// The processor has AVX2, the index has its AVX2 arrays, `row` is a
/// key's row of [`CoverIndex::simd_key_unchecked`], `gs` has only bits of
/// groups with a list under it, `cell` is the bit of a cell every image
/// of those lists covers and `occ` does not hold, and `out` holds the
/// longest list of one cell plus [`crate::poly::stages::hole::cover::SIMD_PAD`].
#[inline(always)]
pub(in crate::poly::stages::hole) unsafe fn fits_into<B: Bits, const CHUNKED: bool>(
    ci: &CoverIndex<B>,
    row: &[u32],
    mut gs: u64,
    occ: u64,
    cell: u64,
    limit: u32,
    out: &mut [u32],
) -> u32 {
    let (masks, ids) = ci.simd_arrays();
    debug_assert!(masks.len() == ids.len() && masks.len() % 4 == 0);
    debug_assert!(occ & cell == 0);
    let (masks, ids) = (masks.as_ptr(), ids.as_ptr());
    let out_len = out.len();
    let out = out.as_mut_ptr();
    // An image fits iff its cells meet `occ | cell` in `cell` alone; the
    // padding entries (mask 0) never do.
    let occv = _mm256_set1_epi64x((occ | cell) as i64);
    let cellv = _mm256_set1_epi64x(cell as i64);
    let mut n = 0u32;
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let (a, b) = (*row.get_unchecked(g) as usize, *row.get_unchecked(g + 1) as usize);
        debug_assert!(a < b && (b - a) % 4 == 0 && b <= ci.simd_arrays().0.len());
        // The list is not empty: the first block needs no test.
        let mut i = a;
        loop {
            let m = _mm256_loadu_si256(masks.add(i) as *const __m256i);
            let free = _mm256_cmpeq_epi64(_mm256_and_si256(m, occv), cellv);
            let bits = _mm256_movemask_pd(_mm256_castsi256_pd(free)) as u32;
            let idv = _mm_loadu_si128(ids.add(i) as *const __m128i);
            let packed = _mm_shuffle_epi8(idv, _mm_load_si128(PACKS.0[bits as usize].as_ptr() as *const __m128i));
            debug_assert!(n as usize + 4 <= out_len);
            _mm_storeu_si128(out.add(n as usize) as *mut __m128i, packed);
            n += bits.count_ones();
            i += 4;
            if CHUNKED && n >= limit {
                return n;
            }
            if i >= b {
                break;
            }
        }
        // The early exit folded into the group loop's exit (one
        // branch, not two).
        if !CHUNKED {
            gs &= ((n < limit) as u64).wrapping_neg();
        }
    }
    let _ = out_len;
    n
}
