//! `--backend cp` through the CLI: counts, the `--cp` grammar, errors.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

const P4: &str = "instances/edgematch/brendan_set2/pieces_04x04.txt";

#[test]
fn cp_counts_and_reports_its_counters() {
    for spec in ["default", "basic", "no-backjump,no-shaving,heuristic=min-offer", "no-edge-filter,no-symmetry"] {
        let out = emx(&["solve", P4, "--backend", "cp", "--cp", spec, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{spec}: {}", String::from_utf8_lossy(&out.stderr));
        let v = json(&out);
        assert_eq!(v["solutions"], 48, "{spec}");
        assert!(v["engine"].as_str().unwrap().starts_with("cp "), "{v}");
        assert!(v["counters"]["backjumps"].is_u64());
    }
    let out = emx(&["solve", P4, "--backend", "cp", "--unique", "--format", "json"]);
    assert_eq!(json(&out)["solutions"], 12);
    // Every configuration estimates its tree (the progress line's estimate),
    // dead ends included.
    for spec in ["no-edge-filter,no-symmetry", "basic"] {
        let out = emx(&["solve", P4, "--backend", "cp", "--cp", spec, "--estimate", "500", "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{spec}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(json(&out)["estimate"]["nodes"].as_f64().is_some_and(|n| n > 0.0), "{spec}");
    }
    let out = emx(&["solve", P4, "--backend", "cp", "--first", "1"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("counters: backjumps"));
}

#[test]
fn cp_flag_errors() {
    let out = emx(&["solve", P4, "--backend", "cp", "--cp", "no-backjmp"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad --cp item `no-backjmp`: unknown component"), "{err}");
    let out = emx(&["solve", P4, "--backend", "dlx", "--cp", "no-shaving"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cp configures the cp backend"));
    let out = emx(&["solve", "instances/polycube/somacube_def.txt", "--backend", "cp"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("edge-matching puzzles only"));
}

#[test]
fn cp_runs_on_threads() {
    for threads in ["1", "2", "3"] {
        let out = emx(&["solve", P4, "--backend", "cp", "--threads", threads, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{threads}: {}", String::from_utf8_lossy(&out.stderr));
        let v = json(&out);
        assert_eq!(v["solutions"], 48, "--threads {threads}");
        if threads != "1" {
            assert_eq!(v["counters"]["threads"].to_string(), threads, "{v}");
        }
    }
    // Limits stop every worker; the run reports what it found (exit 3).
    let out = emx(&["solve", P4, "--backend", "cp", "--threads", "2", "--solution-limit", "5"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("at least 5"));
    let out = emx(&["solve", P4, "--backend", "cp", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads needs at least 1"));
    // A re-chosen branching cannot be replayed by a worker: refused, not run.
    let out = emx(&["solve", P4, "--backend", "cp", "--threads", "2", "--cp", "refutation,rechoose"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("runs on one thread only"));
    // A backend without threads says which ones have them.
    let out = emx(&["solve", P4, "--backend", "dlx", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cp and scan") && err.contains("runs on one thread"), "{err}");
    // scan splits its tree: the same boards and the same nodes as one thread.
    let one = emx(&["solve", P4, "--backend", "scan", "--format", "json"]);
    let two = emx(&["solve", P4, "--backend", "scan", "--threads", "2", "--format", "json"]);
    let (one, two) = (json(&one), json(&two));
    assert_eq!((&one["solutions"], &one["nodes"]), (&two["solutions"], &two["nodes"]), "{two}");
}

#[test]
fn scan_breaks_board_rotations_unless_told_not_to() {
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", P4, "--backend", "scan", "--count", "--format", "json"];
        args.extend_from_slice(extra);
        json(&emx(&args))
    };
    let (broken, plain) = (solve(&[]), solve(&["--scan", "no-symmetry"]));
    // The same 48 boards (each found once and reported with its three
    // rotations), in fewer nodes.
    assert_eq!((&broken["solutions"], &plain["solutions"]), (&48.into(), &48.into()), "{broken}");
    assert!(broken["nodes"].as_u64().unwrap() < plain["nodes"].as_u64().unwrap(), "{broken} {plain}");
    let unique = solve(&["--unique"]);
    assert_eq!(unique["solutions"], 12, "{unique}");
    // Bad settings and settings for a backend that does not run: errors.
    let out = emx(&["solve", P4, "--backend", "scan", "--scan", "mirror"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown scan setting `mirror`"));
    let out = emx(&["solve", P4, "--backend", "cp", "--scan", "no-symmetry"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --backend scan"));
}

#[test]
fn scan_runs_its_rows_along_the_shorter_side_unless_told_not_to() {
    // Set-2 7x4 is 4 rows of 7: scan searches it turned a quarter (rows of
    // 4). The same 76 boards in fewer nodes; the
    // search line says so.
    let wide = "instances/edgematch/brendan_set2/pieces_07x04.txt";
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", wide, "--backend", "scan", "--all", "--format", "json"];
        args.extend_from_slice(extra);
        let out = emx(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        json(&out)
    };
    let (short, long) = (solve(&[]), solve(&["--scan", "no-short-rows"]));
    assert_eq!((&short["solutions"], &long["solutions"]), (&76.into(), &76.into()), "{short}");
    // The same boards (emx verifies each against the puzzle before it
    // prints it), found in another order.
    let boards = |out: &serde_json::Value| {
        let mut v: Vec<String> = out["solution_list"].as_array().unwrap().iter().map(|b| b.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(boards(&short), boards(&long));
    assert!(short["nodes"].as_u64().unwrap() * 4 < long["nodes"].as_u64().unwrap(), "{short} {long}");
    assert!(short["engine"].as_str().unwrap().contains("(4 x 7 turned a quarter: rows of 4"), "{short}");
    assert!(!long["engine"].as_str().unwrap().contains("turned"), "{long}");
}

/// Two parts of set-2 8x8's `emx split --depth 8` (docs/engines.md, "scan"):
/// part 1445 holds a board (the one part with a board among the first
/// 13 630), part 12386 none, small enough for DLX. cp's default (the root
/// walk after `bottom=auto`'s estimates), scan and, on the small part, DLX
/// and cp's search with its walker (`bottom=60%`) find the same boards;
/// cp also with two threads and under a node limit, `--first 1`.
#[test]
fn cp_equals_scan_and_dlx_on_set2_8x8_parts() {
    let dir = "tests/data/edgematch/set2_8x8_parts";
    let boards = |part: &str, extra: &[&str]| {
        let f = format!("{dir}/{part}.txt");
        let mut args = vec!["solve", f.as_str(), "--all", "--format", "json"];
        args.extend_from_slice(extra);
        let out = emx(&args);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        let v = json(&out);
        assert_eq!(v["complete"], true, "{extra:?}: {v}");
        let mut list: Vec<String> = v["solution_list"].as_array().unwrap().iter().map(|b| b.to_string()).collect();
        list.sort();
        (v["solutions"].as_u64().unwrap(), list)
    };
    let scan = boards("part-001445", &["--backend", "scan"]);
    assert_eq!(scan.0, 1, "the part's board");
    for extra in [&["--backend", "cp"][..], &["--backend", "cp", "--threads", "2"]] {
        assert_eq!(boards("part-001445", extra), scan, "{extra:?}");
    }
    let small = boards("part-012386", &["--backend", "dlx"]);
    assert_eq!(small.0, 0);
    let searched = ["--backend", "cp", "--cp", "bottom=60%"];
    for extra in [&["--backend", "scan"][..], &["--backend", "cp"], &["--backend", "cp", "--threads", "2"], &searched] {
        assert_eq!(boards("part-012386", extra), small, "{extra:?}");
    }
    // Limits: the first board, and a node limit that stops the walk.
    let f = format!("{dir}/part-001445.txt");
    let out = emx(&["solve", &f, "--backend", "cp", "--first", "1", "--format", "json"]);
    assert_eq!(json(&out)["solutions"], 1);
    let out = emx(&["solve", &f, "--backend", "cp", "--node-limit", "100000", "--format", "json"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    assert_eq!((v["complete"].as_bool(), v["counters"]["root_walk"].as_u64()), (Some(false), Some(1)), "{v}");
}
