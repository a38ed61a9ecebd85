//! At-most-one, exactly-one and exactly-k constraints over literals.
//!
//! * [`AmoEncoding::Pairwise`]: `¬a ∨ ¬b` for every pair; no auxiliary
//!   variables, quadratic size.
//! * [`AmoEncoding::Sequential`]: Sinz's sequential counter, `n - 1`
//!   auxiliary variables and `3n - 4` clauses.
//! * [`AmoEncoding::Commander`]: Klieber and Kwon's commander encoding with
//!   groups of three, applied recursively to the commanders.
//! * [`AmoEncoding::Product`]: Chen's product encoding: the literals on a
//!   `p x q` grid, a row and a column variable each, at-most-one on rows
//!   and on columns (recursively).
//!
//! Every non-pairwise encoding falls back to pairwise below
//! [`SMALL_GROUP`] literals, where pairwise is smallest. [`exactly_k`] is
//! exactly-one for `k = 1` and a cardinality encoding of
//! [`crate::cardinality`] otherwise.

use crate::cardinality::CardEncoding;
use crate::formula::{ClauseSink, Lit};
use std::fmt;
use std::str::FromStr;

/// Groups of at most this many literals are always encoded pairwise.
pub const SMALL_GROUP: usize = 5;

/// How an at-most-one constraint is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AmoEncoding {
    /// Every pair excluded.
    Pairwise,
    /// Sinz's sequential counter.
    #[default]
    Sequential,
    /// Klieber-Kwon commander variables (groups of 3).
    Commander,
    /// Chen's two-product encoding.
    Product,
}

impl AmoEncoding {
    /// Names accepted by [`FromStr`] (and `--amo`).
    pub const NAMES: &'static [&'static str] = &["pairwise", "sequential", "commander", "product"];

    /// The name of the encoding.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for AmoEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AmoEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pairwise" => Ok(AmoEncoding::Pairwise),
            "sequential" => Ok(AmoEncoding::Sequential),
            "commander" => Ok(AmoEncoding::Commander),
            "product" => Ok(AmoEncoding::Product),
            _ => Err(format!("unknown at-most-one encoding `{s}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// At most one of `lits` is true.
pub fn at_most_one(sink: &mut impl ClauseSink, lits: &[Lit], encoding: AmoEncoding) {
    if lits.len() <= 1 {
        return;
    }
    if lits.len() <= SMALL_GROUP {
        return pairwise(sink, lits);
    }
    match encoding {
        AmoEncoding::Pairwise => pairwise(sink, lits),
        AmoEncoding::Sequential => sequential(sink, lits),
        AmoEncoding::Commander => commander(sink, lits),
        AmoEncoding::Product => product(sink, lits),
    }
}

/// Exactly one of `lits` is true (an empty list gives the empty clause).
pub fn exactly_one(sink: &mut impl ClauseSink, lits: &[Lit], encoding: AmoEncoding) {
    sink.add_clause(lits);
    at_most_one(sink, lits, encoding);
}

/// Exactly `k` of `lits` are true: exactly-one through `amo` when `k = 1`,
/// otherwise the cardinality encoding `card` ([`crate::cardinality`]).
pub fn exactly_k(sink: &mut impl ClauseSink, lits: &[Lit], k: usize, amo: AmoEncoding, card: CardEncoding) {
    if k == 1 && lits.len() > 1 {
        return exactly_one(sink, lits, amo);
    }
    crate::cardinality::exactly_k(sink, lits, k, card)
}

fn pairwise(sink: &mut impl ClauseSink, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            sink.add_clause(&[!a, !b]);
        }
    }
}

fn sequential(sink: &mut impl ClauseSink, lits: &[Lit]) {
    let n = lits.len();
    let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().positive()).collect();
    sink.add_clause(&[!lits[0], s[0]]);
    for i in 1..n - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        sink.add_clause(&[!s[i - 1], s[i]]);
        sink.add_clause(&[!lits[i], !s[i - 1]]);
    }
    sink.add_clause(&[!lits[n - 1], !s[n - 2]]);
}

