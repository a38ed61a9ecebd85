//! Symmetries of a problem as permutations of its options, and the
//! unique-solution filter built on them.
//!
//! A symmetry maps every option to an option so that solutions map to
//! solutions (a rotation of a polycube box, a quarter turn of an
//! edge-matching board). Expressing it on options keeps `--unique` generic:
//! the canonical form of a solution is the least sorted image of its option
//! set over the group, whatever the puzzle kind.

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
#[derive(Debug)]
pub struct UniqueFilter<'p> {
    symmetries: Vec<&'p Symmetry>,
    seen: ClassSet,
    scratch: CanonicalScratch,
}

/// The canonical forms seen, one after the other in one arena, found
/// through an open-addressing table of their hashes: a form is hashed
/// once, compared in full only with forms of the same hash, and copied
/// (into the arena, no allocation of its own) only when new.
///
/// Invariant: form `c` is `keys[starts[c]..starts[c + 1]]`, the forms are
/// distinct; `slots.len()` is 0 or a power of two at least twice the
/// number of forms; every form has exactly one slot `(hash, c + 1)`, at or
/// after (cyclically, with no empty slot between) the slot its hash's top
/// bits name; an empty slot is `(0, 0)`.
#[derive(Debug, Default)]
struct ClassSet {
    slots: Vec<(u64, usize)>,
    keys: Vec<OptionId>,
    starts: Vec<usize>,
}

impl ClassSet {
    fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// FxHash of `key` two options to a word, then its length.
    fn hash(key: &[OptionId]) -> u64 {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let add = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut chunks = key.chunks_exact(2);
        let mut h = (&mut chunks).fold(0, |h, c| add(h, c[0] as u64 | (c[1] as u64) << 32));
        if let [last] = chunks.remainder() {
            h = add(h, *last as u64);
        }
        add(h, key.len() as u64)
    }

    /// The slot of hash `h` in a table of `n` slots (a power of two): its
    /// top bits (FxHash's low bits mix poorly).
    fn home(h: u64, n: usize) -> usize {
        (h >> (64 - n.trailing_zeros())) as usize
    }

    /// Adds `key`; returns whether it was new.
    fn insert(&mut self, key: &[OptionId]) -> bool {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let h = Self::hash(key);
        let mask = self.slots.len() - 1;
        let mut i = Self::home(h, self.slots.len());
        loop {
            let (sh, c) = self.slots[i];
            if c == 0 {
                break;
            }
            if sh == h && self.keys[self.starts[c - 1]..self.starts[c]] == *key {
                return false;
            }
            i = (i + 1) & mask;
        }
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.keys.extend_from_slice(key);
        self.starts.push(self.keys.len());
        self.slots[i] = (h, self.len());
        true
    }

    /// Doubles the table (at least 16 slots), placing the forms again by
    /// their stored hashes.
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

impl<'p> UniqueFilter<'p> {
    /// A filter over the symmetries allowed by `equivalence`.
    pub fn new(symmetries: &'p [Symmetry], equivalence: Equivalence) -> Self {
        let symmetries = match equivalence {
            Equivalence::None => vec![],
            Equivalence::Rotations => symmetries.iter().filter(|s| !s.reflection).collect(),
            Equivalence::RotationsAndMirrors => symmetries.iter().collect(),
        };
        UniqueFilter { symmetries, seen: ClassSet::default(), scratch: CanonicalScratch::default() }
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
        let key = canonical_in(solution, self.symmetries.iter().copied(), &mut self.scratch);
        self.seen.insert(key)
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
