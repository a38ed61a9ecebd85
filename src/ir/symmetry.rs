//! Symmetries of a problem as permutations of its options, and the
//! unique-solution filter built on them.
//!
//! A symmetry maps every option to an option so that solutions map to
//! solutions (a rotation of a polycube box, a quarter turn of an
//! edge-matching board). Expressing it on options keeps `--unique` generic:
//! a class is found by a fingerprint of its option sets over the group (and
//! told apart exactly by comparing images), whatever the puzzle kind; the
//! canonical form of a solution is the least sorted image of its option
//! set over the group.

use super::OptionId;

/// One non-identity symmetry of a problem.
///
/// Invariant: `option_map` is a permutation of `0..n_options` that maps
/// every solution to a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Printable description (e.g. the transform).
    pub name: String,
    /// Whether it reverses orientation (a mirror image).
    pub reflection: bool,
    /// Image of each option.
    pub option_map: Vec<OptionId>,
}

/// Which solutions count as the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Equivalence {
    /// Every solution counts.
    #[default]
    None,
    /// Solutions related by a rotation of the container count once.
    Rotations,
    /// Rotations and mirror images count once.
    RotationsAndMirrors,
}

/// The least sorted image of `solution` over the identity and `symmetries`.
///
/// Only images whose least option is no greater than the best so far are
/// sorted and compared in full: the least option decides most comparisons.
pub fn canonical<'a>(solution: &[OptionId], symmetries: impl IntoIterator<Item = &'a Symmetry>) -> Vec<OptionId> {
    canonical_in(solution, symmetries, &mut CanonicalScratch::default()).to_vec()
}

/// Buffers of [`canonical_in`], kept between calls so that a canonical form
/// costs no allocation.
#[derive(Debug, Default)]
struct CanonicalScratch {
    /// The solution, sorted.
    base: Vec<OptionId>,
    /// The image under the symmetry being tried, sorted.
    image: Vec<OptionId>,
    /// The least image found so far, when one beats `base`.
    best: Vec<OptionId>,
}

/// [`canonical`] in `scratch`'s buffers: the canonical form, borrowed.
fn canonical_in<'s, 'a>(
    solution: &[OptionId],
    symmetries: impl IntoIterator<Item = &'a Symmetry>,
    scratch: &'s mut CanonicalScratch,
) -> &'s [OptionId] {
    let CanonicalScratch { base, image, best } = scratch;
    base.clear();
    base.extend_from_slice(solution);
    base.sort_unstable();
    let Some(&first) = base.first() else { return base };
    // Images are taken of the sorted solution: symmetries tend to keep the
    // order of options (piece by piece), so the images are nearly sorted.
    // `best` holds an image better than `base` once one is found.
    let mut first = first;
    let mut found = false;
    for s in symmetries {
        let least = base.iter().map(|&o| s.option_map[o as usize]).min().unwrap_or(first);
        if least > first {
            continue;
        }
        image.clear();
        image.extend(base.iter().map(|&o| s.option_map[o as usize]));
        image.sort_unstable();
        let current: &[OptionId] = if found { best } else { base };
        if image[..] < *current {
            first = least;
            std::mem::swap(best, image);
            found = true;
        }
    }
    if found {
        best
    } else {
        base
    }
}

/// Keeps one solution per equivalence class.
///
/// A solution is hashed by a fingerprint of its class, not by its
/// canonical form: each option has a random 64-bit key (fixed seed), a set
/// of options the wrapping sum of its keys (no sorting), and a class the
/// least sum over its images (the identity and every symmetry: the same
/// for every member when the symmetries with the identity form a group,
/// as a problem's rotations, or rotations and reflections, do). Classes
/// with equal fingerprints are told apart exactly: a solution joins a
/// stored class only when one of its images is that class's stored member.
#[derive(Debug)]
pub struct UniqueFilter<'p> {
    symmetries: Vec<&'p Symmetry>,
    /// Row `o` (`keyed[o * stride..(o + 1) * stride]`): the key of option
    /// `o`, then the keys of its images under `symmetries` in order, so
    /// that a solution's sums are one row added per option.
    keyed: Vec<u64>,
    /// `symmetries.len() + 1`.
    stride: usize,
    seen: ClassSet,
    /// The key sums of the solution being inserted and of its images
    /// (identity first, then `symmetries` in order).
    sums: Vec<u64>,
    /// Sorted copies of a stored member and of an image, for the exact
    /// comparison.
    base: Vec<OptionId>,
    image: Vec<OptionId>,
}

