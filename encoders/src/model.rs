//! SAT solver answers: the competition format (`s` and `v` lines, as
//! printed by kissat, CaDiCaL and most solvers) and MiniSat's result file
//! (`SAT` then the literals, or `UNSAT` / `INDET`).

use crate::formula::{Lit, Var};
use crate::text::{first_line_with, literal, tokens};
use crate::ParseError;

/// What a solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with the model: `true` for every variable given
    /// positively (variables the solver did not mention are `false`).
    Sat(Vec<bool>),
    /// Unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, MiniSat's `INDET`).
    Unknown,
}

impl SatAnswer {
    /// Whether `var` is true in a satisfiable answer.
    pub fn value(&self, var: Var) -> bool {
        match self {
            SatAnswer::Sat(m) => m.get(var.index() as usize).copied().unwrap_or(false),
            _ => false,
        }
    }
}

#[derive(PartialEq)]
enum Status {
    None,
    Sat,
    Unsat,
    Unknown,
}

/// Largest variable number a model may mention: the dense model of a
/// larger one would need a byte per variable up to it, so a tiny file could
/// ask for gigabytes. emx's encodings stay far below.
pub const MAX_MODEL_VARIABLES: usize = 1 << 26;

/// Reads a solver's answer. Both formats may carry `c` comment lines. A
/// satisfiable answer must end its literals with `0` (a truncated file is an
/// error) and give no variable both signs; an unsatisfiable or unknown one
/// must carry no literals.
pub fn read_answer(text: &str) -> Result<SatAnswer, ParseError> {
    read_answer_within(text, None)
}

