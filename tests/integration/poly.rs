//! The polycube engines against plain DLX: every engine, heuristic, filter,
//! trigger and thread count must give the same counts (fixed box and
//! `--unique`), with every reported solution verified by the solve loop.

use crate::repo_path;
use emx::backend::{self, BackendConfig};
use emx::input::{self, Instance};
use emx::ir::Equivalence;
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::model::CellOrder;
use emx::poly::plan::schedule::ScheduleSpec;
use emx::poly::{FitFilter, PolyConfig, Threshold};
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions};

pub(crate) fn load(name: &str) -> Instance {
    input::load(&repo_path(&format!("instances/polycube/{name}")), None, 1).unwrap()
}

/// `(reported, found)` of a complete count with `backend` and `poly`.
pub(crate) fn counts(inst: &Instance, backend: &str, poly: PolyConfig, eq: Equivalence) -> (u64, u64) {
    try_counts(inst, backend, poly, eq).unwrap()
}

/// Like [`counts`], `None` when the configuration does not apply.
pub(crate) fn try_counts(inst: &Instance, backend: &str, poly: PolyConfig, eq: Equivalence) -> Option<(u64, u64)> {
    let config = BackendConfig { equivalence: eq, poly, ..BackendConfig::default() };
    let mut engine = backend::make(backend, inst, &config).ok()?;
    let opts = SolveOptions { mode: Some(Mode::Count), equivalence: eq, limits: Limits::none() };
    let r = solve(engine.as_mut(), inst.problem(), &opts, &|s| inst.verify(s)).unwrap();
    assert!(r.stats.complete(), "{}", r.engine);
    Some((r.reported, r.found))
}

pub(crate) fn sched(s: &str) -> Option<ScheduleSpec> {
    Some(ScheduleSpec::parse(s).unwrap())
}

pub(crate) fn base() -> PolyConfig {
    PolyConfig::default()
}

/// Configurations exercising each engine and constraint once on top of a
/// base, plus a few combinations.
pub(crate) fn variants() -> Vec<(String, PolyConfig)> {
    let mut v: Vec<(String, PolyConfig)> = Vec::new();
    v.push(("auto".into(), base()));
    for s in [
        "dlx:min-fit",
        "dlx:x",
        "dlx:Y",
        "dlx:R",
        "dlx:a@160",
        "x,min-fit@4",
        "mch",
        "emch",
        "emch+0",
        "emch+2/2",
        "emch+1/6",
        "debruijn",
        "bdlx",
        "dlx,bdlx@5,debruijn@2",
        "dlx,mch@5,emch@3,debruijn@2",
        "dlx,mch@5,emch+3@4,emch@2",
        "dlx:z,debruijn@3",
    ] {
        v.push((format!("schedule {s}"), PolyConfig { schedule: sched(s), ..base() }));
    }
    for r in ["off", "rot", "mirror"] {
        v.push((
            format!("redundancy {r}"),
            PolyConfig { redundancy: Some(RedundancyMode::parse(r).unwrap()), ..base() },
        ));
    }
    v.push((
        "force first with de Bruijn".into(),
        PolyConfig { schedule: sched("debruijn"), force_first: Some(true), ..base() },
    ));
    v.push((
        "triggers".into(),
        PolyConfig { parity_trigger: Some(Threshold::From(1)), volume_trigger: Some(Threshold::From(1)), ..base() },
    ));
    v.push((
        "per-step filters in DLX".into(),
        PolyConfig {
            schedule: sched("dlx:min-fit,debruijn@2"),
            parity_filter: Some(Threshold::From(2)),
            volume_filter: Some(Threshold::From(100)),
            ..base()
        },
    ));
    v.push(("fit filter".into(), PolyConfig { fit_filter: Some(FitFilter::Fixpoint), ..base() }));
    v.push((
        "xyz order".into(),
        PolyConfig { cell_order: Some(CellOrder::Xyz), schedule: sched("debruijn"), ..base() },
    ));
    for (degrees, s) in [(160, "debruijn"), (0, "dlx:a@0,mch@5,emch+3@3,debruijn@2")] {
        v.push((
            format!("angular order a@{degrees} with {s}"),
            PolyConfig { cell_order: Some(CellOrder::Angular { degrees }), schedule: sched(s), ..base() },
        ));
    }
    v.push(("2 threads".into(), PolyConfig { threads: 2, ..base() }));
    v.push((
        "2 threads with DLX and identical-piece branching".into(),
        PolyConfig { threads: 2, schedule: sched("dlx,debruijn@2"), redundancy: Some(RedundancyMode::Off), ..base() },
    ));
    v
}

