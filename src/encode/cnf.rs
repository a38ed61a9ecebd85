//! CNF from the IR: a variable per option (DIMACS variable `o + 1` is
//! option `o`), exactly-`m` per primary item, colour agreement per
//! secondary item (see [`emx_encoders::cover::encode_cnf`]), excluded
//! options forced false, and `c` comment lines that map variables back to
//! placements.

use super::placement_text;
use super::restrict::Restriction;
use crate::input::Instance;
use crate::ir::{Problem, Solution};
use emx_encoders::cover::encode_cnf;
use emx_encoders::{Cnf, CnfLayout, CnfOptions, EncodeError, SatAnswer, SizeCounter, Var};
use std::fmt::Write as _;

/// A CNF encoding of an instance.
#[derive(Clone, Debug)]
pub struct CnfEncoding {
    /// The formula.
    pub cnf: Cnf,
    /// Where the variables are.
    pub layout: CnfLayout,
}

/// Encodes the instance's problem with `opts` (its `excluded` mask may come
/// from a [`Restriction`]).
pub fn encode(problem: &Problem, opts: &CnfOptions) -> Result<CnfEncoding, EncodeError> {
    let mut cnf = Cnf::new();
    let layout = encode_cnf(problem, opts, &mut cnf)?;
    Ok(CnfEncoding { cnf, layout })
}

/// The size of the encoding without building it (variables, clauses,
/// literals, bytes of the clause lines), for estimates and size caps.
pub fn estimate(problem: &Problem, opts: &CnfOptions) -> Result<SizeCounter, EncodeError> {
    let mut counter = SizeCounter::default();
    encode_cnf(problem, opts, &mut counter)?;
    Ok(counter)
}

/// The comment block written at the top of the DIMACS file.
pub fn comments(
    instance: &Instance,
    enc: &CnfEncoding,
    opts: &CnfOptions,
    restriction: Option<&Restriction>,
) -> String {
    let problem = instance.problem();
    let mut s = String::new();
    let _ = writeln!(s, "emx cnf encoding of {} ({})", instance.file, problem.name);
    let _ = writeln!(
        s,
        "{} items ({} primary), {} options; at-most-one: {}; colours: {}",
        problem.items().len(),
        problem.n_primary(),
        problem.n_options(),
        opts.amo,
        opts.colors
    );
    if let Some(r) = restriction {
        let _ = writeln!(s, "restriction: {} ({} options forced false)", r.description, r.n_excluded());
    }
    let _ = writeln!(s, "variables 1..{} are the options; a model's true ones form the solution", problem.n_options());
    for o in 0..problem.n_options() as u32 {
        let _ =
            writeln!(s, "var {} = option {o}: {}", enc.layout.option_var(o).to_dimacs(), placement_text(instance, o));
    }
    for &(v, item, color) in &enc.layout.color_vars {
        let _ = writeln!(
            s,
            "var {} = colour {} on {}",
            v.to_dimacs(),
            problem.colors()[color as usize],
            problem.items()[item as usize].name
        );
    }
    s
}

/// The options set true in a satisfying answer (variables `1..=n_options`).
pub fn solution_of(problem: &Problem, answer: &SatAnswer) -> Solution {
    let options = (0..problem.n_options() as u32).filter(|&o| answer.value(Var::new(o))).collect();
    Solution { options }
}

/// Whether `model` satisfies every clause of `cnf`; returns the first
/// falsified clause's index.
pub fn check_model(cnf: &Cnf, model: &SatAnswer) -> Result<(), usize> {
    match cnf.clauses().position(|c| !c.iter().any(|l| model.value(l.var()) == l.is_positive())) {
        Some(k) => Err(k),
        None => Ok(()),
    }
}
