//! The CP engine against DLX: same counts on every small bundled instance
//! in every configuration, every board verified; clues; symmetric tiles;
//! the incremental structures against recomputation.

use super::domains::Domains;
use super::model::{Model, NONE};
use super::state::State;
use super::{CpConfig, CpEngine};
use crate::edgematch::{ir, Clue, EdgePuzzle, Tile};
use crate::ir::{Problem, Solution};
use crate::search::Limits;
use crate::solve::{solve, Mode, SolveOptions, SolveReport};

pub(crate) use crate::edgematch::brendan_set2 as brendan;

pub(crate) fn verifier<'a>(p: &'a EdgePuzzle, pr: &'a Problem) -> impl Fn(&Solution) -> Result<(), String> + 'a {
    move |s: &Solution| {
        crate::ir::verify(pr, s).map_err(|e| e.to_string())?;
        ir::board_of(p, pr, &s.options).check_solution(p).map_err(|e| e.to_string())
    }
}

/// The boards of a complete enumeration, each as its sorted option list,
/// sorted; checks that no board was reported twice.
pub(crate) fn distinct_boards(report: &SolveReport) -> Vec<Vec<u32>> {
    assert!(report.stats.complete());
    let mut boards: Vec<Vec<u32>> = report
        .solutions
        .iter()
        .map(|s| {
            let mut o = s.options.clone();
            o.sort();
            o
        })
        .collect();
    boards.sort();
    boards.dedup();
    assert_eq!(boards.len() as u64, report.found, "a board was reported twice");
    boards
}

/// Solutions found by `engine`, each verified; also checks that no board is
/// reported twice.
fn count(engine: &mut dyn crate::search::Engine, p: &EdgePuzzle, pr: &Problem) -> u64 {
    let opts = SolveOptions { mode: Some(Mode::All), ..Default::default() };
    let report = solve(engine, pr, &opts, &verifier(p, pr)).unwrap();
    distinct_boards(&report);
    report.found
}

fn dlx_count(p: &EdgePuzzle, pr: &Problem) -> u64 {
    count(&mut crate::dlx::Dlx::new(pr), p, pr)
}

/// Every configuration worth testing: the default, all off, each
/// component off alone, each heuristic, and a few combinations.
fn configs() -> Vec<CpConfig> {
    let mut specs: Vec<String> = vec!["default".into(), "basic".into()];
    // The root walk and the search below it (without the root walk the
    // small puzzles would take scan's kernel under `bottom=auto`).
    specs.extend(["bottom=auto", "bottom=100%,bottom-order=row", "bottom=60%"].map(String::from));
    for c in super::COMPONENTS {
        specs.push(format!("no-{c}"));
        specs.push(format!("basic,{c}"));
    }
    for h in super::Heuristic::NAMES {
        specs.push(format!("heuristic={h}"));
        specs.push(format!("no-edge-filter,heuristic={h}"));
    }
    specs.extend(
        [
            "no-edge-filter,no-backjump",
            "shaving",
            "no-edge-filter,shaving",
            "no-edge-filter,shaving,shave-limit=8",
            "no-edge-filter,shaving,no-backjump",
            "no-edge-filter,no-patterns",
            "no-edge-filter,no-older-cells",
            "shaving,shave-limit=6",
            "basic,edge-filter,shaving,backjump",
            "basic,preemption,backjump,older-cells,patterns",
            "refutation,rechoose",
            "refutation,shaving",
            "refutation,rechoose,shaving,heuristic=dom-wdeg",
            "refutation,no-tile-branching",
            "shaving,shave-depth=2",
            "tile-slack=0",
            "tile-slack=-1,refutation",
            "tile-slack=3",
            "no-singletons,refutation",
            "refutation,rechoose,singletons,shaving",
            "no-singletons,shaving,shave-limit=2",
            "shaving,shave-near,shave-limit=2",
            "confined,refutation",
            "no-neighbour-ties,refutation",
            "refutation,shaving,shave-limit=2,neighbour-ties",
            "heuristic=domain-then-wdeg,refutation",
            "shaving,shave-singles",
            "shaving,shave-singles,shave-dirty=1",
            "shaving,shave-dirty=2,shave-limit=2",
            "shaving,shave-singles,shave-dirty=3,shave-near",
            "shaving,shave-singles,shave-yield=20",
            "shaving,shave-yield=100,shave-dirty=1",
            "shave-branch",
            "shave-branch,shave-limit=2,no-singletons",
            "shave-branch,shaving,shave-singles,shave-dirty=1",
        ]
        .map(String::from),
    );
    specs.iter().map(|s| CpConfig::parse(s).unwrap()).collect()
}

