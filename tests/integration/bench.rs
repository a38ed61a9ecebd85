//! `emx bench` on the bundled instances in a short configuration (what CI
//! runs): its JSON, CSV, chart and exit codes.

use crate::render::assert_valid_svg;
use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\nstderr: {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    })
}

const STATUSES: &[&str] = &["solved", "count", "unsat", "timeout", "node_limit", "interrupted", "error", "skipped"];

/// Checks the shape of every row and returns the rows.
fn checked_rows(v: &serde_json::Value) -> Vec<serde_json::Value> {
    let rows = v["rows"].as_array().expect("rows").clone();
    for r in &rows {
        let status = r["status"].as_str().unwrap();
        assert!(STATUSES.contains(&status), "{r}");
        assert!(r["instance"].is_string() && r["puzzle"].is_string() && r["backend"].is_string());
        assert!(r["solutions"].is_u64() && r["time_s"].as_f64().unwrap() >= 0.0);
        assert!(r["nodes"].is_null() || r["nodes"].is_u64());
        assert!(r["runs_s"].is_array());
        if status == "skipped" || status == "error" {
            assert!(!r["reason"].as_str().unwrap().is_empty(), "a skip or error says why: {r}");
        }
    }
    rows
}

fn row<'a>(rows: &'a [serde_json::Value], puzzle: &str, backend: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["puzzle"] == puzzle && r["backend"] == backend)
        .unwrap_or_else(|| panic!("no row {puzzle} {backend}"))
}

