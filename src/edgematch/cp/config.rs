//! The CP engine's configuration and its command-line grammar (`--cp SPEC`).
//!
//! ```text
//! SPEC  := ITEM ("," ITEM)*
//! ITEM  := "default" | "basic" | COMPONENT | "no-" COMPONENT | KEY "=" VALUE
//! COMPONENT := preemption | shared-edges | cycles | backjump | older-cells
//!            | shaving | patterns | instantiation | edge-filter | tile-branching
//!            | symmetry | refutation | rechoose | singletons | confined | shave-near
//!            | neighbour-ties | shave-singles | shave-branch
//! KEY   := heuristic (min-offer | min-expected-offer | min-expected-gap | min-expected-ratio
//!                    | min-domain | min-domain-gap | domain-then-gap | dom-wdeg
//!                    | domain-then-wdeg | scan)
//!        | shave-limit (an integer >= 1)
//!        | shave-depth (an integer >= 0; 0 = every depth)
//!        | shave-dirty (0 = off, 1 = the cell, 2 = and its neighbours, 3 = radius 2)
//!        | shave-yield (removals per 100 probes, 0..=100; 0 = off)
//!        | tile-slack (an integer)
//!        | near-forced (an integer >= 0)
//!        | bottom (E, an integer >= 0, or P% with P in 0..=100: hand nodes with
//!                  at most E empty cells, or P% of the cells, to the
//!                  completion walker; 0 = off; auto: the whole board to
//!                  scan's walk at the root when its estimate is small, or
//!                  (up to 1e13 placements) small against cp's estimated
//!                  search, else 60%)
//!        | bottom-order (static | dynamic | row | col | sweep)
//!        | edge-filter-above (E or P% as for bottom: the edge-filtering
//!                  cascade runs only while more cells are empty; at or
//!                  below, forward checking only; 0 = at every depth)
//! ```
//! Items apply left to right on top of the defaults: `basic` switches every
//! component off (the paper's "BasicCP": ColorPair contradictions only, with
//! MinOffer), `default` restores the defaults. Unknown items are errors.

use std::fmt;

/// The walker's cell order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BottomOrder {
    /// Fixed at hand-over: most filled neighbours first, ties by domain size.
    Static,
    /// Fewest candidates first, chosen at each depth.
    Dynamic,
    /// Scan's order (rows along the shorter side), candidates from lists
    /// keyed by the back sides' colours (`sweep.rs`).
    Row,
    /// The same walker across scan's rows (columns).
    Col,
    /// The row or column sweep, forwards or backwards, that meets the
    /// cells cp filled earliest.
    Sweep,
}

impl BottomOrder {
    /// The name in `bottom-order=`.
    pub fn name(self) -> &'static str {
        match self {
            BottomOrder::Static => "static",
            BottomOrder::Dynamic => "dynamic",
            BottomOrder::Row => "row",
            BottomOrder::Col => "col",
            BottomOrder::Sweep => "sweep",
        }
    }
}

/// How the most urgent ColorPair is chosen when no pattern applies
/// (Benoist & Bourreau §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// Smallest number of available tiles.
    MinOffer,
    /// Smallest expected offer `E(|offer|)`.
    MinExpectedOffer,
    /// Smallest `E(|offer|) - |demand|` (the paper's best).
    MinExpectedGap,
    /// Smallest `E(|offer|) / |demand|`.
    MinExpectedRatio,
    /// Not a pair rule: the frontier cell with the fewest candidates left
    /// after edge filtering and shaving.
    MinDomain,
    /// The smallest domain, ties broken by the most urgent demanded pair
    /// of the cell under MinExpectedGap.
    MinDomainGap,
    /// The smallest domain when it has at most two values (near-forced
    /// cells first), otherwise (patterns if on, then) MinExpectedGap. The
    /// default.
    DomainThenGap,
    /// Conflict-driven (dom/wdeg): the empty cell with the smallest domain
    /// size divided by its failure weight (placements on the cell or a
    /// neighbour that failed), ties by more known sides.
    DomWdeg,
    /// The smallest domain when it has at most two values, otherwise
    /// dom/wdeg.
    DomainThenWdeg,
    /// Not a pair rule: the first empty cell in reading order (what a scan
    /// backtracker does).
    Scan,
}

