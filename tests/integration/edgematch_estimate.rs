//! `emx solve --estimate` on edge matching: Knuth's estimators of cp and
//! scan are unbiased (the mean over many probes lies within a few standard
//! errors of the real node and board counts), and the CLI prints them.

use crate::repo_path;
use emx::backend::{self, BackendConfig};
use emx::input::{self, Instance};
use emx::search::{Engine, Flow, Limits};
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn set2(n: &str) -> String {
    format!("instances/edgematch/brendan_set2/pieces_{n}.txt")
}

/// The real node count and boards found (before their images) of `engine`,
/// and its estimate from `probes` probes (seed 5): both within `sigmas`
/// standard errors (plus one node or board for the rounding of tiny trees);
/// the boards only with `boards` (a probe reaching a board is rare: on a
/// generated 6x6, one of about 6 million of scan's probes).
fn assert_unbiased(what: &str, engine: &mut dyn Engine, probes: u64, sigmas: f64, check_boards: bool) {
    let mut boards = 0u64;
    let stats = engine.run(&Limits::none(), &mut |_| {
        boards += 1;
        Flow::Continue
    });
    assert!(stats.complete() && boards > 0, "{what}");
    let found = boards as f64 / engine.solution_weight() as f64;
    let est = engine.knuth_estimate(probes, 5).unwrap();
    let again = engine.knuth_estimate(probes, 5).unwrap();
    assert_eq!((est.nodes, est.solutions), (again.nodes, again.solutions), "{what}: same seed, same estimate");
    let msg = format!("{what}: estimate {est:?} against {} nodes, {found} boards found", stats.nodes);
    assert!((est.nodes - stats.nodes as f64).abs() <= sigmas * est.nodes_stderr + 1.0, "{msg}");
    if check_boards {
        assert!((est.solutions - found).abs() <= sigmas * est.solutions_stderr + 1.0, "{msg}");
    }
    let by_depth: f64 = est.per_depth.iter().sum();
    assert!((by_depth - est.nodes).abs() <= 1e-9 * est.nodes, "{msg}: nodes by depth add up");
    // The engine runs the same tree after estimating.
    assert_eq!(engine.run(&Limits::none(), &mut |_| Flow::Continue).nodes, stats.nodes, "{what}");
}

/// cp without its completion walker (`bottom=0`): Knuth's estimator models
/// cp's own branching, not the walker's.
fn engines(inst: &Instance) -> Vec<(&'static str, Box<dyn Engine + '_>)> {
    let cfg =
        BackendConfig { cp: emx::edgematch::cp::CpConfig::parse("bottom=0").unwrap(), ..BackendConfig::default() };
    ["cp", "scan"].into_iter().map(|b| (b, backend::make(b, inst, &cfg).unwrap())).collect()
}

#[test]
fn estimates_are_unbiased_on_set2() {
    for n in ["04x04", "05x05", "06x04"] {
        let inst = input::load(&repo_path(&set2(n)), None, 1).unwrap();
        for (b, mut engine) in engines(&inst) {
            // cp's trees have a few hundred nodes, few probes reach a board;
            // scan's probes are cheap, and few reach a board.
            let probes = if b == "cp" { 20_000 } else { 1_000_000 };
            assert_unbiased(&format!("set-2 {n} {b}"), engine.as_mut(), probes, 4.0, true);
        }
    }
}

#[test]
fn estimates_are_unbiased_on_a_generated_6x6() {
    let scratch = crate::Scratch::new("estimate-6x6");
    let file = scratch.join("g6.txt");
    let out =
        emx(&["generate", "edgematch", "--size", "6", "--colors", "5", "--seed", "8", "-o", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let inst = input::load(&file, None, 1).unwrap();
    for (b, mut engine) in engines(&inst) {
        // 144 boards; cp: 286 nodes, scan: 525 171. One in about 6 million
        // of scan's probes reaches a board (30 million give 29.9 +- 13.4
        // boards found against 36): its board estimate is checked on set-2.
        let (probes, boards) = if b == "cp" { (200_000, true) } else { (1_000_000, false) };
        assert_unbiased(&format!("generated 6x6 K=5 {b}"), engine.as_mut(), probes, 4.0, boards);
    }
}

#[test]
fn estimate_prints_text_and_json() {
    let p = set2("05x05");
    for b in ["cp", "scan", "auto"] {
        let out = emx(&["solve", &p, "--backend", b, "--estimate", "200,3"]);
        assert_eq!(out.status.code(), Some(0), "{b}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        for want in [
            "Knuth's estimate of the full search",
            "probes: 200 (seed 3)",
            "search: about ",
            "boards: ",
            "time: about",
            "nodes by cells filled: ",
        ] {
            assert!(text.contains(want), "{b}: no `{want}` in {text}");
        }
        let out = emx(&["solve", &p, "--backend", b, "--estimate", "200,3", "--format", "json"]);
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((v["mode"].as_str(), v["kind"].as_str()), (Some("estimate"), Some("edgematch")), "{v}");
        assert_eq!(v["estimate"]["probes"], 200);
        assert!(
            v["estimate"]["nodes"].as_f64().unwrap() > 0.0 && v["estimate"]["nodes_per_sec"].as_f64().unwrap() > 0.0
        );
        assert_eq!(v["boards_per_solution"], 4, "{v}");
        let engine = v["engine"].as_str().unwrap();
        // `auto` estimates the engine it picks (scan on set-2 5x5).
        assert!(engine.starts_with(if b == "cp" { "cp " } else { "scan " }), "{b}: {engine}");
    }
}

#[test]
fn estimate_refusals() {
    let p = set2("04x04");
    for (extra, want) in [
        (&["--all"][..], "drop --all/--first/--unique"),
        (&["--unique"][..], "drop --all/--first/--unique"),
        (&["--first", "2"][..], "drop --all/--first/--unique"),
        (&["--format", "svg"][..], "draws nothing"),
        (&["--threads", "2"][..], "runs on one thread"),
        (&["--time-limit", "1"][..], "takes no limit"),
        (&["--node-limit", "100"][..], "takes no limit"),
        (&["--sample", "10,2,1"][..], "--sample"),
    ] {
        let mut args = vec!["solve", &p, "--backend", "scan", "--estimate", "100"];
        args.extend_from_slice(extra);
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    let out = emx(&["solve", &p, "--backend", "cp", "--estimate", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("PROBES must be at least 1"));
    // DLX does not estimate; --estimate there is refused as before.
    let out = emx(&["solve", &p, "--backend", "dlx", "--estimate", "100"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("backend `dlx`"));
}
