//! emx: exact cover, SAT and CP translation of combinatorial puzzles.
//!
//! Pipeline: a front-end ([`frontend`]) reads a puzzle into the shared
//! exact-cover IR ([`ir::Problem`]); back-ends ([`dlx`], and the engines and
//! encoders built on the IR) solve or translate it; every reported solution
//! can be checked by [`ir::verify`] and by the front-end's own puzzle-level
//! verifier.
#![warn(missing_docs)]

pub mod dlx;
pub mod ir;
pub mod search;