impl Heuristic {
    /// Names accepted by `heuristic=`.
    pub const NAMES: &'static [&'static str] = &[
        "min-offer",
        "min-expected-offer",
        "min-expected-gap",
        "min-expected-ratio",
        "min-domain",
        "min-domain-gap",
        "domain-then-gap",
        "dom-wdeg",
        "domain-then-wdeg",
        "scan",
    ];

    fn from_name(s: &str) -> Option<Heuristic> {
        Some(match s {
            "min-offer" => Heuristic::MinOffer,
            "min-expected-offer" => Heuristic::MinExpectedOffer,
            "min-expected-gap" => Heuristic::MinExpectedGap,
            "min-expected-ratio" => Heuristic::MinExpectedRatio,
            "min-domain" => Heuristic::MinDomain,
            "min-domain-gap" => Heuristic::MinDomainGap,
            "domain-then-gap" => Heuristic::DomainThenGap,
            "dom-wdeg" => Heuristic::DomWdeg,
            "domain-then-wdeg" => Heuristic::DomainThenWdeg,
            "scan" => Heuristic::Scan,
            _ => return None,
        })
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::MinOffer => "min-offer",
            Heuristic::MinExpectedOffer => "min-expected-offer",
            Heuristic::MinExpectedGap => "min-expected-gap",
            Heuristic::MinExpectedRatio => "min-expected-ratio",
            Heuristic::MinDomain => "min-domain",
            Heuristic::MinDomainGap => "min-domain-gap",
            Heuristic::DomainThenGap => "domain-then-gap",
            Heuristic::DomWdeg => "dom-wdeg",
            Heuristic::DomainThenWdeg => "domain-then-wdeg",
            Heuristic::Scan => "scan",
        }
    }
}

/// Which components of the engine run. Every field can be switched from
/// the command line, for ablation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpConfig {
    /// Preemption (§4.1): a ColorPair with as many available tiles as
    /// demanding cells reserves its tiles.
    pub preemption: bool,
    /// Upper bound on shared edges `h(M)` per colour (§4.2).
    pub shared_edges: bool,
    /// Border-colour chain and cycle detection (§4.2).
    pub cycles: bool,
    /// Conflict-directed backjumping with cell explanations (§5.2).
    pub backjump: bool,
    /// Explain an unavailable tile by its cell's older neighbours (§5.2).
    pub older_cells: bool,
    /// Shaving: probe every value of cells with at most `shave_limit`
    /// candidates (§6.2).
    pub shaving: bool,
    /// Domain-size limit `L` of shaving.
    pub shave_limit: usize,
    /// Tile branching threshold: branch on the scarcest tile when its
    /// places are fewer than the chosen cell's values plus this (0: fewer;
    /// 1, the default: ties go to the tile; negative: the tile must be
    /// scarcer still).
    pub tile_slack: i32,
    /// Shave only in the first `shave_depth` levels of the tree (0: at
    /// every level).
    pub shave_depth: usize,
    /// Branch on constrained patterns first (§5.1).
    pub patterns: bool,
    /// Branch first on a cell that a pair with one offer and one demand
    /// fixes (§3.1's instantiation rule).
    pub instantiation: bool,
    /// Edge-colour reasoning: cell domains kept edge consistent.
    pub edge_filter: bool,
    /// With edge filtering: branch on the places of the tile with the
    /// fewest places when it has fewer than the chosen cell has values.
    pub tile_branching: bool,
    /// Symmetry breaking: one corner tile is kept to one corner per orbit
    /// of the board rotations, and every solution found is reported with
    /// its rotated copies.
    pub symmetry: bool,
    /// With edge filtering: after a value's subtree is exhausted, remove
    /// the value from its cell's domain and propagate before the next
    /// sibling (2-way branching `x = v` / `x != v`); siblings the removal
    /// pruned are skipped.
    pub refutation: bool,
    /// With refutation: choose the branching cell or tile anew after each
    /// refutation instead of continuing the same candidate list.
    pub rechoose: bool,
    /// With edge filtering: place a cell with one value or a tile with one
    /// place by propagation instead of branching on it
    /// ([`super::singles`]); nodes then count decisions only.
    pub singletons: bool,
    /// With singleton propagation: a tile whose places lie in one cell
    /// takes that cell, a cell whose options are one tile's takes that
    /// tile, each propagated ([`super::singles`]).
    pub confined: bool,
    /// With shaving and edge filtering: probe only the cells next to a
    /// placement of the latest decision (itself or what it forced).
    pub shave_near: bool,
    /// With shaving and edge filtering: a cell whose probes all succeeded
    /// is probed again only after a change within this many steps of it
    /// (0: always probed).
    pub shave_dirty: u32,
    /// With shaving and singletons: the cells and tiles shaving leaves
    /// with one value or place are placed by propagation, and the node
    /// shaves again, instead of becoming one-candidate decisions.
    pub shave_singles: bool,
    /// With edge filtering: probe the values of the cell chosen for
    /// branching (at most `shave_limit`) and choose again after removals.
    pub shave_branch: bool,
    /// With shaving: a level whose recent probes removed fewer than this
    /// many values per 100 probes is shaved at one node in 16 only (0: off).
    pub shave_yield: u32,
    /// With edge filtering: among the empty cells with the smallest
    /// domain, branch on the one whose empty neighbours have the fewest
    /// values in total (first in reading order on a tie), not the one with
    /// the most known sides.
    pub neighbour_ties: bool,
    /// `domain-then-gap`, `domain-then-wdeg`: the smallest domain is taken
    /// when it has at most this many values (default 2).
    pub near_forced: u32,
    /// Pair-selection heuristic.
    pub heuristic: Heuristic,
    /// With edge filtering: a node with at most this many empty cells is
    /// completed by the walker of [`super::bottom`] instead of branching.
    pub bottom: Bottom,
    /// The walker's cell order.
    pub bottom_order: BottomOrder,
    /// With edge filtering: the cascade of lost colours runs only at nodes
    /// with more empty cells than this; at or below, a placement only
    /// narrows its empty neighbours and takes its tile from the other
    /// cells (forward checking). `Cells(0)`: at every depth.
    pub edge_filter_above: Bottom,
    /// Below `edge_filter_above`: the waves of the cascade still run after
    /// a placement (0: forward checking only).
    pub edge_filter_waves: u32,
}

