//! Encoders: clique graphs (Salassa et al. Table 1), CNF with varisat and
//! external solvers, .dlx both ways, MILP export, decoding, writer
//! snapshots and malformed-answer errors.

use crate::{repo_path, snapshot};
use emx::backend::{self, BackendConfig};
use emx::encode::{clique, cnf, restrict};
use emx::input::{self, Instance, InstanceKind};
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions};
use emx_encoders::{AmoEncoding, CardEncoding, CnfOptions, ColorChoice, ColorEncoding, ExactlyOneOver};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn load(rel: &str) -> Instance {
    input::load(&repo_path(rel), None, 1).unwrap()
}

fn set2(n: usize) -> String {
    format!("instances/edgematch/brendan_set2/pieces_{n:02}x{n:02}.txt")
}

fn tmp_dir(tag: &str) -> crate::Scratch {
    crate::Scratch::new(&format!("enc-{tag}"))
}

/// A solver binary on PATH (or kissat from `pip install passagemath-kissat`).
fn find_solver(name: &str) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| p.is_file()));
    if on_path.is_some() || name != "kissat" {
        return on_path;
    }
    let out = Command::new("python3")
        .args(["-c", "import site,os;print('\\n'.join(os.path.join(p,'sage_wheels','bin','kissat') for p in site.getsitepackages()))"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).lines().map(PathBuf::from).find(|p| p.is_file())
}

/// Runs the `sat` back-end and returns (solutions reported, complete).
fn sat_count(instance: &Instance, solver: Option<&Path>, mode: Mode, cnf: CnfOptions) -> u64 {
    let config = BackendConfig { sat_solver: solver.map(|p| p.display().to_string()), cnf, ..BackendConfig::default() };
    let mut engine = backend::make("sat", instance, &config).unwrap();
    let opts = SolveOptions { mode: Some(mode), limits: Limits::none(), ..SolveOptions::default() };
    let report = solve(engine.as_mut(), instance.problem(), &opts, &|s| instance.verify(s)).unwrap();
    assert_eq!(engine.error(), None);
    report.reported
}

fn dlx_count(instance: &Instance) -> u64 {
    let mut engine = backend::make("dlx", instance, &BackendConfig::default()).unwrap();
    let report = solve(engine.as_mut(), instance.problem(), &SolveOptions::default(), &|s| instance.verify(s)).unwrap();
    report.reported
}

#[test]
fn clique_graphs_reproduce_salassa_table_1() {
    // Nodes and edges with the first corner tile pinned (SOURCES.md).
    let want =
        [(3, 30, 291), (4, 138, 6707), (5, 478, 86183), (6, 1290, 674511), (7, 2910, 3620565), (8, 5770, 14751304)];
    for (n, nodes, edges) in want {
        let inst = load(&set2(n));
        let InstanceKind::EdgeMatch(e) = &inst.kind else { panic!() };
        // The IR merges rotations of a tile that look alike; set 2 has no
        // such tile, so every inner tile has 4 options per inner cell and the
        // node count is 10 + (4(n-2))^2 + 4(n-2)^4 as in Salassa's
        // (tile, cell, rotation) nodes, for that reason and no other.
        assert!(e.puzzle.tiles.iter().all(|t| (1..4).all(|r| t.rotated(r) != t.0)), "{n}x{n}");
        let k = (n - 2) as u32;
        assert_eq!(10 + (4 * k) * (4 * k) + 4 * k.pow(4), nodes);
        let pin = restrict::pin_first_corner(&e.puzzle, inst.problem()).unwrap();
        let g = clique::graph(inst.problem(), &pin.excluded).unwrap();
        assert_eq!(g.n_nodes(), nodes, "{n}x{n} nodes");
        assert_eq!(g.count_edges(), edges, "{n}x{n} edges");
    }
}

