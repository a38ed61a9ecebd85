//! The polycube engines against plain DLX on random puzzles: random boxes
//! cut into random pieces (identical pieces included) under random
//! configurations, and the regressions those puzzles found (hand-over of
//! identical pieces, nested de Bruijn stages). Every solution is verified by
//! the solve loop.

use crate::poly::{base, counts, load, sched, try_counts, variants};
use emx::backend::{self, BackendConfig};
use emx::input;
use emx::ir::Equivalence;
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::model::CellOrder;
use emx::poly::{FitFilter, PolyConfig, Threshold};
use emx::search::Rng;
use std::path::Path;

/// A random puzzle: the box cut into random connected pieces (so it has a
/// solution). Sizes are drawn from `sizes`; small sizes make identical
/// pieces (monocubes, dominoes, straight trominoes) common.
fn random_puzzle(rng: &mut Rng, dims: [i32; 3], sizes: &[usize]) -> (String, u32) {
    let [dx, dy, dz] = dims;
    let n = (dx * dy * dz) as usize;
    let idx = |p: [i32; 3]| (p[0] + dx * (p[1] + dy * p[2])) as usize;
    let mut owner = vec![usize::MAX; n];
    let mut pieces: Vec<Vec<[i32; 3]>> = Vec::new();
    let cells: Vec<[i32; 3]> =
        (0..dz).flat_map(|z| (0..dy).flat_map(move |y| (0..dx).map(move |x| [x, y, z]))).collect();
    for &start in &cells {
        if owner[idx(start)] != usize::MAX {
            continue;
        }
        let target = sizes[rng.below(sizes.len() as u64) as usize];
        let id = pieces.len();
        let mut piece = vec![start];
        owner[idx(start)] = id;
        while piece.len() < target {
            let mut options = Vec::new();
            for p in &piece {
                for axis in 0..3 {
                    for d in [-1, 1] {
                        let mut q = *p;
                        q[axis] += d;
                        if (0..3).all(|k| (0..dims[k]).contains(&q[k])) && owner[idx(q)] == usize::MAX {
                            options.push(q);
                        }
                    }
                }
            }
            if options.is_empty() {
                break;
            }
            let q = options[rng.below(options.len() as u64) as usize];
            owner[idx(q)] = id;
            piece.push(q);
        }
        pieces.push(piece);
    }
    let mut text = format!("D:xDim={dx}:yDim={dy}:zDim={dz}\n");
    for (k, p) in pieces.iter().enumerate() {
        let layout: Vec<String> = p.iter().map(|c| format!("{} {} {}", c[0], c[1], c[2])).collect();
        text.push_str(&format!("C:name=P{k}:layout={}\n", layout.join(", ")));
    }
    text.push_str("~D\n");
    (text, pieces.len() as u32)
}

/// A random configuration for a puzzle of `n` pieces: any schedule shape
/// (DLX with any heuristic handing over at any depth to any sequence of
/// bit-field engines), any redundancy mode, triggers, per-step and one-shot
/// filters, forced first piece, cell order, 1 or 2 threads.
fn random_config(rng: &mut Rng, n: u32) -> (String, PolyConfig) {
    let mut pick = |k: u64| rng.below(k);
    let heuristics = ["min-fit", "x", "Y", "z", "R", "a@75"];
    let h = heuristics[pick(heuristics.len() as u64) as usize];
    // Thresholds n > t1 > t2 > t3 >= 1 (as many as fit).
    let mut ts: Vec<u32> = (1..n).collect();
    let mut chosen = Vec::new();
    let stages = pick(4) as usize;
    for _ in 0..stages.min(ts.len()) {
        let j = pick(ts.len() as u64) as usize;
        chosen.push(ts.remove(j));
    }
    chosen.sort_unstable_by(|a, b| b.cmp(a));
    let engines = ["mch", "emch", "debruijn", "bdlx"];
    let first = match pick(4) {
        0 => engines[pick(4) as usize].to_string(),
        1 => h.to_string(),
        _ => format!("dlx:{h}"),
    };
    let bitfield_first = engines.contains(&first.as_str());
    let mut schedule = first;
    let mut dlx_ok = !bitfield_first;
    for t in chosen {
        let e = if dlx_ok && pick(4) == 0 {
            heuristics[pick(heuristics.len() as u64) as usize].to_string()
        } else {
            dlx_ok = false;
            engines[pick(4) as usize].to_string()
        };
        schedule.push_str(&format!(",{e}@{t}"));
    }
    let redundancy = ["off", "auto", "rot", "mirror"][pick(4) as usize];
    let thr = |r: u64| match r {
        0 => None,
        1 => Some(Threshold::Off),
        r => Some(Threshold::From(1 + (r as u32 * 7) % (n + 1))),
    };
    let cfg = PolyConfig {
        schedule: sched(&schedule),
        redundancy: Some(RedundancyMode::parse(redundancy).unwrap()),
        force_first: (pick(4) == 0).then_some(true),
        parity_trigger: thr(pick(5)),
        volume_trigger: thr(pick(5)),
        parity_filter: thr(pick(5)),
        volume_filter: thr(pick(5)),
        fit_filter: [None, Some(FitFilter::Once), Some(FitFilter::Fixpoint)][pick(3) as usize],
        cell_order: [None, Some(CellOrder::Xyz), Some(CellOrder::Angular { degrees: pick(360) as i32 })]
            [pick(3) as usize],
        threads: 1 + pick(2) as usize,
        ..base()
    };
    (format!("{cfg:?}"), cfg)
}

