//! `auto`'s choice between the edge-matching engines cp and scan.
//!
//! The colour-count rule ([`prefer_cp`]) is right in sum over a group of
//! puzzles of one size and colour count, but at its bound the faster
//! engine flips from puzzle to puzzle, either way and by large factors.
//! In that band `--auto-pick estimate` estimates both search trees
//! (Knuth's estimator, a fixed seed: the same file always gets the same
//! pick), turns nodes into predicted seconds with calibrated per-node
//! costs, and takes the cheaper engine. Outside the band, and when only
//! the first solutions are wanted (the estimates are of the whole tree),
//! the rule decides at no cost.
//!
//! The rule is the default (`--auto-pick rule`): in the band it gives cp,
//! whose own root rule (`--cp bottom=auto`) walks the board on scan's
//! kernel where that is cheap and searches otherwise. That beat the
//! estimated pick in sum on every band group, without the tens of
//! milliseconds the estimates cost (docs/tried/cp.md, "`auto`'s pick
//! between cp and scan").

use crate::edgematch::cp::{inner_colour_bound, prefer_cp};
use crate::edgematch::EdgePuzzle;

/// How `auto` picks between cp and scan (`--auto-pick`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AutoPick {
    /// In the band around the rule's bound, both trees are estimated and
    /// the engine with the smaller predicted time runs; the rule elsewhere.
    Estimate,
    /// The colour-count rule everywhere, with no estimate (the default).
    #[default]
    Rule,
}

impl std::str::FromStr for AutoPick {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "estimate" => Ok(AutoPick::Estimate),
            "rule" => Ok(AutoPick::Rule),
            other => Err(format!("unknown auto pick `{other}` (expected estimate or rule)")),
        }
    }
}

/// The engine `auto` runs on an edge-matching puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The CP engine.
    Cp,
    /// The scan backtracker.
    Scan,
}

impl Engine {
    /// The back-end name.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Cp => "cp",
            Engine::Scan => "scan",
        }
    }
}

/// Random probes of the cp estimate: a probe costs about one cp node per
/// level. 200 probes are a few tens of percent off, which is enough to see
/// the factors that matter; five times as many picked no better.
pub const CP_PROBES: u64 = 200;
/// Random probes of the scan estimate: a probe is one cheap walk through
/// scan's tables, and scan's tree is heavy-tailed, so a fifth of this many
/// probes can still underestimate it several-fold on 9x9 and 10x10 boards.
pub const SCAN_PROBES: u64 = 100_000;
/// Seed of both estimates.
pub const SEED: u64 = 1;

/// cp nodes per CPU second on a board of `cells` cells, `65 000 · (64 /
/// cells)^2`: a fit to one core on generated uniform 8x8 to 10x10 puzzles
/// (`benches/cp_sweep.sh`). The rate falls with the square of the board
/// because a cp node filters a frontier that grows with the board.
pub fn cp_nodes_per_sec(cells: usize) -> f64 {
    let c = cells.max(1) as f64;
    65_000.0 * (64.0 / c) * (64.0 / c)
}

/// Scan's fast-walk nodes per CPU second, from the same sweeps: the rate
/// shows no trend in the board size, so it is one constant.
pub const SCAN_NODES_PER_SEC: f64 = 75e6;

/// Whether the pick estimates on `puzzle`: boards of 64+ cells whose
/// inner-colour count is exactly the rule's bound (8x8 with 8, 9x9 with 10,
/// 10x10 with 12 inner colours), where the sweeps saw the winner flip per
/// puzzle by large factors. One colour above the bound (where the rule
/// gives scan) estimates are not made: scan wins there nearly always,
/// mostly in well under a second, so a pick from estimates costs more than
/// it saves.
pub fn in_band(puzzle: &EdgePuzzle) -> bool {
    let inner = puzzle.n_colors().saturating_sub(1);
    inner_colour_bound(puzzle) == Some(inner)
}

/// Both estimates and what they predict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimates {
    /// Estimated nodes of cp's tree.
    pub cp_nodes: f64,
    /// Estimated nodes of scan's tree.
    pub scan_nodes: f64,
    /// Predicted CPU seconds of cp.
    pub cp_seconds: f64,
    /// Predicted CPU seconds of scan.
    pub scan_seconds: f64,
}

impl Estimates {
    /// Predicted times of trees of `cp_nodes` and `scan_nodes` nodes on a
    /// board of `cells` cells.
    pub fn new(cp_nodes: f64, scan_nodes: f64, cells: usize) -> Estimates {
        Estimates {
            cp_nodes,
            scan_nodes,
            cp_seconds: cp_nodes / cp_nodes_per_sec(cells),
            scan_seconds: scan_nodes / SCAN_NODES_PER_SEC,
        }
    }

