//! `emx merge`: check and add up the results of an `emx split` (polycube
//! or edge matching, told apart by the manifest's `kind`): the `emx task`
//! results of a split with tasks, or the `emx solve` results of its part
//! files. Every refusal is bad input (exit 2) naming the file at fault.

use crate::args::Format;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use clap::Args;
use emx::edgematch::split::{BoardJson, EdgeManifest, EdgePartResult};
use emx::input::{self, InputFormat};
use emx::poly::run::split::{merge, Manifest, PartResult, PlacedPiece};
use emx::tasks::{TaskEntry, TaskResult};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct MergeArgs {
    /// The `manifest.json` written by `emx split`.
    pub manifest: PathBuf,
    /// Result files (default: every result file beside the manifest).
    ///
    /// For a split with tasks, `emx task` results in any order (default:
    /// each `task-K.result.json` present); otherwise the parts' `emx solve
    /// PART --format json` results in part order (default: each part's file
    /// with the extension `.json`).
    pub results: Vec<PathBuf>,
    /// Merge the results there are and list what is missing (exit 0), instead of refusing (exit 2).
    #[arg(long)]
    pub partial: bool,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = crate::args::format("The merged counts as one JSON object (docs/json.md)", None))]
    pub format: crate::args::Format,
}

/// The results of one split, each part's result or `None`, and the files
/// (task or part) that have no result.
struct Gathered<T> {
    results: Vec<Option<T>>,
    missing: Vec<String>,
}

pub fn run(args: MergeArgs) -> anyhow::Result<u8> {
    let name = args.manifest.display().to_string();
    let text = std::fs::read_to_string(&args.manifest).map_err(|e| crate::usage_error!("{name}: {e}"))?;
    let not_manifest = |e: serde_json::Error| crate::usage_error!("{name}: not an emx split manifest: {e}");
    let value: serde_json::Value = serde_json::from_str(&text).map_err(not_manifest)?;
    let dir = args.manifest.parent().map(PathBuf::from).unwrap_or_default();
    if value.get("kind").and_then(|k| k.as_str()) == Some(emx::edgematch::split::KIND) {
        let mut manifest: EdgeManifest = serde_json::from_value(value).map_err(not_manifest)?;
        let claimed = manifest.split.take();
        let split = check_identity(&name, &manifest.file, claimed, &manifest)?;
        manifest.split.clone_from(&split);
        let files: Vec<Option<&str>> = manifest.parts.iter().map(|p| p.file.as_deref()).collect();
        let got = gather(&args, &dir, &split, &manifest.tasks, &files, &|source, found, list| {
            let list = list.map(|l| solutions::<BoardJson>(&source, l)).transpose()?;
            Ok(EdgePartResult { solution_list: list, source, ..found })
        })?;
        return merge_edge(&args, &manifest, split, got);
    }
    let mut manifest: Manifest = serde_json::from_value(value).map_err(not_manifest)?;
    let claimed = manifest.split.take();
    let split = check_identity(&name, &manifest.file, claimed, &manifest)?;
    manifest.split.clone_from(&split);
    let files: Vec<Option<&str>> = manifest.parts.iter().map(|p| p.file.as_deref()).collect();
    let got = gather(&args, &dir, &split, &manifest.tasks, &files, &|source, found, list| {
        let list = list.map(|l| solutions::<Vec<PlacedPiece>>(&source, l)).transpose()?;
        Ok(PartResult { solution_list: list, source, ..found })
    })?;
    let instance = input::load(Path::new(&manifest.file), Some(InputFormat::Polycube), manifest.puzzle)?;
    let merged = merge(instance.problem(), &manifest, &got.results, &|s| instance.verify(s))
        .map_err(|e| crate::usage_error!("{e}"))?;
    let finished = got.results.iter().flatten().all(|r| r.complete);
    match args.format {
        Format::Json | Format::Svg => println!(
            "{}",
            json!({ "command": "merge", "file": manifest.file, "kind": "polycube", "split": split, "missing": got.missing, "merged": merged })
        ),
        Format::Text => {
            print_parts_merged(&manifest.file, merged.parts, finished);
            println!("solutions in the fixed box: {}", merged.fixed_box);
            match (merged.unique, merged.unique_mirror) {
                (Some(u), Some(m)) => println!("up to rotation: {u}; up to rotation and reflection: {m}"),
                (None, Some(m)) => println!("up to rotation and reflection: {m} (the split broke reflections, so rotation classes are not counted)"),
                _ => println!("(solve the parts with --all to count classes up to rotation and verify the solutions)"),
            }
            if merged.verified > 0 {
                println!("{} solutions rebuilt and verified", merged.verified);
            }
            print_missing(&got.missing);
        }
    }
    Ok(if finished { EXIT_OK } else { EXIT_LIMIT })
}

