//! Independent check of a [`Solution`] against the exact-cover conditions.
//!
//! Written from the definition only (no solver data structure is reused), so
//! that a solver bug cannot hide behind a matching verifier bug.

use super::{ItemKind, Problem, Solution, NO_COLOR};

/// Why a solution is not a valid exact cover.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VerifyError {
    /// An option id out of range.
    #[error("option {0} does not exist")]
    UnknownOption(u32),
    /// The same option chosen twice.
    #[error("option {0} is chosen twice")]
    RepeatedOption(u32),
    /// A primary item covered the wrong number of times.
    #[error("primary item `{item}` is covered {covered} times, expected {expected}")]
    PrimaryCount {
        /// Item name.
        item: String,
        /// Times covered.
        covered: u32,
        /// Multiplicity.
        expected: u32,
    },
    /// A secondary item used exclusively by one option and also by another.
    #[error("secondary item `{item}` is used by options {first} and {second}")]
    SecondaryConflict {
        /// Item name.
        item: String,
        /// One option.
        first: u32,
        /// Another option.
        second: u32,
    },
    /// A secondary item given two colours.
    #[error("secondary item `{item}` is coloured `{first}` and `{second}`")]
    ColorConflict {
        /// Item name.
        item: String,
        /// One colour.
        first: String,
        /// The other colour.
        second: String,
    },
}

/// Checks that `solution` covers every primary item exactly its multiplicity
/// times, uses each uncoloured secondary item at most once, and gives every
/// coloured secondary item a single colour.
///
/// A problem without colours or multiplicities is checked with its
/// options' item sets as bit sets ([`CoverCheck`], prepared from the
/// problem on the first call); a solution that check does not accept, and
/// every solution of another problem, goes through the check by counts,
/// which also says what is wrong.
pub fn verify(problem: &Problem, solution: &Solution) -> Result<(), VerifyError> {
    let check = problem.cover_check.get_or_init(|| CoverCheck::new(problem).map(Box::new));
    if check.as_ref().is_some_and(|c| c.accepts(&solution.options)) {
        return Ok(());
    }
    verify_by_counts(problem, solution)
}

/// Bit-set words of the largest problem [`CoverCheck`] prepares.
const CHECK_WORDS: usize = 16;

/// A problem's options as bit sets of items, for the fast path of
/// [`verify`]: a solution is checked with an AND and an OR per word of
/// each chosen option and one comparison per word at the end. Prepared
/// from the problem's items and options only (never from a solver's
/// structures), once per problem.
///
/// Invariant: built from the problem that holds it (whose items and
/// options never change after [`super::ProblemBuilder::build`]); every
/// primary item has multiplicity 1, no entry is coloured, every option
/// has at least one item, and there are at most `64 * CHECK_WORDS` items.
/// Option `o`'s items are the bits `masks[starts[o]..starts[o + 1]]`, each
/// a `(word, bits)` pair, words strictly increasing; `primary` holds the
/// bits of the primary items. When there are at most 128 items, `narrow`
/// holds each option's items as one 128-bit set instead (`starts` and
/// `masks` are then empty) and `primary` has two words.
#[derive(Clone, Debug)]
pub(super) struct CoverCheck {
    starts: Vec<u32>,
    masks: Vec<(u32, u64)>,
    primary: Vec<u64>,
    narrow: Option<Vec<u128>>,
}

impl CoverCheck {
    /// The prepared check of `problem`, or `None` when it has colours,
    /// multiplicities, an empty option or too many items.
    fn new(problem: &Problem) -> Option<CoverCheck> {
        let n_items = problem.items().len();
        let n_primary = problem.n_primary();
        let words = n_items.div_ceil(64);
        let unit = |k: &ItemKind| matches!(k, ItemKind::Primary { multiplicity: 1 });
        if words > CHECK_WORDS || !problem.items()[..n_primary].iter().all(|i| unit(&i.kind)) {
            return None;
        }
        let mut primary = vec![0u64; words.max(2)];
        for i in 0..n_primary {
            primary[i / 64] |= 1 << (i % 64);
        }
        if words <= 2 {
            // One 128-bit set per option: a solution is then checked with
            // one AND and one OR per chosen option.
            let mut narrow = Vec::with_capacity(problem.n_options());
            for o in 0..problem.n_options() as u32 {
                let mut m = 0u128;
                for e in problem.option(o) {
                    if e.color != NO_COLOR {
                        return None;
                    }
                    m |= 1 << e.item;
                }
                if m == 0 {
                    return None;
                }
                narrow.push(m);
            }
            return Some(CoverCheck { starts: Vec::new(), masks: Vec::new(), primary, narrow: Some(narrow) });
        }
        let mut starts = Vec::with_capacity(problem.n_options() + 1);
        let mut masks: Vec<(u32, u64)> = Vec::with_capacity(problem.n_entries());
        starts.push(0u32);
        for o in 0..problem.n_options() as u32 {
            let at = masks.len();
            for e in problem.option(o) {
                if e.color != NO_COLOR {
                    return None;
                }
                let (w, bit) = (e.item / 64, 1u64 << (e.item % 64));
                let fresh = masks.len() == at;
                match masks.last_mut() {
                    Some(last) if !fresh && last.0 == w => last.1 |= bit,
                    _ => masks.push((w, bit)),
                }
            }
            if masks.len() == at {
                return None;
            }
            starts.push(masks.len() as u32);
        }
        Some(CoverCheck { starts, masks, primary, narrow: None })
    }

