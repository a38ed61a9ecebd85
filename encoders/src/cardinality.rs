//! At-most-k, at-least-k and exactly-k over literals, through a unary count.
//!
//! Each encoding builds outputs `out_1, out_2, ...` meaning "at least `j`
//! of the literals are true", then asserts `¬out_{k+1}` (at most `k`),
//! `out_k` (at least `k`), or both. Which half of each output's
//! definition is written depends on the constraint: at-most-k needs only
//! "`j` true literals imply `out_j`" (the upward half), at-least-k only
//! "`out_j` implies `j` true literals" (the downward half); exactly-k writes
//! both, so its auxiliary variables are determined by the literals.
//!
//! * [`CardEncoding::Sequential`]: Sinz's sequential counter (registers
//!   "at least `j` of the first `i` literals"), `O(n k)` clauses.
//! * [`CardEncoding::Totalizer`]: Bailleux and Boufkhad's totalizer, a
//!   balanced tree of unary adders, each node's count cut at `k + 1`,
//!   `O(n k)` clauses and `O(n log n)` variables.
//! * [`CardEncoding::Network`]: the cardinality networks of Asín,
//!   Nieuwenhuis, Oliveras and Rodríguez-Carbonell (Constraints 16, 2011):
//!   odd-even merges of 2-comparators sorting blocks of `m` inputs (`m` the
//!   least power of two above `k`) and simplified merges that keep the top
//!   `m` of two sorted blocks, `O(n log² k)` clauses.
//!
//! Trivial cases (`k = 0`, `k ≥ n`) become unit clauses, nothing, or the
//! empty clause, the same for every encoding.

use crate::formula::{ClauseSink, Lit};
use std::fmt;
use std::str::FromStr;

/// How a cardinality constraint (`k > 1`, or any `k` called directly) is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CardEncoding {
    /// Sinz's sequential counter.
    #[default]
    Sequential,
    /// Bailleux-Boufkhad totalizer.
    Totalizer,
    /// Asín et al.'s cardinality network.
    Network,
}

