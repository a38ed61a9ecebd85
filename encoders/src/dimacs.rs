//! DIMACS CNF: writer (header and body apart, so a caller can stream) and
//! reader.

use crate::formula::{ClauseSink, Cnf, Lit};
use crate::text::push_i64;
use crate::ParseError;
use std::io::{self, Write};

/// Writes `c` comment lines (each line of `text` prefixed with `c `).
pub fn write_comments(w: &mut impl Write, text: &str) -> io::Result<()> {
    for line in text.lines() {
        if line.is_empty() {
            writeln!(w, "c")?;
        } else {
            writeln!(w, "c {line}")?;
        }
    }
    Ok(())
}

/// Writes the problem line `p cnf VARS CLAUSES`.
pub fn write_header(w: &mut impl Write, n_vars: u32, n_clauses: usize) -> io::Result<()> {
    writeln!(w, "p cnf {n_vars} {n_clauses}")
}

/// Writes the clauses of `cnf`, one per line, each ended by `0`.
pub fn write_clauses(w: &mut impl Write, cnf: &Cnf) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    for clause in cnf.clauses() {
        push_clause(&mut buf, clause);
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

/// Appends one clause line (`l1 l2 ... 0\n`) to `buf`.
pub fn push_clause(buf: &mut Vec<u8>, clause: &[Lit]) {
    for l in clause {
        push_i64(buf, l.to_dimacs());
        buf.push(b' ');
    }
    buf.extend_from_slice(b"0\n");
}

/// Writes a whole formula: comments, header, clauses.
pub fn write_cnf(w: &mut impl Write, cnf: &Cnf, comments: &str) -> io::Result<()> {
    write_comments(w, comments)?;
    write_header(w, cnf.n_vars(), cnf.n_clauses())?;
    write_clauses(w, cnf)
}

/// Reads a DIMACS CNF file. The header must come before the first clause;
/// the clause count must match, and every literal must lie within the
/// declared number of variables. Clauses may span lines; `c` lines and a
/// trailing `%` line (old SATLIB files) are ignored.
pub fn read_cnf(text: &str) -> Result<Cnf, ParseError> {
    let mut header: Option<(u32, usize)> = None;
    let mut cnf = Cnf::new();
    let mut clause: Vec<Lit> = Vec::new();
    let mut last_line = 0;
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        last_line = n;
        let t = line.trim();
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if t.starts_with('%') {
            break;
        }
        if t.starts_with('p') {
            if header.is_some() {
                return Err(ParseError::new(n, "a second `p cnf` line"));
            }
            let f: Vec<&str> = t.split_whitespace().collect();
            let parsed = match f.as_slice() {
                ["p", "cnf", v, c] => v.parse::<u32>().ok().zip(c.parse::<usize>().ok()),
                _ => None,
            };
            let Some((v, c)) = parsed else {
                return Err(ParseError::new(n, format!("expected `p cnf VARIABLES CLAUSES`, found `{t}`")));
            };
            cnf.ensure_vars(v);
            header = Some((v, c));
            continue;
        }
        let Some((n_vars, _)) = header else {
            return Err(ParseError::new(
                n,
                format!("expected the header `p cnf VARIABLES CLAUSES` first, found `{t}`"),
            ));
        };
        for tok in t.split_whitespace() {
            let Ok(x) = tok.parse::<i64>() else {
                return Err(ParseError::new(n, format!("expected a literal (a non-zero integer) or 0, found `{tok}`")));
            };
            if x == 0 {
                cnf.add_clause(&clause);
                clause.clear();
                continue;
            }
            if x.unsigned_abs() > n_vars as u64 {
                return Err(ParseError::new(n, format!("literal {x} is outside the {n_vars} declared variables")));
            }
            clause.push(Lit::from_dimacs(x).expect("non-zero and in range"));
        }
    }
    let Some((_, n_clauses)) = header else {
        return Err(ParseError::new(last_line.max(1), "no `p cnf VARIABLES CLAUSES` header"));
    };
    if !clause.is_empty() {
        return Err(ParseError::new(last_line, "the last clause is not terminated by 0"));
    }
    if cnf.n_clauses() != n_clauses {
        return Err(ParseError::new(
            last_line,
            format!("the header declares {n_clauses} clauses, the file holds {}", cnf.n_clauses()),
        ));
    }
    Ok(cnf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Var;

    #[test]
    fn write_then_read() {
        let mut f = Cnf::with_vars(3);
        f.add_clause(&[Var::new(0).positive(), Var::new(2).negative()]);
        f.add_clause(&[Var::new(1).negative()]);
        let mut out = Vec::new();
        write_cnf(&mut out, &f, "hello\n\nworld").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "c hello\nc\nc world\np cnf 3 2\n1 -3 0\n-2 0\n");
        assert_eq!(read_cnf(&text).unwrap(), f);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = |t: &str| read_cnf(t).unwrap_err().to_string();
        assert_eq!(e("1 2 0\n"), "line 1: expected the header `p cnf VARIABLES CLAUSES` first, found `1 2 0`");
        assert_eq!(e("p cnf 2 1\n1 x 0\n"), "line 2: expected a literal (a non-zero integer) or 0, found `x`");
        assert_eq!(e("p cnf 2 1\n1 3 0\n"), "line 2: literal 3 is outside the 2 declared variables");
        assert_eq!(e("p cnf 2 2\n1 0\n"), "line 2: the header declares 2 clauses, the file holds 1");
        assert_eq!(e("p cnf 2 1\n1 2\n"), "line 2: the last clause is not terminated by 0");
        assert_eq!(e("p dnf 2 1\n"), "line 1: expected `p cnf VARIABLES CLAUSES`, found `p dnf 2 1`");
        assert_eq!(e(""), "line 1: no `p cnf VARIABLES CLAUSES` header");
    }
}