#[test]
fn counts_equal_dlx_on_small_brendan_instances_in_every_configuration() {
    let configs = configs();
    for n in
        ["03x03", "04x03", "04x04", "05x03", "05x04", "05x05", "06x03", "06x04", "06x05", "07x03", "07x04", "08x03"]
    {
        let p = brendan(n);
        let pr = ir::to_problem(&p);
        let want = dlx_count(&p, &pr);
        for cfg in &configs {
            let mut e = CpEngine::new(&p, &pr, cfg.clone());
            assert_eq!(count(&mut e, &p, &pr), want, "{n} with --cp {cfg}");
        }
    }
}

#[test]
fn known_counts() {
    for (n, want) in [("03x03", 8), ("04x04", 48), ("05x05", 4)] {
        let p = brendan(n);
        let pr = ir::to_problem(&p);
        let mut e = CpEngine::new(&p, &pr, CpConfig::default());
        assert_eq!(count(&mut e, &p, &pr), want, "{n}");
    }
}

#[test]
fn clues_are_honoured() {
    let base = brendan("05x05");
    let pr0 = ir::to_problem(&base);
    let mut e = CpEngine::new(&base, &pr0, CpConfig::default());
    let opts = SolveOptions { mode: Some(Mode::First(1)), ..Default::default() };
    let first = solve(&mut e, &pr0, &opts, &verifier(&base, &pr0)).unwrap();
    let board = ir::board_of(&base, &pr0, &first.solutions[0].options);
    // Fix the centre tile, then a corner tile, as in that solution; then a
    // centre tile in a wrong rotation.
    for (cells, turn) in [(vec![(2, 2)], 0u8), (vec![(2, 2), (0, 0)], 0), (vec![(2, 2)], 1)] {
        let mut p = base.clone();
        for &(row, col) in &cells {
            let placed = board.cells[p.cell(row, col)].unwrap();
            p.clues.push(Clue { tile: placed.tile as usize, row, col, rotation: (placed.rotation + turn) & 3 });
        }
        let pr = ir::to_problem(&p);
        let want = dlx_count(&p, &pr);
        assert!(turn != 0 || want >= 1);
        for cfg in configs() {
            let mut e = CpEngine::new(&p, &pr, cfg.clone());
            assert_eq!(count(&mut e, &p, &pr), want, "clues {cells:?} turn {turn} --cp {cfg}");
        }
    }
}

/// A 3x3 board whose centre tile looks the same in every rotation and
/// whose border tiles are interchangeable: 4! corner orders x 4! edge
/// orders, each board counted once.
#[test]
fn symmetric_tiles_are_not_reported_twice() {
    let mut tiles = vec![Tile([1, 1, 1, 1])];
    tiles.extend((0..4).map(|_| Tile([0, 2, 1, 2])));
    tiles.extend((0..4).map(|_| Tile([0, 0, 2, 2])));
    let p = EdgePuzzle { name: "sym".into(), rows: 3, cols: 3, tiles, clues: vec![] };
    let pr = ir::to_problem(&p);
    let want = dlx_count(&p, &pr);
    assert_eq!(want, 24 * 24);
    for cfg in configs() {
        let mut e = CpEngine::new(&p, &pr, cfg.clone());
        assert_eq!(count(&mut e, &p, &pr), want, "--cp {cfg}");
    }
}

