//! cp's root walk on scan's kernel: filter the root, then enumerate the
//! whole board with the scan backtracker's walk (`--cp
//! bottom=100%,bottom-order=row`, and `bottom=auto` when the walk's
//! estimated tree is small). Where scan's tree is small, cp then costs
//! about scan's time instead of paying for its filtering at every node.
//! The constants of the `bottom=auto` rule below were calibrated on sweeps
//! of generated and set-2 boards (`benches/cp_auto_sweep.py`); the figures
//! are in docs/tried/cp.md, "The bottom of the tree and the root walk".
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

/// The walk's estimate stops after this many probes when they put the walk
/// at most [`AUTO_SMALL`] placements: on the smallest trees all
/// [`AUTO_PROBES`] probes would cost as much as the walk itself.
const AUTO_FIRST_PROBES: u64 = 500;

/// See [`AUTO_FIRST_PROBES`]: 50 times below [`AUTO_WALK_ALWAYS`], a wide
/// margin for the cut: on the calibration sweep no walk estimated this
/// small after the first probes came out anywhere near
/// [`AUTO_WALK_ALWAYS`] after all of them.
const AUTO_SMALL: f64 = 2.0e5;

/// `bottom=auto` walks the root without asking more when the walk's
/// estimated placements are at most this (a walk of a fraction of a
/// second): cp's own estimate would cost several percent of it, and where
/// cp's search beat such walks it won little.
pub(super) const AUTO_WALK_ALWAYS: f64 = 1.0e7;

/// Knuth probes of cp's search estimate, when the walk's estimate lies
/// between [`AUTO_WALK_ALWAYS`] and [`AUTO_WEIGH_MAX`] (milliseconds on
/// the 8x8 to 10x10 boards).
pub(super) const AUTO_CP_PROBES: u64 = 100;

/// Seed of those probes.
pub(super) const AUTO_CP_SEED: u64 = 1;

/// The walk runs when its estimate is at most this times `cells^2` times
/// cp's search estimate: a walk placement costs the same on any board, a
/// cp decision (filtering a frontier that grows with the board) about
/// `cells^2` times a constant (`backend::pick::cp_nodes_per_sec`); the
/// constant, with the walk estimate's usual shortfall, is fitted to the
/// break-even between walking and searching on the calibration sweep of
/// 8x8 to 10x10 boards.
pub(super) const AUTO_RATIO_PER_CELL2: f64 = 0.12;

/// The estimates `bottom=auto` decided on: the walk's placements and, when
/// that lay between [`AUTO_WALK_ALWAYS`] and [`AUTO_WEIGH_MAX`], cp's
/// search decisions, from `search_probes` probes: at most
/// [`AUTO_CP_PROBES`], fewer when the first ones already sent the root to
/// the walk whatever the rest would have found
/// (`Searcher::estimate_until`; then `search` is the mean of the probes
/// made).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct AutoEstimates {
    pub walk: f64,
    pub search: Option<f64>,
    pub search_probes: u64,
}

/// `bottom=auto` weighs the walk against cp's search only up to this many
/// estimated placements (days of CPU for the walk; set-2 8x8, enumerated
/// as a batch, is below it). Above it, neither enumeration finishes, both
/// estimates are often astronomical (Heule's boards, meta2010, Eternity II
/// saturate them), and the root is searched.
pub(super) const AUTO_WEIGH_MAX: f64 = 1.0e13;

/// Whether cp's search must be estimated too, given the walk's estimate
/// `walk`: between [`AUTO_WALK_ALWAYS`] and [`AUTO_WEIGH_MAX`].
pub(super) fn asks_search(walk: f64) -> bool {
    walk > AUTO_WALK_ALWAYS && walk <= AUTO_WEIGH_MAX
}

