//! Ways to run a polycube search besides one full walk: on several threads
//! ([`parallel`]), as Busche's Monte-Carlo trials and Knuth probes
//! ([`sample`]), as Knuth's estimate of the whole tree ([`estimate`]), and
//! split into subproblem files and merged back ([`split`]).

pub mod estimate;
pub mod parallel;
pub mod sample;
pub mod split;