#[test]
fn limits_stop_the_search() {
    let p = brendan("05x04");
    let pr = ir::to_problem(&p);
    let mut e = CpEngine::new(&p, &pr, CpConfig::default());
    let opts = SolveOptions { mode: Some(Mode::Count), limits: Limits::solutions(10), ..Default::default() };
    let r = solve(&mut e, &pr, &opts, &verifier(&p, &pr)).unwrap();
    assert_eq!(r.found, 10);
    let opts = SolveOptions { limits: Limits { max_nodes: Some(2000), ..Limits::default() }, ..Default::default() };
    let r = solve(&mut e, &pr, &opts, &verifier(&p, &pr)).unwrap();
    assert!(r.hit_limit());
    // The engine can run again after a stop.
    assert_eq!(count(&mut e, &p, &pr), 1648);
}

/// Random placements and removals keep the domains equal to a
/// recomputation of their counts.
#[test]
fn domains_stay_consistent_under_propagation_and_undo() {
    let p = brendan("05x05");
    let m = Model::new(&p);
    let mut st = State::new(&m);
    let mut d = Domains::new(&m);
    assert!(d.init(&m, &st));
    d.check(&m, &st, true);
    let mut rng = 0x2545f4914f6cdd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut opts = Vec::new();
    for _ in 0..200 {
        let mut stack: Vec<(usize, usize)> = Vec::new();
        loop {
            let empty: Vec<usize> = (0..m.n_cells).filter(|&c| st.tile_at[c] == NONE).collect();
            if empty.is_empty() {
                break;
            }
            let c = empty[next() as usize % empty.len()];
            d.options(c, &mut opts);
            let (t, r) = opts[next() as usize % opts.len()];
            let mark = d.mark();
            st.assign(&m, c, t as usize, r, 1);
            let ok = d.propagate(&m, &st, c);
            stack.push((c, mark));
            if !ok {
                break;
            }
            d.check(&m, &st, true);
        }
        while let Some((c, mark)) = stack.pop() {
            d.undo_to(mark);
            st.unassign(&m, c);
            d.check(&m, &st, true);
        }
    }
}

/// Generated puzzles (both styles, several sizes and colour counts): the
/// CP engine, the scan backtracker and DLX agree.
#[test]
fn counts_equal_scan_and_dlx_on_generated_instances() {
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    let specs: Vec<(usize, usize, Style)> = vec![
        (4, 4, Style::Uniform { colors: 3 }),
        (5, 5, Style::Uniform { colors: 4 }),
        (5, 5, Style::Uniform { colors: 5 }),
        (6, 6, Style::Uniform { colors: 6 }),
        (4, 6, Style::Uniform { colors: 4 }),
        (5, 5, Style::Frame { border_colors: 3, inner_colors: 5 }),
        (6, 6, Style::Frame { border_colors: 4, inner_colors: 7 }),
        (5, 4, Style::Frame { border_colors: 2, inner_colors: 3 }),
    ];
    let configs: Vec<CpConfig> = [
        "default",
        "no-edge-filter,shaving",
        "basic",
        "shaving,no-symmetry",
        "heuristic=min-domain",
        "no-tile-branching",
        "heuristic=domain-then-gap,shaving",
        "refutation",
        "refutation,rechoose",
        "heuristic=dom-wdeg",
        "shaving,shave-depth=3",
        "tile-slack=0",
        "heuristic=domain-then-wdeg,refutation,rechoose",
        "no-singletons",
        "no-singletons,refutation",
        "confined",
        "shaving,shave-near",
        "no-neighbour-ties",
        "no-neighbour-ties,refutation",
        "heuristic=min-domain,refutation,confined",
        "shaving,shave-singles",
        "shaving,shave-singles,shave-dirty=1",
        "shaving,shave-singles,shave-yield=20",
        "shave-branch,shave-limit=2",
        "shave-branch,no-refutation",
    ]
    .iter()
    .map(|s| CpConfig::parse(s).unwrap())
    .collect();
    for (rows, cols, style) in specs {
        for seed in 1..=2 {
            let g = generate(&GenerateSpec { rows, cols, style, seed }).unwrap();
            let p = g.puzzle;
            let pr = ir::to_problem(&p);
            let want = dlx_count(&p, &pr);
            assert!(want >= 1, "the planted solution exists");
            let mut scan = crate::edgematch::scan::Scan::new(&p, &pr).unwrap();
            assert_eq!(count(&mut scan, &p, &pr), want, "scan on {rows}x{cols} {style:?} seed {seed}");
            for cfg in &configs {
                let mut e = CpEngine::new(&p, &pr, cfg.clone());
                assert_eq!(count(&mut e, &p, &pr), want, "{rows}x{cols} {style:?} seed {seed} --cp {cfg}");
            }
        }
    }
}