pub(crate) fn check_all(inst: &Instance, expected: &[(Equivalence, u64, u64)], skip: &[&str]) {
    for (name, cfg) in variants() {
        if skip.iter().any(|s| name.contains(s)) {
            continue;
        }
        for &(eq, reported, found) in expected {
            let got = counts(inst, "poly", cfg.clone(), eq);
            assert_eq!(got, (reported, found), "{} with {name} under {eq:?}", inst.file);
        }
    }
}

#[test]
fn soma_every_configuration() {
    let inst = load("somacube_def.txt");
    check_all(
        &inst,
        &[
            (Equivalence::None, 11520, 11520),
            (Equivalence::Rotations, 480, 11520),
            (Equivalence::RotationsAndMirrors, 240, 11520),
        ],
        &[],
    );
}

#[test]
fn pentominoes_10x6_every_configuration() {
    let inst = load("pentominoes_10x6_def.txt");
    // Without the redundancy filter the bit-field engines search four
    // times the tree; those runs stay in the ignored tests.
    let slow = ["redundancy off", "identical", "dlx:", "x,min", "xyz"];
    let fast: Vec<(String, PolyConfig)> =
        variants().into_iter().filter(|(n, _)| !slow.iter().any(|s| n.contains(s))).collect();
    for (name, cfg) in fast {
        for (eq, reported, found) in [(Equivalence::Rotations, 2339, 9356), (Equivalence::None, 9356, 9356)] {
            let got = counts(&inst, "poly", cfg.clone(), eq);
            assert_eq!(got, (reported, found), "10x6 with {name} under {eq:?}");
        }
    }
}

#[test]
fn one_sided_30x3_every_configuration() {
    let inst = load("pentominoes_onesided_30x3_def.txt");
    check_all(
        &inst,
        &[(Equivalence::Rotations, 46, 184)],
        &["redundancy off", "identical", "dlx:", "x,min", "mch", "force", "xyz"],
    );
    for s in ["dlx:min-fit,mch@17,emch@8,debruijn@4", "dlx:x,min-fit@12,debruijn@6"] {
        let cfg = PolyConfig { schedule: sched(s), ..base() };
        assert_eq!(counts(&inst, "poly", cfg, Equivalence::Rotations), (46, 184), "{s}");
    }
}

/// The 12 pentominoes as solid pieces (3-D rotations, so the set is closed
/// under reflection) in the 2x3x10 box: 12 solutions up to rotation and
/// reflection (Bouwkamp's count), every configuration and plain DLX agree.
#[test]
fn solid_pentominoes_2x3x10_every_configuration() {
    let inst = load("solid_pentominoes_2x3x10_def.txt");
    let expected =
        [(Equivalence::None, 96, 96), (Equivalence::Rotations, 24, 96), (Equivalence::RotationsAndMirrors, 12, 96)];
    check_all(&inst, &expected, &["redundancy off", "identical", "dlx:", "x,min", "force", "xyz"]);
    for (eq, reported, found) in expected {
        assert_eq!(counts(&inst, "dlx", base(), eq), (reported, found), "dlx under {eq:?}");
    }
}

/// `auto` chooses the constrained piece by estimate under rotations and
/// reflections too: on the solid pentominoes in 2x5x6 it takes X, whose
/// tree is several times smaller than the static choice V's. Counts as
/// Bouwkamp's 264.
#[test]
fn solid_pentominoes_2x5x6_auto_piece_choice() {
    let inst = load("solid_pentominoes_2x5x6_def.txt");
    let engine = backend::make("poly", &inst, &BackendConfig { poly: base(), ..BackendConfig::default() }).unwrap();
    assert!(engine.describe().contains("mirror redundancy on X"), "{}", engine.describe());
    assert_eq!(counts(&inst, "poly", base(), Equivalence::RotationsAndMirrors), (264, 2112));
    assert_eq!(counts(&inst, "poly", base(), Equivalence::Rotations), (528, 2112));
}

