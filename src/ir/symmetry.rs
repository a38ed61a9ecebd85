//! Symmetries of a problem as permutations of its options, and the
//! unique-solution filter built on them.
//!
//! A symmetry maps every option to an option so that solutions map to
//! solutions (a rotation of a polycube box, a quarter turn of an
//! edge-matching board). Expressing it on options keeps `--unique` generic:
//! the canonical form of a solution is the least sorted image of its option
//! set over the group, whatever the puzzle kind.

use super::OptionId;
use std::collections::HashSet;

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
    seen: HashSet<Vec<OptionId>, crate::fxhash::FxBuildHasher>,
    scratch: CanonicalScratch,
}

impl<'p> UniqueFilter<'p> {
    /// A filter over the symmetries allowed by `equivalence`.
    pub fn new(symmetries: &'p [Symmetry], equivalence: Equivalence) -> Self {
        let symmetries = match equivalence {
            Equivalence::None => vec![],
            Equivalence::Rotations => symmetries.iter().filter(|s| !s.reflection).collect(),
            Equivalence::RotationsAndMirrors => symmetries.iter().collect(),
        };
        UniqueFilter { symmetries, seen: HashSet::default(), scratch: CanonicalScratch::default() }
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
        // Only a new class is copied into the set.
        !self.seen.contains(key) && self.seen.insert(key.to_vec())
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
        let mut mirrors_only = UniqueFilter::new(std::slice::from_ref(&swap), Equivalence::None);
        assert!(mirrors_only.insert(&[1, 3]) && mirrors_only.insert(&[0, 2]));
    }
}