/// Knuth's estimate: close to the real node and board counts with many
/// probes, reproducible from its seed, and the engine runs unchanged
/// afterwards.
#[test]
fn estimate_is_close_to_the_real_tree_and_leaves_the_engine_ready() {
    let p = brendan("04x04");
    let pr = ir::to_problem(&p);
    // The estimate models cp's branching alone (no completion walker).
    let mut e = CpEngine::new(&p, &pr, CpConfig::parse("bottom=0").unwrap());
    let want = count(&mut e, &p, &pr);
    let nodes = e.last.nodes as f64;
    let est = e.estimate(4000, 7);
    assert_eq!(est, e.estimate(4000, 7), "same seed, same estimate");
    assert_eq!(est.probes, 4000);
    assert!((est.nodes - nodes).abs() <= 0.2 * nodes, "estimate {est:?} against {nodes} nodes");
    // The searcher finds one board per symmetry class (4 rotations).
    assert!((est.solutions * 4.0 - want as f64).abs() <= 0.5 * want as f64, "estimate {est:?} against {want} boards");
    assert_eq!(count(&mut e, &p, &pr), want);
    assert_eq!(e.last.nodes as f64, nodes, "the run after an estimate explores the same tree");
}

/// `auto` takes the CP engine only where it is faster in sum: 8x8 and
/// up with at most `1.2 side` inner colours, not set-2 6x6 or 8x8 (11
/// colours).
#[test]
fn auto_prefers_cp_on_large_boards_with_few_colours() {
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    let gen = |n: usize, k: u16| {
        generate(&GenerateSpec { rows: n, cols: n, style: Style::Uniform { colors: k }, seed: 1 }).unwrap().puzzle
    };
    assert!(super::prefer_cp(&gen(8, 8)));
    // 8x8 takes scan's fast walk: cp only up to min(rows, cols) colours.
    assert!(!super::prefer_cp(&gen(8, 9)));
    assert!(!super::prefer_cp(&gen(8, 10)));
    // 9x9 and 10x10 take scan's fast walk too (two mask words), but cp
    // stays ahead in sum up to 1.2 min(rows, cols) colours there.
    assert!(super::prefer_cp(&gen(9, 10)));
    assert!(!super::prefer_cp(&gen(9, 11)));
    assert!(super::prefer_cp(&gen(10, 12)));
    assert!(!super::prefer_cp(&gen(10, 13)));
    assert!(!super::prefer_cp(&gen(6, 4)));
    assert!(!super::prefer_cp(&brendan("06x06")));
    assert!(!super::prefer_cp(&brendan("08x08")));
}

/// All solutions of `p` under `--cp spec`, each verified: the distinct
/// boards and the engine's counters.
fn boards_and_counters(p: &EdgePuzzle, pr: &Problem, spec: &str) -> (Vec<Vec<u32>>, super::search::Counters) {
    let mut e = CpEngine::new(p, pr, CpConfig::parse(spec).unwrap());
    let opts = SolveOptions { mode: Some(Mode::All), ..Default::default() };
    let report = solve(&mut e, pr, &opts, &verifier(p, pr)).unwrap();
    (distinct_boards(&report), e.last.clone())
}

