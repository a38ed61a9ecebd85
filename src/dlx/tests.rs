//! Unit tests of the DLX engine: Knuth's examples, agreement with brute
//! force on random problems, limits that leave the matrix restored, and
//! the tree-size estimate.

use super::*;
use crate::ir::{verify, Entry, ProblemBuilder, NO_COLOR};
use std::collections::HashSet;

/// Knuth's running example (TAOCP 7.2.2.1 (5)): one solution, options 0, 3, 4.
#[test]
fn knuth_example_has_one_solution() {
    let mut b = ProblemBuilder::new("knuth");
    let it: Vec<u32> = "abcdefg".chars().map(|c| b.primary(c.to_string())).collect();
    for row in ["ce", "adg", "bcf", "adf", "bg", "deg"] {
        b.option_items(row.chars().map(|c| it[(c as u8 - b'a') as usize]));
    }
    let p = b.build(None).unwrap();
    let (sols, stats) = solve(&p, &Limits::none());
    assert_eq!(sols.len(), 1);
    let mut s = sols[0].options.clone();
    s.sort();
    assert_eq!(s, vec![0, 3, 4]);
    assert!(stats.complete());
    assert!(stats.nodes >= 3);
}

/// Knuth's colour example (TAOCP 7.2.2.1 (49)): three primary items, two
/// secondary ones with colours A and B; one solution, options 1 and 3.
pub(super) fn knuth_colour_problem() -> crate::ir::Problem {
    let mut b = ProblemBuilder::new("colours");
    let p = b.primary("p");
    let q = b.primary("q");
    let r = b.primary("r");
    let x = b.secondary("x");
    let y = b.secondary("y");
    let (ca, cb) = (b.color("A"), b.color("B"));
    let e = |item, color| Entry { item, color };
    b.option([e(p, NO_COLOR), e(q, NO_COLOR), e(x, NO_COLOR), e(y, ca)]);
    b.option([e(p, NO_COLOR), e(r, NO_COLOR), e(x, ca), e(y, NO_COLOR)]);
    b.option([e(p, NO_COLOR), e(x, cb)]);
    b.option([e(q, NO_COLOR), e(x, ca)]);
    b.option([e(r, NO_COLOR), e(y, cb)]);
    b.build(None).unwrap()
}

/// Knuth's colour example: one solution.
#[test]
fn knuth_colour_example() {
    let pr = knuth_colour_problem();
    let (sols, _) = solve(&pr, &Limits::none());
    assert_eq!(sols.len(), 1);
    let mut s = sols[0].options.clone();
    s.sort();
    assert_eq!(s, vec![1, 3]);
}

use crate::search::Rng;

fn random_problem(rng: &mut Rng) -> crate::ir::Problem {
    let mut b = ProblemBuilder::new("random");
    let n_primary = 1 + rng.below(5) as u32;
    let n_secondary = rng.below(3) as u32;
    let prim: Vec<u32> =
        (0..n_primary).map(|k| b.primary_with_multiplicity(format!("p{k}"), 1 + rng.below(2) as u32)).collect();
    let sec: Vec<u32> = (0..n_secondary).map(|k| b.secondary(format!("s{k}"))).collect();
    let colours = [b.color("red"), b.color("green")];
    let n_options = 1 + rng.below(12);
    for _ in 0..n_options {
        let mut entries = vec![];
        let first = prim[rng.below(n_primary as u64) as usize];
        entries.push(Entry { item: first, color: NO_COLOR });
        for &p in &prim {
            if p != first && rng.below(3) == 0 {
                entries.push(Entry { item: p, color: NO_COLOR });
            }
        }
        for &s in &sec {
            match rng.below(4) {
                0 => entries.push(Entry { item: s, color: NO_COLOR }),
                1 => entries.push(Entry { item: s, color: colours[0] }),
                2 => entries.push(Entry { item: s, color: colours[1] }),
                _ => {}
            }
        }
        b.option(entries);
    }
    b.build(None).unwrap()
}

/// DLX agrees with brute force over all subsets on random small problems
/// with multiplicities and colours, and never reports a solution twice.
#[test]
fn agrees_with_brute_force() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..3000 {
        let p = random_problem(&mut rng);
        let n = p.n_options();
        let mut brute = 0;
        for mask in 0u32..(1 << n) {
            let options: Vec<u32> = (0..n as u32).filter(|&o| mask >> o & 1 == 1).collect();
            if verify(&p, &Solution { options }).is_ok() {
                brute += 1;
            }
        }
        let (sols, stats) = solve(&p, &Limits::none());
        assert_eq!(sols.len() as u64, stats.solutions);
        assert_eq!(sols.len(), brute, "problem: {:?}", (0..n as u32).map(|o| p.option_text(o)).collect::<Vec<_>>());
        let mut seen = HashSet::new();
        for s in &sols {
            verify(&p, s).unwrap();
            let mut key = s.options.clone();
            key.sort();
            assert!(seen.insert(key), "solution reported twice");
        }
    }
}

/// Four independent binary choices: 16 solutions, a uniform tree of 30 nodes.
fn four_binary_choices() -> crate::ir::Problem {
    let mut b = ProblemBuilder::new("16");
    for k in 0..4 {
        let it = b.primary(format!("i{k}"));
        b.option_items([it]);
        b.option_items([it]);
    }
    b.build(None).unwrap()
}

#[test]
fn limits_stop_and_restore_the_matrix() {
    let p = four_binary_choices();
    let mut dlx = Dlx::new(&p);
    let stats = dlx.search(&Limits::solutions(5), |_| Flow::Continue);
    assert_eq!(stats.solutions, 5);
    assert_eq!(stats.stopped, Some(StopReason::SolutionLimit));
    let again = dlx.search(&Limits::none(), |_| Flow::Continue);
    assert_eq!(again.solutions, 16);
    assert!(again.complete());
}

/// Knuth's estimate is exact on a uniform tree, and leaves the matrix ready
/// to search.
#[test]
fn estimate_is_exact_on_a_uniform_tree() {
    let p = four_binary_choices();
    let mut dlx = Dlx::new(&p);
    let full = dlx.search(&Limits::none(), |_| Flow::Continue);
    assert_eq!(full.nodes, 2 + 4 + 8 + 16);
    assert_eq!(dlx.estimate_nodes(7, 3), 30.0);
    assert_eq!(dlx.search(&Limits::none(), |_| Flow::Continue).solutions, 16);
}

/// On random problems with multiplicities and colours the mean of many
/// probes is close to the true node count (the estimator is unbiased), and
/// the search afterwards is unchanged.
#[test]
fn estimate_is_close_on_random_problems() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    for round in 0..300 {
        let p = random_problem(&mut rng);
        let mut dlx = Dlx::new(&p);
        let before = dlx.search(&Limits::none(), |_| Flow::Continue);
        let estimate = dlx.estimate_nodes(4000, round);
        let nodes = before.nodes as f64;
        assert!((estimate - nodes).abs() <= 0.1 * nodes + 0.5, "round {round}: estimate {estimate}, nodes {nodes}");
        let after = dlx.search(&Limits::none(), |_| Flow::Continue);
        assert_eq!((after.solutions, after.nodes), (before.solutions, before.nodes));
    }
}
