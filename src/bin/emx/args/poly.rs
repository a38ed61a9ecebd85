//! The settings of the polycube engines (`--backend poly`, and `auto` on
//! polycube puzzles), shared by `emx solve`, `emx split` and `emx bench
//! --variant`. Every value is parsed by clap into its library type, so a
//! bad one is a usage error at parse time.

use clap::Args;
use emx::ir::Equivalence;
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::model::CellOrder;
use emx::poly::plan::schedule::ScheduleSpec;
use emx::poly::{FitFilter, PolyConfig, Threshold};

/// Settings of the polycube engines. Each defaults to `auto`'s choice.
#[derive(Args, Clone, Debug, Default)]
pub struct PolyArgs {
    /// Engine schedule: `auto`, or stages taking over at N pieces left.
    ///
    /// Stages are `ENGINE[:HEURISTIC][@N]`, e.g.
    /// `dlx:min-fit@12,mch@11,emch@6,debruijn@4`: engines dlx, bdlx, mch,
    /// emch (`emch+T/L` widened), debruijn; DLX heuristics min-fit, x, y,
    /// z, X, Y, Z, R, a@DEG (docs/engines.md, "Schedules").
    #[arg(long, value_name = "SPEC", value_parser = ScheduleSpec::parse)]
    pub schedule: Option<ScheduleSpec>,
    /// Rotational-redundancy filter: off, auto, rot, mirror, rot:PIECE, mirror:PIECE.
    ///
    /// Constrains one uniquely shaped piece so that one solution per
    /// symmetry class is searched (each found solution is weighted by its
    /// orbit in the fixed-box count).
    #[arg(long, value_name = "MODE", value_parser = RedundancyMode::parse)]
    pub redundancy: Option<RedundancyMode>,
    /// Place the piece constrained by the redundancy filter first.
    #[arg(long)]
    pub force_first: bool,
    /// Parity backtrack trigger while at least N pieces remain.
    #[arg(long, value_name = "N|off", value_parser = Threshold::parse)]
    pub parity_trigger: Option<Threshold>,
    /// Volume backtrack trigger while at least N pieces remain.
    #[arg(long, value_name = "N|off", value_parser = Threshold::parse)]
    pub volume_trigger: Option<Threshold>,
    /// Parity image filter while at least N pieces remain.
    ///
    /// Applied once before the search when N is at least the number of
    /// pieces, and at every DLX step while at least N pieces remain.
    #[arg(long, value_name = "N|off", value_parser = Threshold::parse)]
    pub parity_filter: Option<Threshold>,
    /// Volume image filter while at least N pieces remain (as --parity-filter).
    #[arg(long, value_name = "N|off", value_parser = Threshold::parse)]
    pub volume_filter: Option<Threshold>,
    /// Fit image filter before the search: off, once, fixpoint.
    #[arg(long, value_name = "MODE", value_parser = FitFilter::parse)]
    pub fit_filter: Option<FitFilter>,
    /// Cell order of the bit-field engines: short, xyz or a@DEG.
    ///
    /// short: the shortest axis varies fastest; xyz: Busche's order;
    /// a@DEG: by angle about the centre, counter-clockwise from DEG
    /// degrees (de Bruijn fills a ring around it).
    #[arg(long, value_name = "ORDER", value_parser = CellOrder::parse)]
    pub cell_order: Option<CellOrder>,
}

impl PolyArgs {
    /// The flags given, by name (to reject them where they cannot act).
    pub fn given(&self) -> Vec<&'static str> {
        let flags: [(&'static str, bool); 9] = [
            ("--schedule", self.schedule.is_some()),
            ("--redundancy", self.redundancy.is_some()),
            ("--force-first", self.force_first),
            ("--parity-trigger", self.parity_trigger.is_some()),
            ("--volume-trigger", self.volume_trigger.is_some()),
            ("--parity-filter", self.parity_filter.is_some()),
            ("--volume-filter", self.volume_filter.is_some()),
            ("--fit-filter", self.fit_filter.is_some()),
            ("--cell-order", self.cell_order.is_some()),
        ];
        flags.into_iter().filter(|(_, set)| *set).map(|(name, _)| name).collect()
    }

    /// The engine configuration these flags describe, on `threads` workers.
    pub fn config(&self, threads: usize) -> PolyConfig {
        PolyConfig {
            schedule: self.schedule.clone(),
            redundancy: self.redundancy.clone(),
            force_first: self.force_first.then_some(true),
            parity_trigger: self.parity_trigger,
            volume_trigger: self.volume_trigger,
            parity_filter: self.parity_filter,
            volume_filter: self.volume_filter,
            fit_filter: self.fit_filter,
            cell_order: self.cell_order,
            threads,
            equivalence: Equivalence::None,
        }
    }
}
