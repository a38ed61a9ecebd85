//! Encoders on the IR: CNF (and in-process / external SAT solving), clique
//! graphs, Knuth's `.dlx` text, and the MILP of Salassa et al. for edge
//! matching. The puzzle-independent parts (formulas, cardinality encodings,
//! DIMACS readers and writers, the clique edge rule) live in the
//! `emx-encoders` crate, which reads the IR through
//! [`CoverSource`](emx_encoders::CoverSource) (implemented here for
//! [`Problem`](crate::ir::Problem)).

pub mod clique;
pub mod cnf;
pub mod lp;
pub mod restrict;
pub mod sat;
mod source;

use crate::input::{Instance, InstanceKind};
use crate::ir::OptionId;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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

/// The temporary name an output is written under before it is renamed.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(format!(".tmp-{}", std::process::id()));
    path.with_file_name(name)
}

/// Writes `path` through `write`, first to a temporary file beside it that
/// is renamed over `path` only when everything was written (so a failed or
/// interrupted run never leaves a truncated output).
pub fn write_atomically<T>(path: &Path, write: impl FnOnce(&mut BufWriter<File>) -> io::Result<T>) -> io::Result<T> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        let value = write(&mut w)?;
        w.flush()?;
        w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        Ok(value)
    })();
    match result {
        Ok(v) => {
            std::fs::rename(&tmp, path)?;
            Ok(v)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Builds the IR of a Knuth `.dlx` file (options keep their file order, so
/// option `k` is the `k`-th option line).
pub fn dlx_problem(text: &str, file: &str, name: &str) -> Result<crate::ir::Problem, crate::frontend::ParseError> {
    use crate::ir::{Entry, ProblemBuilder, NO_COLOR};
    let err =
        |line: usize, message: String| crate::frontend::ParseError { file: file.to_string(), line, col: None, message };
    let dlx = emx_encoders::dlx::read_dlx(text).map_err(|e| err(e.line, e.message))?;
    let mut b = ProblemBuilder::new(name);
    let ids: Vec<u32> = dlx
        .items
        .iter()
        .map(|i| match i.multiplicity {
            Some(m) => b.primary_with_multiplicity(i.name.clone(), m),
            None => b.secondary(i.name.clone()),
        })
        .collect();
    let colors: Vec<u32> =
        dlx.colors.iter().enumerate().map(|(k, c)| if k == 0 { NO_COLOR } else { b.color(c) }).collect();
    for opt in &dlx.options {
        b.option(opt.iter().map(|e| Entry { item: ids[e.item as usize], color: colors[e.color as usize] }));
    }
    b.build(None).map_err(|e| err(1, e.to_string()))
}

/// Writes the instance's problem as Knuth `.dlx` text, skipping `excluded`
/// options (empty: none).
pub fn write_dlx(w: &mut impl Write, instance: &Instance, excluded: &[bool], note: &str) -> io::Result<()> {
    let problem = instance.problem();
    let mut comments = format!("emx .dlx export of {} ({})\n", instance.file, problem.name);
    if !note.is_empty() {
        comments.push_str(note);
        comments.push('\n');
    }
    emx_encoders::dlx::write_dlx(w, problem, excluded, &comments)
}
