//! The configuration of a polycube search: what the user asked for
//! ([`PolyConfig`], `None` where `auto` chooses) and what runs once
//! `auto` has chosen ([`Plan`]).

use crate::ir::Equivalence;
use crate::poly::filters::redundancy::RedundancyMode;
use crate::poly::model::CellOrder;
use crate::poly::plan::schedule::{Schedule, ScheduleSpec};

/// A constraint threshold: off, or active while at least `N` pieces remain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// Not applied.
    Off,
    /// Applied while at least this many pieces remain.
    From(u32),
}

impl Threshold {
    /// Parses `off` or a number.
    pub fn parse(s: &str) -> Result<Threshold, String> {
        if s == "off" {
            return Ok(Threshold::Off);
        }
        s.parse().map(Threshold::From).map_err(|_| format!("`{s}`: expected a remaining-piece count or `off`"))
    }
    pub(crate) fn get(self) -> Option<u32> {
        match self {
            Threshold::Off => None,
            Threshold::From(n) => Some(n),
        }
    }
}

/// The fit filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitFilter {
    /// Not applied.
    Off,
    /// One pass.
    Once,
    /// Repeated until no image is removed.
    Fixpoint,
}

impl FitFilter {
    /// Parses `off`, `once`, `fixpoint`.
    pub fn parse(s: &str) -> Result<FitFilter, String> {
        match s {
            "off" => Ok(FitFilter::Off),
            "once" => Ok(FitFilter::Once),
            "fixpoint" => Ok(FitFilter::Fixpoint),
            _ => Err(format!("`{s}`: expected off, once or fixpoint")),
        }
    }
}

/// What the user asked of the polycube engines. `None` fields are chosen
/// by [`auto`].
#[derive(Clone, Debug, Default)]
pub struct PolyConfig {
    /// Engine schedule.
    pub schedule: Option<ScheduleSpec>,
    /// Rotational / mirror redundancy filter.
    pub redundancy: Option<RedundancyMode>,
    /// Place the constrained piece first.
    pub force_first: Option<bool>,
    /// Parity backtrack trigger.
    pub parity_trigger: Option<Threshold>,
    /// Volume backtrack trigger.
    pub volume_trigger: Option<Threshold>,
    /// Parity image filter (one-shot if the threshold is at least the
    /// number of pieces, re-applied at DLX steps below that).
    pub parity_filter: Option<Threshold>,
    /// Volume image filter (same semantics).
    pub volume_filter: Option<Threshold>,
    /// Fit image filter (one-shot).
    pub fit_filter: Option<FitFilter>,
    /// Cell order of the bit-field engines.
    pub cell_order: Option<CellOrder>,
    /// Worker threads (0 or 1: the calling thread).
    pub threads: usize,
    /// Which solutions the caller identifies (`--unique`): decides which
    /// copies of a solution found under the redundancy filter are reported.
    pub equivalence: Equivalence,
}

/// A fully resolved configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Engine schedule.
    pub schedule: Schedule,
    /// Redundancy filter.
    pub redundancy: RedundancyMode,
    /// Place the constrained piece first.
    pub force_first: bool,
    /// Parity trigger threshold.
    pub parity_trigger: Option<u32>,
    /// Volume trigger threshold.
    pub volume_trigger: Option<u32>,
    /// Parity filter threshold.
    pub parity_filter: Option<u32>,
    /// Volume filter threshold.
    pub volume_filter: Option<u32>,
    /// Fit filter.
    pub fit_filter: FitFilter,
    /// Cell order.
    pub cell_order: CellOrder,
}
