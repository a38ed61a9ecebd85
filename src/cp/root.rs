//! cp's root walk on scan's kernel (docs/cp.md, round 22): filter the
//! root, then enumerate the whole board with the scan backtracker's walk
//! (`--cp bottom=100%,bottom-order=row`, and `bottom=auto` when the walk's
//! estimated tree is small).
//!
//! The scan is built restricted to cp's state at hand-over
//! ([`Scan::restricted`]): a cell cp filled allows only its placement, an
//! empty cell only the options of its cp domain whose tile is free. Each
//! cell then has its own candidate lists, so the restriction is exact (a
//! tile keeping only some of its rotations in a cell is listed in those
//! only) and costs the walk nothing per placement; scan's fast walk, its
//! threads (`--threads`: the tree split after its first cells) and its
//! Knuth estimate all run on the restricted lists. The domains carry cp's
//! symmetry breaking (the pivot tile's cells), so the walk finds one board
//! per symmetry class, as cp's search does, and cp's reporter adds the
//! images. Walker placements are cp's `bottom nodes`; a node limit counts
//! them (cp makes no decision on this path).

use super::filter::Core;
use super::model::NONE;
use crate::edgematch::scan::Scan;
use crate::edgematch::EdgePuzzle;

/// Knuth probes of the walk's tree for `bottom=auto`.
pub(super) const AUTO_PROBES: u64 = 2_000;

/// Seed of those probes (the rule is reproducible).
pub(super) const AUTO_SEED: u64 = 22;

/// `bottom=auto` walks the root when the walk's estimated placements are at
/// most this (docs/cp.md, round 22: the walk places about 80 M per CPU
/// second; cp's default search beat it from about 1e8 placements up on
/// the measured puzzles), and above it when [`walk_beats_search`] (round
/// 23: set-2 7x7, whose search takes hours).
pub(super) const AUTO_MAX_PLACEMENTS: f64 = 3.0e7;

/// `bottom=auto` weighs the walk against cp's search only up to this many
/// estimated placements (round 23: about 2 CPU days of walk; set-2 8x8 is
/// 1.2e12). Above it, neither enumeration finishes, both estimates are
/// often astronomical (Heule's boards, meta2010, Eternity II saturate
/// them), and the root is searched as in round 22.
pub(super) const AUTO_WEIGH_MAX: f64 = 1.0e13;

/// Above [`AUTO_MAX_PLACEMENTS`], `bottom=auto` also estimates cp's search
/// with this many Knuth probes (its decisions, as `bottom=0`; docs/cp.md,
/// round 23: 24-49 M instructions on the 8x8-10x10, 0.5-1.2% of their
/// runs).
pub(super) const AUTO_SEARCH_PROBES: u64 = 50;

/// The walk's placements one of cp's estimated decisions is worth
/// (round 23: measured CPU per estimated unit, 925 on 8x8 K=8 seed 1 and
/// about 530 on set-2 7x7; a decision filters, a placement tests a mask).
pub(super) const AUTO_PLACEMENTS_PER_DECISION: f64 = 500.0;

/// `bottom=auto` above [`AUTO_MAX_PLACEMENTS`]: whether the walk's
/// estimated placements `walk` cost less than cp's estimated decisions
/// `search` (a failed root estimates 0 decisions: the search, which
/// fails at once).
pub(super) fn walk_beats_search(walk: f64, search: f64) -> bool {
    walk <= AUTO_PLACEMENTS_PER_DECISION * search
}

/// What the puzzle needs for a restricted scan: the puzzle and the IR
/// option of each id as (tile, cell, rotation).
#[derive(Clone, Debug)]
pub(super) struct RootKernel {
    pub puzzle: EdgePuzzle,
    pub placements: Vec<(u32, u32, u8)>,
}

impl RootKernel {
    /// The scan restricted to the state of `core` (filtered, with domains).
    pub fn scan(&self, core: &Core) -> Result<Scan, String> {
        let m = &core.m;
        let st = &core.st;
        let doms = core.doms.as_ref().ok_or("the root walk needs cp's domains (edge-filter)")?;
        let w = doms.w;
        let allowed = |cell: usize, t: usize, r: u8| {
            let look = m.rot_colors[t][r as usize];
            if st.tile_at[cell] != NONE {
                return st.tile_at[cell] as usize == t && st.colors_at[cell] == look;
            }
            if st.cell_of[t] != NONE {
                return false;
            }
            // Rotations that look the same are one option; the domain may
            // hold any of them.
            (0..4).filter(|&q| m.rot_colors[t][q] == look).any(|q| {
                let o = 4 * t + q;
                doms.dom[cell * w + o / 64] >> (o % 64) & 1 != 0
            })
        };
        Scan::restricted(&self.puzzle, &self.placements, &allowed)
    }

