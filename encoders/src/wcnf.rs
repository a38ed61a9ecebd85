//! Weighted CNF for MaxSAT solvers and their answers.
//!
//! Writing ([`write_wcnf`]), in one of two forms ([`WcnfFormat`]):
//!
//! ```text
//! c the MaxSAT Evaluation format (2022 on): no header
//! h 1 2 0            a hard clause
//! 1 -3 0             a soft clause of weight 1
//! ```
//!
//! ```text
//! p wcnf 3 2 2       the older form: VARIABLES CLAUSES TOP
//! 2 1 2 0            a hard clause carries the weight TOP
//! 1 -3 0
//! ```
//!
//! Reading a solver's answer ([`read_maxsat_answer`]): `c` comments, one
//! `s` line (`OPTIMUM FOUND`, `SATISFIABLE`, `UNSATISFIABLE`, `UNKNOWN`),
//! `o COST` lines (the last one is the claim), and the model as `v`
//! literals (`v 1 -2 3 ...`, on one or more lines, an optional closing 0)
//! or as the evaluation's one string of digits (`v 0110...`, digit `i` the
//! value of variable `i`).

use crate::formula::{ClauseSink, Cnf, Lit, Var};
use crate::text::{first_line_with, literal, push_i64, push_u64, tokens};
use crate::ParseError;
use std::io::{self, Write};

/// Hard clauses and weighted soft clauses over one set of variables.
///
/// Invariant: `weights.len() == soft.n_clauses()`, every weight is at least
/// 1, and `hard.n_vars() == soft.n_vars()` (both are the formula's
/// variables).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wcnf {
    hard: Cnf,
    soft: Cnf,
    weights: Vec<u64>,
}

impl Wcnf {
    /// The empty formula.
    pub fn new() -> Wcnf {
        Wcnf::default()
    }
    /// Number of variables.
    pub fn n_vars(&self) -> u32 {
        self.hard.n_vars()
    }
    /// The hard clauses.
    pub fn hard(&self) -> &Cnf {
        &self.hard
    }
    /// Number of soft clauses.
    pub fn n_soft(&self) -> usize {
        self.weights.len()
    }
    /// The soft clauses with their weights, in order.
    pub fn soft(&self) -> impl ExactSizeIterator<Item = (u64, &[Lit])> + '_ {
        self.weights.iter().copied().zip(self.soft.clauses())
    }
    /// The sum of the soft weights (the cost of falsifying every soft clause).
    pub fn total_weight(&self) -> u64 {
        self.weights.iter().sum()
    }
    /// Adds a soft clause (`weight ≥ 1`).
    pub fn add_soft(&mut self, weight: u64, lits: &[Lit]) {
        assert!(weight >= 1, "soft clauses weigh at least 1");
        self.soft.add_clause(lits);
        self.weights.push(weight);
        self.hard.ensure_vars(self.soft.n_vars());
        self.soft.ensure_vars(self.hard.n_vars());
    }
    /// The first hard clause (0-based) that `model` falsifies.
    pub fn falsified_hard(&self, model: &[bool]) -> Option<usize> {
        self.hard.clauses().position(|c| !satisfied(c, model))
    }
    /// The total weight of the soft clauses that `model` falsifies.
    pub fn cost(&self, model: &[bool]) -> u64 {
        self.soft().filter(|(_, c)| !satisfied(c, model)).map(|(w, _)| w).sum()
    }
}

/// Whether `model` (variable `i` is `model[i]`, missing ones false)
/// satisfies `clause`.
pub fn satisfied(clause: &[Lit], model: &[bool]) -> bool {
    clause.iter().any(|l| model.get(l.var().index() as usize).copied().unwrap_or(false) == l.is_positive())
}

impl ClauseSink for Wcnf {
    fn new_var(&mut self) -> Var {
        let v = self.hard.new_var();
        self.soft.ensure_vars(self.hard.n_vars());
        v
    }
    fn add_clause(&mut self, lits: &[Lit]) {
        self.hard.add_clause(lits);
        self.soft.ensure_vars(self.hard.n_vars());
    }
}