impl CardEncoding {
    /// Names accepted by [`FromStr`] (and `--card`), in variant order.
    pub const NAMES: &'static [&'static str] = &["sequential", "totalizer", "network"];

    /// The name of the encoding.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for CardEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CardEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match Self::NAMES.iter().position(|&n| n == s) {
            Some(0) => Ok(CardEncoding::Sequential),
            Some(1) => Ok(CardEncoding::Totalizer),
            Some(_) => Ok(CardEncoding::Network),
            None => Err(format!("unknown cardinality encoding `{s}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// Which halves of the outputs' definitions are written.
#[derive(Clone, Copy, Debug)]
struct Dir {
    /// `j` true literals imply `out_j`.
    up: bool,
    /// `out_j` implies `j` true literals.
    down: bool,
}

/// At most `k` of `lits` are true.
pub fn at_most_k(sink: &mut impl ClauseSink, lits: &[Lit], k: usize, encoding: CardEncoding) {
    if k >= lits.len() {
        return;
    }
    if k == 0 {
        return lits.iter().for_each(|&l| sink.add_clause(&[!l]));
    }
    let out = count(sink, lits, k + 1, Dir { up: true, down: false }, encoding);
    if let Some(over) = out[k] {
        sink.add_clause(&[!over]);
    }
}

/// At least `k` of `lits` are true (`k > n` gives the empty clause).
pub fn at_least_k(sink: &mut impl ClauseSink, lits: &[Lit], k: usize, encoding: CardEncoding) {
    if k == 0 {
        return;
    }
    if k > lits.len() {
        return sink.add_clause(&[]);
    }
    if k == lits.len() {
        return lits.iter().for_each(|&l| sink.add_clause(&[l]));
    }
    let out = count(sink, lits, k, Dir { up: false, down: true }, encoding);
    match out[k - 1] {
        Some(enough) => sink.add_clause(&[enough]),
        None => sink.add_clause(&[]),
    }
}

/// Exactly `k` of `lits` are true (`k > n` gives the empty clause). The
/// auxiliary variables are determined by `lits`.
pub fn exactly_k(sink: &mut impl ClauseSink, lits: &[Lit], k: usize, encoding: CardEncoding) {
    let n = lits.len();
    if k == 0 {
        return lits.iter().for_each(|&l| sink.add_clause(&[!l]));
    }
    if k > n {
        return sink.add_clause(&[]);
    }
    if k == n {
        return lits.iter().for_each(|&l| sink.add_clause(&[l]));
    }
    let out = count(sink, lits, k + 1, Dir { up: true, down: true }, encoding);
    match out[k - 1] {
        Some(enough) => sink.add_clause(&[enough]),
        None => sink.add_clause(&[]),
    }
    if let Some(over) = out[k] {
        sink.add_clause(&[!over]);
    }
}

/// The first `m` outputs of a unary count of `lits` (`1 ≤ m`, `lits`
/// non-empty): `out[j - 1]` means at least `j` true, `None` is a constant
/// false (more outputs than literals, or a network's padding).
fn count(sink: &mut impl ClauseSink, lits: &[Lit], m: usize, dir: Dir, encoding: CardEncoding) -> Vec<Option<Lit>> {
    debug_assert!(m >= 1 && !lits.is_empty());
    let mut out: Vec<Option<Lit>> = match encoding {
        CardEncoding::Sequential => sequential(sink, lits, m, dir).into_iter().map(Some).collect(),
        CardEncoding::Totalizer => totalizer(sink, lits, m, dir).into_iter().map(Some).collect(),
        CardEncoding::Network => network(sink, lits, m, dir),
    };
    out.resize(m, None);
    out
}

/// Sinz's registers: after literal `i`, `reg[j - 1]` = at least `j` of
/// `lits[..=i]`, for `j ≤ min(i + 1, m)`.
fn sequential(sink: &mut impl ClauseSink, lits: &[Lit], m: usize, dir: Dir) -> Vec<Lit> {
    let mut prev: Vec<Lit> = vec![lits[0]];
    for (i, &x) in lits.iter().enumerate().skip(1) {
        let width = (i + 1).min(m);
        let mut cur = Vec::with_capacity(width);
        for j in 1..=width {
            let r = sink.new_var().positive();
            let before = prev.get(j - 1).copied(); // at least j before i
            let below = if j >= 2 { Some(prev[j - 2]) } else { None }; // at least j-1 before i
            if dir.up {
                if let Some(b) = before {
                    sink.add_clause(&[!b, r]);
                }
                match below {
                    Some(w) => sink.add_clause(&[!x, !w, r]),
                    None => sink.add_clause(&[!x, r]),
                }
            }
            if dir.down {
                match before {
                    Some(b) => sink.add_clause(&[!r, b, x]),
                    None => sink.add_clause(&[!r, x]),
                }
                if let Some(w) = below {
                    sink.add_clause(&[!r, w]);
                }
            }
            cur.push(r);
        }
        prev = cur;
    }
    prev
}

/// A totalizer node over `lits`: `min(n, m)` outputs.
fn totalizer(sink: &mut impl ClauseSink, lits: &[Lit], m: usize, dir: Dir) -> Vec<Lit> {
    if lits.len() == 1 {
        return vec![lits[0]];
    }
    let (left, right) = lits.split_at(lits.len() / 2);
    let a = totalizer(sink, left, m, dir);
    let b = totalizer(sink, right, m, dir);
    let (p, q) = (a.len(), b.len());
    let len = (p + q).min(m);
    let r: Vec<Lit> = (0..len).map(|_| sink.new_var().positive()).collect();
    let mut clause = Vec::with_capacity(3);
    for i in 0..=p {
        for j in 0..=q {
            // a_i ∧ b_j → r_{i+j} (a_0, b_0 are true).
            if dir.up && (1..=len).contains(&(i + j)) {
                clause.clear();
                clause.extend(i.checked_sub(1).map(|i| !a[i]));
                clause.extend(j.checked_sub(1).map(|j| !b[j]));
                clause.push(r[i + j - 1]);
                sink.add_clause(&clause);
            }
            // ¬a_{i+1} ∧ ¬b_{j+1} → ¬r_{i+j+1} (a_{p+1}, b_{q+1} are
            // false: a child is cut at m only when i + 1 ≤ p here).
            if dir.down && i + j < len {
                clause.clear();
                clause.extend(a.get(i).copied());
                clause.extend(b.get(j).copied());
                clause.push(!r[i + j]);
                sink.add_clause(&clause);
            }
        }
    }
    r
}

/// A signal of a network: a literal or the constant false.
type Signal = Option<Lit>;

/// A 2-comparator: `(max, min)` of two signals; a constant input passes
/// the other one through.
fn comparator(sink: &mut impl ClauseSink, a: Signal, b: Signal, dir: Dir) -> (Signal, Signal) {
    let (a, b) = match (a, b) {
        (None, x) | (x, None) => return (x, None),
        (Some(a), Some(b)) => (a, b),
    };
    let hi = sink.new_var().positive();
    let lo = sink.new_var().positive();
    if dir.up {
        sink.add_clause(&[!a, hi]);
        sink.add_clause(&[!b, hi]);
        sink.add_clause(&[!a, !b, lo]);
    }
    if dir.down {
        sink.add_clause(&[!hi, a, b]);
        sink.add_clause(&[!lo, a]);
        sink.add_clause(&[!lo, b]);
    }
    (Some(hi), Some(lo))
}

fn odd_even(s: &[Signal]) -> (Vec<Signal>, Vec<Signal>) {
    (s.iter().step_by(2).copied().collect(), s.iter().skip(1).step_by(2).copied().collect())
}

/// Batcher's odd-even merge of two sorted (descending) sequences of the
/// same power-of-two length `n`: `2n` sorted outputs.
fn half_merge(sink: &mut impl ClauseSink, a: &[Signal], b: &[Signal], dir: Dir) -> Vec<Signal> {
    let n = a.len();
    if n == 1 {
        let (hi, lo) = comparator(sink, a[0], b[0], dir);
        return vec![hi, lo];
    }
    let ((a_odd, a_even), (b_odd, b_even)) = (odd_even(a), odd_even(b));
    let d = half_merge(sink, &a_odd, &b_odd, dir);
    let e = half_merge(sink, &a_even, &b_even, dir);
    let mut c = Vec::with_capacity(2 * n);
    c.push(d[0]);
    for i in 1..n {
        let (hi, lo) = comparator(sink, d[i], e[i - 1], dir);
        c.extend([hi, lo]);
    }
    c.push(e[n - 1]);
    c
}

/// A sorting network on a power-of-two number of signals.
fn half_sort(sink: &mut impl ClauseSink, a: &[Signal], dir: Dir) -> Vec<Signal> {
    if a.len() == 1 {
        return a.to_vec();
    }
    let (left, right) = a.split_at(a.len() / 2);
    let d = half_sort(sink, left, dir);
    let e = half_sort(sink, right, dir);
    half_merge(sink, &d, &e, dir)
}

/// The simplified merge: the top `n + 1` of two sorted sequences of the
/// same power-of-two length `n`.
fn simple_merge(sink: &mut impl ClauseSink, a: &[Signal], b: &[Signal], dir: Dir) -> Vec<Signal> {
    let n = a.len();
    if n == 1 {
        let (hi, lo) = comparator(sink, a[0], b[0], dir);
        return vec![hi, lo];
    }
    let ((a_odd, a_even), (b_odd, b_even)) = (odd_even(a), odd_even(b));
    let d = simple_merge(sink, &a_odd, &b_odd, dir);
    let e = simple_merge(sink, &a_even, &b_even, dir);
    let mut c = Vec::with_capacity(n + 1);
    c.push(d[0]);
    for i in 1..=n / 2 {
        let (hi, lo) = comparator(sink, d[i], e[i - 1], dir);
        c.extend([hi, lo]);
    }
    c
}

/// A cardinality network: the top `block` (a power of two) of `a`, whose
/// length is a multiple of `block`.
fn card_network(sink: &mut impl ClauseSink, a: &[Signal], block: usize, dir: Dir) -> Vec<Signal> {
    if a.len() == block {
        return half_sort(sink, a, dir);
    }
    let d = card_network(sink, &a[..block], block, dir);
    let e = card_network(sink, &a[block..], block, dir);
    let mut c = simple_merge(sink, &d, &e, dir);
    c.truncate(block);
    c
}

/// The top `m` outputs of a cardinality network over `lits` (padded with
/// constant false inputs to a multiple of the block).
fn network(sink: &mut impl ClauseSink, lits: &[Lit], m: usize, dir: Dir) -> Vec<Signal> {
    let block = m.next_power_of_two();
    let mut inputs: Vec<Signal> = lits.iter().copied().map(Some).collect();
    inputs.resize(lits.len().div_ceil(block) * block, None);
    let mut out = card_network(sink, &inputs, block, dir);
    out.truncate(m);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{Cnf, Var};
    use crate::testsat::{count_models, sat_models};

    const ALL: [CardEncoding; 3] = [CardEncoding::Sequential, CardEncoding::Totalizer, CardEncoding::Network];

    fn lits(n: u32) -> Vec<Lit> {
        (0..n).map(|i| Var::new(i).positive()).collect()
    }

    type Constraint = fn(&mut Cnf, &[Lit], usize, CardEncoding);
    /// Whether an assignment with this many true literals is allowed.
    type Keep = fn(u32, usize) -> bool;

    #[test]
    fn every_encoding_accepts_exactly_the_right_counts() {
        let cases: [(&str, Constraint, Keep); 3] = [
            ("at most", |f, l, k, e| at_most_k(f, l, k, e), |ones, k| ones as usize <= k),
            ("at least", |f, l, k, e| at_least_k(f, l, k, e), |ones, k| ones as usize >= k),
            ("exactly", |f, l, k, e| exactly_k(f, l, k, e), |ones, k| ones as usize == k),
        ];
        for enc in ALL {
            for n in 0u32..=7 {
                for k in 0..=n as usize + 1 {
                    for (what, add, keep) in cases {
                        let mut f = Cnf::with_vars(n);
                        add(&mut f, &lits(n), k, enc);
                        let want: Vec<u32> = (0..1 << n).filter(|m: &u32| keep(m.count_ones(), k)).collect();
                        assert_eq!(sat_models(&f, n), want, "{enc} {what} {k} of {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn exactly_k_determines_the_auxiliary_variables() {
        for enc in ALL {
            for n in 2u32..=6 {
                for k in 1..n as usize {
                    let mut f = Cnf::with_vars(n);
                    exactly_k(&mut f, &lits(n), k, enc);
                    let projected = sat_models(&f, n).len() as u64;
                    assert_eq!(count_models(&f), projected, "{enc} exactly {k} of {n}: one model per assignment");
                }
            }
        }
    }

    #[test]
    fn negative_and_repeated_literals_count_as_literals() {
        // ¬x0, x1, ¬x2: exactly two true literals.
        let l = [Var::new(0).negative(), Var::new(1).positive(), Var::new(2).negative()];
        for enc in ALL {
            let mut f = Cnf::with_vars(3);
            exactly_k(&mut f, &l, 2, enc);
            let want: Vec<u32> =
                (0u32..8).filter(|m| ((m & 1 == 0) as u32 + (m >> 1 & 1) + (m >> 2 & 1 == 0) as u32) == 2).collect();
            assert_eq!(sat_models(&f, 3), want, "{enc}");
        }
    }

    #[test]
    fn names_round_trip() {
        for name in CardEncoding::NAMES {
            assert_eq!(name.parse::<CardEncoding>().unwrap().name(), *name);
        }
        assert!("binary".parse::<CardEncoding>().unwrap_err().contains("sequential, totalizer, network"));
    }
}