/// The classes seen: one member of each, one after
/// the other in one arena, found through an open-addressing table of the
/// classes' fingerprints; a member is copied (into the arena, no
/// allocation of its own) only when it opens a class.
///
/// Invariant: class `c`'s member is `members[starts[c]..starts[c + 1]]`
/// (as found, unsorted); `slots.len()` is 0 or a power of two at least twice the number
/// of classes; every class has exactly one slot `(fingerprint, c + 1)`, at
/// or after (cyclically, with no empty slot between) the slot its
/// fingerprint's top bits name; an empty slot is `(0, 0)`.
#[derive(Debug, Default)]
struct ClassSet {
    slots: Vec<(u64, usize)>,
    members: Vec<OptionId>,
    starts: Vec<usize>,
}

impl ClassSet {
    fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The slot of fingerprint `h` in a table of `n` slots (a power of two):
    /// the top bits of `h` times an odd constant (a least sum is small, its
    /// own top bits mostly zero).
    fn home(h: u64, n: usize) -> usize {
        (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - n.trailing_zeros())) as usize
    }

    /// Doubles the table (at least 16 slots), placing the classes again by
    /// their stored fingerprints.
    fn grow(&mut self) {
        let n = (2 * self.slots.len()).max(16);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); n]);
        for (h, c) in old.into_iter().filter(|s| s.1 != 0) {
            let mut i = Self::home(h, n);
            while self.slots[i].1 != 0 {
                i = (i + 1) & (n - 1);
            }
            self.slots[i] = (h, c);
        }
    }
}

/// Adds to `sums` (`K` of them) row `o` of `keyed` (rows of `K` keys) for
/// every option `o` of `solution`: one fixed-size row per option, which
/// the compiler keeps in vector registers.
fn add_rows<const K: usize>(sums: &mut [u64], keyed: &[u64], solution: &[OptionId]) {
    let mut acc = [0u64; K];
    for &o in solution {
        let row: &[u64; K] = keyed[o as usize * K..][..K].try_into().expect("rows of K keys");
        for k in 0..K {
            acc[k] = acc[k].wrapping_add(row[k]);
        }
    }
    sums.copy_from_slice(&acc);
}