/// Which WCNF form [`write_wcnf`] writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WcnfFormat {
    /// The MaxSAT Evaluation format from 2022 on: `h` before hard clauses,
    /// the weight before soft ones, no header.
    #[default]
    Standard,
    /// The older form: a `p wcnf VARIABLES CLAUSES TOP` header, every
    /// clause led by its weight, hard clauses by `TOP` (the soft weights'
    /// sum plus 1).
    Classic,
}

impl WcnfFormat {
    /// Names accepted by [`std::str::FromStr`] (and `--wcnf-format`).
    pub const NAMES: &'static [&'static str] = &["standard", "classic"];
    /// The name of the form.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl std::str::FromStr for WcnfFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "standard" => Ok(WcnfFormat::Standard),
            "classic" => Ok(WcnfFormat::Classic),
            _ => Err(format!("unknown WCNF form `{s}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// Writes `wcnf` with `c` comment lines first (hard clauses, then soft
/// clauses, in order).
pub fn write_wcnf(w: &mut impl Write, wcnf: &Wcnf, format: WcnfFormat, comments: &str) -> io::Result<()> {
    crate::dimacs::write_comments(w, comments)?;
    let top = wcnf.total_weight() + 1;
    let hard_lead: Vec<u8> = match format {
        WcnfFormat::Standard => b"h ".to_vec(),
        WcnfFormat::Classic => {
            writeln!(w, "p wcnf {} {} {top}", wcnf.n_vars(), wcnf.hard.n_clauses() + wcnf.n_soft())?;
            format!("{top} ").into_bytes()
        }
    };
    let mut buf = Vec::with_capacity(1 << 16);
    let mut line = |buf: &mut Vec<u8>, lead: &[u8], clause: &[Lit]| -> io::Result<()> {
        buf.extend_from_slice(lead);
        crate::dimacs::push_clause(buf, clause);
        if buf.len() >= 1 << 16 {
            w.write_all(buf)?;
            buf.clear();
        }
        Ok(())
    };
    for c in wcnf.hard.clauses() {
        line(&mut buf, &hard_lead, c)?;
    }
    let mut lead = Vec::new();
    for (weight, c) in wcnf.soft() {
        lead.clear();
        push_u64(&mut lead, weight);
        lead.push(b' ');
        line(&mut buf, &lead, c)?;
    }
    w.write_all(&buf)
}

/// What a MaxSAT solver said about its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxSatStatus {
    /// `s OPTIMUM FOUND`: the model's cost is claimed minimal.
    Optimum,
    /// `s SATISFIABLE`: a model, not claimed optimal.
    Satisfiable,
    /// `s UNSATISFIABLE`: the hard clauses are claimed to have no model.
    Unsatisfiable,
    /// `s UNKNOWN`.
    Unknown,
}

/// A MaxSAT solver's answer as read, each part with its 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaxSatAnswer {
    /// The `s` line, if any.
    pub status: Option<(MaxSatStatus, usize)>,
    /// The last `o` line's cost, if any.
    pub cost: Option<(u64, usize)>,
    /// The model (variable `i` is `model[i]`; unlisted variables false) and
    /// the line of its first `v` line.
    pub model: Option<(Vec<bool>, usize)>,
}