/// The piece choice screens the candidates on the pool's threads when
/// asked (each rooted one on the unfiltered engine, each other on an
/// engine of its own, alongside): the same probes, so the same piece, as
/// on one thread. The 3x4x5 has ten candidates of the second kind.
#[test]
fn piece_choice_does_not_depend_on_threads() {
    // The Soma cube keeps the static choice: its tree is small.
    for (file, piece) in
        [("solid_pentominoes_2x5x6_def.txt", "X"), ("solid_pentominoes_3x4x5_def.txt", "X"), ("somacube_def.txt", "Z")]
    {
        let inst = load(file);
        let one = describe(&inst, base());
        let two = describe(&inst, PolyConfig { threads: 2, ..base() });
        assert!(one.contains(&format!("mirror redundancy on {piece} (")), "{file}: {one}");
        assert_eq!(format!("{one}, 2 threads"), two, "{file}");
    }
}

/// Under the kept images of X whose stabiliser is not trivial, a second
/// piece is constrained by the stabiliser and placed right after X. The
/// counts (fixed box, up to rotation, up to rotation and
/// reflection) equal those of the search that cannot do it (MCH from the
/// second piece on: no DLX at depth 1), on one and two threads, and
/// listing every fixed-box solution gives each once (the two orbit maps
/// composed), all verified by the solve loop.
#[test]
fn second_piece_under_symmetric_images() {
    let inst = load("solid_pentominoes_2x5x6_def.txt");
    let auto = describe(&inst, base());
    assert!(
        auto.contains("X (4 of 24 images, 2 with symmetric stabiliser), a second piece constrained under"),
        "{auto}"
    );
    let without = PolyConfig { schedule: sched("dlx:min-fit,mch@11,emch+6@8"), ..base() };
    assert!(!describe(&inst, without.clone()).contains("second piece"), "{}", describe(&inst, without.clone()));
    let off = describe(&inst, PolyConfig { redundancy: Some(RedundancyMode::Off), ..base() });
    assert_eq!(off.matches("no redundancy filter").count(), 1, "{off}");
    let two = PolyConfig { threads: 2, ..base() };
    for (eq, expected) in [
        (Equivalence::None, (2112, 2112)),
        (Equivalence::Rotations, (528, 2112)),
        (Equivalence::RotationsAndMirrors, (264, 2112)),
    ] {
        assert_eq!(counts(&inst, "poly", base(), eq), expected, "auto under {eq:?}");
        assert_eq!(counts(&inst, "poly", two.clone(), eq), expected, "2 threads under {eq:?}");
        assert_eq!(counts(&inst, "poly", without.clone(), eq), expected, "without under {eq:?}");
    }
    assert_eq!(every_copy(&inst, base()), (2112, 2112));
}

/// The engine line of the `poly` backend under `poly`.
fn describe(inst: &Instance, poly: PolyConfig) -> String {
    backend::make("poly", inst, &BackendConfig { poly, ..BackendConfig::default() }).unwrap().describe()
}

/// `--all` with no symmetry identified: the solutions listed (each
/// verified) and how many of them are distinct.
fn every_copy(inst: &Instance, poly: PolyConfig) -> (usize, usize) {
    let config = BackendConfig { equivalence: Equivalence::None, poly, ..BackendConfig::default() };
    let mut engine = backend::make("poly", inst, &config).unwrap();
    let opts = SolveOptions { mode: Some(Mode::All), equivalence: Equivalence::None, limits: Limits::none() };
    let r = solve(engine.as_mut(), inst.problem(), &opts, &|s| inst.verify(s)).unwrap();
    (r.solutions.len(), crate::option_sets(&r.solutions).len())
}