impl Default for CpConfig {
    fn default() -> Self {
        CpConfig {
            preemption: true,
            shared_edges: true,
            cycles: true,
            backjump: true,
            older_cells: true,
            // Shaving cuts the nodes severalfold but, with edge filtering
            // on, costs more time than it saves (docs/tried/cp.md,
            // "Branching and search").
            shaving: false,
            shave_limit: 3,
            shave_depth: 0,
            // Ties between a tile's places and the chosen cell's values go
            // to the tile: fewer nodes and less CPU over the bench puzzles
            // than branching on the tile only when strictly fewer
            // (docs/tried/cp.md, "Branching and search").
            tile_slack: 1,
            // Off: with domain-then-gap, patterns cost nodes on set-2 6x6
            // and save none on the generated 8x8-10x10 (docs/tried/cp.md).
            patterns: false,
            instantiation: true,
            edge_filter: true,
            tile_branching: true,
            symmetry: true,
            // 2-way branching: the last sibling of a node is a forced
            // placement, and only middle siblings are refuted: about half
            // the decisions, and slightly less CPU (docs/tried/cp.md).
            refutation: true,
            rechoose: false,
            singletons: true,
            confined: false,
            shave_near: false,
            shave_dirty: 0,
            shave_singles: false,
            shave_branch: false,
            shave_yield: 0,
            neighbour_ties: true,
            near_forced: 2,
            heuristic: Heuristic::DomainThenGap,
            // At the root, the whole board to scan's walk when its Knuth
            // estimate is small (severalfold less CPU where scan's tree is
            // small); else nodes with at most 60% of the cells empty go to
            // the completion walker, which is cheaper than cp's search that
            // close to the leaves (docs/tried/cp.md, "The bottom of the tree
            // and the root walk").
            bottom: Bottom::Auto,
            bottom_order: BottomOrder::Dynamic,
            // The cascade at every depth: forward checking in the lower
            // part of the tree (with or without a few waves of the cascade)
            // made several times the decisions and walker placements, and
            // no schedule by depth beat this on the bench puzzles
            // (docs/tried/cp.md, "Filtering").
            edge_filter_above: Bottom::Cells(0),
            edge_filter_waves: 0,
        }
    }
}

/// When the search hands a node to the completion walker (`bottom=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bottom {
    /// At most this many empty cells (0: never).
    Cells(u32),
    /// At most this percentage of the board's cells (rounded down).
    Percent(u32),
    /// At the root, after its fixpoint: the whole board to scan's walk
    /// when the walk's estimated tree is small, or small against cp's
    /// estimated search (`super::root`), else as `60%`.
    Auto,
}

impl Bottom {
    /// The most empty cells handed over on a board of `n_cells`.
    pub fn cells(self, n_cells: usize) -> usize {
        match self {
            Bottom::Cells(e) => e as usize,
            Bottom::Percent(p) => n_cells * p as usize / 100,
            Bottom::Auto => Bottom::Percent(60).cells(n_cells),
        }
    }
}

impl fmt::Display for Bottom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bottom::Cells(e) => write!(f, "{e}"),
            Bottom::Percent(p) => write!(f, "{p}%"),
            Bottom::Auto => write!(f, "auto"),
        }
    }
}

