//! CNF from the IR: a variable per option (DIMACS variable `o + 1` is
//! option `o`), exactly-`m` per primary item, colour agreement per
//! secondary item (see [`emx_encoders::cover::encode_cnf`]), excluded
//! options forced false, and `c` comment lines that map variables back to
//! placements.

use super::placement_text;
use super::restrict::Restriction;
use crate::edgematch::GREY;
use crate::input::{Instance, InstanceKind};
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

/// The colour totals of an edge-matching puzzle, for
/// [`CnfOptions::color_totals`]: every non-grey side of a placed tile faces
/// an inner join that both its cells colour alike, so a colour shown on
/// `s` tile sides colours exactly `s / 2` joins in every solution (when `s`
/// is odd there is no solution, and any total is as good). `None` for other
/// puzzles.
pub fn edge_color_totals(instance: &Instance) -> Option<Vec<(u32, u32)>> {
    let InstanceKind::EdgeMatch(e) = &instance.kind else { return None };
    let mut sides = vec![0u32; e.puzzle.n_colors()];
    for t in &e.puzzle.tiles {
        for &c in &t.0 {
            sides[c as usize] += 1;
        }
    }
    let names = instance.problem().colors();
    let totals = (0..sides.len())
        .filter(|&k| k != GREY as usize && sides[k] > 0)
        .filter_map(|k| {
            let id = names.iter().position(|n| *n == k.to_string())?;
            Some((id as u32, sides[k] / 2))
        })
        .collect();
    Some(totals)
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
        "{} items ({} primary), {} options; at-most-one: {}; exactly-k: {}; colours: {}; exactly-one over: {}; colour choice: {}{}",
        problem.items().len(),
        problem.n_primary(),
        problem.n_options(),
        opts.amo,
        opts.card,
        opts.colors,
        opts.exactly_one_over,
        opts.color_choice,
        // Mentioned only when off: the default, and meaningless for conflicts.
        if opts.color_support { "" } else { "; colour support clauses: off" }
    );
    if !opts.color_totals.is_empty() {
        let totals: Vec<String> =
            opts.color_totals.iter().map(|&(c, k)| format!("{}:{k}", problem.colors()[c as usize])).collect();
        let _ = writeln!(s, "colour totals (colour:joins): {}", totals.join(" "));
    }
    if let Some(r) = restriction {
        let _ = writeln!(s, "restriction: {} ({} options forced false)", r.description, r.n_excluded());
    }
    let _ = writeln!(s, "variables 1..{} are the options; a model's true ones form the solution", problem.n_options());
    for o in 0..problem.n_options() as u32 {
        let _ =
            writeln!(s, "var {} = option {o}: {}", enc.layout.option_var(o).to_dimacs(), placement_text(instance, o));
    }
    for (v, members) in &enc.layout.site_vars {
        let first = placement_text(instance, members[0]);
        let list: Vec<String> = members.iter().map(u32::to_string).collect();
        let _ = writeln!(s, "var {} = site of options {} (the first: {first})", v.to_dimacs(), list.join(" "));
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
