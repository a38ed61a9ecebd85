//! SAT solver answers: the competition format (`s` and `v` lines, as
//! printed by kissat, CaDiCaL and most solvers) and MiniSat's result file
//! (`SAT` then the literals, or `UNSAT` / `INDET`).

use crate::formula::{Lit, Var};
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

/// Reads a solver's answer. Both formats may carry `c` comment lines. A
/// satisfiable answer must end its literals with `0` (a truncated file is an
/// error) and give no variable both signs.
pub fn read_answer(text: &str) -> Result<SatAnswer, ParseError> {
    let mut status = Status::None;
    let mut status_line = 0;
    let mut values: Vec<Option<bool>> = Vec::new();
    let mut terminated = false;
    let mut minisat = false;
    let mut last_line = 1;
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
        for tok in lits.split_whitespace() {
            if terminated {
                return Err(ParseError::new(n, format!("literal `{tok}` after the terminating 0")));
            }
            let Ok(x) = tok.parse::<i64>() else {
                return Err(ParseError::new(n, format!("expected a literal (a non-zero integer) or 0, found `{tok}`")));
            };
            if x == 0 {
                terminated = true;
                continue;
            }
            let Some(lit) = Lit::from_dimacs(x) else {
                return Err(ParseError::new(n, format!("literal {x} is out of range")));
            };
            let v = lit.var().index() as usize;
            if v >= values.len() {
                values.resize(v + 1, None);
            }
            if values[v].is_some_and(|b| b != lit.is_positive()) {
                return Err(ParseError::new(n, format!("variable {} is given both signs", v + 1)));
            }
            values[v] = Some(lit.is_positive());
        }
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
        assert_eq!(e("s SATISFIABLE\nv 1 -1 0\n"), "line 2: variable 1 is given both signs");
        assert_eq!(e("s SAT\n"), "line 1: expected `s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`, found `s SAT`");
        assert_eq!(e("s SATISFIABLE\nv 1 x 0\n"), "line 2: expected a literal (a non-zero integer) or 0, found `x`");
        assert_eq!(
            e("hello\n"),
            "line 1: expected `s` status, `v` literals, `c` comments or MiniSat's SAT/UNSAT/INDET, found `hello`"
        );
        assert_eq!(e("s SATISFIABLE\ns UNSATISFIABLE\n"), "line 2: a second status line (the first is line 1)");
        assert!(e("").contains("no answer"));
    }
}