/// The component names of the grammar, in display order.
pub const COMPONENTS: &[&str] = &[
    "preemption",
    "shared-edges",
    "cycles",
    "backjump",
    "older-cells",
    "shaving",
    "patterns",
    "instantiation",
    "edge-filter",
    "tile-branching",
    "symmetry",
    "refutation",
    "rechoose",
    "singletons",
    "confined",
    "shave-near",
    "shave-singles",
    "shave-branch",
    "neighbour-ties",
];

/// A `--cp` specification that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad --cp item `{item}`: {reason}")]
pub struct CpConfigError {
    /// The offending item.
    pub item: String,
    /// What was expected.
    pub reason: String,
}

impl CpConfig {
    /// Every component off, MinOffer: ColorPair contradictions with
    /// chronological backtracking.
    pub fn basic() -> Self {
        CpConfig {
            preemption: false,
            shared_edges: false,
            cycles: false,
            backjump: false,
            older_cells: false,
            shaving: false,
            shave_limit: 3,
            shave_depth: 0,
            tile_slack: 1,
            patterns: false,
            instantiation: false,
            edge_filter: false,
            tile_branching: false,
            symmetry: false,
            refutation: false,
            rechoose: false,
            singletons: false,
            confined: false,
            shave_near: false,
            shave_dirty: 0,
            shave_singles: false,
            shave_branch: false,
            shave_yield: 0,
            neighbour_ties: false,
            near_forced: 2,
            heuristic: Heuristic::MinOffer,
            bottom: Bottom::Cells(0),
            bottom_order: BottomOrder::Dynamic,
            edge_filter_above: Bottom::Cells(0),
            edge_filter_waves: 0,
        }
    }

    fn component(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "preemption" => &mut self.preemption,
            "shared-edges" => &mut self.shared_edges,
            "cycles" => &mut self.cycles,
            "backjump" => &mut self.backjump,
            "older-cells" => &mut self.older_cells,
            "shaving" => &mut self.shaving,
            "patterns" => &mut self.patterns,
            "instantiation" => &mut self.instantiation,
            "edge-filter" => &mut self.edge_filter,
            "tile-branching" => &mut self.tile_branching,
            "symmetry" => &mut self.symmetry,
            "refutation" => &mut self.refutation,
            "rechoose" => &mut self.rechoose,
            "singletons" => &mut self.singletons,
            "confined" => &mut self.confined,
            "shave-near" => &mut self.shave_near,
            "shave-singles" => &mut self.shave_singles,
            "shave-branch" => &mut self.shave_branch,
            "neighbour-ties" => &mut self.neighbour_ties,
            _ => return None,
        })
    }

    fn get(&self, name: &str) -> bool {
        let mut c = self.clone();
        *c.component(name).expect("known component")
    }

    /// Parses a `--cp` specification (see the module documentation).
    pub fn parse(spec: &str) -> Result<CpConfig, CpConfigError> {
        let mut cfg = CpConfig::default();
        for raw in spec.split(',') {
            let item = raw.trim();
            let err = |reason: String| CpConfigError { item: item.to_string(), reason };
            if item.is_empty() {
                return Err(err("empty item".into()));
            }
            if let Some((key, value)) = item.split_once('=') {
                match key.trim() {
                    "heuristic" => {
                        cfg.heuristic = Heuristic::from_name(value.trim()).ok_or_else(|| {
                            err(format!("unknown heuristic, expected one of {}", Heuristic::NAMES.join(", ")))
                        })?
                    }
                    "shave-limit" => match value.trim().parse::<usize>() {
                        Ok(l) if l >= 1 => cfg.shave_limit = l,
                        _ => return Err(err("expected an integer >= 1".into())),
                    },
                    "near-forced" => match value.trim().parse::<u32>() {
                        Ok(n) => cfg.near_forced = n,
                        _ => return Err(err("expected an integer >= 0".into())),
                    },
                    "tile-slack" => match value.trim().parse::<i32>() {
                        Ok(d) => cfg.tile_slack = d,
                        _ => return Err(err("expected an integer".into())),
                    },
                    "shave-depth" => match value.trim().parse::<usize>() {
                        Ok(d) => cfg.shave_depth = d,
                        _ => return Err(err("expected an integer >= 0".into())),
                    },
                    "shave-yield" => match value.trim().parse::<u32>() {
                        Ok(y) if y <= 100 => cfg.shave_yield = y,
                        _ => return Err(err("expected an integer 0..=100".into())),
                    },
                    "shave-dirty" => match value.trim().parse::<u32>() {
                        Ok(r) if r <= 3 => cfg.shave_dirty = r,
                        _ => return Err(err("expected 0, 1, 2 or 3".into())),
                    },
                    k @ ("bottom" | "edge-filter-above") => {
                        let v = value.trim();
                        let at = match v.strip_suffix('%').map(|p| p.trim().parse::<u32>()) {
                            None if v == "auto" && k == "bottom" => Bottom::Auto,
                            Some(Ok(p)) if p <= 100 => Bottom::Percent(p),
                            Some(_) => return Err(err("expected a percentage 0..=100".into())),
                            None => match v.parse::<u32>() {
                                Ok(e) => Bottom::Cells(e),
                                _ => return Err(err("expected an integer >= 0, a percentage or (bottom) auto".into())),
                            },
                        };
                        if k == "bottom" {
                            cfg.bottom = at;
                        } else {
                            cfg.edge_filter_above = at;
                        }
                    }
                    "edge-filter-waves" => match value.trim().parse::<u32>() {
                        Ok(n) => cfg.edge_filter_waves = n,
                        _ => return Err(err("expected an integer >= 0".into())),
                    },
                    "bottom-order" => match value.trim() {
                        "static" => cfg.bottom_order = BottomOrder::Static,
                        "dynamic" => cfg.bottom_order = BottomOrder::Dynamic,
                        "row" => cfg.bottom_order = BottomOrder::Row,
                        "col" => cfg.bottom_order = BottomOrder::Col,
                        "sweep" => cfg.bottom_order = BottomOrder::Sweep,
                        _ => return Err(err("expected static, dynamic, row, col or sweep".into())),
                    },
                    _ => {
                        return Err(err(
                            "unknown key, expected heuristic=NAME, shave-limit=L, shave-depth=D, shave-dirty=R, shave-yield=P, tile-slack=S, near-forced=N, bottom=E|P%|auto, bottom-order=static|dynamic|row|col|sweep, edge-filter-above=E|P% or edge-filter-waves=W"
                                .into(),
                        ))
                    }
                }
                continue;
            }
            match item {
                "default" => cfg = CpConfig::default(),
                "basic" => cfg = CpConfig::basic(),
                _ => {
                    let (name, on) = match item.strip_prefix("no-") {
                        Some(n) => (n, false),
                        None => (item, true),
                    };
                    match cfg.component(name) {
                        Some(flag) => *flag = on,
                        None => {
                            return Err(err(format!(
                                "unknown component, expected default, basic, [no-]COMPONENT with COMPONENT one of {}, or KEY=VALUE (heuristic, shave-limit, shave-depth, shave-dirty, shave-yield, tile-slack, near-forced)",
                                COMPONENTS.join(", ")
                            )))
                        }
                    }
                }
            }
        }
        Ok(cfg)
    }
}