/// The key of option `o` (SplitMix64 of its id).
fn option_key(o: usize) -> u64 {
    let mut z = (o as u64).wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<'p> UniqueFilter<'p> {
    /// A filter over the symmetries allowed by `equivalence`.
    pub fn new(symmetries: &'p [Symmetry], equivalence: Equivalence) -> Self {
        let symmetries: Vec<&Symmetry> = match equivalence {
            Equivalence::None => vec![],
            Equivalence::Rotations => symmetries.iter().filter(|s| !s.reflection).collect(),
            Equivalence::RotationsAndMirrors => symmetries.iter().collect(),
        };
        let n_options = symmetries.iter().map(|s| s.option_map.len()).max().unwrap_or(0);
        let stride = symmetries.len() + 1;
        let mut keyed = Vec::new();
        if !symmetries.is_empty() {
            let keys: Vec<u64> = (0..n_options).map(option_key).collect();
            keyed.reserve(n_options * stride);
            for (o, &key) in keys.iter().enumerate() {
                keyed.push(key);
                keyed.extend(symmetries.iter().map(|s| keys[s.option_map[o] as usize]));
            }
        }
        UniqueFilter {
            symmetries,
            keyed,
            stride,
            seen: ClassSet::default(),
            sums: Vec::new(),
            base: Vec::new(),
            image: Vec::new(),
        }
    }

    /// Number of non-identity symmetries in use.
    pub fn n_symmetries(&self) -> usize {
        self.symmetries.len()
    }

    /// Records `solution`; returns whether it opens a new class.
    pub fn insert(&mut self, solution: &[OptionId]) -> bool {
        if self.symmetries.is_empty() {
            return true;
        }
        self.sums.clear();
        self.sums.resize(self.stride, 0);
        match self.stride {
            2 => add_rows::<2>(&mut self.sums, &self.keyed, solution),
            4 => add_rows::<4>(&mut self.sums, &self.keyed, solution),
            8 => add_rows::<8>(&mut self.sums, &self.keyed, solution),
            24 => add_rows::<24>(&mut self.sums, &self.keyed, solution),
            48 => add_rows::<48>(&mut self.sums, &self.keyed, solution),
            _ => {
                for &o in solution {
                    let row = &self.keyed[o as usize * self.stride..][..self.stride];
                    for (sum, &key) in self.sums.iter_mut().zip(row) {
                        *sum = sum.wrapping_add(key);
                    }
                }
            }
        }
        let fingerprint = *self.sums.iter().min().expect("the identity is keyed");
        if 2 * (self.seen.len() + 1) > self.seen.slots.len() {
            self.seen.grow();
        }
        let mask = self.seen.slots.len() - 1;
        let mut i = ClassSet::home(fingerprint, self.seen.slots.len());
        loop {
            let (h, c) = self.seen.slots[i];
            if c == 0 {
                break;
            }
            if h == fingerprint && self.is_member(c - 1, solution) {
                return false;
            }
            i = (i + 1) & mask;
        }
        let seen = &mut self.seen;
        if seen.starts.is_empty() {
            seen.starts.push(0);
        }
        seen.members.extend_from_slice(solution);
        seen.starts.push(seen.members.len());
        seen.slots[i] = (fingerprint, seen.len());
        true
    }

    /// Whether `solution` or one of its images is class `c`'s stored
    /// member (as sets, sorted here, only when the fingerprints match).
    /// Only the images whose key sum (in `sums`) is the member's own can
    /// be it: usually one, so one sorted comparison.
    fn is_member(&mut self, c: usize, solution: &[OptionId]) -> bool {
        let member = &self.seen.members[self.seen.starts[c]..self.seen.starts[c + 1]];
        if member.len() != solution.len() {
            return false;
        }
        let own = member.iter().fold(0u64, |h, &o| h.wrapping_add(self.keyed[o as usize * self.stride]));
        self.base.clear();
        for (i, &sum) in self.sums.iter().enumerate() {
            if sum != own {
                continue;
            }
            if self.base.is_empty() {
                self.base.extend_from_slice(member);
                self.base.sort_unstable();
            }
            self.image.clear();
            match i {
                0 => self.image.extend_from_slice(solution),
                _ => {
                    let map = &self.symmetries[i - 1].option_map;
                    self.image.extend(solution.iter().map(|&o| map[o as usize]));
                }
            }
            self.image.sort_unstable();
            if self.base == self.image {
                return true;
            }
        }
        false
    }

    /// Number of classes seen.
    pub fn classes(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_picks_least_image() {
        let swap = Symmetry { name: "swap".into(), reflection: false, option_map: vec![1, 0, 3, 2] };
        assert_eq!(canonical(&[1, 3], [&swap]), vec![0, 2]);
        assert_eq!(canonical(&[], [&swap]), Vec::<OptionId>::new());
        // Same least option, decided further on.
        let cycle = Symmetry { name: "cycle".into(), reflection: false, option_map: vec![0, 2, 3, 1] };
        assert_eq!(canonical(&[0, 2], [&cycle]), vec![0, 2]);
        assert_eq!(canonical(&[0, 3], [&cycle, &swap]), vec![0, 1]);
        assert_eq!(canonical(&[3, 1, 0], [&swap, &cycle]), vec![0, 1, 2]);
        let mut f = UniqueFilter::new(std::slice::from_ref(&swap), Equivalence::Rotations);
        assert!(f.insert(&[1, 3]));
        assert!(!f.insert(&[2, 0]));
        assert!(f.insert(&[0, 3]));
        // Many classes: the table grows and still finds every one.
        let shift =
            Symmetry { name: "shift".into(), reflection: false, option_map: (0..4000).map(|o| o ^ 1).collect() };
        let mut many = UniqueFilter::new(std::slice::from_ref(&shift), Equivalence::Rotations);
        for round in 0..2 {
            for a in (0..3998).step_by(2) {
                assert_eq!(many.insert(&[a + round, a + 2 + round]), round == 0, "{a} {round}");
            }
        }
        assert_eq!(many.classes(), 1999);
        let mut mirrors_only = UniqueFilter::new(std::slice::from_ref(&swap), Equivalence::None);
        assert!(mirrors_only.insert(&[1, 3]) && mirrors_only.insert(&[0, 2]));
    }
}
