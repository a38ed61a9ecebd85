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
const AUTO_SEED: u64 = 22;

/// The walk's estimate stops after this many probes when they put the walk
/// at most [`AUTO_SMALL`] placements: on the smallest trees the 2 000
/// probes cost as much as the walk (8x8 K=11 s4: 3.6 M instructions for a
/// walk of 573 placements; docs/cp.md, round 23).
const AUTO_FIRST_PROBES: u64 = 500;

/// See [`AUTO_FIRST_PROBES`]: 50 times below [`AUTO_WALK_ALWAYS`]; on the
/// round-23 sweep no walk estimated this small after 500 probes came out
/// above 1.5e5 after 2 000.
const AUTO_SMALL: f64 = 2.0e5;

/// `bottom=auto` walks the root without asking more when the walk's
/// estimated placements are at most this (a walk of up to about 0.3 s;
/// docs/cp.md, round 23): cp's own estimate (4-6 ms) would cost several
/// percent of it, and cp's search won below it only by tens of ms.
pub(super) const AUTO_WALK_ALWAYS: f64 = 1.0e7;

/// `bottom=auto` searches without asking more when the walk's estimate is
/// above this: the estimate falls furthest short on the largest walks
/// (8x8 K=8 s4: 1.8e8 estimated, over 1.9e9 walked), and cp's search won
/// all such puzzles of the round-23 sweep but one (10x10 K=12 s7).
pub(super) const AUTO_SEARCH_ALWAYS: f64 = 1.0e8;

/// Knuth probes of cp's search estimate, when the walk's estimate lies
/// between [`AUTO_WALK_ALWAYS`] and [`AUTO_SEARCH_ALWAYS`] (4-6 ms).
pub(super) const AUTO_CP_PROBES: u64 = 100;

/// Seed of those probes.
pub(super) const AUTO_CP_SEED: u64 = 1;

/// The walk runs when its estimate is at most this times `cells^2` times
/// cp's search estimate: a walk placement costs the same on any board, a
/// cp decision (filtering a frontier that grows with the board) about
/// `cells^2` times a constant (`backend::pick::cp_nodes_per_sec`); the
/// constant, with the walk estimate's usual shortfall, fitted on the
/// round-23 sweep (docs/cp.md: walk at ratios up to 748 on 9x9, search
/// from 869; 8x8 and 10x10 have wider gaps around it).
pub(super) const AUTO_RATIO_PER_CELL2: f64 = 0.12;

/// The estimates `bottom=auto` decided on: the walk's placements and, when
/// that lay between [`AUTO_WALK_ALWAYS`] and [`AUTO_SEARCH_ALWAYS`], cp's
/// search decisions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AutoEstimates {
    pub walk: f64,
    pub search: Option<f64>,
}

/// Whether `bottom=auto` walks the root of a board of `cells` cells, given
/// its estimates.
pub(super) fn auto_walks(est: &AutoEstimates, cells: usize) -> bool {
    match est.search {
        None => est.walk <= AUTO_WALK_ALWAYS,
        Some(_) if est.walk > AUTO_SEARCH_ALWAYS => false,
        Some(search) => est.walk <= AUTO_RATIO_PER_CELL2 * (cells * cells) as f64 * search,
    }
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
        scan.estimate_or_less(AUTO_PROBES, AUTO_SEED, Some((AUTO_FIRST_PROBES, AUTO_SMALL))).nodes
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

    /// The rule's three bands: the walk's estimate alone below
    /// `AUTO_WALK_ALWAYS` and above `AUTO_SEARCH_ALWAYS`, the ratio to
    /// cp's estimate (scaled by the cells squared) in between.
    #[test]
    fn the_auto_rule_bands() {
        use super::{auto_walks, AutoEstimates, AUTO_SEARCH_ALWAYS, AUTO_WALK_ALWAYS};
        let at = |walk: f64, search: Option<f64>| AutoEstimates { walk, search };
        assert!(auto_walks(&at(AUTO_WALK_ALWAYS, None), 64));
        assert!(!auto_walks(&at(AUTO_WALK_ALWAYS * 1.01, None), 64));
        // 8x8 K=8 s3 (search) and 10x10 K=12 s1 (walk) of the sweep.
        assert!(!auto_walks(&at(2.09e7, Some(5.12e3)), 64));
        assert!(auto_walks(&at(3.06e7, Some(9.57e5)), 100));
        // The same ratio walks a larger board (a cp decision costs more).
        assert!(!auto_walks(&at(2e7, Some(2e7 / 700.0)), 64));
        assert!(auto_walks(&at(2e7, Some(2e7 / 700.0)), 100));
        // Above the cap: search, whatever cp's estimate.
        assert!(!auto_walks(&at(AUTO_SEARCH_ALWAYS * 1.01, Some(1e9)), 100));
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
        let walk = c.iter().find(|x| x.0 == "root_walk_estimate").expect("a walk estimate").1 as f64;
        let search = c.iter().find(|x| x.0 == "root_search_estimate").expect("a search estimate").1 as f64;
        let est = super::AutoEstimates { walk, search: Some(search) };
        assert!(!walked(&e) && walk > super::AUTO_WALK_ALWAYS && !super::auto_walks(&est, 64), "{c:?}");
    }
}