impl fmt::Display for CpConfig {
    /// The specification that reproduces this configuration: the heuristic,
    /// then the components that differ from the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "heuristic={}", self.heuristic.name())?;
        if self.shaving || self.shave_limit != CpConfig::default().shave_limit {
            write!(f, ",shave-limit={}", self.shave_limit)?;
        }
        if self.shave_depth != CpConfig::default().shave_depth {
            write!(f, ",shave-depth={}", self.shave_depth)?;
        }
        if self.shave_yield != CpConfig::default().shave_yield {
            write!(f, ",shave-yield={}", self.shave_yield)?;
        }
        if self.shave_dirty != CpConfig::default().shave_dirty {
            write!(f, ",shave-dirty={}", self.shave_dirty)?;
        }
        if self.tile_slack != CpConfig::default().tile_slack {
            write!(f, ",tile-slack={}", self.tile_slack)?;
        }
        if self.near_forced != CpConfig::default().near_forced {
            write!(f, ",near-forced={}", self.near_forced)?;
        }
        if self.bottom != CpConfig::default().bottom {
            write!(f, ",bottom={}", self.bottom)?;
        }
        if self.bottom_order != CpConfig::default().bottom_order {
            write!(f, ",bottom-order={}", self.bottom_order.name())?;
        }
        if self.edge_filter_above != CpConfig::default().edge_filter_above {
            write!(f, ",edge-filter-above={}", self.edge_filter_above)?;
        }
        if self.edge_filter_waves != CpConfig::default().edge_filter_waves {
            write!(f, ",edge-filter-waves={}", self.edge_filter_waves)?;
        }
        let default = CpConfig::default();
        for &name in COMPONENTS {
            let on = self.get(name);
            if on != default.get(name) {
                write!(f, ",{}{name}", if on { "" } else { "no-" })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
