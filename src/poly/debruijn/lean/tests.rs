//! The AVX2 fit bits against the definition, entry by entry.

use super::fit_bits;

/// [`fit_bits`] in a function compiled for AVX2, as [`super::run_avx2`] has it.
///
/// # Safety
/// As [`fit_bits`].
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[allow(clippy::too_many_arguments)]
unsafe fn fit_bits_avx2(
    lo: *const u64,
    hi: *const u64,
    grp: *const u8,
    n: usize,
    occ_lo: u64,
    occ_hi: u64,
    avail: u64,
    two: bool,
) -> u64 {
    fit_bits(lo, hi, grp, n, occ_lo, occ_hi, avail, two)
}

#[test]
fn fit_bits_equal_the_entrywise_test() {
    if !crate::poly::cover::has_avx2() {
        eprintln!("skipped: no AVX2 on this processor");
        return;
    }
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    const LEN: usize = 200;
    const PAD: usize = super::super::SOA_PAD;
    // Sparse masks (about 8 cells), so that both outcomes are common.
    let lo: Vec<u64> = (0..LEN + PAD).map(|i| if i < LEN { next() & next() & next() } else { 0 }).collect();
    let hi: Vec<u64> = (0..LEN + PAD).map(|i| if i < LEN { next() & next() & next() } else { 0 }).collect();
    let grp: Vec<u8> = (0..LEN + PAD).map(|i| if i < LEN { (next() % 64) as u8 } else { 0 }).collect();
    let (mut fits, mut misses) = (0u32, 0u32);
    for round in 0..4000 {
        let n = (next() % 65) as usize;
        let from = (next() as usize) % (LEN - n + 1);
        let (occ_lo, occ_hi) = (next() & next(), next() & next());
        let avail = if round % 3 == 0 { u64::MAX } else { next() | next() };
        let two = round % 2 == 1;
        let want = (0..n).fold(0u64, |bits, i| {
            let j = from + i;
            let ok = lo[j] & occ_lo == 0 && (!two || hi[j] & occ_hi == 0) && avail >> grp[j] & 1 != 0;
            bits | u64::from(ok) << i
        });
        // SAFETY: AVX2 checked above; `from + n <= LEN`, and the arrays
        // have `PAD` words after `LEN`.
        let got = unsafe {
            fit_bits_avx2(lo[from..].as_ptr(), hi[from..].as_ptr(), grp[from..].as_ptr(), n, occ_lo, occ_hi, avail, two)
        };
        assert_eq!(got, want, "round {round}: {n} entries from {from}");
        fits += want.count_ones();
        misses += n as u32 - want.count_ones();
    }
    assert!(fits > 5_000 && misses > 5_000, "both outcomes tested ({fits}, {misses})");
}