/// A third piece under the pairs of kept images whose stabiliser is still
/// not trivial: the solid pentominoes in 3x4x5, where `auto` then has DLX
/// place three pieces. Counts with and without it, on one and two
/// threads, and every fixed-box copy listed once and verified.
#[test]
fn third_piece_under_symmetric_pairs() {
    let inst = load("solid_pentominoes_3x4x5_def.txt");
    let x = PolyConfig { redundancy: Some(RedundancyMode::parse("mirror:X").unwrap()), ..base() };
    let with = describe(&inst, x.clone());
    assert!(with.starts_with("poly dlx:min-fit,emch+6@9,"), "{with}");
    assert!(
        with.contains("a second piece constrained under 9 of them (I), a third constrained under 20 pairs (V, W, Z)"),
        "{with}"
    );
    let without = PolyConfig { schedule: sched("dlx:min-fit,mch@10,emch+6@8"), ..x.clone() };
    let text = describe(&inst, without.clone());
    assert!(text.contains("second piece") && !text.contains("a third"), "{text}");
    let two = PolyConfig { threads: 2, ..x.clone() };
    assert_eq!(counts(&inst, "poly", x.clone(), Equivalence::RotationsAndMirrors), (3940, 31520));
    assert_eq!(counts(&inst, "poly", without, Equivalence::RotationsAndMirrors), (3940, 31520));
    assert_eq!(counts(&inst, "poly", two, Equivalence::Rotations), (7880, 31520));
    assert_eq!(every_copy(&inst, x), (31520, 31520));
}

#[test]
fn auto_backend_uses_the_polycube_engines() {
    let inst = load("somacube_def.txt");
    let config = BackendConfig::default();
    let engine = backend::make("auto", &inst, &config).unwrap();
    assert!(engine.describe().starts_with("poly "), "{}", engine.describe());
    let dlx = backend::make("dlx", &inst, &config).unwrap();
    assert_eq!(dlx.describe(), "dlx min-fit");
}

#[test]
fn bad_settings_are_errors() {
    let inst = load("somacube_def.txt");
    let make = |poly: PolyConfig| backend::make("poly", &inst, &BackendConfig { poly, ..Default::default() }).err();
    let e = make(PolyConfig { redundancy: Some(RedundancyMode::parse("rot:Q").unwrap()), ..base() }).unwrap();
    assert!(e.to_string().contains("`Q`"), "{e}");
    let e = make(PolyConfig { schedule: sched("dlx@3,mch@2"), ..base() }).unwrap();
    assert!(e.to_string().contains("dlx:min-fit@3"), "{e}");
    let e = make(PolyConfig { force_first: Some(true), redundancy: Some(RedundancyMode::Off), ..base() }).unwrap();
    assert!(e.to_string().contains("force-first"), "{e}");
    let tc = load("tetriscube_def.txt");
    let e = backend::make(
        "poly",
        &tc,
        &BackendConfig {
            poly: PolyConfig { redundancy: Some(RedundancyMode::parse("mirror").unwrap()), ..base() },
            ..Default::default()
        },
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("closed under reflection"), "{e}");
}

/// Minutes: the Tetris Cube with the hybrid engines and with Westen's
/// constrained L. Run with `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn tetris_cube_hybrid() {
    let inst = load("tetriscube_def.txt");
    assert_eq!(counts(&inst, "poly", base(), Equivalence::Rotations), (9839, 236136));
    // `auto` widens EMCH, and its piece choice (estimated under plain
    // EMCH) still constrains L; plain EMCH gives the same counts.
    let engine = backend::make("poly", &inst, &BackendConfig { poly: base(), ..BackendConfig::default() }).unwrap();
    assert!(engine.describe().starts_with("poly dlx:min-fit,emch+6@10, rotational redundancy on L"));
    // 11 of the 12 pieces carry a parity: `auto` leaves the trigger off
    // (docs/engines.md, "`--schedule auto`"); with it on, the same counts.
    assert!(!engine.describe().contains("parity trigger"), "{}", engine.describe());
    let parity = PolyConfig { parity_trigger: Some(Threshold::From(1)), ..base() };
    assert_eq!(counts(&inst, "poly", parity, Equivalence::Rotations), (9839, 236136));
    let plain = PolyConfig { schedule: sched("dlx:min-fit,mch@10,emch@8"), ..base() };
    assert_eq!(counts(&inst, "poly", plain, Equivalence::Rotations), (9839, 236136));
    let westen = PolyConfig {
        redundancy: Some(RedundancyMode::parse("rot:L").unwrap()),
        schedule: sched("dlx:min-fit,mch@11,emch@6,debruijn@4"),
        parity_trigger: Some(Threshold::From(1)),
        threads: 2,
        ..base()
    };
    assert_eq!(counts(&inst, "poly", westen, Equivalence::Rotations), (9839, 236136));
}