    /// Whether `options` is an exact cover: every option exists, no item is
    /// used twice (so no option is chosen twice: each has an item), and
    /// every primary item is covered. `false` does not say what is wrong.
    fn accepts(&self, options: &[u32]) -> bool {
        if let Some(narrow) = &self.narrow {
            let mut covered = 0u128;
            for &o in options {
                let Some(&m) = narrow.get(o as usize) else { return false };
                if covered & m != 0 {
                    return false;
                }
                covered |= m;
            }
            let primary = wide(0, self.primary[0]) | wide(1, self.primary[1]);
            return covered & primary == primary;
        }
        let mut covered = [0u64; CHECK_WORDS];
        for &o in options {
            let o = o as usize;
            let (Some(&a), Some(&b)) = (self.starts.get(o), self.starts.get(o + 1)) else { return false };
            for &(w, bits) in &self.masks[a as usize..b as usize] {
                let c = &mut covered[w as usize];
                if *c & bits != 0 {
                    return false;
                }
                *c |= bits;
            }
        }
        covered.iter().zip(&self.primary).all(|(&c, &p)| c & p == p)
    }
}

/// Word `w` (0 or 1) of a 128-bit set holding `bits`.
fn wide(w: u32, bits: u64) -> u128 {
    (bits as u128) << (64 * w)
}