    /// `bottom=auto`'s estimate of the walk's placements (Knuth).
    pub fn estimate(scan: &Scan) -> f64 {
        scan.estimate(AUTO_PROBES, AUTO_SEED).nodes
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{brendan, distinct_boards, verifier};
    use super::super::{CpConfig, CpEngine};
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    use crate::edgematch::scan::Scan;
    use crate::edgematch::{ir, Clue, EdgePuzzle};
    use crate::ir::Problem;
    use crate::search::{Engine, Limits, StopReason};
    use crate::solve::{solve, Mode, SolveOptions, SolveReport};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    /// The root walk from the root (with and without the symmetry
    /// breaking), and the rule.
    const SPECS: [&str; 3] =
        ["bottom=100%,bottom-order=row", "bottom=auto", "bottom=100%,bottom-order=row,no-symmetry"];

    fn run(e: &mut dyn Engine, p: &EdgePuzzle, pr: &Problem, mode: Mode, limits: Limits) -> SolveReport {
        let opts = SolveOptions { mode: Some(mode), limits, ..Default::default() };
        solve(e, pr, &opts, &verifier(p, pr)).unwrap()
    }

    fn boards(e: &mut dyn Engine, p: &EdgePuzzle, pr: &Problem) -> Vec<Vec<u32>> {
        distinct_boards(&run(e, p, pr, Mode::All, Limits::none()))
    }

    fn walked(e: &CpEngine) -> bool {
        e.counters().contains(&("root_walk", 1))
    }

    /// Set-2 4x4 to 6x6, oblong ones (searched turned), generated boards
    /// with few and many colours, and one with clues.
    fn puzzles() -> Vec<EdgePuzzle> {
        let mut v: Vec<EdgePuzzle> = ["04x04", "05x04", "05x05", "06x06"].map(brendan).into();
        for (rows, cols, colors, seed) in [(5, 5, 4, 1), (6, 6, 6, 2), (4, 6, 3, 3), (7, 7, 8, 1)] {
            v.push(generate(&GenerateSpec { rows, cols, style: Style::Uniform { colors }, seed }).unwrap().puzzle);
        }
        // Two clues from a solution of set-2 5x5, one of them a corner.
        let mut p = brendan("05x05");
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::default());
        let first = run(&mut e, &p, &pr, Mode::First(1), Limits::none());
        let board = ir::board_of(&p, &pr, &first.solutions[0].options);
        for (row, col) in [(2, 2), (0, 4)] {
            let placed = board.cells[p.cell(row, col)].unwrap();
            p.clues.push(Clue { tile: placed.tile as usize, row, col, rotation: placed.rotation });
        }
        v.push(p);
        v
    }

    /// The boards of the root walk equal dlx's, scan's and cp's search's
    /// (`bottom=60%`), with one thread and two; the walk ran.
    #[test]
    fn root_walk_boards_equal_scan_dlx_and_the_search() {
        for p in &puzzles() {
            let pr = ir::to_problem(p);
            let want = boards(&mut crate::dlx::Dlx::new(&pr), p, &pr);
            assert_eq!(boards(&mut Scan::new(p, &pr).unwrap(), p, &pr), want, "scan on {}", p.name);
            let search = CpConfig::parse("bottom=60%").unwrap();
            assert_eq!(boards(&mut CpEngine::new(p, &pr, search), p, &pr), want, "bottom=60% on {}", p.name);
            for spec in SPECS {
                for threads in [1, 2] {
                    let mut e = CpEngine::new(p, &pr, CpConfig::parse(spec).unwrap()).with_threads(threads);
                    assert_eq!(boards(&mut e, p, &pr), want, "{} --cp {spec} --threads {threads}", p.name);
                    // `auto` may keep the search; `row` from the root walks.
                    assert!(walked(&e) || spec == "bottom=auto", "{} --cp {spec}: {:?}", p.name, e.counters());
                }
            }
        }
    }