/// Knuth's estimate (4000 probes) of set-2 `n` under `--cp spec` lies
/// within `tolerance` of the real decision count, and estimating leaves
/// the engine's count unchanged.
fn assert_estimate_close(n: &str, spec: &str, tolerance: f64) {
    let p = brendan(n);
    let pr = ir::to_problem(&p);
    let mut e = CpEngine::new(&p, &pr, CpConfig::parse(spec).unwrap());
    let want = count(&mut e, &p, &pr);
    let nodes = e.last.nodes as f64;
    let est = e.estimate(4000, 7);
    assert!(
        (est.nodes - nodes).abs() <= tolerance * nodes.max(10.0),
        "{n} --cp {spec}: estimate {est:?} against {nodes} decisions"
    );
    assert_eq!(count(&mut e, &p, &pr), want);
}

/// Singleton propagation places forced values without branching: the
/// same boards with and without it, fewer nodes, the forced placements
/// counted, and the Knuth estimate still close to the real tree.
#[test]
fn singletons_keep_the_counts_and_save_nodes() {
    for n in ["05x04", "05x05", "06x04"] {
        let p = brendan(n);
        let pr = ir::to_problem(&p);
        let run = |spec: &str| boards_and_counters(&p, &pr, &format!("bottom=0,{spec}"));
        let (on, c_on) = run("singletons");
        let (off, c_off) = run("no-singletons");
        assert_eq!(on, off, "{n}: the same boards");
        assert_eq!(c_off.singletons, 0, "{n}");
        assert!(c_on.singletons > 0, "{n}: forced placements happen");
        assert!(c_on.nodes < c_off.nodes, "{n}: {} against {} nodes", c_on.nodes, c_off.nodes);
        // Every placement is a node or a forced placement; the search
        // explores the same subtrees up to tie-breaking, so the totals
        // are close.
        let (all_on, all_off) = ((c_on.nodes + c_on.singletons) as f64, c_off.nodes as f64);
        assert!((all_on - all_off).abs() <= 0.25 * all_off, "{n}: {all_on} against {all_off} placements");
    }
    assert_estimate_close("04x04", "bottom=0,singletons", 0.2);
}

/// Forced placements share the copy-on-write epoch of the decision that
/// forced them (`Core::mark_shared`), so undoing one of them alone is not
/// exact: after full searches (decisions, forced placements, failures;
/// cell and tile branching; confinement, which removes options between
/// forced placements) every domain and counter is back to the filtered
/// root's. (Not with refutation: the root frame's refuted values stay
/// excluded after the search, as nothing above it undoes them; the next
/// run filters the root anew; refutation, on by default, is switched off.)
#[test]
fn a_full_search_restores_the_root_domains() {
    for n in ["04x04", "05x05", "06x04"] {
        let p = brendan(n);
        let pr = ir::to_problem(&p);
        let want = dlx_count(&p, &pr);
        for spec in [
            "no-refutation",
            "bottom=60%,no-refutation",
            "confined,no-refutation",
            "no-tile-branching,no-refutation",
            "no-symmetry,no-refutation",
        ] {
            let mut e = CpEngine::new(&p, &pr, CpConfig::parse(spec).unwrap());
            e.searcher.core.reset();
            assert!(e.root(), "{n}: root");
            let root = e.searcher.core.doms.clone().expect("edge filtering");
            assert_eq!(count(&mut e, &p, &pr), want, "{n} with --cp {spec}");
            let core = &e.searcher.core;
            let after = core.doms.as_ref().expect("edge filtering");
            assert_eq!(after.dom, root.dom, "{n} with --cp {spec}: domains");
            assert_eq!(after.size, root.size, "{n} with --cp {spec}: sizes");
            after.check(&core.m, &core.st, true);
        }
    }
}

