//! The search stages a schedule switches between, each placing pieces its
//! own way on the walker's state ([`crate::poly::walk`]): DLX with an
//! ordering heuristic ([`dlx`]), DLX's min-fit choice on bit fields
//! ([`bdlx`]), de Bruijn's first-empty-cell rule ([`debruijn`]), and the
//! most constrained hole, exact (MCH) or estimated (EMCH) ([`hole`]).

pub mod bdlx;
pub mod debruijn;
pub mod dlx;
pub mod hole;