/// Whether `bottom=auto` walks the root of a board of `cells` cells, given
/// its estimates: the walk's alone at most [`AUTO_WALK_ALWAYS`]; else, up to
/// [`AUTO_WEIGH_MAX`], the walk at most so many placements per estimated
/// decision of cp's search: on boards with few colours for their side
/// (`few_colours`: [`super::prefer_cp`], where cp's filtering is strong and
/// the calibration sweep of generated boards fitted the rule)
/// [`AUTO_RATIO_PER_CELL2`]` * cells^2`, ten times fewer above
/// [`AUTO_LARGE_WALK`]; on the others [`AUTO_RATIO_MANY_COLOURS`]. Above
/// [`AUTO_WEIGH_MAX`] (or a non-finite estimate), cp's search.
pub(super) fn auto_walks(est: &AutoEstimates, cells: usize, few_colours: bool) -> bool {
    match est.search {
        _ if est.walk <= AUTO_WALK_ALWAYS => true,
        Some(search) if asks_search(est.walk) => {
            let ratio = match few_colours {
                true if est.walk > AUTO_LARGE_WALK => {
                    AUTO_RATIO_PER_CELL2 * (cells * cells) as f64 / AUTO_LARGE_SHORTFALL
                }
                true => AUTO_RATIO_PER_CELL2 * (cells * cells) as f64,
                false => AUTO_RATIO_MANY_COLOURS,
            };
            est.walk <= ratio * search
        }
        _ => false,
    }
}

/// On a board with few colours for its side, above this many estimated
/// placements the walk's estimate falls furthest short of the real walk
/// (by about [`AUTO_LARGE_SHORTFALL`] on the sweep's worst case), so the
/// walk must beat cp's estimated search by [`AUTO_LARGE_SHORTFALL`] times
/// the usual margin; otherwise a board whose search is clearly faster
/// would be walked.
pub(super) const AUTO_LARGE_WALK: f64 = 1.0e8;

/// See [`AUTO_LARGE_WALK`].
pub(super) const AUTO_LARGE_SHORTFALL: f64 = 10.0;