/// Refutation (2-way branching) places the last sibling of a node as a
/// forced placement: the same boards, fewer decisions, about the same
/// placements (decisions + forced), and the Knuth estimate, which then
/// counts `k - 1` decisions per node of degree `k`, still close. And
/// `neighbour-ties` keeps the boards.
#[test]
fn refutation_forces_the_last_sibling_and_neighbour_ties_keep_the_boards() {
    for n in ["05x04", "05x05", "06x04"] {
        let p = brendan(n);
        let pr = ir::to_problem(&p);
        // Decision counts of cp's own tree: the walker off.
        let run = |spec: &str| boards_and_counters(&p, &pr, &format!("bottom=0,{spec}"));
        let (on, c_on) = run("refutation");
        let (off, c_off) = run("no-refutation");
        assert_eq!(on, off, "{n}: the same boards");
        assert!(c_on.refutations <= c_on.nodes, "{n}: refutations only before middle siblings");
        assert!(c_on.nodes < c_off.nodes, "{n}: {} against {} decisions", c_on.nodes, c_off.nodes);
        let (all_on, all_off) = ((c_on.nodes + c_on.singletons) as f64, (c_off.nodes + c_off.singletons) as f64);
        assert!((all_on - all_off).abs() <= 0.25 * all_off, "{n}: {all_on} against {all_off} placements");
        for spec in ["no-neighbour-ties", "no-neighbour-ties,refutation", "heuristic=min-domain,neighbour-ties"] {
            assert_eq!(run(spec).0, off, "{n} --cp {spec}: the same boards");
        }
    }
    assert_estimate_close("05x05", "bottom=0,refutation", 0.25);
}