/// Seconds in release: the solid pentominoes in 3x4x5 (Bouwkamp's 3940 up
/// to rotation and reflection) with `auto` (piece chosen by estimate: X)
/// and with the static choice (I).
#[test]
#[ignore]
fn solid_pentominoes_3x4x5() {
    let inst = load("solid_pentominoes_3x4x5_def.txt");
    let engine = backend::make("poly", &inst, &BackendConfig { poly: base(), ..BackendConfig::default() }).unwrap();
    assert!(engine.describe().contains("mirror redundancy on X"), "{}", engine.describe());
    assert_eq!(counts(&inst, "poly", base(), Equivalence::RotationsAndMirrors), (3940, 31520));
    let static_choice = PolyConfig { redundancy: Some(RedundancyMode::parse("mirror:I").unwrap()), ..base() };
    assert_eq!(counts(&inst, "poly", static_choice, Equivalence::Rotations), (7880, 31520));
}

/// The 10x6 pentominoes without the redundancy filter (every engine
/// searches all 9356 solutions).
#[test]
#[ignore]
fn pentominoes_10x6_without_redundancy() {
    let inst = load("pentominoes_10x6_def.txt");
    for s in ["debruijn", "emch", "mch", "dlx:x,min-fit@8,debruijn@4"] {
        let cfg = PolyConfig { schedule: sched(s), redundancy: Some(RedundancyMode::Off), ..base() };
        assert_eq!(counts(&inst, "poly", cfg, Equivalence::Rotations), (2339, 9356), "{s}");
    }
}

mod cli {
    use crate::repo_path;
    use std::process::{Command, Output};

    fn emx(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
    }

    fn json(out: &Output) -> serde_json::Value {
        let text = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    /// The bottom of the hole kernel's tree over subtree image sets
    /// (AVX-512, `hole_kernel/universe.rs`) searches the tree of the AVX2
    /// kernel (`EMX_NO_AVX512` keeps that one throughout): the same nodes
    /// and counts, every solution verified by the solve loop, on puzzles
    /// where the sets take over at 8 pieces left, one and two threads.
    #[test]
    fn set_search_has_the_kernel_tree() {
        let run = |file: &str, extra: &[&str], plain: bool| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_emx"));
            cmd.args(["solve", file, "-q", "--format", "json"]).args(extra).current_dir(repo_path(""));
            if plain {
                cmd.env("EMX_NO_AVX512", "1");
            } else {
                cmd.env_remove("EMX_NO_AVX512");
            }
            let v = json(&cmd.output().unwrap());
            assert_eq!(v["complete"], true, "{v}");
            (v["nodes"].as_u64().unwrap(), v["found"].as_u64().unwrap(), v["solutions"].clone())
        };
        for (file, extra, found) in [
            ("instances/polycube/solid_pentominoes_2x5x6_def.txt", &["--unique"][..], 2112),
            ("instances/polycube/solid_pentominoes_2x3x10_def.txt", &["--unique", "--redundancy", "off"][..], 96),
            ("instances/polycube/solid_pentominoes_3x4x5_def.txt", &["--unique", "--threads", "2"][..], 31520),
        ] {
            let sets = run(file, extra, false);
            let kernel = run(file, extra, true);
            assert_eq!(sets.1, found, "{file}");
            assert_eq!(sets, kernel, "{file} {extra:?}: set search against the AVX2 kernel");
        }
    }

    /// Splits Soma at depth 2, solves every part (`--all` or a count) and
    /// merges: the merge's JSON.
    fn soma_split_solve_merge(tag: &str, all: bool) -> serde_json::Value {
        let args: &[&str] = if all { &["--all"] } else { &[] };
        let (summary, merged) =
            crate::split_solve_merge("instances/polycube/somacube_def.txt", "2", args, &format!("soma-{tag}"));
        assert_eq!(summary["kind"], "polycube");
        merged
    }

