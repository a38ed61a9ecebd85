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
pub fn verify(problem: &Problem, solution: &Solution) -> Result<(), VerifyError> {
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
