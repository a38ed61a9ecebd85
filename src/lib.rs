//! emx: exact cover, SAT and CP translation of combinatorial puzzles.
//!
//! Pipeline: a front-end ([`frontend`]) reads a puzzle into the shared
//! exact-cover IR ([`ir::Problem`]); back-ends ([`dlx`], and the engines and
//! encoders built on the IR) solve or translate it; every reported solution
//! is checked by [`ir::verify`] and by the front-end's own puzzle-level
//! verifier ([`solve`] does this for the CLI).
#![warn(missing_docs)]

pub mod backend;
pub mod bench;
pub mod cpu;
pub mod dlx;
pub mod edgematch;
pub mod encode;
pub mod frontend;
#[doc(hidden)]
pub mod fuzz;
pub mod geometry;
pub mod input;
pub mod ir;
pub mod memory;
pub mod poly;
pub mod render;
pub mod search;
pub mod size_cap;
pub mod solution_file;
pub mod solve;
pub mod tasks;
pub mod write;
