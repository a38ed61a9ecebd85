//! Bit-field occupancy: one bit per free cell of the box, in the engines'
//! cell order (see [`crate::poly::model::CellOrder`]). Puzzles with at most 64 free
//! cells use a plain `u64` (Busche's "greasy fast" layout mask); up to 128 a
//! `u128`; above that a fixed-size array of words. An image is a mask; it
//! fits when `mask & occupied == 0`.

use std::fmt::Debug;

/// A fixed-size set of cell indices.
///
/// Invariant for every implementation: bit `i` of the value is cell `i`;
/// operations never allocate.
pub trait Bits: Copy + Eq + Debug + Default + Send + Sync + 'static {
    /// Number of bits the type holds.
    const CAPACITY: usize;
    /// The set `{i}`.
    fn bit(i: usize) -> Self;
    /// Whether `i` is in the set.
    fn test(&self, i: usize) -> bool;
    /// Union.
    fn or(self, o: Self) -> Self;
    /// Intersection.
    fn and(self, o: Self) -> Self;
    /// `self \ o`.
    fn andnot(self, o: Self) -> Self;
    /// Symmetric difference.
    fn xor(self, o: Self) -> Self;
    /// Complement.
    fn not(self) -> Self;
    /// Whether the set is empty.
    fn is_zero(&self) -> bool;
    /// Whether the two sets are disjoint (the fit test).
    #[inline]
    fn disjoint(&self, o: &Self) -> bool {
        self.and(*o).is_zero()
    }
    /// Number of members.
    fn count(&self) -> u32;
    /// The least member.
    fn lowest(&self) -> Option<usize>;
    /// Removes and returns the least member.
    #[inline]
    fn pop_lowest(&mut self) -> Option<usize> {
        let i = self.lowest()?;
        *self = self.andnot(Self::bit(i));
        Some(i)
    }
    /// Bits `from..from + width` (`width <= 32`) as an integer, bit `from`
    /// lowest; bits past the capacity read as 0.
    fn window(&self, from: usize, width: u32) -> u64 {
        (0..width as usize).filter(|&i| from + i < Self::CAPACITY && self.test(from + i)).fold(0, |w, i| w | 1 << i)
    }
    /// [`Self::window`] from `hole + 1` (`hole < CAPACITY`).
    #[inline]
    fn window_after(&self, hole: usize, width: u32) -> u64 {
        self.window(hole + 1, width)
    }
    /// A 64-bit digest of the set (equal sets, equal digests).
    fn hash64(&self) -> u64;
    /// Cells `0..64` as a word (bit `i` is cell `i`).
    fn low64(&self) -> u64;
    /// The set whose cells `0..64` are `lo` and `64..128` are `hi` (the
    /// latter dropped past the capacity).
    fn from_words(lo: u64, hi: u64) -> Self;
    /// The set `{i + n : i in self}` (members past the capacity dropped);
    /// `n < CAPACITY`.
    fn shl(self, n: u32) -> Self;
    /// The set `{i - n : i in self, i >= n}`; `n < CAPACITY`.
    fn shr(self, n: u32) -> Self;
    /// The set `{0, ..., n-1}`.
    fn below(n: usize) -> Self {
        let mut s = Self::default();
        for i in 0..n {
            s = s.or(Self::bit(i));
        }
        s
    }
}

/// The [`Bits`] operations that are the same for every primitive unsigned
/// integer (one word, native bit operations).
macro_rules! primitive_bit_ops {
    ($t:ty) => {
        #[inline]
        fn bit(i: usize) -> Self {
            (1 as $t) << i
        }
        #[inline]
        fn test(&self, i: usize) -> bool {
            self >> i & 1 != 0
        }
        #[inline]
        fn or(self, o: Self) -> Self {
            self | o
        }
        #[inline]
        fn and(self, o: Self) -> Self {
            self & o
        }
        #[inline]
        fn andnot(self, o: Self) -> Self {
            self & !o
        }
        #[inline]
        fn xor(self, o: Self) -> Self {
            self ^ o
        }
        #[inline]
        fn not(self) -> Self {
            !self
        }
        #[inline]
        fn is_zero(&self) -> bool {
            *self == 0
        }
        #[inline]
        fn count(&self) -> u32 {
            self.count_ones()
        }
        #[inline]
        fn lowest(&self) -> Option<usize> {
            (*self != 0).then(|| self.trailing_zeros() as usize)
        }
        #[inline]
        fn below(n: usize) -> Self {
            if n >= <$t>::BITS as usize {
                !0
            } else {
                ((1 as $t) << n) - 1
            }
        }
        #[inline]
        fn shl(self, n: u32) -> Self {
            self << n
        }
        #[inline]
        fn shr(self, n: u32) -> Self {
            self >> n
        }
        #[inline]
        fn pop_lowest(&mut self) -> Option<usize> {
            if *self == 0 {
                return None;
            }
            let i = self.trailing_zeros() as usize;
            *self &= *self - 1;
            Some(i)
        }
    };
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    #[inline]
    fn low64(&self) -> u64 {
        *self
    }
    #[inline]
    fn from_words(lo: u64, _hi: u64) -> Self {
        lo
    }
    #[inline]
    fn hash64(&self) -> u64 {
        *self
    }
    #[inline]
    fn window(&self, from: usize, width: u32) -> u64 {
        if from >= 64 {
            return 0;
        }
        (self >> from) & ((1u64 << width) - 1)
    }
    #[inline]
    fn window_after(&self, hole: usize, width: u32) -> u64 {
        // Two shifts: `hole + 1` may be 64.
        ((self >> hole) >> 1) & ((1u64 << width) - 1)
    }
    primitive_bit_ops!(u64);
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    #[inline]
    fn low64(&self) -> u64 {
        *self as u64
    }
    #[inline]
    fn from_words(lo: u64, hi: u64) -> Self {
        u128::from(hi) << 64 | u128::from(lo)
    }
    #[inline]
    fn hash64(&self) -> u64 {
        (*self as u64) ^ ((*self >> 64) as u64).rotate_left(29)
    }
    #[inline]
    fn window(&self, from: usize, width: u32) -> u64 {
        if from >= 128 {
            return 0;
        }
        ((self >> from) as u64) & ((1u64 << width) - 1)
    }
    #[inline]
    fn window_after(&self, hole: usize, width: u32) -> u64 {
        (((self >> hole) >> 1) as u64) & ((1u64 << width) - 1)
    }
    primitive_bit_ops!(u128);
}