/// Checks the split identity `claimed` by a manifest (given without it)
/// against the puzzle file it names and its own content; the identity, or
/// `None` for a manifest without one (which cannot have tasks).
fn check_identity<M: serde::Serialize>(
    name: &str,
    puzzle: &str,
    claimed: Option<String>,
    manifest: &M,
) -> anyhow::Result<Option<String>> {
    let Some(claimed) = claimed else { return Ok(None) };
    let text = emx::frontend::read_text(Path::new(puzzle))?;
    let id = emx::tasks::split_id(&text, &serde_json::to_string(manifest)?);
    crate::usage_ensure!(
        id == claimed,
        "{name}: names split {claimed}, but {puzzle} and this manifest make split {id} (the puzzle file or the manifest changed after the split)"
    );
    Ok(Some(claimed))
}

/// Parses a listed solution of `source`.
fn solutions<T: serde::de::DeserializeOwned>(source: &str, list: Vec<serde_json::Value>) -> anyhow::Result<Vec<T>> {
    list.into_iter()
        .enumerate()
        .map(|(k, v)| {
            serde_json::from_value(v)
                .map_err(|e| crate::usage_error!("{source}: solution {} is not a solution: {e}", k + 1))
        })
        .collect()
}

/// A part's result in the shape of the kind's `emx solve` result: the
/// counts (list left empty), the source and the listed solutions.
type Build<'a, T> = dyn Fn(String, T, Option<Vec<serde_json::Value>>) -> anyhow::Result<T> + 'a;

/// Reads the results of a split: task results when the manifest lists
/// tasks, else part results. Refuses missing results unless `--partial`.
fn gather<T: serde::de::DeserializeOwned>(
    args: &MergeArgs,
    dir: &Path,
    split: &Option<String>,
    tasks: &[TaskEntry],
    part_files: &[Option<&str>],
    build: &Build<T>,
) -> anyhow::Result<Gathered<T>> {
    let name = args.manifest.display();
    let got = if tasks.is_empty() {
        let files = if args.results.is_empty() {
            let files: Option<Vec<PathBuf>> =
                part_files.iter().map(|p| p.map(|p| dir.join(p).with_extension("json"))).collect();
            files.ok_or_else(|| crate::usage_error!("{name}: parts without a file, and no tasks"))?
        } else {
            crate::usage_ensure!(
                args.results.len() == part_files.len(),
                "{} result files for {} parts",
                args.results.len(),
                part_files.len()
            );
            args.results.clone()
        };
        gather_parts(&files, build)?
    } else {
        let split = split.as_deref().ok_or_else(|| crate::usage_error!("{name}: tasks, but no split identity"))?;
        gather_tasks(args, dir, split, tasks, part_files.len(), build)?
    };
    if !got.missing.is_empty() && !args.partial {
        let hint = if tasks.is_empty() {
            "solve each part first, `emx solve PART --format json --all > PART.json` for a PART.txt".to_string()
        } else {
            format!("run `emx task {}` for each", dir.join("task-K.json").display())
        };
        crate::usage_bail!(
            "{name}: {} of {} {} results are missing: {}; {hint}, or merge what is there with --partial",
            got.missing.len(),
            if tasks.is_empty() { part_files.len() } else { tasks.len() },
            if tasks.is_empty() { "part" } else { "task" },
            listing(&got.missing)
        );
    }
    Ok(got)
}

/// Each part's `emx solve --format json` result (its last line); a
/// missing file is a missing part.
fn gather_parts<T: serde::de::DeserializeOwned>(files: &[PathBuf], build: &Build<T>) -> anyhow::Result<Gathered<T>> {
    let mut got = Gathered { results: Vec::with_capacity(files.len()), missing: Vec::new() };
    for f in files {
        if !f.exists() {
            got.results.push(None);
            got.missing.push(f.display().to_string());
            continue;
        }
        let source = f.display().to_string();
        let t = std::fs::read_to_string(f).map_err(|e| crate::usage_error!("{source}: {e}"))?;
        let not_result = |e| crate::usage_error!("{source}: not an `emx solve --format json` result: {e}");
        let mut v: serde_json::Value = serde_json::from_str(t.lines().last().unwrap_or("")).map_err(not_result)?;
        let list = v.get_mut("solution_list").map(serde_json::Value::take);
        let list = match list {
            Some(serde_json::Value::Array(l)) => Some(l),
            None | Some(serde_json::Value::Null) => None,
            Some(_) => crate::usage_bail!("{source}: `solution_list` is not a list"),
        };
        let counts: T = serde_json::from_value(v).map_err(not_result)?;
        got.results.push(Some(build(source, counts, list)?));
    }
    Ok(got)
}