/// [`verify`] by counting the uses of every item.
fn verify_by_counts(problem: &Problem, solution: &Solution) -> Result<(), VerifyError> {
    let n_items = problem.items().len();
    let n_primary = problem.n_primary();
    // Counts on the stack for the usual sizes (a verification per solution
    // found: no allocation).
    let (mut on_stack, mut on_heap) = ([0u32; 256], Vec::new());
    let covered: &mut [u32] = if n_primary <= on_stack.len() {
        &mut on_stack[..n_primary]
    } else {
        on_heap.resize(n_primary, 0);
        &mut on_heap
    };
    // For secondary items `n_primary + j`, at `j`: (first option using it,
    // its colour).
    let mut user: Vec<Option<(u32, u32)>> = vec![None; n_items - n_primary];
    let options = &solution.options;
    if options.len() <= 32 {
        // Few options: compare pairs rather than sort a copy.
        let repeated = (1..options.len()).flat_map(|j| options[..j].iter().filter(move |&&o| o == options[j])).min();
        if let Some(&o) = repeated {
            return Err(VerifyError::RepeatedOption(o));
        }
    } else {
        let mut chosen = options.clone();
        chosen.sort_unstable();
        for w in chosen.windows(2) {
            if w[0] == w[1] {
                return Err(VerifyError::RepeatedOption(w[0]));
            }
        }
    }
    for &o in &solution.options {
        if o as usize >= problem.n_options() {
            return Err(VerifyError::UnknownOption(o));
        }
        for e in problem.option(o) {
            let i = e.item as usize;
            if i < n_primary {
                covered[i] += 1;
                continue;
            }
            match user[i - n_primary] {
                None => user[i - n_primary] = Some((o, e.color)),
                Some((first, color)) => {
                    if color == NO_COLOR || e.color == NO_COLOR {
                        return Err(VerifyError::SecondaryConflict {
                            item: problem.items()[i].name.clone(),
                            first,
                            second: o,
                        });
                    }
                    if color != e.color {
                        return Err(VerifyError::ColorConflict {
                            item: problem.items()[i].name.clone(),
                            first: problem.colors()[color as usize].clone(),
                            second: problem.colors()[e.color as usize].clone(),
                        });
                    }
                }
            }
        }
    }
    for (item, &covered) in problem.items()[..n_primary].iter().zip(covered.iter()) {
        let expected = match item.kind {
            ItemKind::Primary { multiplicity } => multiplicity,
            ItemKind::Secondary => 0,
        };
        if covered != expected {
            return Err(VerifyError::PrimaryCount { item: item.name.clone(), covered, expected });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Entry, ProblemBuilder};

    fn coloured() -> Problem {
        let mut b = ProblemBuilder::new("c");
        let p = b.primary("p");
        let q = b.primary("q");
        let s = b.secondary("s");
        let red = b.color("red");
        let blue = b.color("blue");
        b.option([Entry { item: p, color: NO_COLOR }, Entry { item: s, color: red }]); // 0
        b.option([Entry { item: q, color: NO_COLOR }, Entry { item: s, color: red }]); // 1
        b.option([Entry { item: q, color: NO_COLOR }, Entry { item: s, color: blue }]); // 2
        b.option_items([q, s]); // 3
        b.build(None).unwrap()
    }

    #[test]
    fn accepts_matching_colours() {
        assert_eq!(verify(&coloured(), &Solution { options: vec![0, 1] }), Ok(()));
    }

    #[test]
    fn rejects_each_violation() {
        let pr = coloured();
        assert!(matches!(verify(&pr, &Solution { options: vec![0, 2] }), Err(VerifyError::ColorConflict { .. })));
        assert!(matches!(verify(&pr, &Solution { options: vec![0, 3] }), Err(VerifyError::SecondaryConflict { .. })));
        assert!(matches!(verify(&pr, &Solution { options: vec![0] }), Err(VerifyError::PrimaryCount { .. })));
        assert!(matches!(verify(&pr, &Solution { options: vec![0, 0] }), Err(VerifyError::RepeatedOption(0))));
        assert!(matches!(verify(&pr, &Solution { options: vec![9] }), Err(VerifyError::UnknownOption(9))));
        assert!(matches!(verify(&pr, &Solution { options: vec![0, 1, 2] }), Err(VerifyError::ColorConflict { .. })));
    }

    /// The bit-set check and the check by counts agree on every subset of
    /// options of a small uncoloured problem (with a secondary item), and
    /// on options out of range and chosen twice: with one 128-bit set per
    /// option, and with word lists (unused secondary items added).
    #[test]
    fn bit_sets_agree_with_counts() {
        for unused in [0, 100] {
            bit_sets_agree_with_counts_with(unused);
        }
    }

    fn bit_sets_agree_with_counts_with(unused: usize) {
        let mut b = ProblemBuilder::new("b");
        let items: Vec<_> = (0..70).map(|i| b.primary(format!("p{i}"))).collect();
        let s = b.secondary("s");
        for i in 0..unused {
            b.secondary(format!("u{i}"));
        }
        b.option_items([items[0], items[1], items[69]]); // 0
        b.option_items((2..69).map(|i| items[i])); // 1
        b.option_items([items[0], items[1], s]); // 2
        b.option_items([items[69], s]); // 3
        b.option_items([items[2]]); // 4
        b.option_items((3..69).map(|i| items[i])); // 5
        let pr = b.build(None).unwrap();
        let check = CoverCheck::new(&pr).expect("no colours, no multiplicities");
        assert_eq!(check.narrow.is_some(), unused == 0);
        let mut valid = 0;
        for set in 0u32..64 {
            let options: Vec<u32> = (0..6).filter(|o| set >> o & 1 != 0).collect();
            let sol = Solution { options: options.clone() };
            let by_counts = verify_by_counts(&pr, &sol);
            assert_eq!(check.accepts(&options), by_counts.is_ok(), "{options:?}");
            assert_eq!(verify(&pr, &sol), by_counts);
            valid += by_counts.is_ok() as u32;
        }
        assert_eq!(valid, 2, "0+1 and 0+4+5 (2 and 3 share the secondary item)");
        for options in [vec![0, 1, 1], vec![1, 0, 0], vec![0, 1, 6], vec![4, 4, 0, 5]] {
            assert!(!check.accepts(&options));
            assert_eq!(
                verify(&pr, &Solution { options: options.clone() }),
                verify_by_counts(&pr, &Solution { options })
            );
        }
        assert!(CoverCheck::new(&coloured()).is_none());
    }

    #[test]
    fn multiplicity_must_match_exactly() {
        let mut b = ProblemBuilder::new("m");
        let g = b.primary_with_multiplicity("g", 2);
        let a = b.primary("a");
        let c = b.primary("c");
        b.option_items([g, a]);
        b.option_items([g, c]);
        b.option_items([a, c]);
        let pr = b.build(None).unwrap();
        assert_eq!(verify(&pr, &Solution { options: vec![0, 1] }), Ok(()));
        assert!(verify(&pr, &Solution { options: vec![2] }).is_err());
    }
}
