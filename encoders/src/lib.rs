//! Puzzle-independent encodings for emx: CNF formulas, at-most-one and
//! cardinality encodings, DIMACS CNF / graph writers and readers, weighted
//! CNF for MaxSAT solvers, SAT and MaxSAT answer readers, the clique reader,
//! Knuth's `.dlx` text format, and the translations of an exact cover with
//! colours (seen through [`CoverSource`]) into a CNF formula and a clique
//! graph.
//!
//! The crate knows nothing about puzzles and does not depend on `emx`: emx
//! implements [`CoverSource`] for its IR. Variables are 0-based inside
//! ([`Var`], [`Lit`]); DIMACS numbering (1-based, signed) appears only in
//! the readers and writers. Writers take `impl io::Write` and stream; the
//! clique graph is generated edge by edge, never held in memory.
#![warn(missing_docs)]

pub mod card;
pub mod cardinality;
pub mod cover;
mod cover_cnf;
pub mod dimacs;
pub mod dlx;
pub mod formula;
pub mod graph;
pub mod model;
#[cfg(test)]
mod testsat;
mod text;

pub use card::AmoEncoding;
pub use cardinality::CardEncoding;
pub use cover::{
    CliqueGraph, CliqueNode, CnfLayout, CnfOptions, ColorChoice, ColorEncoding, CoverEntry, CoverSource, EncodeError,
    ExactlyOneOver,
};
pub use formula::{ClauseSink, Cnf, Lit, SizeCounter, Var};
pub use model::SatAnswer;

/// A malformed input (CNF, model, graph, clique or `.dlx` file), located by
/// its 1-based line. Callers prefix the file name:
/// `file:line: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(line: usize, message: impl Into<String>) -> Self {
        ParseError { line, message: message.into() }
    }
}