    #[test]
    fn split_solve_merge_gives_the_counts() {
        let v = soma_split_solve_merge("all", true);
        assert_eq!(v["merged"]["fixed_box"], 11520);
        assert_eq!(v["merged"]["unique_mirror"], 240);
    }

    /// Count-mode part results list only their first solution: the merge
    /// adds the counts and claims no classes (the classes of those first
    /// solutions would be 20 for Soma instead of 240).
    #[test]
    fn merge_of_counts_claims_no_classes() {
        let v = soma_split_solve_merge("count", false);
        assert_eq!(v["merged"]["fixed_box"], 11520);
        assert!(v["merged"]["unique_mirror"].is_null() && v["merged"]["unique"].is_null(), "{v}");
    }

    /// Busche's test case HP, the 35 hexominoes in a 15x14 parallelogram:
    /// the images in the box are his program's (its `BOUNDED=28968` is
    /// 28 967 images and the stationary cells, after its redundancy filter
    /// took 115 of the straight piece A's 230), and Monte-Carlo trials with
    /// his HP-12 dive (x, then min-fit from 22 pieces left) find the same
    /// verified solutions whatever engine searches below the dive.
    #[test]
    fn hexomino_parallelogram_matches_busche_and_samples_alike() {
        let hp = "instances/polycube/hexominoes_parallelogram_15x14_def.txt";
        let info = json(&emx(&["info", hp, "--format", "json"]));
        assert_eq!(info["options"], 28_967 + 115, "{info}");
        assert_eq!(info["box_rotations"], 2, "a parallelogram keeps only its half turn: {info}");
        let mut found = Vec::new();
        for bottom in ["emch+6@15", "debruijn@15"] {
            let schedule = format!("dlx:x,dlx:min-fit@22,{bottom}");
            let out = emx(&[
                "solve",
                hp,
                "--schedule",
                &schedule,
                "--redundancy",
                "rot:A",
                "--volume-filter",
                "off",
                "--parity-filter",
                "off",
                "--sample",
                "12,16,5",
                "--format",
                "json",
            ]);
            assert_eq!(out.status.code(), Some(0), "{bottom}: {}", String::from_utf8_lossy(&out.stderr));
            let v = json(&out);
            assert!(v["engine"].as_str().unwrap().contains("rotational redundancy on A (115 of 230 images)"), "{v}");
            found.push((v["sample"]["trials"].clone(), v["sample"]["solutions"].clone()));
        }
        assert!(found[0].1.as_u64().unwrap() > 0, "{found:?}");
        assert_eq!(found[0], found[1]);
    }