/// The placements per estimated decision up to which `bottom=auto` walks a
/// board with more colours for its side than [`super::prefer_cp`] allows
/// (cp's search is weak there). The break-even varied widely between the
/// puzzles of the sweep, on both sides of this value; the set-2 boards
/// (7x7, 8x8, and the oblong 7x6, 12x4, 14x3) come out below it and walk
/// faster than cp searches.
pub(super) const AUTO_RATIO_MANY_COLOURS: f64 = 500.0;

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
    /// `AUTO_WALK_ALWAYS` and above `AUTO_WEIGH_MAX`, the ratio to cp's
    /// estimate (scaled by the cells squared) in between.
    #[test]
    fn the_auto_rule_bands() {
        use super::{auto_walks, AutoEstimates, AUTO_WALK_ALWAYS, AUTO_WEIGH_MAX};
        let at = |walk: f64, search: Option<f64>| AutoEstimates { walk, search, ..AutoEstimates::default() };
        assert!(auto_walks(&at(AUTO_WALK_ALWAYS, None), 64, true));
        assert!(!auto_walks(&at(AUTO_WALK_ALWAYS * 1.01, None), 64, true));
        // 8x8 K=8 s3 (search) and 10x10 K=12 s1 (walk) of the sweep.
        assert!(!auto_walks(&at(2.09e7, Some(5.12e3)), 64, true));
        assert!(auto_walks(&at(3.06e7, Some(9.57e5)), 100, true));
        // The same ratio walks a larger board (a cp decision costs more).
        assert!(!auto_walks(&at(2e7, Some(2e7 / 700.0)), 64, true));
        assert!(auto_walks(&at(2e7, Some(2e7 / 700.0)), 100, true));
        // 8x8 K=8 s4: a walk of 1.8e8 placements against 9.7e5 decisions,
        // searched (the large walk's stricter ratio); below 1e8 the usual
        // one walks it.
        assert!(!auto_walks(&at(1.84e8, Some(9.71e5)), 64, true));
        assert!(auto_walks(&at(0.99e8, Some(9.71e5)), 64, true));
        // Many colours for the side: set-2 7x7 (3.5e10 against 5.2e9) and
        // 12x4 (7.9e8 against 2.0e6) walk; the flat ratio, whatever the
        // size.
        assert!(auto_walks(&at(3.46e10, Some(5.25e9)), 49, false));
        assert!(auto_walks(&at(7.9e8, Some(1.99e6)), 48, false));
        assert!(!auto_walks(&at(5.1e8, Some(1e6)), 48, false));
        // Above the weighing bound, or not a number: search, whatever cp's
        // estimate.
        assert!(!auto_walks(&at(AUTO_WEIGH_MAX * 1.01, Some(1e15)), 100, false));
        assert!(!auto_walks(&at(f64::NAN, Some(1e9)), 100, true));
        assert!(!auto_walks(&at(f64::INFINITY, None), 100, false));
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
        let est = super::AutoEstimates { walk, search: Some(search), ..Default::default() };
        assert!(!walked(&e) && walk > super::AUTO_WALK_ALWAYS && !super::auto_walks(&est, 64, true), "{c:?}");
        // No probe settled it for the walk: all were made.
        assert!(c.contains(&("root_search_probes", super::AUTO_CP_PROBES)), "{c:?}");
    }

    /// cp's estimate stops after the probe whose running sum, over all the
    /// probes asked for, settles the caller's test, and the mean of all of
    /// them passes it too; a test never settled gives the full estimate.
    #[test]
    fn the_search_estimate_stops_once_settled() {
        let p = brendan("06x06");
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::parse("bottom=0").unwrap());
        let full = e.estimate(100, 1);
        assert_eq!(full.probes, 100);
        let bound = full.nodes / 4.0;
        e.searcher.core.reset();
        assert!(e.root());
        let part = e.searcher.estimate_until(100, 1, |least| least >= bound);
        assert!(part.probes > 0 && part.probes < 100, "{part:?} against {full:?}");
        assert!(part.nodes * part.probes as f64 / 100.0 >= bound && full.nodes >= bound);
        e.searcher.core.reset();
        assert!(e.root());
        assert_eq!(e.searcher.estimate_until(100, 1, |_| false), full);
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
    /// `bottom=auto` walks; its boards are verified, and limits
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
            let est = super::AutoEstimates { walk, search: Some(search), ..Default::default() };
            assert!(walk > super::AUTO_WALK_ALWAYS && super::auto_walks(&est, 49, false), "{c:?}");
            // The first probes settled it; all of them walk too.
            let probes = get("root_search_probes").unwrap() as u64;
            assert!(probes < super::AUTO_CP_PROBES, "{c:?}");
            let all = e.estimate(super::AUTO_CP_PROBES, super::AUTO_CP_SEED);
            let est = super::AutoEstimates { walk, search: Some(all.nodes), ..Default::default() };
            assert!(
                super::auto_walks(&est, 49, false)
                    && all.nodes >= search * probes as f64 / super::AUTO_CP_PROBES as f64,
                "{all:?}"
            );
            let nodes = Limits { max_nodes: Some(300_000), ..Limits::default() };
            let r = run(&mut e, &p, &pr, Mode::Count, nodes);
            assert_eq!(r.stats.stopped, Some(StopReason::NodeLimit), "--threads {threads}");
            let r = run(&mut e, &p, &pr, Mode::Count, Limits::none().with_time_limit(Some(Default::default())));
            assert_eq!(r.stats.stopped, Some(StopReason::TimeLimit), "--threads {threads}");
        }
    }

    /// Where the walk's estimate is over [`super::AUTO_WEIGH_MAX`] (set-2
    /// 10x10: about 2e16), `bottom=auto` searches without estimating the
    /// search.
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
}