/// Reads a MaxSAT solver's answer for a formula of `n_vars` variables: no
/// literal may name a variable beyond them, none may be given both signs,
/// a one-string model must give exactly `n_vars` digits, and the status
/// must agree with the presence of a model.
pub fn read_maxsat_answer(text: &str, n_vars: u32) -> Result<MaxSatAnswer, ParseError> {
    let mut answer = MaxSatAnswer { status: None, cost: None, model: None };
    let mut values: Vec<Option<bool>> = vec![None; n_vars as usize];
    let mut first_v = None;
    let mut bits = false;
    let mut terminated = false;
    let mut last_line = 1;
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        last_line = n;
        let mut toks = tokens(raw);
        let Some((col, head)) = toks.next() else { continue };
        match head {
            "c" => continue,
            "s" => {
                if let Some((_, at)) = answer.status {
                    return Err(ParseError::at(n, col, format!("a second `s` line (the first is line {at})")));
                }
                let rest: Vec<&str> = toks.map(|(_, t)| t).collect();
                let status = match rest.join(" ").as_str() {
                    "OPTIMUM FOUND" => MaxSatStatus::Optimum,
                    "SATISFIABLE" => MaxSatStatus::Satisfiable,
                    "UNSATISFIABLE" => MaxSatStatus::Unsatisfiable,
                    "UNKNOWN" => MaxSatStatus::Unknown,
                    other => {
                        return Err(ParseError::at(
                            n,
                            col,
                            format!("expected `s OPTIMUM FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s {other}`"),
                        ))
                    }
                };
                answer.status = Some((status, n));
            }
            "o" => {
                let (Some((c, tok)), None) = (toks.next(), toks.next()) else {
                    return Err(ParseError::at(n, col, "expected `o COST` with one non-negative integer"));
                };
                let Ok(cost) = tok.parse::<u64>() else {
                    return Err(ParseError::at(n, c, format!("expected a non-negative integer cost, found `{tok}`")));
                };
                if let Some((before, at)) = answer.cost {
                    if cost > before {
                        return Err(ParseError::at(
                            n,
                            c,
                            format!("cost {cost} after cost {before} on line {at}: a solver's costs only go down"),
                        ));
                    }
                }
                answer.cost = Some((cost, n));
            }
            "v" => {
                let rest: Vec<(usize, &str)> = toks.collect();
                if bits || terminated {
                    return Err(ParseError::at(n, col, "a `v` line after the complete model"));
                }
                let one_string = first_v.is_none()
                    && rest.len() == 1
                    && rest[0].1.bytes().all(|b| b == b'0' || b == b'1')
                    && (rest[0].1.len() >= 2 || n_vars == 1);
                first_v.get_or_insert(n);
                if one_string {
                    let (c, digits) = rest[0];
                    if digits.len() != n_vars as usize {
                        return Err(ParseError::at(
                            n,
                            c,
                            format!(
                                "the model string gives {} values, but the formula has {n_vars} variables",
                                digits.len()
                            ),
                        ));
                    }
                    for (v, b) in values.iter_mut().zip(digits.bytes()) {
                        *v = Some(b == b'1');
                    }
                    bits = true;
                    continue;
                }
                for (c, tok) in rest {
                    if terminated {
                        return Err(ParseError::at(n, c, format!("literal `{tok}` after the closing 0")));
                    }
                    let x = literal(n, c, tok)?;
                    if x == 0 {
                        terminated = true;
                        continue;
                    }
                    if x.unsigned_abs() > n_vars as u64 {
                        return Err(ParseError::at(
                            n,
                            c,
                            format!(
                                "literal {x} names variable {}, but the formula has {n_vars} variables",
                                x.unsigned_abs()
                            ),
                        ));
                    }
                    let lit = Lit::from_dimacs(x).expect("non-zero and in range");
                    let slot = &mut values[lit.var().index() as usize];
                    if slot.is_some_and(|b| b != lit.is_positive()) {
                        let first = first_line_with(text, -x, n).unwrap_or(n);
                        return Err(ParseError::at(
                            n,
                            c,
                            format!(
                                "variable {} is given both signs (`{}` on line {first}, `{x}` here)",
                                x.unsigned_abs(),
                                -x
                            ),
                        ));
                    }
                    *slot = Some(lit.is_positive());
                }
            }
            _ => {
                return Err(ParseError::at(
                    n,
                    col,
                    format!("expected a `c`, `s`, `o` or `v` line, found `{}`", raw.trim()),
                ))
            }
        }
    }
    if let Some(line) = first_v {
        answer.model = Some((values.into_iter().map(|v| v.unwrap_or(false)).collect(), line));
    }
    match (answer.status, &answer.model) {
        (Some((MaxSatStatus::Unsatisfiable, at)), Some((_, v))) => Err(ParseError::new(
            *v,
            format!("a model after `s UNSATISFIABLE` (line {at}): the answer contradicts itself"),
        )),
        (Some((s @ (MaxSatStatus::Optimum | MaxSatStatus::Satisfiable), at)), None) => Err(ParseError::new(
            at,
            format!(
                "`{}` without a `v` model line",
                if s == MaxSatStatus::Optimum { "s OPTIMUM FOUND" } else { "s SATISFIABLE" }
            ),
        )),
        (None, None) => Err(ParseError::new(last_line, "no answer: expected an `s` line and a `v` model line")),
        _ => Ok(answer),
    }
}