/// The smallest failing case of the DLX hand-over bug: two identical
/// tripods (P0, P2); DLX branched on their group with both copies left,
/// excluding the rows before the one it took, and de Bruijn, taking over
/// below, placed the second copy on an excluded row, so each arrangement of
/// the tripods was found twice (1176 instead of 1168).
#[test]
fn dlx_hand_over_keeps_identical_piece_exclusions() {
    let text = "D:xDim=3:yDim=3:zDim=2\nC:name=P0:layout=0 0 0, 1 0 0, 1 0 1, 1 1 0\n\
        C:name=P1:layout=2 0 0, 2 0 1\nC:name=P2:layout=0 1 0, 0 1 1, 1 1 1, 0 0 1\n\
        C:name=P3:layout=2 1 0, 2 1 1, 2 2 1, 2 2 0\nC:name=P4:layout=0 2 0, 1 2 0, 1 2 1\n\
        C:name=P5:layout=0 2 1\n~D\n";
    let dir = crate::Scratch::new("handover");
    let path = dir.join("handover.txt");
    std::fs::write(&path, text).unwrap();
    let inst = input::load(&path, None, 1).unwrap();
    assert_eq!(counts(&inst, "dlx", base(), Equivalence::None), (1168, 1168));
    for s in ["dlx,debruijn@2", "dlx,mch@2", "dlx,emch@2", "dlx,debruijn@3", "dlx:x,mch@4,debruijn@2"] {
        for threads in [1, 2] {
            for vf in [None, Some(Threshold::From(2))] {
                let cfg = PolyConfig {
                    schedule: sched(s),
                    redundancy: Some(RedundancyMode::Off),
                    threads,
                    volume_filter: vf,
                    parity_filter: vf,
                    ..base()
                };
                assert_eq!(counts(&inst, "poly", cfg, Equivalence::None), (1168, 1168), "{s}, {threads} threads");
            }
        }
    }
}

/// A de Bruijn stage below an MCH or EMCH stage below a de Bruijn stage:
/// the lean loop hands over in the middle of its stack (its frames and
/// per-depth cache tags go back to the walker) and is entered again deeper,
/// then resumes where it left off. Counts as DLX's, one and two threads,
/// with and without the redundancy filter (every solution verified).
#[test]
fn nested_de_bruijn_stages_count_as_dlx() {
    let inst = load("pentominoes_20x3_def.txt");
    let want = counts(&inst, "dlx", base(), Equivalence::None);
    assert!(want.0 > 0, "the 20x3 has tilings");
    for s in ["debruijn,emch@6,debruijn@3", "debruijn,mch@8,debruijn@4", "dlx:min-fit,debruijn@11,emch@6,debruijn@3"] {
        for threads in [1, 2] {
            for redundancy in [None, Some(RedundancyMode::Off)] {
                let cfg = PolyConfig { schedule: sched(s), threads, redundancy: redundancy.clone(), ..base() };
                assert_eq!(
                    counts(&inst, "poly", cfg, Equivalence::None),
                    want,
                    "{s}, {threads} threads, {redundancy:?}"
                );
            }
        }
    }
}