fn commander(sink: &mut impl ClauseSink, lits: &[Lit]) {
    let mut commanders = Vec::with_capacity(lits.len().div_ceil(3));
    for group in lits.chunks(3) {
        pairwise(sink, group);
        let c = sink.new_var().positive();
        let mut back = vec![!c];
        for &x in group {
            sink.add_clause(&[!x, c]);
            back.push(x);
        }
        sink.add_clause(&back);
        commanders.push(c);
    }
    at_most_one(sink, &commanders, AmoEncoding::Commander);
}

fn product(sink: &mut impl ClauseSink, lits: &[Lit]) {
    let n = lits.len();
    let p = (n as f64).sqrt().ceil() as usize;
    let q = n.div_ceil(p);
    let rows: Vec<Lit> = (0..p).map(|_| sink.new_var().positive()).collect();
    let cols: Vec<Lit> = (0..q).map(|_| sink.new_var().positive()).collect();
    for (k, &x) in lits.iter().enumerate() {
        sink.add_clause(&[!x, rows[k / q]]);
        sink.add_clause(&[!x, cols[k % q]]);
    }
    at_most_one(sink, &rows, AmoEncoding::Product);
    at_most_one(sink, &cols, AmoEncoding::Product);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{Cnf, Var};

    /// Number of assignments of the first `n` variables that extend to a
    /// model of `f` (brute force over the auxiliary variables too).
    fn projected_models(f: &Cnf, n: u32) -> Vec<u32> {
        let total = f.n_vars();
        assert!(total <= 22, "too many variables for brute force: {total}");
        let mut out = Vec::new();
        for m in 0u32..(1 << n) {
            let sat = (0u32..(1 << (total - n))).any(|aux| {
                let full = m as u64 | (aux as u64) << n;
                f.clauses().all(|c| c.iter().any(|l| ((full >> l.var().index()) & 1 == 1) == l.is_positive()))
            });
            if sat {
                out.push(m);
            }
        }
        out
    }

    fn lits(n: u32) -> Vec<Lit> {
        (0..n).map(|i| Var::new(i).positive()).collect()
    }

    #[test]
    fn every_amo_encoding_allows_exactly_the_small_sets() {
        for enc in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Commander, AmoEncoding::Product] {
            for n in [1u32, 2, 6, 7, 10] {
                let mut f = Cnf::with_vars(n);
                at_most_one(&mut f, &lits(n), enc);
                let want: Vec<u32> = (0..1 << n).filter(|m: &u32| m.count_ones() <= 1).collect();
                assert_eq!(projected_models(&f, n), want, "{enc} n={n}");
                let mut g = Cnf::with_vars(n);
                exactly_one(&mut g, &lits(n), enc);
                let want: Vec<u32> = (0..1 << n).filter(|m: &u32| m.count_ones() == 1).collect();
                assert_eq!(projected_models(&g, n), want, "{enc} exactly one n={n}");
            }
        }
    }

    #[test]
    fn exactly_k_counts() {
        for n in 1u32..=5 {
            for k in 0..=n as usize + 1 {
                for card in [CardEncoding::Sequential, CardEncoding::Totalizer, CardEncoding::Network] {
                    let mut f = Cnf::with_vars(n);
                    exactly_k(&mut f, &lits(n), k, AmoEncoding::Commander, card);
                    let want: Vec<u32> = (0..1 << n).filter(|m: &u32| m.count_ones() as usize == k).collect();
                    assert_eq!(crate::testsat::sat_models(&f, n), want, "{card} n={n} k={k}");
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for name in AmoEncoding::NAMES {
            assert_eq!(name.parse::<AmoEncoding>().unwrap().name(), *name);
        }
        assert!("binary".parse::<AmoEncoding>().is_err());
    }
}
