//! What a polycube search runs: the `--schedule` grammar ([`schedule`]),
//! `auto`'s choices of schedule, thresholds and filters ([`auto`]), and the
//! configuration a user gives and `auto` completes ([`config`]).

pub mod auto;
pub mod config;
pub mod schedule;
pub mod stages;
