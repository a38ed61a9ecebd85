//! Word-parallel helpers of [`super::Domains`]: counting the options a
//! pending set removes, and finding the colour counters a recount
//! brought to zero.

/// Bits set in both `a` and `b` (equal lengths); `popcnt`: the CPU has
/// the instruction (`count_ones` is a long sequence without it, and the
/// build does not assume it).
#[inline(always)]
pub(super) fn common_bits(a: &[u64], b: &[u64], popcnt: bool) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if popcnt {
        // SAFETY: the CPU supports `popcnt` (tested by the caller).
        return unsafe { common_bits_popcnt(a, b) };
    }
    let _ = popcnt;
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn common_bits_popcnt(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

/// Bit `x` set iff `old[x] != 0` and `new[x] == 0` (equal lengths, at
/// most 64 counters): four counters per word, no branch.
#[inline(always)]
pub(super) fn fell_to_zero(old: &[u16], new: &[u16]) -> u64 {
    assert!(old.len() == new.len() && old.len() <= 64);
    #[cfg(target_endian = "little")]
    if old.len() % 4 == 0 {
        // Bit 15 of each 16-bit lane set iff the lane is not zero.
        const LOW: u64 = 0x7fff_7fff_7fff_7fff;
        let nonzero = |x: u64| (((x & LOW) + LOW) | x) & !LOW;
        let mut lost = 0u64;
        for j in 0..old.len() / 4 {
            // SAFETY: `4 j + 3 < len` for both slices; the lanes of a
            // little-endian word are the counters in order.
            let (o, n) = unsafe {
                (
                    old.as_ptr().add(4 * j).cast::<u64>().read_unaligned(),
                    new.as_ptr().add(4 * j).cast::<u64>().read_unaligned(),
                )
            };
            let gone = (nonzero(o) & !nonzero(n)) >> 15;
            // Lanes at bits 0, 16, 32, 48 -> bits 45..48 (no two products
            // share a bit, so no carries).
            lost |= ((gone.wrapping_mul(1 | 1 << 15 | 1 << 30 | 1 << 45) >> 45) & 0xf) << (4 * j);
        }
        return lost;
    }
    let mut lost = 0u64;
    for x in 0..old.len() {
        lost |= (((new[x] == 0) & (old[x] != 0)) as u64) << x;
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_bits_counts_the_intersection() {
        let a = [u64::MAX, 0xf0f0, 1 << 63, 0];
        let b = [0x8000_0000_0000_0001, 0xff00, u64::MAX, u64::MAX];
        for popcnt in [false, true] {
            #[cfg(target_arch = "x86_64")]
            if popcnt && !std::arch::is_x86_feature_detected!("popcnt") {
                continue;
            }
            assert_eq!(common_bits(&a, &b, popcnt), 2 + 4 + 1);
        }
    }

    #[test]
    fn fell_to_zero_matches_the_counter_loop() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for len in [4, 8, 16, 32, 64, 3] {
            for _ in 0..200 {
                let mut old = vec![0u16; len];
                let mut new = vec![0u16; len];
                for x in 0..len {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    // Zero, small and large counters (bit 15 set too).
                    old[x] = [0, 1, 7, 0x8000, 0xffff][rng as usize % 5];
                    new[x] = [0, 0, 2, 0x8001][(rng >> 8) as usize % 4];
                }
                let want = (0..len).fold(0u64, |a, x| a | (((old[x] != 0) & (new[x] == 0)) as u64) << x);
                assert_eq!(fell_to_zero(&old, &new), want, "{old:?} {new:?}");
            }
        }
    }
}
