//! The deterministic generator of the randomised unit tests (xorshift64),
//! one definition instead of a closure per test. Test-only: the search's
//! own seeded generator is [`crate::poly::sample::Rng`].

/// Marsaglia's xorshift64. Invariant: the state is never 0 (a zero state
/// stays zero); the seeds in the tests are fixed non-zero constants.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next state, which is also the output.
    pub(crate) fn next(&mut self) -> u64 {
        debug_assert_ne!(self.0, 0, "xorshift from a zero state");
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`; modulo bias is irrelevant to the tests).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
