//! Encoders on the IR: CNF (and in-process / external SAT solving), clique
//! graphs, Knuth's `.dlx` text, and for edge matching the MILP of Salassa
//! et al. and the weighted MaxSAT of the matched-edge score; and the
//! puzzle-level explanation of a decoded answer that is not a solution. The puzzle-independent parts (formulas, cardinality encodings,
//! DIMACS readers and writers, the clique edge rule) live in the
//! `emx-encoders` crate, which reads the IR through
//! [`CoverSource`](emx_encoders::CoverSource) (implemented here for
//! [`Problem`](crate::ir::Problem)).

pub mod clique;
pub mod cnf;
pub mod explain;
pub mod lp;
pub mod maxsat;
pub mod restrict;
pub mod sat;
pub mod size;
mod source;

use crate::input::{Instance, InstanceKind};
use crate::ir::OptionId;
use emx_encoders::dlx::{DlxError, DlxNames};
use std::io::{self, Write};

/// A line describing what option `o` places, for comments and maps:
/// `tile 3 at r0c1 rotation 2`, `piece L at 0,0 1,0 ...`, or the option's
/// items for a bare exact cover.
pub fn placement_text(instance: &Instance, o: OptionId) -> String {
    let problem = instance.problem();
    match (&instance.kind, &problem.geometry) {
        (InstanceKind::EdgeMatch(e), Some(geo)) => {
            let p = &geo.placements[o as usize];
            let (r, c) = e.puzzle.row_col(p.cells[0] as usize);
            format!("tile {} at r{r}c{c} rotation {}", p.piece + 1, p.orientation)
        }
        (InstanceKind::Polycube(_), Some(geo)) => {
            let p = &geo.placements[o as usize];
            let piece = &geo.pieces[p.piece as usize];
            let cells: Vec<String> = p
                .cells
                .iter()
                .map(|&c| {
                    let [x, y, z] = geo.coords(c);
                    if geo.dims[2] == 1 {
                        format!("{x},{y}")
                    } else {
                        format!("{x},{y},{z}")
                    }
                })
                .collect();
            format!("piece {} at {}", piece.names.join("/"), cells.join(" "))
        }
        _ => problem.option_text(o),
    }
}

/// The names Knuth's programs accept for the instance's items and colours
/// (see [`emx_encoders::dlx::DlxNames`]), without the `excluded` options.
pub fn dlx_names(instance: &Instance, excluded: &[bool]) -> Result<DlxNames, DlxError> {
    DlxNames::new(instance.problem(), excluded)
}

/// Writes the instance's problem as Knuth `.dlx` text with `names` (from
/// [`dlx_names`] for the same options), skipping `excluded` options
/// (empty: none).
pub fn write_dlx(
    w: &mut impl Write,
    instance: &Instance,
    names: &DlxNames,
    excluded: &[bool],
    note: &str,
) -> io::Result<()> {
    let problem = instance.problem();
    let mut comments = format!("emx .dlx export of {} ({})\n", instance.file, problem.name);
    if !note.is_empty() {
        comments.push_str(note);
        comments.push('\n');
    }
    emx_encoders::dlx::write_dlx(w, problem, names, excluded, &comments)
}
