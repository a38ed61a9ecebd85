//! The size of each encoding before it is written, for `--max-size` and
//! `emx info --sizes`. CNF: the encoder run into a counting sink (nothing
//! stored). Clique graph: the edges counted (with their bytes) up to the
//! cap, then the count stops. `.dlx` and LP: the writer run into a counting
//! sink that stops at the cap. Every count stops as soon as the cap is
//! passed, so a too-large encoding is refused after at most `cap` bytes of
//! work.

use super::{cnf, lp};
use crate::edgematch::EdgePuzzle;
use crate::input::Instance;
use crate::ir::Problem;
use crate::size_cap::Measure;
use crate::size_cap::{SizeCap, TooLarge};
use crate::write::{Guarded, OutputGuard};
use emx_encoders::{CliqueGraph, CnfOptions, EncodeError, SizeCounter};
use std::io;

/// Bytes of the comment line mapping one CNF variable to a placement
/// (`c var 123 tile 4 at r1c2 rotation 3`), on average.
const CNF_COMMENT_BYTES_PER_OPTION: u64 = 40;
/// Bytes of one line of a clique node map, on average.
const MAP_BYTES_PER_NODE: u64 = 48;

/// The size of a CNF encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CnfSize {
    /// Variables.
    pub vars: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences.
    pub literals: u64,
    /// The DIMACS file, in bytes (clauses exact, comment lines estimated).
    pub file_bytes: u64,
    /// The formula in memory, in bytes (4 per literal, 8 per clause).
    pub memory_bytes: u64,
}

/// Counts the CNF of `problem` with `opts` without building it.
pub fn cnf_size(problem: &Problem, opts: &CnfOptions) -> Result<CnfSize, EncodeError> {
    let SizeCounter { vars, clauses, literals, body_bytes } = cnf::estimate(problem, opts)?;
    Ok(CnfSize {
        vars,
        clauses,
        literals,
        file_bytes: body_bytes + problem.n_options() as u64 * CNF_COMMENT_BYTES_PER_OPTION + 64,
        memory_bytes: literals * 4 + clauses * 8,
    })
}

impl CnfSize {
    /// Checks the file and the in-memory formula against `cap`.
    pub fn check(&self, cap: SizeCap) -> Result<(), TooLarge> {
        cap.check("the CNF", self.file_bytes.max(self.memory_bytes), Measure::About, || {
            format!("{} variables, {} clauses, {} literals", self.vars, self.clauses, self.literals)
        })
    }
}

/// The size of a clique graph, counted up to a byte limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CliqueSize {
    /// Nodes.
    pub nodes: u64,
    /// Edges counted (all of them when `complete`).
    pub edges: u64,
    /// Bytes of the `e u v` lines counted, plus the header.
    pub file_bytes: u64,
    /// Bytes of the node map (estimated).
    pub map_bytes: u64,
    /// Whether every edge was counted (false: the count passed `limit`).
    pub complete: bool,
}

fn digits(v: u64) -> u64 {
    v.checked_ilog10().unwrap_or(0) as u64 + 1
}

/// Counts the edges of `g` and the bytes of their lines, stopping once the
/// bytes pass `limit`.
pub fn clique_size(g: &CliqueGraph, limit: u64) -> CliqueSize {
    let mut edges = 0u64;
    let mut bytes = 32 + 2 * digits(g.n_nodes() as u64);
    let complete = g.try_for_each_edge(&mut |u, v| {
        edges += 1;
        bytes += 4 + digits(u as u64 + 1) + digits(v as u64 + 1);
        bytes <= limit
    });
    CliqueSize {
        nodes: g.n_nodes() as u64,
        edges,
        file_bytes: bytes,
        map_bytes: g.n_nodes() as u64 * MAP_BYTES_PER_NODE,
        complete,
    }
}

impl CliqueSize {
    /// Checks the graph file against `cap`.
    pub fn check(&self, cap: SizeCap) -> Result<(), TooLarge> {
        let measure = if self.complete { Measure::Exact } else { Measure::AtLeast };
        cap.check("the clique graph", self.file_bytes, measure, || {
            if self.complete {
                format!("{} nodes, {} edges", self.nodes, self.edges)
            } else {
                let most = self.nodes * self.nodes.saturating_sub(1) / 2;
                format!("{} nodes, more than {} edges counted, at most {most}", self.nodes, self.edges)
            }
        })
    }
}

/// Runs `write` into a counting sink that stops at `limit` bytes; returns
/// the bytes and whether the write completed within the limit.
pub fn counted(limit: u64, write: impl FnOnce(&mut Guarded<io::Sink>) -> io::Result<()>) -> io::Result<(u64, bool)> {
    let guard = OutputGuard { cap: SizeCap::new(limit), cancel: None };
    let mut sink = Guarded::new(io::sink(), &guard, "");
    match write(&mut sink) {
        Ok(()) => Ok((sink.written(), true)),
        Err(e) if e.get_ref().is_some_and(|inner| inner.is::<TooLarge>()) => Ok((sink.written(), false)),
        Err(e) => Err(e),
    }
}

/// The `.dlx` text of `instance`, counted up to `limit` bytes; `(0, true)`
/// when Knuth's format cannot name its colours (more than one character
/// each would allow: `emx encode --to dlx` refuses such a problem).
pub fn dlx_size(instance: &Instance, excluded: &[bool], note: &str, limit: u64) -> (u64, bool) {
    let Ok(names) = super::dlx_names(instance, excluded) else { return (0, true) };
    counted(limit, |w| super::write_dlx(w, instance, &names, excluded, note)).expect("a sink only fails at the cap")
}

/// The LP model of `puzzle`, counted up to `limit` bytes.
pub fn lp_size(puzzle: &EdgePuzzle, comment: &str, limit: u64) -> (u64, bool) {
    counted(limit, |w| lp::write(w, puzzle, comment).map(|_| ())).expect("a sink only fails at the cap")
}

/// Checks a counted size against `cap`: `what` took `bytes` (more when not
/// `complete`).
pub fn check_counted(cap: SizeCap, what: &str, (bytes, complete): (u64, bool)) -> Result<(), TooLarge> {
    if complete {
        cap.check(what, bytes, Measure::Exact, || "counted before writing".into())
    } else {
        Err(TooLarge {
            what: what.to_string(),
            bytes: bytes.max(cap.bytes.saturating_add(1)),
            measure: Measure::AtLeast,
            detail: "counting stopped at the cap".into(),
            cap: cap.bytes,
        })
    }
}