#[test]
fn counts_on_bundled_instances() {
    // Every backend (external ones skipped with a reason when absent) on
    // small edge-matching instances.
    let out = emx(&[
        "bench",
        "instances/edgematch/brendan_set2/pieces_03x03.txt",
        "instances/edgematch/brendan_set2/pieces_04x04.txt",
        "--backends",
        "all",
        "--count",
        "--time-limit",
        "20",
        "--format",
        "json",
    ]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(v["command"], "bench");
    assert_eq!(v["mode"], "count");
    let rows = checked_rows(&v);
    let backends = v["backends"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * backends.len());
    for (puzzle, count) in [("pieces_03x03", 8), ("pieces_04x04", 48)] {
        let r = row(&rows, puzzle, "dlx");
        assert_eq!((r["status"].as_str(), r["solutions"].as_u64()), (Some("count"), Some(count)), "{r}");
    }
    for b in backends {
        if b["available"] == false {
            println!("skipped backend {}: {}", b["name"], b["detail"]);
            assert!(rows.iter().filter(|r| r["backend"] == b["name"]).all(|r| r["status"] == "skipped"));
        } else {
            // An available backend must finish these small counts and agree,
            // unless it does not apply to edge matching (said as the reason).
            for (puzzle, count) in [("pieces_03x03", 8), ("pieces_04x04", 48)] {
                let r = row(&rows, puzzle, b["name"].as_str().unwrap());
                if r["status"] == "skipped" && r["reason"].as_str().is_some_and(|s| s.contains("puzzles only")) {
                    continue;
                }
                assert_eq!((r["status"].as_str(), r["solutions"].as_u64()), (Some("count"), Some(count)), "{r}");
            }
        }
    }
    assert_eq!(v["disagreements"].as_array().unwrap().len(), 0);
    assert_eq!(v["interrupted"], false);
    // varisat cannot be interrupted: bench runs it in a child process.
    assert!(row(&rows, "pieces_03x03", "sat")["engine"].as_str().unwrap().ends_with("(child process)"));

    // The in-crate engines on a polycube, repeated: the median of 2 runs.
    let out = emx(&[
        "bench",
        "instances/polycube/somacube_def.txt",
        "--backends",
        "dlx",
        "--count",
        "--runs",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let rows = checked_rows(&v);
    let r = row(&rows, "somacube_def", "dlx");
    assert_eq!((r["status"].as_str(), r["solutions"].as_u64()), (Some("count"), Some(11520)), "{r}");
    assert_eq!(r["runs_s"].as_array().unwrap().len(), 2);
    assert!(r["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn first_solutions_table_csv_and_plot() {
    let dir = crate::Scratch::new("bench-test");
    let plot = dir.join("bench.svg");
    let files = [
        "instances/polycube/pentominoes_10x6_def.txt",
        "instances/polycube/tetriscube_def.txt",
        "instances/edgematch/brendan_set2/pieces_05x05.txt",
    ];
    let mut args = vec!["bench"];
    args.extend(files);
    args.extend(["--backends", "dlx", "--time-limit", "5", "--format", "csv", "--plot", plot.to_str().unwrap()]);
    let out = emx(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "instance,puzzle,backend,engine,status,solutions,nodes,time_s,nodes_per_s,runs_s,reason");
    assert_eq!(lines.len(), 4);
    assert!(lines[1..].iter().all(|l| l.contains(",dlx,") && l.contains(",solved,1,")), "{csv}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert_valid_svg(&svg);
    assert!(svg.contains("tetriscube_def"));

    let out = emx(&["bench", files[0], "--backends", "dlx", "--count", "--node-limit", "2000"]);
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("instance"), "{table}");
    assert!(table.contains("node_limit"), "{table}");
}

#[test]
fn another_emx_build_as_a_backend() {
    let me = env!("CARGO_BIN_EXE_emx");
    let spec = format!("dlx,emx={me}");
    let out = emx(&[
        "bench",
        "instances/edgematch/brendan_set2/pieces_04x04.txt",
        "instances/polycube/somacube_def.txt",
        "--backends",
        &spec,
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let rows = checked_rows(&v);
    let r = row(&rows, "pieces_04x04", &format!("emx={me}"));
    assert_eq!(r["status"], "solved", "{r}");
    // The other build's own engine description, then its path.
    assert!(r["engine"].as_str().unwrap().ends_with(&format!("({me})")), "{r}");
    assert_eq!(row(&rows, "somacube_def", &format!("emx={me}"))["status"], "solved");
}

#[test]
fn usage_errors() {
    let out = emx(&["bench", "instances/polycube/somacube_def.txt", "--backends", "dlx,nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown backend `nosuch`") && err.contains("dlx"), "{err}");
    let out = emx(&["bench", "tests/data/polycube-errors/bad_number.txt", "--backends", "dlx"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad_number.txt:1:"));
    let out =
        emx(&["bench", "instances/polycube/somacube_def.txt", "--backends", "emx=/no/such/emx", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["rows"][0]["status"], "skipped");
    assert!(v["rows"][0]["reason"].as_str().unwrap().contains("/no/such/emx"));
}

#[test]
fn variants_from_solve_flags() {
    // A configured engine per label, set up on each puzzle as `emx solve`
    // would: skipped where its flags do not act, counts equal to DLX's.
    let out = emx(&[
        "bench",
        "instances/polycube/somacube_def.txt",
        "instances/edgematch/brendan_set2/pieces_04x04.txt",
        "--backends",
        "dlx",
        "--variant",
        "best=--backend poly --schedule dlx:min-fit,mch@11,emch@6 --redundancy rot",
        "--variant",
        "x2=--threads 2",
        "--variant",
        "basic=--backend cp --cp basic",
        "--count",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let rows = checked_rows(&v);
    for puzzle in ["somacube_def", "pieces_04x04"] {
        let dlx = row(&rows, puzzle, "dlx")["solutions"].as_u64().unwrap();
        let x2 = row(&rows, puzzle, "x2");
        assert_eq!((x2["status"].as_str(), x2["solutions"].as_u64()), (Some("count"), Some(dlx)), "{x2}");
        assert!(x2["engine"].as_str().unwrap().contains("2 threads"), "{x2}");
    }
    let best = row(&rows, "somacube_def", "best");
    assert_eq!(best["solutions"], row(&rows, "somacube_def", "dlx")["solutions"]);
    assert!(best["engine"].as_str().unwrap().contains("mch@11"), "{best}");
    assert_eq!(row(&rows, "pieces_04x04", "best")["status"], "skipped");
    let basic = row(&rows, "pieces_04x04", "basic");
    assert_eq!(basic["solutions"], row(&rows, "pieces_04x04", "dlx")["solutions"]);
    assert!(basic["nodes"].as_u64().unwrap() > 0);
    assert_eq!(row(&rows, "somacube_def", "basic")["status"], "skipped");
    let described: Vec<&str> =
        v["backends"].as_array().unwrap().iter().map(|b| b["detail"].as_str().unwrap()).collect();
    assert!(described.contains(&"emx solve --threads 2"), "{described:?}");

    // Variants alone.
    let out =
        emx(&["bench", "instances/polycube/somacube_def.txt", "--backends", "", "--variant", "one=--backend poly"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("somacube_def  one "));
}

#[test]
fn variant_usage_errors() {
    let soma = "instances/polycube/somacube_def.txt";
    for (spec, expected) in [
        ("bad", "expected LABEL=FLAGS"),
        ("=--backend dlx", "label before `=`"),
        ("x=--first 3", "`--first` is not an engine setting"),
        ("x=--cp nonsense --backend cp", "bad --cp item `nonsense`"),
        ("x=--threads", "a value is required for '--threads"),
        ("x=--schedule emch", "acts on none of the puzzles"),
        ("dlx=--backend dlx", "the label `dlx` is taken"),
    ] {
        let out = emx(&[
            "bench",
            "instances/edgematch/brendan_set2/pieces_04x04.txt",
            "--backends",
            "dlx",
            "--variant",
            spec,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{spec}: {err}");
        assert!(err.contains(expected), "{spec}: {err}");
    }
    // On a puzzle it acts on, the same schedule runs.
    let out = emx(&["bench", soma, "--backends", "dlx", "--variant", "x=--schedule emch"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn variants_on_sat_run_in_a_child_or_skip() {
    // varisat cannot be stopped inside a call: a variant on it runs in a
    // child emx (killed at the time limit); a solver that is not installed
    // skips the variant's rows with the reason.
    let out = emx(&[
        "bench",
        "instances/edgematch/brendan_set2/pieces_03x03.txt",
        "--backends",
        "dlx",
        "--variant",
        "varisat-sites=--backend sat --exactly-one-over sites",
        "--variant",
        "nosuch=--backend sat --sat-solver /no/such/solver",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v = json(&out);
    let rows = checked_rows(&v);
    let sites = row(&rows, "pieces_03x03", "varisat-sites");
    assert_eq!(sites["status"], "solved", "{sites}");
    assert!(sites["engine"].as_str().unwrap().contains("(child process)"), "{sites}");
    let missing = row(&rows, "pieces_03x03", "nosuch");
    assert_eq!(missing["status"], "skipped", "{missing}");
    assert!(missing["reason"].as_str().unwrap().contains("/no/such/solver"), "{missing}");
}