/// A bitset of `64 * N` bits for puzzles larger than 128 free cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> Bits for Wide<N> {
    const CAPACITY: usize = 64 * N;
    #[inline]
    fn low64(&self) -> u64 {
        self.0[0]
    }
    #[inline]
    fn from_words(lo: u64, hi: u64) -> Self {
        let mut w = [0; N];
        w[0] = lo;
        if N > 1 {
            w[1] = hi;
        }
        Wide(w)
    }
    #[inline]
    fn hash64(&self) -> u64 {
        self.0.iter().fold(0u64, |h, &w| h.rotate_left(29) ^ w)
    }
    #[inline]
    fn window(&self, from: usize, width: u32) -> u64 {
        let (w, b) = (from / 64, from % 64);
        if w >= N {
            return 0;
        }
        let lo = self.0[w] >> b;
        let hi = if b > 0 && w + 1 < N { self.0[w + 1] << (64 - b) } else { 0 };
        (lo | hi) & ((1u64 << width) - 1)
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        let (q, r) = ((n / 64) as usize, n % 64);
        let mut w = [0u64; N];
        for i in (q..N).rev() {
            let lo = self.0[i - q] << r;
            let carry = if r > 0 && i > q { self.0[i - q - 1] >> (64 - r) } else { 0 };
            w[i] = lo | carry;
        }
        Wide(w)
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        let (q, r) = ((n / 64) as usize, n % 64);
        let mut w = [0u64; N];
        for (i, out) in w.iter_mut().enumerate().take(N.saturating_sub(q)) {
            let hi = self.0[i + q] >> r;
            let carry = if r > 0 && i + q + 1 < N { self.0[i + q + 1] << (64 - r) } else { 0 };
            *out = hi | carry;
        }
        Wide(w)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = [0; N];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    #[inline]
    fn test(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
    #[inline]
    fn or(self, o: Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0) {
            *a |= b;
        }
        Wide(w)
    }
    #[inline]
    fn and(self, o: Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0) {
            *a &= b;
        }
        Wide(w)
    }
    #[inline]
    fn andnot(self, o: Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0) {
            *a &= !b;
        }
        Wide(w)
    }
    #[inline]
    fn xor(self, o: Self) -> Self {
        let mut w = self.0;
        for (a, b) in w.iter_mut().zip(o.0) {
            *a ^= b;
        }
        Wide(w)
    }
    #[inline]
    fn not(self) -> Self {
        let mut w = self.0;
        for x in &mut w {
            *x = !*x;
        }
        Wide(w)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }
    #[inline]
    fn disjoint(&self, o: &Self) -> bool {
        (0..N).all(|k| self.0[k] & o.0[k] == 0)
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|x| x.count_ones()).sum()
    }
    #[inline]
    fn lowest(&self) -> Option<usize> {
        self.0.iter().position(|&x| x != 0).map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::model::bits::*;

    fn exercise<B: Bits>() {
        let n = B::CAPACITY;
        let a = B::bit(0).or(B::bit(n - 1)).or(B::bit(n / 2));
        assert_eq!(a.count(), 3);
        assert!(a.test(n - 1) && !a.test(1));
        let mut b = a;
        assert_eq!(b.pop_lowest(), Some(0));
        assert_eq!(b.pop_lowest(), Some(n / 2));
        assert_eq!(b.pop_lowest(), Some(n - 1));
        assert_eq!(b.pop_lowest(), None);
        assert!(a.disjoint(&B::bit(1)));
        assert!(!a.disjoint(&B::bit(n / 2)));
        assert_eq!(B::below(n).not(), B::default());
        assert_eq!(B::below(3).count(), 3);
        assert_eq!(a.andnot(B::bit(0)).lowest(), Some(n / 2));
        for k in [0, 1, 5, 63, 64, 65, n as u32 / 2, n as u32 - 1] {
            if (k as usize) < n {
                let members = |x: B| (0..n).filter(|&i| x.test(i)).collect::<Vec<_>>();
                let up: Vec<usize> = members(a).into_iter().map(|i| i + k as usize).filter(|&i| i < n).collect();
                let down: Vec<usize> =
                    members(a).into_iter().filter(|&i| i >= k as usize).map(|i| i - k as usize).collect();
                assert_eq!(members(a.shl(k)), up, "shl {k}");
                assert_eq!(members(a.shr(k)), down, "shr {k}");
            }
        }
        for from in [0, 1, n / 2 - 3, n - 4, n - 1, n] {
            let naive = (0..8).filter(|&i| from + i < n && a.test(from + i)).fold(0u64, |w, i| w | 1 << i);
            assert_eq!(a.window(from, 8), naive, "window at {from}");
        }
    }

    #[test]
    fn all_widths_agree() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Wide<4>>();
        exercise::<Wide<16>>();
    }
}