/// `heuristic=scan` branches in the scan backend's cell order: rows along
/// the shorter side, so a board wider than tall is taken by columns; the
/// boards are those of the default search.
#[test]
fn scan_heuristic_follows_scans_cell_order() {
    for (n, turned) in [("07x04", false), ("07x04", true), ("05x05", false)] {
        let p = if turned { brendan(n).quarter_turn() } else { brendan(n) };
        let pr = ir::to_problem(&p);
        let m = Model::new(&p);
        let order: Vec<usize> = m.scan_order.iter().map(|&c| c as usize).collect();
        assert_eq!(order, crate::edgematch::scan::cell_order(&p), "{n}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..p.n_cells()).collect::<Vec<_>>(), "{n}: every cell once");
        let wide = p.cols > p.rows;
        assert_eq!(wide, n == "07x04" && !turned);
        assert_eq!(order[0] != 0, wide, "{n}: only a wide board starts away from the top-left cell");
        // Below the root: `bottom=auto` would hand these to scan's walk.
        let (boards, _) = boards_and_counters(&p, &pr, "bottom=60%,heuristic=scan");
        let (want, _) = boards_and_counters(&p, &pr, "default");
        assert_eq!(boards, want, "{n}");
    }
}

/// The shaving policies only skip probes (`shave-dirty`, `shave-yield`),
/// place what shaving left forced (`shave-singles`) or probe the branching
/// cell (`shave-branch`): the same boards as plain shaving; each policy
/// probes, and `shave-dirty` skips cells and probes less than plain
/// shaving.
#[test]
fn shaving_policies_keep_the_boards() {
    let p = brendan("06x05");
    let pr = ir::to_problem(&p);
    // The search below the root (`bottom=auto` walks this board).
    let (boards, plain) = boards_and_counters(&p, &pr, "bottom=60%,shaving");
    assert!(plain.probes > 0 && plain.shave_removals > 0, "{plain:?}");
    for spec in [
        "shaving,shave-singles",
        "shaving,shave-dirty=1",
        "shaving,shave-dirty=3",
        "shaving,shave-yield=30",
        "shave-branch",
    ] {
        let (b, c) = boards_and_counters(&p, &pr, &format!("bottom=60%,{spec}"));
        assert_eq!(b, boards, "{spec}");
        assert!(c.probes > 0, "{spec}: {c:?}");
        if spec.contains("dirty") {
            assert!(c.shave_skips > 0 && c.probes < plain.probes, "{spec}: {c:?} {plain:?}");
        }
    }
}

/// The completion walker (`bottom=E`) finds the default's boards for E in
/// {4, 9, every cell}, in every cell order, with and without backjumping,
/// and counts its placements apart from the decisions; limits stop it.
#[test]
fn bottom_walker_keeps_the_boards() {
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    let mut puzzles: Vec<EdgePuzzle> = ["05x04", "05x05"].map(brendan).into();
    for (n, colors) in [(5, 4), (5, 5), (6, 6)] {
        let spec = GenerateSpec { rows: n, cols: n, style: Style::Uniform { colors }, seed: 1 };
        puzzles.push(generate(&spec).unwrap().puzzle);
    }
    for p in &puzzles {
        let pr = ir::to_problem(p);
        let (want, plain) = boards_and_counters(p, &pr, "bottom=0");
        assert_eq!(want.len() as u64, dlx_count(p, &pr), "{}", p.name);
        let mut scan = crate::edgematch::scan::Scan::new(p, &pr).unwrap();
        assert_eq!(count(&mut scan, p, &pr), want.len() as u64, "scan on {}", p.name);
        assert_eq!(plain.bottom, 0);
        for e in [4, 9, p.n_cells()] {
            for extra in [
                "",
                ",bottom-order=static",
                ",no-backjump",
                ",bottom-order=static,shaving",
                ",bottom-order=row",
                ",bottom-order=col",
                ",bottom-order=row,no-backjump",
                ",bottom-order=sweep",
            ] {
                let spec = format!("bottom={e}{extra}");
                let (got, c) = boards_and_counters(p, &pr, &spec);
                assert_eq!(got, want, "{} --cp {spec}", p.name);
                if e == p.n_cells() {
                    assert!(c.bottom > 0 && c.nodes == 0, "{} --cp {spec}: {c:?}", p.name);
                }
            }
        }
    }
    let p = brendan("05x04");
    let pr = ir::to_problem(&p);
    for order in ["static", "dynamic", "row", "col", "sweep"] {
        let cfg = CpConfig::parse(&format!("bottom=20,bottom-order={order}")).unwrap();
        let mut e = CpEngine::new(&p, &pr, cfg);
        let opts = SolveOptions { mode: Some(Mode::Count), limits: Limits::solutions(10), ..Default::default() };
        let r = solve(&mut e, &pr, &opts, &verifier(&p, &pr)).unwrap();
        assert_eq!(r.found, 10, "{order}");
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let opts = SolveOptions { limits: Limits { cancel: Some(cancel), ..Limits::default() }, ..Default::default() };
        let r = solve(&mut e, &pr, &opts, &verifier(&p, &pr)).unwrap();
        assert!(r.hit_limit() && r.found < 1648, "{order}: {:?}", r.stats);
        assert_eq!(count(&mut e, &p, &pr), 1648, "{order}");
    }
}

/// The depth schedule of edge filtering (`edge-filter-above`, with or
/// without `edge-filter-waves`, with and without the walker) finds the
/// default's boards, which are dlx's and scan's.
#[test]
fn edge_filter_schedule_keeps_the_boards() {
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    let mut puzzles: Vec<EdgePuzzle> = ["05x04", "05x05"].map(brendan).into();
    for (n, colors) in [(5, 4), (6, 6)] {
        let spec = GenerateSpec { rows: n, cols: n, style: Style::Uniform { colors }, seed: 2 };
        puzzles.push(generate(&spec).unwrap().puzzle);
    }
    for p in &puzzles {
        let pr = ir::to_problem(p);
        let (want, _) = boards_and_counters(p, &pr, "default");
        assert_eq!(want.len() as u64, dlx_count(p, &pr), "{}", p.name);
        let mut scan = crate::edgematch::scan::Scan::new(p, &pr).unwrap();
        assert_eq!(count(&mut scan, p, &pr), want.len() as u64, "scan on {}", p.name);
        for above in ["100%", "80%", "65%", "10"] {
            for extra in ["", ",edge-filter-waves=1", ",edge-filter-waves=2", ",bottom=0", ",no-singletons,shaving"] {
                let spec = format!("edge-filter-above={above}{extra}");
                let (got, _) = boards_and_counters(p, &pr, &spec);
                assert_eq!(got, want, "{} --cp {spec}", p.name);
            }
        }
    }
}
