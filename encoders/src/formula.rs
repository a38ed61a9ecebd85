//! Variables, literals and CNF formulas.

use std::fmt;
use std::ops::Not;

/// A Boolean variable, 0-based (DIMACS variable `index + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(u32);

impl Var {
    /// The variable with 0-based `index`.
    pub fn new(index: u32) -> Var {
        Var(index)
    }
    /// The 0-based index.
    pub fn index(self) -> u32 {
        self.0
    }
    /// The literal that is true when the variable is.
    pub fn positive(self) -> Lit {
        Lit(self.0 << 1)
    }
    /// The literal that is true when the variable is false.
    pub fn negative(self) -> Lit {
        Lit(self.0 << 1 | 1)
    }
    /// The DIMACS number (1-based).
    pub fn to_dimacs(self) -> i64 {
        self.0 as i64 + 1
    }
}

/// A literal: a variable or its negation, stored as `2 * var + negated`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit(u32);

impl Lit {
    /// `var` when `positive`, otherwise its negation.
    pub fn new(var: Var, positive: bool) -> Lit {
        if positive {
            var.positive()
        } else {
            var.negative()
        }
    }
    /// The variable.
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    /// Whether the literal is the variable itself (not its negation).
    pub fn is_positive(self) -> bool {
        self.0 & 1 == 0
    }
    /// The DIMACS number: `±(var + 1)`.
    pub fn to_dimacs(self) -> i64 {
        let v = self.var().to_dimacs();
        if self.is_positive() {
            v
        } else {
            -v
        }
    }
    /// The literal of a non-zero DIMACS number.
    pub fn from_dimacs(number: i64) -> Option<Lit> {
        if number == 0 || number.unsigned_abs() > u32::MAX as u64 / 2 {
            return None;
        }
        Some(Lit::new(Var((number.unsigned_abs() - 1) as u32), number > 0))
    }
}

impl Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// Where encodings put their clauses: a [`Cnf`] in memory, a
/// [`SizeCounter`] that only counts, or a solver.
pub trait ClauseSink {
    /// A fresh variable.
    fn new_var(&mut self) -> Var;
    /// Adds a clause (the empty clause makes the formula unsatisfiable).
    fn add_clause(&mut self, lits: &[Lit]);
}

/// A CNF formula: one flat literal vector plus clause boundaries.
///
/// Invariant: clause `k` is `lits[ends[k-1]..ends[k]]` (with `ends[-1] = 0`),
/// `ends` is non-decreasing and ends at `lits.len()`, and every literal's
/// variable is `< n_vars`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    n_vars: u32,
    lits: Vec<Lit>,
    ends: Vec<usize>,
}

impl Cnf {
    /// The empty formula over no variables.
    pub fn new() -> Cnf {
        Cnf::default()
    }
    /// The empty formula over `n_vars` variables.
    pub fn with_vars(n_vars: u32) -> Cnf {
        Cnf { n_vars, ..Cnf::default() }
    }
    /// Number of variables.
    pub fn n_vars(&self) -> u32 {
        self.n_vars
    }
    /// Makes sure variables `0..n` exist.
    pub fn ensure_vars(&mut self, n: u32) {
        self.n_vars = self.n_vars.max(n);
    }
    /// Number of clauses.
    pub fn n_clauses(&self) -> usize {
        self.ends.len()
    }
    /// Total number of literal occurrences.
    pub fn n_literals(&self) -> usize {
        self.lits.len()
    }
    /// Clause `k`.
    pub fn clause(&self, k: usize) -> &[Lit] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.lits[start..self.ends[k]]
    }
    /// All clauses in order.
    pub fn clauses(&self) -> impl ExactSizeIterator<Item = &[Lit]> + '_ {
        (0..self.ends.len()).map(move |k| self.clause(k))
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        self.n_vars += 1;
        Var(self.n_vars - 1)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        for l in lits {
            self.n_vars = self.n_vars.max(l.var().0 + 1);
        }
        self.lits.extend_from_slice(lits);
        self.ends.push(self.lits.len());
    }
}

/// A sink that only counts: the size of an encoding before it is built or
/// written (for size caps and estimates).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeCounter {
    /// Variables.
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
    /// Bytes of the DIMACS body: every literal with its sign and a space,
    /// plus `0\n` per clause (a close estimate of the file size).
    pub body_bytes: u64,
}

impl SizeCounter {
    /// A counter that starts with `vars` variables already allocated.
    pub fn with_vars(vars: u64) -> SizeCounter {
        SizeCounter { vars, ..SizeCounter::default() }
    }
}

impl ClauseSink for SizeCounter {
    fn new_var(&mut self) -> Var {
        self.vars += 1;
        Var((self.vars - 1) as u32)
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.clauses += 1;
        self.literals += lits.len() as u64;
        self.body_bytes += 2;
        for l in lits {
            let d = l.to_dimacs();
            self.body_bytes += 1 + (d < 0) as u64 + d.unsigned_abs().ilog10() as u64 + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_dimacs() {
        let x = Var::new(4);
        assert_eq!(x.positive().to_dimacs(), 5);
        assert_eq!((!x.positive()).to_dimacs(), -5);
        assert_eq!(Lit::from_dimacs(-5), Some(x.negative()));
        assert_eq!(Lit::from_dimacs(0), None);
        assert!(x.positive().is_positive() && !x.negative().is_positive());
    }

    #[test]
    fn cnf_stores_clauses_flat() {
        let mut f = Cnf::new();
        let a = f.new_var();
        let b = f.new_var();
        f.add_clause(&[a.positive(), b.negative()]);
        f.add_clause(&[]);
        f.add_clause(&[Var::new(9).positive()]);
        assert_eq!(f.n_vars(), 10);
        assert_eq!(f.n_clauses(), 3);
        assert_eq!(f.clause(0), &[a.positive(), b.negative()]);
        assert!(f.clause(1).is_empty());
        let mut c = SizeCounter::default();
        c.add_clause(&[Var::new(9).negative(), Var::new(0).positive()]);
        assert_eq!(c.body_bytes, "-10 1 0\n".len() as u64);
    }
}