/// The `emx task` results of a split with tasks: the files given, or each
/// task's default result file that exists; checked by [`emx::tasks::collect`].
fn gather_tasks<T: serde::de::DeserializeOwned>(
    args: &MergeArgs,
    dir: &Path,
    split: &str,
    tasks: &[TaskEntry],
    n_parts: usize,
    build: &Build<T>,
) -> anyhow::Result<Gathered<T>> {
    let files: Vec<PathBuf> = if args.results.is_empty() {
        tasks.iter().map(|t| super::task::default_result(&dir.join(&t.file))).filter(|f| f.exists()).collect()
    } else {
        args.results.clone()
    };
    let mut results = Vec::with_capacity(files.len());
    for f in &files {
        let source = f.display().to_string();
        let t = std::fs::read_to_string(f).map_err(|e| crate::usage_error!("{source}: {e}"))?;
        let r: TaskResult =
            serde_json::from_str(&t).map_err(|e| crate::usage_error!("{source}: not an `emx task` result: {e}"))?;
        results.push((source, r));
    }
    let collected = emx::tasks::collect(split, tasks, n_parts, results).map_err(|e| crate::usage_error!("{e}"))?;
    let mut got = Gathered { results: Vec::with_capacity(n_parts), missing: Vec::new() };
    for part in collected.parts {
        let Some((file, p)) = part else {
            got.results.push(None);
            continue;
        };
        let source = format!("{file} (part {})", p.id);
        let counts = json!({ "found": p.found, "solutions": p.found, "mode": "all", "complete": p.complete });
        let counts: T = serde_json::from_value(counts)?;
        got.results.push(Some(build(source, counts, Some(p.solutions))?));
    }
    got.missing =
        collected.missing.iter().map(|&k| dir.join(&tasks[k as usize - 1].file).display().to_string()).collect();
    Ok(got)
}

/// The first line of a merge's text output, for both kinds of puzzle.
pub(crate) fn print_parts_merged(file: &str, parts: usize, complete: bool) {
    println!("{file}: {parts} parts merged{}", if complete { "" } else { " (some parts did not finish)" });
}

/// The last line of a partial merge's text output.
fn print_missing(missing: &[String]) {
    if !missing.is_empty() {
        println!("partial: {} without a result yet: {}", missing.len(), listing(missing));
    }
}

/// The first files of `missing`, and how many more there are.
fn listing(missing: &[String]) -> String {
    const SHOWN: usize = 10;
    let mut s = missing.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if missing.len() > SHOWN {
        s.push_str(&format!(" and {} more", missing.len() - SHOWN));
    }
    s
}

/// Checks and adds up the results of an edge-matching split's parts.
fn merge_edge(
    args: &MergeArgs,
    manifest: &EdgeManifest,
    split: Option<String>,
    got: Gathered<EdgePartResult>,
) -> anyhow::Result<u8> {
    let instance = emx::input::load(Path::new(&manifest.file), None, 1)?;
    let emx::input::InstanceKind::EdgeMatch(em) = &instance.kind else {
        crate::usage_bail!("{}: the manifest's puzzle is not an edge-matching puzzle", manifest.file)
    };
    let merged = emx::edgematch::split::merge(&em.puzzle, instance.problem(), manifest, &got.results)
        .map_err(|e| crate::usage_error!("{e}"))?;
    let finished = got.results.iter().flatten().all(|r| r.complete);
    match args.format {
        Format::Json | Format::Svg => println!(
            "{}",
            json!({ "command": "merge", "file": manifest.file, "kind": "edgematch", "split": split, "missing": got.missing, "merged": merged })
        ),
        Format::Text => {
            print_parts_merged(&manifest.file, merged.parts, finished);
            println!("boards: {}", merged.boards);
            match merged.unique {
                Some(u) => println!("up to rotation: {u}"),
                None => println!("(solve the parts with --all to count classes up to rotation)"),
            }
            if merged.verified > 0 {
                println!("{} boards rebuilt and verified", merged.verified);
            }
            print_missing(&got.missing);
        }
    }
    Ok(if finished { EXIT_OK } else { EXIT_LIMIT })
}
