//! The last two pieces without a search: at a state with two pieces `P`
//! and `Q` left, the lowest free cell `c` is the root (least cell) of the
//! image that covers it, so the solutions below are the images of `P`
//! (then of `Q`) rooted at `c` that fit, whose complement in the free cells
//! is an image of the other piece. The complement is looked up in a hash
//! set of every image's mask.

use crate::poly::bits::Bits;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// Every image's mask, by open addressing (linear probing).
///
/// Invariant: `table.len()` is a power of two, `2^(64 - shift)`, at least
/// twice the number of images; each image id `k` is in exactly one slot,
/// reached from `slot(mask[k])` by probing forward over non-empty slots.
#[derive(Clone, Debug)]
pub(crate) struct PairSet {
    table: Vec<u32>,
    shift: u32,
}

impl PairSet {
    /// The set of the images `masks` (ids are their positions).
    pub(crate) fn new<B: Bits>(masks: &[B]) -> Self {
        assert!(masks.len() < EMPTY as usize, "image ids fit in 32 bits");
        let size = (2 * masks.len()).next_power_of_two().max(16);
        let shift = 64 - size.trailing_zeros();
        let mut table = vec![EMPTY; size];
        for (k, m) in masks.iter().enumerate() {
            let mut h = slot(m, shift);
            while table[h] != EMPTY {
                h = (h + 1) & (size - 1);
            }
            table[h] = k as u32;
        }
        PairSet { table, shift }
    }

    /// The image of group `g` whose mask is `rest`, if any (`masks` and
    /// `group_of` are the tables the set was built from).
    #[inline(always)]
    pub(crate) fn find<B: Bits>(&self, rest: B, g: u16, masks: &[B], group_of: &[u16]) -> Option<u32> {
        let size_mask = self.table.len() - 1;
        let mut h = slot(&rest, self.shift);
        loop {
            debug_assert!(h < self.table.len());
            // SAFETY: `h` is masked to the table's length (a power of two).
            let k = unsafe { *self.table.get_unchecked(h) };
            if k == EMPTY {
                return None;
            }
            // `k` is an image id of the tables the set was built from.
            if masks[k as usize] == rest && group_of[k as usize] == g {
                return Some(k);
            }
            h = (h + 1) & size_mask;
        }
    }
}

/// The home slot of `m` in a table of `2^(64 - shift)` slots.
#[inline(always)]
fn slot<B: Bits>(m: &B, shift: u32) -> usize {
    (m.hash64().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> shift) as usize
}
