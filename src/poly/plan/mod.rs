//! What a polycube search runs: the `--schedule` grammar ([`schedule`]),
//! `auto`'s choices of schedule, thresholds and filters ([`auto`]), and the
//! choice of the piece the redundancy filter constrains ([`choice`]).

pub mod auto;
pub(in crate::poly) mod choice;
pub mod schedule;
