//! A small, fast, non-cryptographic hasher (the multiply-rotate scheme of
//! Firefox and rustc, "FxHash") for hash maps whose keys are our own data
//! (shapes, option lists) rather than input an attacker chooses: hashing
//! dominates the per-solution cost of verification and `--unique` with
//! SipHash.

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: `h = (h.rotate_left(5) ^ word) * K` per word.
#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher {
    hash: u64,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.add(i as u32 as u64);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `HashMap`/`HashSet` state using [`FxHasher`].
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sets_work_and_hashes_spread() {
        let mut s: HashSet<Vec<u32>, FxBuildHasher> = HashSet::default();
        for i in 0..1000u32 {
            assert!(s.insert(vec![i, i + 1, 7]));
        }
        assert!(!s.insert(vec![5, 6, 7]));
        assert_eq!(s.len(), 1000);
        let h = |v: u64| {
            let mut f = FxHasher::default();
            f.write_u64(v);
            f.finish()
        };
        assert_ne!(h(1) >> 57, h(2) >> 57);
    }
}
