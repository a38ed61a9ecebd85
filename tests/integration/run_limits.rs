//! Limits over the whole run of `emx solve`: a time limit that passes while
//! the model is being built stops the build (exit 3, nothing searched), a
//! `--memory-limit` below the memory estimate refuses the run before
//! anything is built (exit 2, naming both), and the estimate agrees with
//! the peak resident memory measured on a few quick runs.

use crate::{repo_path, Scratch};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

/// An `n` x `n` x `m` box with the L-shaped pieces P2..P(n-1) (a row of k
/// cubes and one above its first) and unit cubes for the rest: the pattern
/// of the 24x24x24 case the issue quotes, whose model grows as n^4.
fn l_box(dir: &Path, n: u32, m: u32) -> PathBuf {
    let mut text = format!("D:xDim={n}:yDim={n}:zDim={m}\n");
    let mut volume = 0;
    for k in 2..n {
        let cells: Vec<String> = (0..k).map(|i| format!("{i} 0 0")).chain(["0 1 0".to_string()]).collect();
        volume += k + 1;
        writeln!(text, "C:name=P{k}:type=M:layout={}", cells.join(", ")).unwrap();
    }
    for i in 0..n * n * m - volume {
        writeln!(text, "C:name=M{i}:type=M:layout=0 0 0").unwrap();
    }
    text.push_str("~D\n");
    let path = dir.join(format!("box_{n}x{n}x{m}_def.txt"));
    std::fs::write(&path, text).unwrap();
    path
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn a_time_limit_stops_the_build_of_a_large_model() {
    // 20x20x20: 1.6 M options, seconds to build even in a release build.
    let scratch = Scratch::new("run-limits-time");
    let file = l_box(&scratch, 20, 20);
    let file = file.to_str().unwrap();
    for format in ["text", "json"] {
        let start = Instant::now();
        let out = emx(&["solve", file, "--count", "-q", "--time-limit", "0.5", "--format", format]);
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(3), "{}", text(&out));
        assert!(took < Duration::from_millis(2500), "took {took:?}: {}", text(&out));
        assert!(text(&out).contains("the time limit was reached while building the model; nothing was searched"));
        if format == "json" {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["stopped"], "time_limit", "{v}");
            assert_eq!(v["solutions"], 0, "{v}");
            assert_eq!(v["complete"], false, "{v}");
        }
    }
}

#[test]
fn a_memory_limit_below_the_estimate_refuses_before_building() {
    let scratch = Scratch::new("run-limits-memory");
    let file = l_box(&scratch, 20, 20);
    let start = Instant::now();
    let out = emx(&["solve", file.to_str().unwrap(), "--memory-limit", "100M"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let msg = text(&out);
    assert!(msg.contains("the run would need about"), "{msg}");
    assert!(msg.contains("over the memory limit of 100.0 MiB"), "{msg}");
    assert!(msg.contains("nothing was built"), "{msg}");
    // Refused after parsing, long before the seconds a build would take.
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
}

#[cfg(target_os = "linux")]
/// The estimate `--memory-limit` checks, read from the refusal it gives
/// below it (`need about 12.3 MiB`), in bytes.
fn estimate(args: &[&str]) -> f64 {
    let mut all = args.to_vec();
    all.extend(["--memory-limit", "1"]);
    let out = emx(&all);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let msg = text(&out);
    let at = msg.find("need about ").unwrap_or_else(|| panic!("{msg}")) + "need about ".len();
    let mut words = msg[at..].split_whitespace();
    let value: f64 = words.next().unwrap().parse().unwrap();
    let unit = match words.next().unwrap() {
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        other => panic!("unit {other} in {msg}"),
    };
    value * unit
}

#[cfg(target_os = "linux")]
/// The peak resident set of `emx ARGS` in bytes, as `/usr/bin/time -f %M`
/// reports it (`None` without `/usr/bin/time`). Through `time`, a small
/// process: a child forked from the test process itself would report the
/// test process's resident set at the fork as its own peak.
fn peak_rss(args: &[&str]) -> Option<f64> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        return None;
    }
    let out = Command::new(time)
        .args(["-f", "peak %M"])
        .arg(env!("CARGO_BIN_EXE_emx"))
        .args(args)
        .current_dir(repo_path(""))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let kb: f64 = err.lines().rev().find_map(|l| l.strip_prefix("peak ")).and_then(|v| v.trim().parse().ok())?;
    Some(kb * 1024.0)
}

#[test]
fn the_memory_estimate_is_within_1_5x_of_the_peak() {
    #[cfg(not(target_os = "linux"))]
    {
        println!("skipped: the peak resident set is measured on Linux only");
    }
    #[cfg(target_os = "linux")]
    {
        if peak_rss(&["--version"]).is_none() {
            println!("skipped: no /usr/bin/time (Debian package `time`) to measure the peak resident set");
            return;
        }
        let scratch = Scratch::new("run-limits-peak");
        let boxed = l_box(&scratch, 10, 6);
        let boxed = boxed.to_str().unwrap();
        let cases: [&[&str]; 4] = [
            // DLX on a generated box (600 cells, mostly unit cubes).
            &["solve", boxed, "--backend", "dlx", "--count", "-q", "--node-limit", "2000"],
            // The polycube engines on the bundled hexomino parallelogram.
            &[
                "solve",
                "instances/polycube/hexominoes_parallelogram_15x14_def.txt",
                "--count",
                "-q",
                "--node-limit",
                "2000",
            ],
            // The scan engine on Eternity II's 256 tiles.
            &["solve", "instances/edgematch/eternity2/e2pieces_heule.txt", "--count", "-q", "--node-limit", "2000"],
            // A small puzzle: the process's own footprint dominates.
            &["solve", "instances/polycube/somacube_def.txt", "--count", "-q"],
        ];
        for args in cases {
            let (est, peak) = (estimate(args), peak_rss(args).expect("/usr/bin/time ran"));
            let ratio = est / peak;
            println!(
                "{args:?}: estimate {:.1} MiB, peak {:.1} MiB, ratio {ratio:.2}",
                est / 1048576.0,
                peak / 1048576.0
            );
            assert!((1.0 / 1.5..=1.5).contains(&ratio), "{args:?}: estimate {est} vs peak {peak} bytes");
        }
    }
}
