//! The `emx` binary: output shape and exit codes.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn solve_json_has_counts_and_placements() {
    let out = emx(&["solve", "instances/polycube/somacube_def.txt", "--unique=mirror", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["solutions"], 240);
    assert_eq!(v["found"], 11520);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["time_s"].as_f64().is_some());

    let out = emx(&["solve", "instances/polycube/somacube_def.txt", "--first", "2", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let list = v["solution_list"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    let pieces = list[0].as_array().unwrap();
    assert_eq!(pieces.len(), 7);
    let cells: usize = pieces.iter().map(|p| p["cells"].as_array().unwrap().len()).sum();
    assert_eq!(cells, 27);
}

#[test]
fn text_output_draws_layers() {
    let out = emx(&["solve", "instances/polycube/tetriscube_def.txt", "--first", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // Four layers of four cells side by side: 4 rows of 4 x 4 letters.
    let rows: Vec<&str> = text.lines().filter(|l| l.split("   ").count() == 4).collect();
    assert_eq!(rows.len(), 4, "{text}");
}

#[test]
fn exit_codes() {
    let dir = crate::Scratch::new("cli");
    // A T tetromino and a domino cannot tile a 3x2 box.
    let none = dir.join("none.txt");
    std::fs::write(&none, "D:xDim=3:yDim=2:zDim=1\nL\nT T T\n. T .\n\nD D\n~L\n~D\n").unwrap();
    assert_eq!(emx(&["solve", none.to_str().unwrap()]).status.code(), Some(1));
    let out = emx(&["solve", "tests/data/polycube-errors/bad_number.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad_number.txt:1:"));
    assert_eq!(emx(&["solve", "no/such/file.txt"]).status.code(), Some(2));
    assert_eq!(emx(&["solve", "--bogus-flag", "x"]).status.code(), Some(2));
    let limited =
        emx(&["solve", "instances/polycube/pentominoes_10x6_def.txt", "--node-limit", "1000", "--format", "json"]);
    assert_eq!(limited.status.code(), Some(3));
    assert_eq!(json(&limited)["stopped"], "node_limit");
    let limited = emx(&["solve", "instances/polycube/pentominoes_10x6_def.txt", "--solution-limit", "3", "-q"]);
    assert_eq!(limited.status.code(), Some(3));
}

#[test]
fn info_reports_groups_and_symmetries() {
    let out = emx(&["info", "instances/polycube/somacube_def.txt", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["box_rotations"], 24);
    assert_eq!(v["box_rotations_and_mirrors"], 48);
    assert_eq!(v["pieces"].as_array().unwrap().len(), 7);
    assert_eq!(v["options"], 688);
}

#[test]
fn threads_share_the_dead_states() {
    // One-word dead-state slots hold more states than two-word ones, so one
    // thread searches fewer nodes than with two-word slots (925 412), and
    // the workers of a run share them, so two threads stay below what a
    // table per worker gives (over 1.2 M). Node counts on two threads vary
    // from run to run: the bound is loose.
    let f = "instances/polycube/pentominoes_10x6_def.txt";
    let mut nodes = Vec::new();
    for threads in ["1", "2"] {
        let out = emx(&["solve", f, "--unique", "--threads", threads, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let v = json(&out);
        assert_eq!((v["searched"].as_u64(), v["found"].as_u64()), (Some(2339), Some(9356)), "--threads {threads}");
        nodes.push(v["nodes"].as_u64().expect("a node count"));
    }
    println!("10x6 nodes: one thread {}, two threads {}", nodes[0], nodes[1]);
    assert!(nodes[0] < 925_412, "{nodes:?}");
    assert!(nodes[1] < 1_100_000, "{nodes:?}");
}

/// Every SIMD level's kernels (`EMX_SIMD=scalar`, `EMX_SIMD=avx2`, and the
/// processor's own level: `emx::cpu`) give the same counts, nodes,
/// solutions and exit codes (all solutions, and under node, solution and
/// first limits; the counts on two threads) on 2-D and 3-D puzzles, and
/// the edge-matching engines' bit-count paths agree too. A level above the
/// processor's runs as the processor's (the test's stderr says which ran).
#[test]
fn simd_levels_agree() {
    eprintln!("SIMD level of this processor: {}", emx::cpu::detected());
    let runs: [&[&str]; 10] = [
        &["solve", "instances/polycube/pentominoes_10x6_def.txt", "--unique", "--format", "json"],
        &["solve", "instances/polycube/pentominoes_onesided_30x3_def.txt", "--format", "json"],
        &["solve", "instances/edgematch/brendan_set2/pieces_06x06.txt", "--backend", "cp", "--format", "json"],
        &["solve", "instances/polycube/somacube_def.txt", "--unique", "--all", "--format", "json"],
        &["solve", "instances/polycube/solid_pentominoes_2x3x10_def.txt", "--unique=mirror", "--format", "json"],
        &["solve", "instances/polycube/conway_5x5x5_def.txt", "--unique", "--format", "json"],
        &["solve", "instances/polycube/tetriscube_def.txt", "--unique", "--first", "3", "--format", "json"],
        &[
            "solve",
            "instances/polycube/tetriscube_def.txt",
            "--unique",
            "--redundancy",
            "rot:L",
            "--node-limit",
            "300000",
            "--all",
            "--format",
            "json",
        ],
        &[
            "solve",
            "instances/polycube/tetriscube_def.txt",
            "--unique",
            "--solution-limit",
            "5",
            "--all",
            "--format",
            "json",
        ],
        &[
            "solve",
            "instances/polycube/solid_pentominoes_2x5x6_def.txt",
            "--unique=mirror",
            "--threads",
            "2",
            "--format",
            "json",
        ],
    ];
    for args in runs {
        let mut seen: Vec<(&str, serde_json::Value)> = Vec::new();
        for (name, level) in [("scalar", Some("scalar")), ("avx2", Some("avx2")), ("native", None)] {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_emx"));
            match level {
                Some(level) => cmd.env("EMX_SIMD", level),
                None => cmd.env_remove("EMX_SIMD"),
            };
            let out = cmd
                .args(args)
                .env_remove("EMX_NO_AVX2")
                .env_remove("EMX_NO_AVX512")
                .current_dir(repo_path(""))
                .output()
                .unwrap();
            // 0: searched to the end, 3: stopped by a limit.
            let code = out.status.code();
            assert!(matches!(code, Some(0 | 3)), "{name} {args:?}: {code:?} {}", String::from_utf8_lossy(&out.stderr));
            let mut v = json(&out);
            v["exit_code"] = code.into();
            // Times differ from run to run; everything else must not.
            for key in ["time_s", "nodes_per_s"] {
                v.as_object_mut().unwrap().remove(key);
            }
            assert!(v["found"].as_u64().is_some_and(|n| n > 0), "{name} {args:?}: {v}");
            seen.push((name, v));
        }
        // Two threads split the search differently from run to run: only
        // the counts are compared there.
        let threads = args.contains(&"--threads");
        for (name, v) in &seen[1..] {
            if threads {
                assert_eq!(
                    (&v["found"], &v["searched"]),
                    (&seen[0].1["found"], &seen[0].1["searched"]),
                    "{name} {args:?}"
                );
            } else {
                assert_eq!(v, &seen[0].1, "{name} against scalar, {args:?}");
            }
        }
    }
}