/// [`read_answer`] for a formula of `n_vars` variables (its header's count):
/// a literal naming a variable beyond them is an error.
pub fn read_answer_within(text: &str, n_vars: Option<u32>) -> Result<SatAnswer, ParseError> {
    let mut status = Status::None;
    let mut status_line = 0;
    let mut values: Vec<Option<bool>> = Vec::new();
    let mut terminated = false;
    let mut minisat = false;
    let mut last_line = 1;
    let mut lits_line = None;
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        last_line = n;
        let line = raw.trim();
        if line.is_empty() || line == "c" || line.starts_with("c ") {
            continue;
        }
        let set_status = |s: Status, status: &mut Status, status_line: &mut usize| {
            if *status != Status::None {
                return Err(ParseError::new(n, format!("a second status line (the first is line {status_line})")));
            }
            *status = s;
            *status_line = n;
            Ok(())
        };
        let lits: &str = if let Some(rest) = line.strip_prefix("s ") {
            let s = match rest.trim() {
                "SATISFIABLE" => Status::Sat,
                "UNSATISFIABLE" => Status::Unsat,
                "UNKNOWN" => Status::Unknown,
                other => {
                    return Err(ParseError::new(
                        n,
                        format!("expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s {other}`"),
                    ))
                }
            };
            set_status(s, &mut status, &mut status_line)?;
            continue;
        } else if matches!(line, "SAT" | "UNSAT" | "INDET") && status == Status::None {
            minisat = true;
            let s = match line {
                "SAT" => Status::Sat,
                "UNSAT" => Status::Unsat,
                _ => Status::Unknown,
            };
            set_status(s, &mut status, &mut status_line)?;
            continue;
        } else if let Some(rest) = line.strip_prefix('v') {
            rest
        } else if minisat && status == Status::Sat && !terminated {
            line
        } else {
            return Err(ParseError::new(
                n,
                format!("expected `s` status, `v` literals, `c` comments or MiniSat's SAT/UNSAT/INDET, found `{line}`"),
            ));
        };
        if terminated {
            return Err(ParseError::new(n, "literals after the terminating 0"));
        }
        // Columns count in the raw line, of which `lits` is a slice.
        let offset = raw[..lits.as_ptr() as usize - raw.as_ptr() as usize].chars().count();
        for (c, tok) in tokens(lits) {
            let c = c + offset;
            if terminated {
                return Err(ParseError::at(n, c, format!("literal `{tok}` after the terminating 0")));
            }
            let x = literal(n, c, tok)?;
            if x == 0 {
                terminated = true;
                continue;
            }
            if let Some(limit) = n_vars.filter(|&m| x.unsigned_abs() > m as u64) {
                return Err(ParseError::at(
                    n,
                    c,
                    format!(
                        "literal {x} names variable {}, but the CNF declares {limit} variables (`p cnf {limit} ...`)",
                        x.unsigned_abs()
                    ),
                ));
            }
            let Some(lit) = Lit::from_dimacs(x) else {
                return Err(ParseError::at(n, c, format!("literal {x} is out of range")));
            };
            let v = lit.var().index() as usize;
            if v >= MAX_MODEL_VARIABLES {
                return Err(ParseError::at(
                    n,
                    c,
                    format!("variable {} is beyond the {MAX_MODEL_VARIABLES} variables emx reads in a model", v + 1),
                ));
            }
            if v >= values.len() {
                values.resize(v + 1, None);
            }
            if values[v].is_some_and(|b| b != lit.is_positive()) {
                let first = first_line_with(text, -x, n).unwrap_or(n);
                return Err(ParseError::at(
                    n,
                    c,
                    format!("variable {} is given both signs (`{}` on line {first}, `{x}` here)", v + 1, -x),
                ));
            }
            values[v] = Some(lit.is_positive());
            lits_line.get_or_insert(n);
        }
    }
    if let (Status::Unsat | Status::Unknown, Some(at)) = (&status, lits_line) {
        let what = if status == Status::Unsat { "unsatisfiable" } else { "unknown" };
        return Err(ParseError::new(
            at,
            format!("literals in an answer that says {what} (line {status_line}): the answer contradicts itself"),
        ));
    }
    match status {
        Status::Unsat => Ok(SatAnswer::Unsat),
        Status::Unknown => Ok(SatAnswer::Unknown),
        Status::None if values.is_empty() => Err(ParseError::new(
            last_line,
            "no answer: expected `s SATISFIABLE` / `s UNSATISFIABLE` with `v` lines, or MiniSat's SAT/UNSAT result file",
        )),
        Status::Sat | Status::None => {
            if !terminated {
                return Err(ParseError::new(last_line, "the model is not terminated by 0 (truncated output?)"));
            }
            Ok(SatAnswer::Sat(values.into_iter().map(|v| v.unwrap_or(false)).collect()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn competition_and_minisat_formats() {
        let comp = "c kissat\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(read_answer(comp).unwrap(), SatAnswer::Sat(vec![true, false, true]));
        assert_eq!(read_answer("SAT\n-1 2 0\n").unwrap(), SatAnswer::Sat(vec![false, true]));
        assert_eq!(read_answer("s UNSATISFIABLE\n").unwrap(), SatAnswer::Unsat);
        assert_eq!(read_answer("UNSAT\n").unwrap(), SatAnswer::Unsat);
        assert_eq!(read_answer("INDET\n").unwrap(), SatAnswer::Unknown);
        assert_eq!(read_answer("s UNKNOWN\n").unwrap(), SatAnswer::Unknown);
        assert!(read_answer(comp).unwrap().value(Var::new(2)));
    }

    #[test]
    fn malformed_answers_name_the_line() {
        let e = |t: &str| read_answer(t).unwrap_err().to_string();
        assert_eq!(e("s SATISFIABLE\nv 1 -2\n"), "line 2: the model is not terminated by 0 (truncated output?)");
        assert_eq!(
            e("s SATISFIABLE\nv 1 -1 0\n"),
            "line 2, column 5: variable 1 is given both signs (`1` on line 2, `-1` here)"
        );
        assert_eq!(
            e("s SATISFIABLE\nv 1 2\nv -2 0\n"),
            "line 3, column 3: variable 2 is given both signs (`2` on line 2, `-2` here)"
        );
        assert_eq!(
            e("s UNSATISFIABLE\nv 1 0\n"),
            "line 2: literals in an answer that says unsatisfiable (line 1): the answer contradicts itself"
        );
        let within = |t: &str| read_answer_within(t, Some(3)).unwrap_err().to_string();
        assert_eq!(
            within("s SATISFIABLE\nv 1 -4 0\n"),
            "line 2, column 5: literal -4 names variable 4, but the CNF declares 3 variables (`p cnf 3 ...`)"
        );
        assert!(read_answer_within("s SATISFIABLE\nv 1 -3 0\n", Some(3)).is_ok());
        assert_eq!(e("s SAT\n"), "line 1: expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s SAT`");
        assert_eq!(
            e("s SATISFIABLE\nv 1 x 0\n"),
            "line 2, column 5: expected a literal (a non-zero integer) or 0, found `x`"
        );
        assert_eq!(
            e("hello\n"),
            "line 1: expected `s` status, `v` literals, `c` comments or MiniSat's SAT/UNSAT/INDET, found `hello`"
        );
        assert_eq!(e("s SATISFIABLE\ns UNSATISFIABLE\n"), "line 2: a second status line (the first is line 1)");
        assert!(e("").contains("no answer"));
        assert_eq!(
            e("s SATISFIABLE\nv 1 -2000000000 0\n"),
            "line 2, column 5: variable 2000000000 is beyond the 67108864 variables emx reads in a model"
        );
    }
}