    /// Without edge filtering there are no domains: no root walk.
    #[test]
    fn no_domains_no_root_walk() {
        let p = brendan("04x04");
        let pr = ir::to_problem(&p);
        let want = boards(&mut crate::dlx::Dlx::new(&pr), &p, &pr);
        for spec in ["bottom=auto,no-edge-filter", "basic,bottom=100%,bottom-order=row"] {
            let mut e = CpEngine::new(&p, &pr, CpConfig::parse(spec).unwrap());
            assert_eq!(boards(&mut e, &p, &pr), want, "{spec}");
            assert!(!walked(&e), "{spec}");
        }
    }

    /// Solution limits, `--first`, node and time limits and an interrupt
    /// stop the root walk (one thread and two); the engine runs again.
    #[test]
    fn limits_stop_the_root_walk() {
        let p = brendan("06x06");
        let pr = ir::to_problem(&p);
        // `auto` walks set-2 6x6 (estimate about 8e6 placements).
        for spec in &SPECS[..2] {
            for threads in [1, 2] {
                let mut e = CpEngine::new(&p, &pr, CpConfig::parse(spec).unwrap()).with_threads(threads);
                let all = run(&mut e, &p, &pr, Mode::Count, Limits::none());
                assert!(all.stats.complete() && walked(&e) && all.found > 10);
                let what = format!("--cp {spec} --threads {threads}");
                let r = run(&mut e, &p, &pr, Mode::Count, Limits::solutions(10));
                assert_eq!((r.found, r.stats.stopped), (10, Some(StopReason::SolutionLimit)), "{what}");
                let r = run(&mut e, &p, &pr, Mode::First(3), Limits::none());
                assert_eq!((r.found, r.solutions.len()), (3, 3), "{what}");
                let nodes = Limits { max_nodes: Some(200_000), ..Limits::default() };
                let r = run(&mut e, &p, &pr, Mode::Count, nodes);
                assert_eq!(r.stats.stopped, Some(StopReason::NodeLimit), "{what}");
                assert!(r.found < all.found, "{what}");
                let r = run(&mut e, &p, &pr, Mode::Count, Limits::none().with_time_limit(Some(Default::default())));
                assert_eq!(r.stats.stopped, Some(StopReason::TimeLimit), "{what}");
                let cancel = Some(Arc::new(AtomicBool::new(true)));
                let r = run(&mut e, &p, &pr, Mode::Count, Limits { cancel, ..Limits::default() });
                assert!(r.hit_limit() && r.found < all.found, "{what}: {:?}", r.stats);
                assert_eq!(run(&mut e, &p, &pr, Mode::Count, Limits::none()).found, all.found, "{what}");
            }
        }
    }

