//! `emx split --tasks N`, `emx task` and `emx merge`: a split run through
//! GNU parallel gives the known counts, and every forged result (raised
//! counts, a repeated solution, an invalid placement, a missing or extra
//! part, a missing task, a result of another split) is refused with exit 2
//! and a message naming the file and what is wrong.

use crate::{repo_path, Scratch};
use emx::tasks::{solutions_digest, task_digest, TaskResult};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SOMA: &str = "instances/polycube/somacube_def.txt";
const SET2_6X6: &str = "instances/edgematch/brendan_set2/pieces_06x06.txt";

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn last_json(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}: {text}{}", stderr(out)))
}

/// Splits `file` at `depth` into `tasks` task files in `dir`.
fn split(file: &str, depth: &str, tasks: &str, dir: &Path) {
    let out = emx(&["split", file, "--depth", depth, "--tasks", tasks, "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Runs every task of the split in `dir` with `emx task`, one after the other.
fn run_tasks(dir: &Path) {
    for t in task_files(dir) {
        let out = emx(&["task", t.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}

fn task_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(".json") && !s.ends_with(".result.json")))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("task-")))
        .collect();
    files.sort();
    files
}

fn merge(dir: &Path, extra: &[&str]) -> Output {
    let manifest = dir.join("manifest.json");
    let mut args = vec!["merge", manifest.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    emx(&args)
}

/// Asserts that merge refuses with exit 2, naming `file` and saying `what`.
fn refused(out: &Output, file: &str, what: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "expected a refusal ({what}): {err}");
    assert!(err.contains(file), "the message names {file}: {err}");
    assert!(err.contains(what), "the message says `{what}`: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn read_result(path: &Path) -> TaskResult {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Rewrites a task result after `edit`, with its digests recomputed so
/// that only merge's deeper checks can find the forgery.
fn forge(path: &Path, edit: impl FnOnce(&mut TaskResult)) {
    let mut r = read_result(path);
    edit(&mut r);
    for p in &mut r.parts {
        p.digest = solutions_digest(&p.solutions);
    }
    r.found = r.parts.iter().map(|p| p.found).sum();
    r.digest = task_digest(&r.parts);
    std::fs::write(path, serde_json::to_string(&r).unwrap()).unwrap();
}

/// GNU parallel's path, or why the test skips (moreutils' `parallel` takes
/// other arguments and does not count).
fn gnu_parallel() -> Result<PathBuf, String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path).map(|d| d.join("parallel")).find(|p| p.is_file());
    let p = found.ok_or("GNU parallel is not installed (Debian package `parallel`)")?;
    let version = Command::new(&p).arg("--version").output().map_err(|e| format!("{}: {e}", p.display()))?;
    if !String::from_utf8_lossy(&version.stdout).contains("GNU parallel") {
        return Err(format!("{} is not GNU parallel", p.display()));
    }
    Ok(p)
}

/// Splits into tasks, runs them through GNU parallel exactly as the docs
/// say, and merges: the merge's JSON.
fn through_parallel(parallel: &Path, file: &str, depth: &str, tasks: &str, tag: &str) -> Value {
    let scratch = Scratch::new(tag);
    let dir = scratch.join("tasks");
    split(file, depth, tasks, &dir);
    assert_eq!(task_files(&dir).len(), tasks.parse::<usize>().unwrap());
    let status = Command::new(parallel)
        .args(["--will-cite", "--halt", "now,fail=1", "-j", "2", env!("CARGO_BIN_EXE_emx"), "task", "{}", ":::"])
        .args(task_files(&dir))
        .current_dir(repo_path(""))
        .output()
        .unwrap();
    assert!(status.status.success(), "parallel: {}", stderr(&status));
    let out = merge(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    last_json(&out)
}

#[test]
fn a_split_run_through_gnu_parallel_gives_the_known_counts() {
    let parallel = match gnu_parallel() {
        Ok(p) => p,
        Err(why) => {
            println!("SKIP a_split_run_through_gnu_parallel_gives_the_known_counts: {why}");
            return;
        }
    };
    // Soma cube: 11520 solutions in the fixed box, 240 up to rotation and reflection.
    let v = through_parallel(&parallel, SOMA, "2", "5", "tasks-parallel-soma");
    assert_eq!(v["merged"]["fixed_box"], 11520, "{v}");
    assert_eq!(v["merged"]["unique_mirror"], 240, "{v}");
    assert_eq!(v["merged"]["complete"], true, "{v}");
    assert_eq!(v["missing"], serde_json::json!([]), "{v}");
    // Set-2 6x6: 160 boards, 40 up to rotation, every board verified.
    let v = through_parallel(&parallel, SET2_6X6, "4", "3", "tasks-parallel-6x6");
    assert_eq!((v["merged"]["boards"].as_u64(), v["merged"]["unique"].as_u64()), (Some(160), Some(40)), "{v}");
    assert_eq!(v["merged"]["verified"], 40, "{v}");
}

#[test]
fn tasks_are_balanced_and_name_their_parts() {
    let scratch = Scratch::new("tasks-balance");
    let dir = scratch.join("tasks");
    split(SOMA, "2", "5", &dir);
    let manifest: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let sizes: Vec<usize> =
        manifest["tasks"].as_array().unwrap().iter().map(|t| t["parts"].as_array().unwrap().len()).collect();
    assert_eq!(sizes.iter().sum::<usize>(), manifest["parts"].as_array().unwrap().len());
    assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "{sizes:?}");
    // No part files: the tasks hold the parts.
    assert!(!dir.join("part-0001.txt").exists());
    run_tasks(&dir);
    let r = read_result(&dir.join("task-2.result.json"));
    assert_eq!(r.split, manifest["split"].as_str().unwrap());
    let ids: Vec<u64> = r.parts.iter().map(|p| p.id).collect();
    let want: Vec<u64> = serde_json::from_value(manifest["tasks"][1]["parts"].clone()).unwrap();
    assert_eq!(ids, want);
    // Too many tasks: refused before anything is written.
    let other = scratch.join("other");
    let out = emx(&["split", SOMA, "--depth", "1", "--tasks", "1000", "-o", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--tasks 1000"), "{}", stderr(&out));
    assert!(!other.exists());
}

/// A fresh Soma split into 3 tasks with every result written: the directory.
fn solved_soma(scratch: &Scratch, name: &str) -> PathBuf {
    let dir = scratch.join(name);
    split(SOMA, "2", "3", &dir);
    run_tasks(&dir);
    let out = merge(&dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(last_json(&out)["merged"]["fixed_box"], 11520);
    dir
}

#[test]
fn forged_task_results_are_refused() {
    let scratch = Scratch::new("tasks-forged");
    let dir = solved_soma(&scratch, "soma");
    let t1 = dir.join("task-1.result.json");
    let t2 = dir.join("task-2.result.json");
    let keep = std::fs::read_to_string(&t1).unwrap();
    let restore = || std::fs::write(&t1, &keep).unwrap();
    let f1 = t1.to_str().unwrap();

    // A raised count, the digests left as they were.
    let mut v: Value = serde_json::from_str(&keep).unwrap();
    v["parts"][0]["found"] = (v["parts"][0]["found"].as_u64().unwrap() + 10).into();
    std::fs::write(&t1, v.to_string()).unwrap();
    refused(&merge(&dir, &[]), f1, "claims");
    restore();
    // A solution dropped with its count, the digests left as they were.
    let mut v: Value = serde_json::from_str(&keep).unwrap();
    let p = v["parts"].as_array_mut().unwrap().iter_mut().find(|p| p["found"].as_u64() > Some(0)).unwrap();
    p["solutions"].as_array_mut().unwrap().pop();
    p["found"] = (p["found"].as_u64().unwrap() - 1).into();
    std::fs::write(&t1, v.to_string()).unwrap();
    refused(&merge(&dir, &[]), f1, "the digest does not match its solution list");
    restore();
    // A raised count with one solution listed twice, digests recomputed.
    forge(&t1, |r| {
        let p = r.parts.iter_mut().find(|p| !p.solutions.is_empty()).unwrap();
        p.solutions.push(p.solutions[0].clone());
        p.found += 1;
    });
    refused(&merge(&dir, &[]), f1, "already listed");
    restore();
    // A solution of another task's part listed again here: with this
    // part's fixed pieces it covers some cells twice.
    let other = read_result(&t2).parts.into_iter().find(|p| !p.solutions.is_empty()).unwrap();
    forge(&t1, |r| {
        let p = &mut r.parts[0];
        p.solutions.push(other.solutions[0].clone());
        p.found += 1;
    });
    refused(&merge(&dir, &[]), f1, "a listed solution is invalid");
    restore();
    // An invalid placement: a piece moved by one cell.
    forge(&t1, |r| {
        let p = r.parts.iter_mut().find(|p| !p.solutions.is_empty()).unwrap();
        let cells = p.solutions[0][0]["cells"].as_array_mut().unwrap();
        cells[0][0] = (cells[0][0].as_u64().unwrap() + 1).into();
    });
    refused(&merge(&dir, &[]), f1, "part ");
    restore();
    // A part left out, and a part of another task added.
    forge(&t1, |r| {
        r.parts.pop();
    });
    refused(&merge(&dir, &[]), f1, "missing part(s)");
    restore();
    forge(&t1, |r| r.parts.push(other.clone()));
    refused(&merge(&dir, &[]), f1, "extra part(s)");
    restore();
    // The same task twice on the command line.
    let out = merge(&dir, &[f1, f1]);
    refused(&out, f1, "task 1 again");
    // A missing task: refused, or reported with --partial.
    std::fs::rename(&t2, dir.join("aside.json")).unwrap();
    refused(&merge(&dir, &[]), "task-2.json", "results are missing");
    let out = merge(&dir, &["--partial"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = last_json(&out);
    assert!(v["missing"][0].as_str().unwrap().ends_with("task-2.json"), "{v}");
    assert_eq!(v["merged"]["complete"], false, "{v}");
    assert!(v["merged"]["fixed_box"].as_u64().unwrap() < 11520, "{v}");
    std::fs::rename(dir.join("aside.json"), &t2).unwrap();
    // A result of another split of the same puzzle.
    let other_dir = scratch.join("other");
    split(SOMA, "1", "2", &other_dir);
    run_tasks(&other_dir);
    let foreign = other_dir.join("task-1.result.json");
    let out = merge(&dir, &[foreign.to_str().unwrap(), t2.to_str().unwrap()]);
    refused(&out, foreign.to_str().unwrap(), "another split");
    // A manifest edited after the split.
    let m = dir.join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["parts"][0]["weight"] = 9.into();
    std::fs::write(&m, v.to_string()).unwrap();
    refused(&merge(&dir, &[]), "manifest.json", "changed after the split");
    std::fs::write(&m, text).unwrap();
    assert_eq!(merge(&dir, &[]).status.code(), Some(0));
}

#[test]
fn forged_edge_matching_task_results_are_refused() {
    let scratch = Scratch::new("tasks-forged-edge");
    let dir = scratch.join("e");
    split(SET2_6X6, "4", "3", &dir);
    run_tasks(&dir);
    let results: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("task-{k}.result.json"))).collect();
    let t = results.iter().find(|p| read_result(p).found > 0).unwrap();
    let keep = std::fs::read_to_string(t).unwrap();
    let f = t.to_str().unwrap();
    forge(t, |r| {
        let p = r.parts.iter_mut().find(|p| !p.solutions.is_empty()).unwrap();
        p.solutions.push(p.solutions[0].clone());
        p.found += 1;
    });
    refused(&merge(&dir, &[]), f, "already listed");
    std::fs::write(t, &keep).unwrap();
    // Two tiles swapped: no board of the puzzle.
    forge(t, |r| {
        let p = r.parts.iter_mut().find(|p| !p.solutions.is_empty()).unwrap();
        let cells = p.solutions[0]["cells"].as_array_mut().unwrap();
        cells.swap(7, 8);
    });
    refused(&merge(&dir, &[]), f, "part ");
    std::fs::write(t, &keep).unwrap();
    assert_eq!(merge(&dir, &[]).status.code(), Some(0));
}

/// The per-part flow (`emx solve PART --format json --all`) gets the same
/// checks its results allow: counts against lists, repeated solutions,
/// invalid placements.
#[test]
fn forged_part_results_are_refused() {
    let scratch = Scratch::new("parts-forged");
    let dir = scratch.join("parts");
    let out = emx(&["split", SOMA, "--depth", "1", "-o", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    parts.sort();
    for p in &parts {
        let out = emx(&["solve", p.to_str().unwrap(), "--format", "json", "--all"]);
        std::fs::write(p.with_extension("json"), &out.stdout).unwrap();
    }
    assert_eq!(merge(&dir, &[]).status.code(), Some(0));
    let first = parts[0].with_extension("json");
    let f = first.to_str().unwrap();
    let keep = std::fs::read_to_string(&first).unwrap();
    let edit = |change: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_str(&keep).unwrap();
        change(&mut v);
        std::fs::write(&first, v.to_string()).unwrap();
    };
    edit(&|v| {
        v["found"] = (v["found"].as_u64().unwrap() + 240).into();
        v["solutions"] = v["found"].clone();
    });
    refused(&merge(&dir, &[]), f, "claims");
    edit(&|v| {
        let again = v["solution_list"][0].clone();
        v["solution_list"].as_array_mut().unwrap().push(again);
        v["found"] = (v["found"].as_u64().unwrap() + 1).into();
        v["solutions"] = v["found"].clone();
    });
    refused(&merge(&dir, &[]), f, "already listed");
    edit(&|v| v["solution_list"][0][0]["cells"][0] = serde_json::json!([99, 0, 0]));
    refused(&merge(&dir, &[]), f, "leaves the box");
    std::fs::remove_file(&first).unwrap();
    refused(&merge(&dir, &[]), "manifest.json", "results are missing");
}