/// Every configuration against plain DLX on many random boxes, identical
/// pieces included; every solution verified by the solve loop.
#[test]
fn random_boxes_agree_with_dlx() {
    let dir = crate::Scratch::new("poly-random");
    let mut rng = Rng::new(2024);
    let shapes = [[4, 3, 1], [5, 2, 2], [3, 3, 2], [2, 2, 4], [4, 4, 1], [3, 2, 3], [6, 3, 1], [2, 3, 3]];
    let size_sets: [&[usize]; 3] = [&[2, 3, 4, 5], &[1, 2, 2, 3, 3, 4], &[2, 2, 3, 4]];
    let (mut checked, mut configs) = (0, 0);
    for t in 0..400 {
        if checked == 40 {
            break;
        }
        let dims = shapes[t % shapes.len()];
        let (text, n) = random_puzzle(&mut rng, dims, size_sets[t % 3]);
        let path = dir.join(format!("r{t}.txt"));
        std::fs::write(&path, &text).unwrap();
        let Ok(inst) = input::load(Path::new(&path), None, 1) else { continue };
        let eqs = [Equivalence::None, Equivalence::Rotations, Equivalence::RotationsAndMirrors];
        let want: Vec<(u64, u64)> = eqs.iter().map(|&eq| counts(&inst, "dlx", base(), eq)).collect();
        // Keep the test fast: tens of configurations verify every solution.
        if want[0].0 > 3000 {
            continue;
        }
        let mut cfgs: Vec<(String, PolyConfig)> = variants();
        cfgs.extend((0..30).map(|_| random_config(&mut rng, n)));
        for (name, cfg) in cfgs {
            let e = (t + configs) % 3;
            configs += 1;
            // An explicit redundancy mode may not apply to a random box,
            // nor a forced first piece without one.
            let Some(got) = try_counts(&inst, "poly", cfg.clone(), eqs[e]) else {
                let err = backend::make(
                    "poly",
                    &inst,
                    &BackendConfig { equivalence: eqs[e], poly: cfg, ..BackendConfig::default() },
                )
                .err();
                let msg = err.map(|e| e.to_string()).unwrap_or_default();
                assert!(
                    msg.contains("redundancy")
                        || msg.contains("reflection")
                        || msg.contains("force-first")
                        || msg.contains("no piece")
                        || msg.contains("constrain"),
                    "{text}\n{name}: {msg}"
                );
                continue;
            };
            assert_eq!(got, want[e], "{text}\nwith {name} under {:?}", eqs[e]);
        }
        checked += 1;
    }
    assert_eq!(checked, 40, "too few random puzzles with few solutions");
}

/// A split into standalone parts of a puzzle with identical pieces adds up
/// to the count of the whole (no part may rely on rows a DLX branch on the
/// identical pieces excluded).
#[test]
fn split_parts_with_identical_pieces_add_up() {
    let mut rng = Rng::new(77);
    let dir = crate::Scratch::new("poly-split");
    for t in 0..6 {
        let (text, _) = random_puzzle(&mut rng, [3, 3, 2], &[1, 2, 2, 3]);
        let path = dir.join(format!("w{t}.txt"));
        std::fs::write(&path, &text).unwrap();
        let inst = input::load(&path, None, 1).unwrap();
        let want = counts(&inst, "dlx", base(), Equivalence::None).0;
        let problem = inst.problem();
        let cfg = PolyConfig { schedule: sched("dlx,debruijn@2"), redundancy: Some(RedundancyMode::Off), ..base() };
        let engine = emx::poly::PolyEngine::new(problem, &cfg).unwrap();
        for depth in [1, 2, 3] {
            let mut above = 0u64;
            let parts = engine.split(depth, &mut |_| {
                above += 1;
                emx::search::Flow::Continue
            });
            let mut total = above;
            for (options, weight) in parts {
                assert_eq!(weight, 1);
                let placed = emx::poly::run::split::placed_pieces(problem, &options);
                let emx::input::InstanceKind::Polycube(pc) = &inst.kind else { panic!("polycube") };
                let part = emx::poly::run::split::part_text(&pc.puzzle, &placed, "part");
                let part_path = dir.join(format!("w{t}-part.txt"));
                std::fs::write(&part_path, part).unwrap();
                let part_inst = input::load(&part_path, None, 1).unwrap();
                total += counts(&part_inst, "dlx", base(), Equivalence::None).0;
            }
            assert_eq!(total, want, "{text}\nsplit at depth {depth}");
        }
    }
}
