//! A tiny DPLL for the unit tests: which assignments of the first variables
//! extend to a model, and how many models a formula has.

use crate::formula::Cnf;

/// Unit propagation on `assign`; `false` on a conflict.
fn propagate(f: &Cnf, assign: &mut [Option<bool>]) -> bool {
    loop {
        let mut unit = None;
        for c in f.clauses() {
            let (mut open, mut n_open, mut sat) = (None, 0, false);
            for &l in c {
                match assign[l.var().index() as usize] {
                    Some(v) if v == l.is_positive() => sat = true,
                    Some(_) => {}
                    None => {
                        n_open += 1;
                        open = Some(l);
                    }
                }
            }
            if sat {
                continue;
            }
            match (n_open, open) {
                (0, _) => return false,
                (1, Some(l)) => {
                    unit = Some(l);
                    break;
                }
                _ => {}
            }
        }
        match unit {
            Some(l) => assign[l.var().index() as usize] = Some(l.is_positive()),
            None => return true,
        }
    }
}

/// Whether the clauses have a model extending `assign`.
pub(crate) fn satisfiable(f: &Cnf, assign: &mut [Option<bool>]) -> bool {
    if !propagate(f, assign) {
        return false;
    }
    let Some(v) = assign.iter().position(|a| a.is_none()) else { return true };
    [true, false].into_iter().any(|b| {
        let mut a = assign.to_vec();
        a[v] = Some(b);
        satisfiable(f, &mut a)
    })
}

/// The assignments of the first `n` variables (bit `i` = variable `i`)
/// that extend to a model, ascending.
pub(crate) fn sat_models(f: &Cnf, n: u32) -> Vec<u32> {
    (0u32..1 << n)
        .filter(|&m| {
            let mut a = vec![None; f.n_vars() as usize];
            for (o, v) in a.iter_mut().enumerate().take(n as usize) {
                *v = Some(m >> o & 1 == 1);
            }
            satisfiable(f, &mut a)
        })
        .collect()
}

/// The number of models over all variables.
pub(crate) fn count_models(f: &Cnf) -> u64 {
    fn go(f: &Cnf, assign: &mut [Option<bool>]) -> u64 {
        if !propagate(f, assign) {
            return 0;
        }
        let Some(v) = assign.iter().position(|a| a.is_none()) else { return 1 };
        [true, false]
            .into_iter()
            .map(|b| {
                let mut a = assign.to_vec();
                a[v] = Some(b);
                go(f, &mut a)
            })
            .sum()
    }
    go(f, &mut vec![None; f.n_vars() as usize])
}