#[test]
fn clique_edges_agree_with_the_pairwise_rule() {
    for rel in [set2(4), "tests/data/encoders/identical_4x3.txt".to_string()] {
        let inst = load(&rel);
        let g = clique::graph(inst.problem(), &[]).unwrap();
        let mut fast = Vec::new();
        g.for_each_edge(&mut |u, v| fast.push((u, v)));
        let n = g.n_nodes();
        let slow: Vec<(u32, u32)> =
            (0..n).flat_map(|u| (u + 1..n).map(move |v| (u, v))).filter(|&(u, v)| g.adjacent(u, v)).collect();
        assert_eq!(fast, slow, "{rel}");
    }
}

#[test]
fn cliquer_finds_boards_that_decode() {
    let Some(cliquer) = find_solver("cliquer") else {
        println!("SKIP cliquer_finds_boards_that_decode: cliquer is not installed (apt-get install cliquer)");
        return;
    };
    let dir = tmp_dir("cliquer");
    for n in [3usize, 4] {
        let graph = dir.join(format!("g{n}.clq"));
        let out = emx(&["encode", &set2(n), "--to", "clique", "--pin-first-corner", "-o", graph.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let size = (n * n).to_string();
        let found = Command::new(&cliquer).args(["-q", "-q", "-m", &size, "-M", &size]).arg(&graph).output().unwrap();
        let clique_file = dir.join(format!("c{n}.txt"));
        std::fs::write(&clique_file, &found.stdout).unwrap();
        let map = format!("{}.map", graph.display());
        let out = emx(&["decode", &set2(n), "--clique", clique_file.to_str().unwrap(), "--map", &map]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(&format!("(size {})", n * n)) && text.contains("verified solution"), "{text}");
        // Without the map, the same flags number the nodes the same way.
        let out = emx(&["decode", &set2(n), "--clique", clique_file.to_str().unwrap(), "--pin-first-corner"]);
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn varisat_solves_pentominoes_soma_and_set2_5x5() {
    for rel in ["instances/polycube/pentominoes_10x6_def.txt", "instances/polycube/somacube_def.txt", &set2(5)] {
        let inst = load(rel);
        assert_eq!(sat_count(&inst, None, Mode::First(1), CnfOptions::default()), 1, "{rel}");
    }
}

#[test]
fn external_solvers_solve_pentominoes_soma_and_set2_5x5() {
    for name in ["cadical", "kissat", "minisat"] {
        let Some(path) = find_solver(name) else {
            println!("SKIP external solver {name}: not installed (cadical/minisat: apt-get; kissat: pip install passagemath-kissat)");
            continue;
        };
        for rel in ["instances/polycube/pentominoes_10x6_def.txt", "instances/polycube/somacube_def.txt", &set2(5)] {
            let inst = load(rel);
            assert_eq!(sat_count(&inst, Some(&path), Mode::First(1), CnfOptions::default()), 1, "{name} {rel}");
        }
    }
}

/// Every at-most-one and colour encoding with the default settings
/// otherwise; every primary / colour-choice setting with the pairwise and
/// sequential at-most-one; colour variables without support clauses with
/// the sequential one.
fn cnf_encodings() -> Vec<CnfOptions> {
    let mut out = Vec::new();
    let d = CnfOptions::default();
    for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential, AmoEncoding::Commander, AmoEncoding::Product] {
        for colors in [ColorEncoding::Conflicts, ColorEncoding::Variables] {
            for exactly_one_over in [ExactlyOneOver::Options, ExactlyOneOver::Sites] {
                for color_choice in [ColorChoice::AtMostOne, ColorChoice::ExactlyOne] {
                    for color_support in [true, false] {
                        let opts =
                            CnfOptions { amo, colors, exactly_one_over, color_choice, color_support, ..d.clone() };
                        let non_default = exactly_one_over != d.exactly_one_over || color_choice != d.color_choice;
                        let skip = (colors == ColorEncoding::Conflicts
                            && (color_choice != d.color_choice || color_support != d.color_support))
                            || (non_default && !matches!(amo, AmoEncoding::Pairwise | AmoEncoding::Sequential))
                            || (color_support != d.color_support && amo != AmoEncoding::Sequential);
                        if !skip {
                            out.push(opts);
                        }
                    }
                }
            }
        }
    }
    out
}

#[test]
fn sat_counts_equal_dlx_counts() {
    // Multiplicities (identical pieces), colours (edge matching), a bare .dlx.
    for rel in ["tests/data/encoders/identical_4x3.txt", "tests/data/encoders/knuth_colors.dlx", &set2(3), &set2(4)] {
        let inst = load(rel);
        let want = dlx_count(&inst);
        assert!(want > 0);
        for opts in cnf_encodings() {
            let what = format!("{rel} {opts:?}");
            assert_eq!(sat_count(&inst, None, Mode::Count, opts), want, "{what}");
        }
    }
    // Colour totals (edge matching only) with the colour settings they
    // combine with: every model still decodes to a verified board, and the
    // totals cut no solution.
    for rel in [set2(3), set2(4)] {
        let inst = load(&rel);
        let want = dlx_count(&inst);
        let totals = cnf::edge_color_totals(&inst).unwrap();
        assert!(!totals.is_empty());
        for base in totals_encodings() {
            let opts = CnfOptions { color_totals: totals.clone(), ..base };
            let what = format!("{rel} {opts:?}");
            assert_eq!(sat_count(&inst, None, Mode::Count, opts), want, "{what}");
        }
    }
    if let Some(cadical) = find_solver("cadical") {
        let inst = load(&set2(3));
        assert_eq!(sat_count(&inst, Some(&cadical), Mode::Count, CnfOptions::default()), 8);
    }
}

#[test]
fn every_cardinality_encoding_keeps_the_counts() {
    // Identical pieces (items covered 2 and 3 times) and the colour totals
    // of edge matching are the exactly-k the CNF writes; each encoding
    // gives DLX's count, in-process and through `emx solve --card`.
    let cards = [CardEncoding::Sequential, CardEncoding::Totalizer, CardEncoding::Network];
    for rel in ["tests/data/encoders/identical_4x3.txt", "tests/data/encoders/knuth_colors.dlx", &set2(4)] {
        let inst = load(rel);
        let want = dlx_count(&inst);
        let totals = cnf::edge_color_totals(&inst).unwrap_or_default();
        for card in cards {
            for amo in [AmoEncoding::Sequential, AmoEncoding::Pairwise] {
                let opts = CnfOptions { card, amo, color_totals: totals.clone(), ..CnfOptions::default() };
                assert_eq!(sat_count(&inst, None, Mode::Count, opts), want, "{rel} {card} {amo}");
            }
        }
    }
    for (rel, extra, want) in [
        ("tests/data/encoders/identical_4x3.txt", &[][..], "solutions: 40"),
        ("instances/edgematch/brendan_set2/pieces_04x04.txt", &["--color-totals", "on"][..], "solutions: 48"),
    ] {
        for card in CardEncoding::NAMES {
            let mut args = vec!["solve", rel, "--backend", "sat", "--card", card];
            args.extend_from_slice(extra);
            let out = emx(&args);
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{rel} {card}: {}", String::from_utf8_lossy(&out.stderr));
            assert!(text.lines().any(|l| l == want || l.starts_with(&format!("{want} ("))), "{rel} {card}: {text}");
            let out = emx(&["encode", rel, "--to", "cnf", "--card", card]);
            assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("; exactly-k: {card};")), "{rel} {card}");
        }
    }
}

/// Colour-variable settings tried with the colour totals.
fn totals_encodings() -> Vec<CnfOptions> {
    let d = CnfOptions::default();
    let mut out = Vec::new();
    for exactly_one_over in [ExactlyOneOver::Options, ExactlyOneOver::Sites] {
        for color_choice in [ColorChoice::AtMostOne, ColorChoice::ExactlyOne] {
            for color_support in [true, false] {
                out.push(CnfOptions {
                    colors: ColorEncoding::Variables,
                    exactly_one_over,
                    color_choice,
                    color_support,
                    ..d.clone()
                });
            }
        }
    }
    out
}

/// The CNF flags of `emx encode` / `emx solve --backend sat` that change the
/// clauses, each alone and in the combination closest to Heule's encodings.
const CNF_FLAG_SETS: [&[&str]; 9] = [
    &[],
    &["--exactly-one-over", "sites"],
    &["--color-choice", "exactly-one"],
    &["--color-support", "off"],
    &["--color-totals", "on"],
    &["--colors", "conflicts", "--exactly-one-over", "sites"],
    &["--exactly-one-over", "sites", "--color-choice", "exactly-one", "--color-totals", "on", "--color-support", "off"],
    &["--exactly-one-over", "sites", "--color-choice", "exactly-one", "--pin-first-corner"],
    &["--amo", "product", "--color-totals", "on", "--break-symmetry"],
];

#[test]
fn every_cnf_flag_set_gives_verified_boards() {
    // In-process: `emx solve --backend sat` decodes and verifies every model
    // (the board restrictions are `emx encode` flags only).
    for flags in CNF_FLAG_SETS.iter().filter(|f| !f.contains(&"--pin-first-corner") && !f.contains(&"--break-symmetry"))
    {
        let mut args = vec!["solve", "instances/edgematch/brendan_set2/pieces_04x04.txt", "--backend", "sat"];
        args.extend_from_slice(flags);
        let out = emx(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", String::from_utf8_lossy(&out.stderr));
        // Counting (the default mode): every one of the 48 boards (DLX's
        // count) verified.
        assert!(text.lines().any(|l| l == "solutions: 48" || l.starts_with("solutions: 48 (")), "{flags:?}: {text}");
    }
    // Through files: encode, an external solver, `emx decode --model`.
    let Some(cadical) = find_solver("cadical") else {
        println!("SKIP every_cnf_flag_set_gives_verified_boards (cadical part): cadical is not installed (apt-get install cadical)");
        return;
    };
    let dir = tmp_dir("flags");
    let puzzle = set2(5);
    for (i, flags) in CNF_FLAG_SETS.iter().enumerate() {
        let cnf_path = dir.join(format!("f{i}.cnf"));
        let mut args = vec!["encode", &puzzle, "--to", "cnf", "-o", cnf_path.to_str().unwrap()];
        args.extend_from_slice(flags);
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", String::from_utf8_lossy(&out.stderr));
        let answer = Command::new(&cadical).arg(&cnf_path).output().unwrap();
        assert_eq!(answer.status.code(), Some(10), "{flags:?}");
        let model = dir.join(format!("f{i}.model"));
        std::fs::write(&model, &answer.stdout).unwrap();
        // The model is checked against the CNF rebuilt with the same flags.
        let mut args = vec!["decode", &puzzle, "--model", model.to_str().unwrap()];
        args.extend_from_slice(flags);
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("verified solution"), "{flags:?}");
    }
}

#[test]
fn symmetry_breaking_keeps_one_solution_per_class() {
    // Soma: 11520 solutions in a fixed box; 240 up to rotation and reflection.
    let inst = load("instances/polycube/somacube_def.txt");
    // Mirror images fix the flat pieces and swap the chiral pair, so the
    // break falls back to the 24 rotations: 480 classes.
    let (_, r, order) = restrict::break_symmetry(inst.problem()).expect("soma has a piece the rotations move freely");
    assert_eq!(order, 24);
    let opts = CnfOptions { excluded: r.excluded.clone(), ..CnfOptions::default() };
    let dir = tmp_dir("sym");
    let dlx = dir.join("soma.dlx");
    let out = emx(&[
        "encode",
        "instances/polycube/somacube_def.txt",
        "--to",
        "dlx",
        "--break-symmetry",
        "-o",
        dlx.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(dlx_count(&input::load(&dlx, None, 1).unwrap()), 480);
    // Edge matching 4x4: 48 boards, 12 up to rotation; pinning the first
    // corner and the generic break both leave 12.
    let e4 = load(&set2(4));
    let InstanceKind::EdgeMatch(e) = &e4.kind else { panic!() };
    let pin = restrict::pin_first_corner(&e.puzzle, e4.problem()).unwrap();
    let (_, sym, order) = restrict::break_symmetry(e4.problem()).unwrap();
    assert_eq!(order, 4);
    for excluded in [pin.excluded, sym.excluded] {
        let opts4 = CnfOptions { excluded, ..CnfOptions::default() };
        let enc = cnf::encode(e4.problem(), &opts4).unwrap();
        let mut solver = varisat::Solver::new();
        for c in enc.cnf.clauses() {
            let lits: Vec<varisat::Lit> = c.iter().map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize)).collect();
            varisat::ExtendFormula::add_clause(&mut solver, &lits);
        }
        let mut count = 0;
        while solver.solve().unwrap() {
            let model = solver.model().unwrap();
            let chosen: Vec<varisat::Lit> =
                model.iter().filter(|l| l.is_positive() && l.index() < e4.problem().n_options()).map(|&l| !l).collect();
            varisat::ExtendFormula::add_clause(&mut solver, &chosen);
            count += 1;
        }
        assert_eq!(count, 12);
    }
    assert!(!opts.excluded.is_empty());
}

#[test]
fn dlx_export_round_trips() {
    let dir = tmp_dir("dlx");
    for (rel, count) in [
        ("instances/polycube/somacube_def.txt", 11520u64),
        ("tests/data/encoders/identical_4x3.txt", 40),
        (&set2(4), 48),
    ] {
        let out_path = dir.join("x.dlx");
        let out = emx(&["encode", rel, "--to", "dlx", "-o", out_path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        let inst = input::load(&out_path, None, 1).unwrap();
        assert!(matches!(inst.kind, InstanceKind::Cover(_)));
        assert_eq!(dlx_count(&inst), count, "{rel}");
    }
    let out = emx(&["solve", "tests/data/encoders/knuth_colors.dlx", "--all"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("A C X:1 Y:1\nB X:1\nC Y:1\n"), "{text}");
    assert!(text.contains("solutions: 2"), "{text}");
}

#[test]
fn cnf_model_from_cadical_decodes() {
    let Some(cadical) = find_solver("cadical") else {
        println!("SKIP cnf_model_from_cadical_decodes: cadical is not installed (apt-get install cadical)");
        return;
    };
    let dir = tmp_dir("model");
    let cnf_path = dir.join("p.cnf");
    let out = emx(&["encode", &set2(5), "--to", "cnf", "-o", cnf_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let answer = Command::new(cadical).arg(&cnf_path).output().unwrap();
    assert_eq!(answer.status.code(), Some(10));
    let model = dir.join("p.model");
    std::fs::write(&model, &answer.stdout).unwrap();
    let out = emx(&["decode", &set2(5), "--model", model.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified solution"));
}

#[test]
fn milp_export_matches_table_1_sizes() {
    // Salassa et al. Table 1, MILP variables and constraints.
    let want = [(3, 336, 126), (4, 1048, 288), (5, 2540, 630), (6, 5244, 1056), (7, 9688, 1638), (8, 16496, 2624)];
    for (n, vars, cons) in want {
        let inst = load(&set2(n));
        let InstanceKind::EdgeMatch(e) = &inst.kind else { panic!() };
        let stats = emx::encode::lp::write(&mut std::io::sink(), &e.puzzle, "").unwrap();
        assert_eq!((stats.variables, stats.constraints), (vars, cons), "{n}x{n}");
    }
}

#[test]
fn highs_solves_the_4x4_milp() {
    let script = repo_path("tests/scripts/highs_lp.py");
    let out =
        match Command::new("python3").arg(&script).arg(env!("CARGO_BIN_EXE_emx")).arg(repo_path(&set2(4))).output() {
            Ok(o) => o,
            Err(e) => {
                println!("SKIP highs_solves_the_4x4_milp: cannot run python3: {e}");
                return;
            }
        };
    let text = String::from_utf8_lossy(&out.stdout);
    if text.starts_with("SKIP") {
        println!("{}", text.trim());
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("OK: the HiGHS solution decodes to a verified board"), "{text}");
}

#[test]
fn writers_snapshot() {
    let dir = tmp_dir("snap");
    let tiny = "tests/data/encoders/tiny_2x2.txt";
    let set2_3 = set2(3);
    let cases: [(&str, &[&str]); 7] = [
        ("encode_cnf_tiny_2x2", &["encode", tiny, "--to", "cnf", "--amo", "pairwise"]),
        (
            "encode_cnf_sites_3x3",
            &[
                "encode",
                &set2_3,
                "--to",
                "cnf",
                "--amo",
                "pairwise",
                "--exactly-one-over",
                "sites",
                "--color-choice",
                "exactly-one",
                "--color-totals",
                "on",
            ],
        ),
        (
            "encode_cnf_conflicts_knuth",
            &["encode", "tests/data/encoders/knuth_colors.dlx", "--to", "cnf", "--colors", "conflicts"],
        ),
        ("encode_clique_tiny_2x2", &["encode", tiny, "--to", "clique", "--pin-first-corner"]),
        ("encode_clique_identical", &["encode", "tests/data/encoders/identical_4x3.txt", "--to", "clique"]),
        ("encode_dlx_identical", &["encode", "tests/data/encoders/identical_4x3.txt", "--to", "dlx"]),
        ("encode_lp_tiny_2x2", &["encode", tiny, "--to", "lp"]),
    ];
    for (name, args) in cases {
        let out = emx(args);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        snapshot!(name, String::from_utf8(out.stdout).unwrap());
    }
    let map = dir.join("t.map");
    let out = emx(&[
        "encode",
        tiny,
        "--to",
        "clique",
        "--pin-first-corner",
        "-o",
        dir.join("t.clq").to_str().unwrap(),
        "--map",
        map.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    snapshot!("encode_clique_map_tiny_2x2", std::fs::read_to_string(&map).unwrap());
}

#[test]
fn malformed_answers_give_file_line_errors() {
    let dir = tmp_dir("bad");
    let tiny = "tests/data/encoders/tiny_2x2.txt";
    let cases = [
        ("model", "s SATISFIABLE\nv 1 -2\n", "bad.model:2: the model is not terminated by 0"),
        ("model", "s SATISFIABLE\nv 1 q 0\n", "bad.model:2:5: expected a literal"),
        ("clique", "size=2, weight=2: 1 99\n", "bad.clique:1: expected a node number in 1..="),
        ("lp-solution", "x_1_1_1_9 1\n", "bad.lp-solution:1:1: variable `x_1_1_1_9` is outside the 2x2 puzzle"),
    ];
    for (kind, text, want) in cases {
        let path = dir.join(format!("bad.{kind}"));
        std::fs::write(&path, text).unwrap();
        let out = emx(&["decode", tiny, &format!("--{kind}"), path.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{kind}: {err}");
        assert!(err.contains(want), "{kind}: {err}");
    }
    // A well-formed model of the wrong puzzle falsifies its CNF, exit 2.
    let wrong = dir.join("wrong.model");
    std::fs::write(&wrong, "s SATISFIABLE\nv 1 2 0\n").unwrap();
    let out = emx(&["decode", tiny, "--model", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrong.model: the model falsifies clause "));
    let map = dir.join("bad.map");
    std::fs::write(&map, "1 0 0 x\n3 1 0 y\n").unwrap();
    std::fs::write(dir.join("c.txt"), "1\n").unwrap();
    let out = emx(&["decode", tiny, "--clique", dir.join("c.txt").to_str().unwrap(), "--map", map.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.map:2: expected node 2, found node 3"));
    // Unknown solver: a clear error, exit 2, no fallback.
    let out = emx(&["solve", tiny, "--sat-solver", "no-such-solver"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-solver"));
}

#[test]
fn cnf_flags_that_cannot_apply_are_refused() {
    let tiny = "tests/data/encoders/tiny_2x2.txt";
    let soma = "instances/polycube/somacube_def.txt";
    let cases: [(&[&str], &str); 4] = [
        (
            &["encode", tiny, "--to", "cnf", "--colors", "conflicts", "--color-choice", "exactly-one"],
            "--colors variables",
        ),
        (&["encode", tiny, "--to", "cnf", "--colors", "conflicts", "--color-support", "off"], "--colors variables"),
        (&["encode", tiny, "--to", "cnf", "--colors", "conflicts", "--color-totals", "on"], "--colors variables"),
        (&["encode", soma, "--to", "cnf", "--color-totals", "on"], "edge-matching puzzles only"),
    ];
    for (args, want) in cases {
        let out = emx(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}
