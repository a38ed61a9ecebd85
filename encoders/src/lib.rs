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
pub mod wcnf;

pub use card::AmoEncoding;
pub use cardinality::CardEncoding;
pub use cover::{
    CliqueGraph, CliqueNode, CnfLayout, CnfOptions, ColorChoice, ColorEncoding, CoverEntry, CoverSource, EncodeError,
    ExactlyOneOver,
};
pub use formula::{ClauseSink, Cnf, Lit, SizeCounter, Var};
pub use model::SatAnswer;
pub use wcnf::{MaxSatAnswer, MaxSatStatus, Wcnf, WcnfFormat};

/// A malformed input (CNF, model, graph, clique or `.dlx` file), located by
/// its 1-based line and, where the error points into the line, its 1-based
/// column (in characters). Callers prefix the file name:
/// `file:line[:column]: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, when the error points at a token.
    pub col: Option<usize>,
    /// What was found and what was expected.
    pub message: String,
}

impl ParseError {
    /// An error on a whole line.
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        ParseError { line, col: None, message: message.into() }
    }
    /// An error at a column of a line.
    pub fn at(line: usize, col: usize, message: impl Into<String>) -> Self {
        ParseError { line, col: Some(col), message: message.into() }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.col {
            Some(col) => write!(f, "line {}, column {col}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}