    #[test]
    fn flags_act_or_are_rejected() {
        let soma = "instances/polycube/somacube_def.txt";
        // A usage mistake: exit 2, like every other bad command line.
        let out = emx(&["solve", soma, "--backend", "dlx", "--schedule", "mch"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--schedule"));
        let out = emx(&["solve", soma, "--schedule", "dlx,mcx@3"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("`mcx@3`"));
        let out = emx(&["solve", soma, "--schedule", "emch", "--format", "json", "--unique"]);
        let v = json(&out);
        assert_eq!((v["solutions"].as_u64(), v["found"].as_u64()), (Some(480), Some(11520)));
        assert!(v["engine"].as_str().unwrap().starts_with("poly emch"), "{v}");
        let out = emx(&["solve", soma, "--threads", "2", "--format", "json"]);
        assert_eq!(json(&out)["solutions"], 11520);
        let out = emx(&["solve", soma, "--sample", "20,3,7", "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(json(&out)["sample"]["trials"], 20);
        let two = emx(&["solve", soma, "--sample", "20,3,7", "--threads", "2", "--format", "json"]);
        assert_eq!(two.status.code(), Some(0), "{}", String::from_utf8_lossy(&two.stderr));
        for field in ["trials", "solutions", "nodes"] {
            assert_eq!(json(&two)["sample"][field], json(&out)["sample"][field], "{field}");
        }
        // The estimate on two threads: the same probes, the same figures
        // (the rate apart), and a rate measured on two threads.
        let out = emx(&["solve", soma, "--estimate", "300", "--format", "json"]);
        let two = emx(&["solve", soma, "--estimate", "300", "--threads", "2", "--format", "json"]);
        assert_eq!(two.status.code(), Some(0), "{}", String::from_utf8_lossy(&two.stderr));
        assert!(json(&out)["estimate"]["nodes"].as_f64().unwrap() > 0.0);
        for field in ["probes", "nodes", "nodes_stderr", "solutions", "per_depth"] {
            assert_eq!(json(&two)["estimate"][field], json(&out)["estimate"][field], "{field}");
        }
        assert_eq!((json(&out)["threads"].as_u64(), json(&two)["threads"].as_u64()), (Some(1), Some(2)));
        assert!(json(&two)["estimate"]["nodes_per_sec"].as_f64().unwrap() > 0.0);
        // Probes are not a search: node and solution limits are refused, a
        // time limit ends the probes (exit 3, the estimate of those made).
        for limit in ["--node-limit", "--solution-limit"] {
            let out = emx(&["solve", soma, "--estimate", "50", limit, "10"]);
            assert_eq!(out.status.code(), Some(2), "{limit}");
            assert!(String::from_utf8_lossy(&out.stderr).contains("do not apply"), "{limit}");
        }
        let out = emx(&["solve", soma, "--estimate", "1000000000", "--time-limit", "0.3", "--threads", "2"]);
        assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("stopped: time limit (the estimate of ") && text.contains("of 1000000000 probes)"),
            "{text}"
        );
        assert!(text.contains("on 2 threads"), "{text}");
        let out = emx(&["solve", soma, "--sample", "20,3"]);
        assert_ne!(out.status.code(), Some(0));
    }
}

/// `auto` on flat boxes: the redundancy filter constrains a piece it
/// confines to the early part of de Bruijn's order, which DLX places first
/// (X on the 10x6, the static choice; X on the one-sided 30x3, found by
/// trying the pieces where the static choice, V, is not confined). Counts
/// as DLX's.
#[test]
fn auto_flat_schedule_follows_the_constrained_piece() {
    for (name, expect, want) in [
        ("pentominoes_10x6_def.txt", "poly dlx:min-fit,debruijn@11, mirror redundancy on X", (2339, 9356)),
        ("pentominoes_onesided_30x3_def.txt", "poly dlx:min-fit,debruijn@17, mirror redundancy on X", (46, 184)),
    ] {
        let inst = load(name);
        let config = BackendConfig { poly: base(), ..BackendConfig::default() };
        let engine = backend::make("poly", &inst, &config).unwrap();
        assert!(engine.describe().starts_with(expect), "{name}: {}", engine.describe());
        let unique = counts(&inst, "poly", base(), Equivalence::Rotations).0;
        let fixed = counts(&inst, "poly", base(), Equivalence::None).0;
        assert_eq!((unique, fixed), want, "{name}");
    }
}

/// `Images::check` (what `auto` asks before taking a problem) accepts what
/// `Images::from_problem` accepts and rejects what it rejects, with the
/// same message.
#[test]
fn images_check_agrees_with_from_problem() {
    use emx::poly::model::Images;
    for name in ["pentominoes_10x6_def.txt", "somacube_def.txt", "pentominoes_onesided_30x3_def.txt"] {
        let inst = load(name);
        let n = Images::check(inst.problem()).unwrap();
        assert_eq!(n, Images::from_problem(inst.problem(), CellOrder::default()).unwrap().n_cells, "{name}");
    }
    let inst = load("somacube_def.txt");
    let mut no_geometry = inst.problem().clone();
    no_geometry.geometry = None;
    let mut shuffled = inst.problem().clone();
    shuffled.geometry.as_mut().unwrap().placements[3].cells.reverse();
    for p in [no_geometry, shuffled] {
        let err = Images::check(&p).unwrap_err();
        assert_eq!(err, Images::from_problem(&p, CellOrder::default()).unwrap_err());
    }
}