/// The DIMACS literals of a clause, blank-separated (for messages).
pub fn clause_text(clause: &[Lit]) -> String {
    let mut buf = Vec::new();
    for (i, l) in clause.iter().enumerate() {
        if i > 0 {
            buf.push(b' ');
        }
        push_i64(&mut buf, l.to_dimacs());
    }
    String::from_utf8(buf).expect("digits")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(x: i64) -> Lit {
        Lit::from_dimacs(x).unwrap()
    }

    fn sample() -> Wcnf {
        let mut f = Wcnf::new();
        for _ in 0..3 {
            f.new_var();
        }
        f.add_clause(&[lit(1), lit(2)]);
        f.add_soft(1, &[lit(-3)]);
        f.add_soft(2, &[lit(3), lit(-1)]);
        f
    }

    #[test]
    fn both_forms_are_written() {
        let f = sample();
        let mut out = Vec::new();
        write_wcnf(&mut out, &f, WcnfFormat::Standard, "hi").unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "c hi\nh 1 2 0\n1 -3 0\n2 3 -1 0\n");
        let mut out = Vec::new();
        write_wcnf(&mut out, &f, WcnfFormat::Classic, "").unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "p wcnf 3 3 4\n4 1 2 0\n1 -3 0\n2 3 -1 0\n");
        assert_eq!(f.cost(&[true, false, false]), 2);
        assert_eq!(f.cost(&[false, true, true]), 1);
        assert_eq!(f.falsified_hard(&[false, false, false]), Some(0));
    }

    #[test]
    fn answers_in_both_model_forms() {
        let classic = read_maxsat_answer("c rc2\no 3\no 1\ns OPTIMUM FOUND\nv 1 -2\nv 3 0\n", 3).unwrap();
        assert_eq!(classic.status, Some((MaxSatStatus::Optimum, 4)));
        assert_eq!(classic.cost, Some((1, 3)));
        assert_eq!(classic.model, Some((vec![true, false, true], 5)));
        let string = read_maxsat_answer("s OPTIMUM FOUND\no 1\nv 101\n", 3).unwrap();
        assert_eq!(string.model, classic.model.map(|(m, _)| (m, 3)));
        let unsat = read_maxsat_answer("s UNSATISFIABLE\n", 3).unwrap();
        assert_eq!((unsat.status, unsat.model), (Some((MaxSatStatus::Unsatisfiable, 1)), None));
    }

    #[test]
    fn malformed_answers_name_line_and_column() {
        let e = |t: &str| read_maxsat_answer(t, 3).unwrap_err().to_string();
        assert_eq!(
            e("s OPTIMUM FOUND\nv 1 -4 0\n"),
            "line 2, column 5: literal -4 names variable 4, but the formula has 3 variables"
        );
        assert_eq!(e("v 1 2\nv -1 0\n"), "line 2, column 3: variable 1 is given both signs (`1` on line 1, `-1` here)");
        assert_eq!(
            e("s OPTIMUM FOUND\nv 10\n"),
            "line 2, column 3: the model string gives 2 values, but the formula has 3 variables"
        );
        assert_eq!(e("o 1\no 2\n"), "line 2, column 3: cost 2 after cost 1 on line 1: a solver's costs only go down");
        assert_eq!(e("s OPTIMUM FOUND\n"), "line 1: `s OPTIMUM FOUND` without a `v` model line");
        assert_eq!(
            e("s UNSATISFIABLE\nv 1 0\n"),
            "line 2: a model after `s UNSATISFIABLE` (line 1): the answer contradicts itself"
        );
        assert_eq!(e("s DONE\n"), "line 1, column 1: expected `s OPTIMUM FOUND`, `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s DONE`");
        assert_eq!(e("o x\n"), "line 1, column 3: expected a non-negative integer cost, found `x`");
        assert_eq!(e("hello\n"), "line 1, column 1: expected a `c`, `s`, `o` or `v` line, found `hello`");
        assert_eq!(e(""), "line 1: no answer: expected an `s` line and a `v` model line");
        assert_eq!(e("v 1 0\nv 2\n"), "line 2, column 1: a `v` line after the complete model");
    }

    #[test]
    fn format_names_round_trip() {
        for n in WcnfFormat::NAMES {
            assert_eq!(n.parse::<WcnfFormat>().unwrap().name(), *n);
        }
        assert!("new".parse::<WcnfFormat>().is_err());
    }
}