    /// The engine with the smaller predicted time (scan on a tie: it has no
    /// set-up).
    pub fn cheaper(&self) -> Engine {
        if self.cp_seconds < self.scan_seconds {
            Engine::Cp
        } else {
            Engine::Scan
        }
    }
}

/// What `auto` picked and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The engine that runs.
    pub engine: Engine,
    /// The estimates, when the pick was made from them.
    pub estimates: Option<Estimates>,
    /// Seconds spent estimating.
    pub cost: f64,
}

impl Decision {
    /// The pick by the colour-count rule.
    pub fn by_rule(puzzle: &EdgePuzzle) -> Decision {
        let engine = if prefer_cp(puzzle) { Engine::Cp } else { Engine::Scan };
        Decision { engine, estimates: None, cost: 0.0 }
    }

    /// One line for a reader.
    pub fn describe(&self) -> String {
        match &self.estimates {
            None => format!("auto picked {} by the colour-count rule", self.engine.name()),
            Some(e) => format!(
                "auto picked {} from Knuth estimates: cp {:.3e} nodes ~ {:.2} s, scan {:.3e} nodes ~ {:.2} s (estimates took {:.3} s)",
                self.engine.name(),
                e.cp_nodes,
                e.cp_seconds,
                e.scan_nodes,
                e.scan_seconds,
                self.cost
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::generate::{generate, GenerateSpec, Style};

    fn gen(rows: usize, cols: usize, colors: u16) -> EdgePuzzle {
        generate(&GenerateSpec { rows, cols, style: Style::Uniform { colors }, seed: 1 }).unwrap().puzzle
    }

    #[test]
    fn the_band_is_the_rule_bound_on_boards_of_64_cells_and_up() {
        for (n, bound) in [(8, 8), (9, 10), (10, 12)] {
            assert!(in_band(&gen(n, n, bound)), "{n}x{n} K={bound}");
            assert!(!in_band(&gen(n, n, bound - 1)), "{n}x{n} K={}", bound - 1);
            assert!(!in_band(&gen(n, n, bound + 1)), "{n}x{n} K={}", bound + 1);
        }
        // Small boards keep the rule (scan, in milliseconds).
        assert!(!in_band(&gen(6, 6, 6)));
        assert!(!in_band(&gen(7, 7, 7)));
        // 10x10 K=14, far above the bound.
        assert!(!in_band(&gen(10, 10, 14)));
    }

    #[test]
    fn the_cheaper_predicted_engine_is_picked() {
        // The estimates of a generated 9x9 K=10 (seed 3): scan's tree is
        // larger than its cheaper nodes can make up.
        let e = Estimates::new(7.8e3, 2.07e8, 81);
        assert!((e.cp_seconds - 7.8e3 / cp_nodes_per_sec(81)).abs() < 1e-12);
        assert!((e.scan_seconds - 2.07e8 / SCAN_NODES_PER_SEC).abs() < 1e-12);
        assert_eq!(e.cheaper(), Engine::Cp);
        // Seed 6: the other way round.
        assert_eq!(Estimates::new(9.8e5, 2.9e8, 81).cheaper(), Engine::Scan);
        // The per-node cost of cp grows with the board.
        assert!(cp_nodes_per_sec(64) > cp_nodes_per_sec(81) && cp_nodes_per_sec(81) > cp_nodes_per_sec(100));
        let same = 1e4 / cp_nodes_per_sec(100) * SCAN_NODES_PER_SEC;
        assert_eq!(Estimates::new(1e4, same, 100).cheaper(), Engine::Scan, "a tie goes to scan");
    }

    #[test]
    fn the_rule_and_the_option() {
        assert_eq!(Decision::by_rule(&gen(8, 8, 8)).engine, Engine::Cp);
        assert_eq!(Decision::by_rule(&gen(8, 8, 9)).engine, Engine::Scan);
        assert!(Decision::by_rule(&gen(8, 8, 8)).describe().contains("cp by the colour-count rule"));
        let d = Decision { engine: Engine::Scan, estimates: Some(Estimates::new(1e4, 1e6, 64)), cost: 0.01 };
        assert!(
            d.describe().starts_with("auto picked scan from Knuth estimates: cp 1.000e4 nodes"),
            "{}",
            d.describe()
        );
        assert_eq!("rule".parse(), Ok(AutoPick::Rule));
        assert_eq!("estimate".parse(), Ok(AutoPick::Estimate));
        assert_eq!(AutoPick::default(), AutoPick::Rule);
        assert!("cheapest".parse::<AutoPick>().is_err());
    }
}