    /// `bottom=auto` on a board where the walk's tree is large (8x8 with 8
    /// colours, about 1e8 placements) keeps cp's search and says so.
    #[test]
    fn auto_keeps_the_search_where_the_walk_is_large() {
        let spec = GenerateSpec { rows: 8, cols: 8, style: Style::Uniform { colors: 8 }, seed: 1 };
        let p = generate(&spec).unwrap().puzzle;
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::parse("bottom=auto").unwrap());
        let r = run(&mut e, &p, &pr, Mode::First(1), Limits::none());
        assert_eq!(r.found, 1);
        let c = e.counters();
        let est = c.iter().find(|x| x.0 == "root_walk_estimate").expect("an estimate").1;
        assert!(!walked(&e) && est as f64 > super::AUTO_MAX_PLACEMENTS, "{c:?}");
        // cp's search was estimated too, and found far smaller.
        let search = c.iter().find(|x| x.0 == "root_search_estimate").expect("a search estimate").1;
        assert!(!super::walk_beats_search(est as f64, search as f64), "{c:?}");
    }

    /// Above the walk's bound, the search cp picks after estimating both
    /// trees is the search `bottom=60%` makes: the estimate's probes leave
    /// the root's state, forced placements and counters as they were
    /// (same boards, decisions and walker placements, one thread and two).
    #[test]
    fn the_search_after_both_estimates_is_unchanged() {
        let spec = GenerateSpec { rows: 8, cols: 8, style: Style::Uniform { colors: 8 }, seed: 1 };
        let p = generate(&spec).unwrap().puzzle;
        let pr = ir::to_problem(&p);
        let counted = |e: &CpEngine, name: &str| e.counters().iter().find(|x| x.0 == name).map(|x| x.1);
        for threads in [1, 2] {
            let mut runs = Vec::new();
            for spec in ["bottom=auto", "bottom=60%"] {
                let mut e = CpEngine::new(&p, &pr, CpConfig::parse(spec).unwrap()).with_threads(threads);
                let r = run(&mut e, &p, &pr, Mode::All, Limits::none());
                assert!(r.stats.complete() && !walked(&e), "{spec}: {:?}", e.counters());
                let kept = ["bottom_nodes", "singletons", "refutations", "edge_prunes"].map(|n| counted(&e, n));
                runs.push((distinct_boards(&r), r.stats.nodes, kept));
            }
            assert_eq!(runs[0], runs[1], "--threads {threads}");
            assert!(!runs[0].0.is_empty());
        }
    }

    /// Set-2 7x7: the walk's estimate is far above the bound (about 3e10
    /// placements), but cp's search is estimated at about 3e9 decisions, so
    /// `bottom=auto` walks (round 23); its boards are verified, and limits
    /// stop it (one thread and two).
    #[test]
    fn auto_walks_set2_7x7_whose_search_is_larger_still() {
        let p = brendan("07x07");
        let pr = ir::to_problem(&p);
        for threads in [1, 2] {
            let mut e = CpEngine::new(&p, &pr, CpConfig::parse("bottom=auto").unwrap()).with_threads(threads);
            let r = run(&mut e, &p, &pr, Mode::First(2), Limits::none());
            assert_eq!((r.found, r.solutions.len()), (2, 2), "--threads {threads}");
            let c = e.counters();
            assert!(walked(&e), "{c:?}");
            let get = |name: &str| c.iter().find(|x| x.0 == name).map(|x| x.1 as f64);
            let (walk, search) = (get("root_walk_estimate").unwrap(), get("root_search_estimate").unwrap());
            assert!(walk > super::AUTO_MAX_PLACEMENTS && super::walk_beats_search(walk, search), "{c:?}");
            let nodes = Limits { max_nodes: Some(300_000), ..Limits::default() };
            let r = run(&mut e, &p, &pr, Mode::Count, nodes);
            assert_eq!(r.stats.stopped, Some(StopReason::NodeLimit), "--threads {threads}");
            let r = run(&mut e, &p, &pr, Mode::Count, Limits::none().with_time_limit(Some(Default::default())));
            assert_eq!(r.stats.stopped, Some(StopReason::TimeLimit), "--threads {threads}");
        }
    }

    /// Where the walk's estimate is over [`super::AUTO_WEIGH_MAX`] (set-2
    /// 10x10: about 2e16), `bottom=auto` searches, as in round 22, without
    /// estimating the search.
    #[test]
    fn auto_searches_where_the_walk_is_out_of_reach() {
        let p = brendan("10x10");
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::parse("bottom=auto").unwrap());
        let nodes = Limits { max_nodes: Some(100), ..Limits::default() };
        let r = run(&mut e, &p, &pr, Mode::Count, nodes);
        assert_eq!(r.stats.stopped, Some(StopReason::NodeLimit));
        let c = e.counters();
        let est = c.iter().find(|x| x.0 == "root_walk_estimate").expect("an estimate").1;
        assert!(!walked(&e) && est as f64 > super::AUTO_WEIGH_MAX, "{c:?}");
        assert!(c.iter().all(|x| x.0 != "root_search_estimate"), "{c:?}");
    }

    /// The rule's comparison: the walk while its placements are at most
    /// [`super::AUTO_PLACEMENTS_PER_DECISION`] per estimated decision; a
    /// root cp refutes (no decision) searches.
    #[test]
    fn walk_beats_search_weighs_placements_against_decisions() {
        let k = super::AUTO_PLACEMENTS_PER_DECISION;
        assert!(super::walk_beats_search(k * 1e6, 1e6));
        assert!(!super::walk_beats_search(k * 1e6 + 1.0, 1e6));
        assert!(!super::walk_beats_search(1e8, 0.0));
    }
}
