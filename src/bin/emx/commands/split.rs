//! `emx split`: cut a polycube search or an edge-matching enumeration into
//! independent subproblem files, or (`--tasks N`) into N task files that
//! `emx task` runs (emx::tasks).

use crate::args::poly::PolyArgs;
use crate::args::Format;
use crate::usage::EXIT_OK;
use clap::Args;
use emx::edgematch::split::{part_puzzle, split, EdgeManifest, EdgePart, EdgeSplit, KIND};
use emx::edgematch::EdgePuzzle;
use emx::frontend::edgematch::write_emx;
use emx::input::{self, InstanceKind};
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::run::split::{part_text, placed_pieces, write_atomically, write_part, Found, Manifest, Part};
use emx::poly::PolyEngine;
use emx::search::{Engine, Flow};
use emx::tasks::{split_id, TaskEntry, TaskFile, TaskPart};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct SplitArgs {
    /// Puzzle file (polycube definition file, or an edge-matching puzzle).
    pub file: PathBuf,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// The split depth: pieces placed, or cells fixed, in every part.
    ///
    /// For a polycube puzzle the number of pieces the parts place; for an
    /// edge-matching puzzle the number of cells they fix, in scan's order
    /// (row-major, by columns on a board wider than tall).
    #[arg(long, value_name = "D")]
    pub depth: usize,
    /// Group the parts into N task files (`task-1.json` .. `task-N.json`), one job each.
    ///
    /// The parts are dealt round-robin in split order, so task sizes differ
    /// by at most one part; run each with `emx task DIR/task-K.json`, which
    /// writes `DIR/task-K.result.json` for `emx merge`. Without it, one
    /// puzzle file a part, for `emx solve PART --format json --all`.
    #[arg(long, value_name = "N")]
    pub tasks: Option<usize>,
    /// Output directory (created; default: FILE's stem + `-split`).
    #[arg(long, short, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Output format of the summary (the parts are always puzzle files).
    #[arg(long, default_value = "text", value_parser = crate::args::format("The summary as one JSON object (docs/json.md)", None))]
    pub format: crate::args::Format,
    #[command(flatten)]
    pub poly: PolyArgs,
}

pub fn run(args: SplitArgs) -> anyhow::Result<u8> {
    let instance = input::load(&args.file, None, args.puzzle)?;
    let pc = match &instance.kind {
        InstanceKind::Polycube(pc) => pc,
        InstanceKind::EdgeMatch(em) => {
            let given = args.poly.given();
            crate::usage_ensure!(given.is_empty(), "{} does not apply to an edge-matching split", given.join(", "));
            return run_edge(&args, &instance.file, &em.puzzle);
        }
        InstanceKind::Cover(_) => {
            return Err(crate::usage_error!("{}: emx split takes polycube and edge-matching puzzles", instance.file))
        }
    };
    let problem = instance.problem();
    let mut config = args.poly.config(1);
    // Rotations only by default, so that merged solution lists give the
    // classes under rotation; the constrained piece goes first, so every
    // part carries it and its weight.
    if config.redundancy.is_none() {
        config.redundancy = Some(if problem.symmetries.iter().any(|s| !s.reflection) {
            RedundancyMode::Auto
        } else {
            RedundancyMode::Off
        });
    }
    if config.redundancy != Some(RedundancyMode::Off) {
        config.force_first = Some(true);
    }
    let engine = PolyEngine::new(problem, &config).map_err(|e| crate::usage_error!("{}: {e}", instance.file))?;
    let n = engine.images().n_pieces() as usize;
    crate::usage_ensure!(
        args.depth >= 1 && args.depth < n,
        "--depth must be between 1 and {} (the puzzle has {n} pieces)",
        n - 1
    );
    let red = engine.redundancy().cloned();
    let weight = |opts: &[u32]| red.as_ref().map_or(1, |r| r.weight(opts));
    let mut found = Vec::new();
    let parts = engine.split(args.depth, &mut |opts| {
        found.push(Found { weight: weight(opts), solution: placed_pieces(problem, opts) });
        Flow::Continue
    });
    let text = emx::frontend::read_text(&args.file)?;
    let tasks = task_entries(args.tasks, parts.len())?;
    let out = out_dir(&args);
    std::fs::create_dir_all(&out)?;
    let width = parts.len().to_string().len().max(4);
    let mut manifest = Manifest {
        file: std::fs::canonicalize(&args.file)?.display().to_string(),
        puzzle: args.puzzle,
        depth: args.depth,
        engine: engine.describe(),
        mirror: red.as_ref().is_some_and(|r| r.mirror),
        parts: Vec::new(),
        found,
        split: None,
        tasks,
    };
    for (k, (options, w)) in parts.iter().enumerate() {
        let placed = placed_pieces(problem, options);
        if !manifest.tasks.is_empty() {
            manifest.parts.push(Part { file: None, weight: *w, placed });
            continue;
        }
        let name = format!("part-{:0width$}.txt", k + 1);
        let header = format!(
            "emx split: part {} of {} of {} (puzzle {}), depth {}\nweight {w}: each solution of this part stands for {w} solutions of the fixed box",
            k + 1,
            parts.len(),
            instance.file,
            args.puzzle,
            args.depth
        );
        write_part(&out.join(&name), &part_text(&pc.puzzle, &placed, &header))?;
        manifest.parts.push(Part { file: Some(name), weight: *w, placed });
    }
    let split = split_id(&text, &serde_json::to_string(&manifest)?);
    manifest.split = Some(split.clone());
    let task = |id: u64| serde_json::to_value(&manifest.parts[id as usize - 1]);
    let spec = SplitSpec { kind: "polycube", split: &split, file: &instance.file, puzzle: args.puzzle, text: &text };
    write_tasks(&out, &spec, &manifest.tasks, &task)?;
    write_atomically(&out.join("manifest.json"), &serde_json::to_string_pretty(&manifest)?)?;
    let manifest_path = out.join("manifest.json");
    if args.format == Format::Json {
        let v = serde_json::json!({
            "command": "split",
            "file": instance.file,
            "puzzle": problem.name,
            "kind": "polycube",
            "depth": args.depth,
            "parts": parts.len(),
            "found_above": manifest.found.len(),
            "tasks": args.tasks,
            "split": split,
            "directory": out.display().to_string(),
            "manifest": manifest_path.display().to_string(),
        });
        println!("{v}");
        return Ok(EXIT_OK);
    }
    println!(
        "{}: {} parts at depth {} in {} ({} solutions above the split); {}\nthen: emx merge {}",
        instance.file,
        parts.len(),
        args.depth,
        out.display(),
        manifest.found.len(),
        how_to_run(&out, args.tasks, "emx solve PART --format json --all > PART.json"),
        manifest_path.display()
    );
    Ok(EXIT_OK)
}

/// Writes the parts and `manifest.json` of an edge-matching split.
fn run_edge(args: &SplitArgs, file: &str, puzzle: &EdgePuzzle) -> anyhow::Result<u8> {
    let EdgeSplit { parts, symmetry, weight } =
        split(puzzle, args.depth).map_err(|e| crate::usage_error!("{file}: {e}"))?;
    let text = emx::frontend::read_text(&args.file)?;
    let tasks = task_entries(args.tasks, parts.len())?;
    let out = out_dir(args);
    std::fs::create_dir_all(&out)?;
    let width = parts.len().to_string().len().max(4);
    let mut manifest = EdgeManifest {
        kind: KIND.into(),
        file: std::fs::canonicalize(&args.file)?.display().to_string(),
        depth: args.depth,
        weight,
        symmetry: symmetry.clone(),
        parts: Vec::with_capacity(parts.len()),
        split: None,
        tasks,
    };
    for (k, fixed) in parts.iter().enumerate() {
        if !manifest.tasks.is_empty() {
            manifest.parts.push(EdgePart { file: None, fixed: fixed.clone() });
            continue;
        }
        let name = format!("part-{:0width$}.txt", k + 1);
        let header = [
            format!("emx split: part {} of {} of {file}, {} cells fixed (scan order)", k + 1, parts.len(), args.depth),
            format!("weight {weight}: each board of this part stands for {weight} boards of the puzzle"),
        ];
        let part = part_puzzle(puzzle, fixed, &format!("{}-part-{}", puzzle.name, k + 1));
        write_part(&out.join(&name), &write_emx(&part, &header))?;
        manifest.parts.push(EdgePart { file: Some(name), fixed: fixed.clone() });
    }
    let split_id = split_id(&text, &serde_json::to_string(&manifest)?);
    manifest.split = Some(split_id.clone());
    let task = |id: u64| serde_json::to_value(&manifest.parts[id as usize - 1]);
    let spec = SplitSpec { kind: KIND, split: &split_id, file, puzzle: 1, text: &text };
    write_tasks(&out, &spec, &manifest.tasks, &task)?;
    let manifest_path = out.join("manifest.json");
    write_atomically(&manifest_path, &serde_json::to_string_pretty(&manifest)?)?;
    if args.format == Format::Json {
        let v = json!({
            "command": "split",
            "file": file,
            "puzzle": puzzle.name,
            "kind": "edgematch",
            "depth": args.depth,
            "parts": parts.len(),
            "weight": weight,
            "symmetry": symmetry,
            "tasks": args.tasks,
            "split": split_id,
            "directory": out.display().to_string(),
            "manifest": manifest_path.display().to_string(),
        });
        println!("{v}");
        return Ok(EXIT_OK);
    }
    println!(
        "{file}: {} parts with {} cells fixed in {}{}; {}\nthen: emx merge {}",
        parts.len(),
        args.depth,
        out.display(),
        symmetry.map_or(String::new(), |s| format!(" ({s}; each part board stands for {weight})")),
        how_to_run(&out, args.tasks, "emx solve PART --format json --all > PART.json"),
        manifest_path.display()
    );
    Ok(EXIT_OK)
}

/// The output directory: `--out`, or FILE's stem + `-split` beside it.
fn out_dir(args: &SplitArgs) -> PathBuf {
    args.out.clone().unwrap_or_else(|| {
        let stem = args.file.file_stem().map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
        args.file.with_file_name(format!("{stem}-split"))
    })
}

/// The manifest's task list for `--tasks N` (empty without it), checked
/// before anything is written.
fn task_entries(tasks: Option<usize>, n_parts: usize) -> anyhow::Result<Vec<TaskEntry>> {
    let Some(n) = tasks else { return Ok(Vec::new()) };
    let groups = emx::tasks::groups(n_parts, n).map_err(|e| crate::usage_error!("{e}"))?;
    Ok(groups
        .into_iter()
        .enumerate()
        .map(|(k, parts)| TaskEntry { file: format!("task-{}.json", k + 1), parts })
        .collect())
}

/// What every task file of one split repeats.
struct SplitSpec<'a> {
    kind: &'a str,
    split: &'a str,
    file: &'a str,
    puzzle: usize,
    text: &'a str,
}

/// Writes one task file per entry of `tasks`, each with the original
/// puzzle's text and `spec(id)` of each of its parts.
fn write_tasks(
    out: &Path,
    s: &SplitSpec,
    tasks: &[TaskEntry],
    spec: &dyn Fn(u64) -> serde_json::Result<serde_json::Value>,
) -> anyhow::Result<()> {
    for (k, t) in tasks.iter().enumerate() {
        let parts =
            t.parts.iter().map(|&id| Ok(TaskPart { id, spec: spec(id)? })).collect::<serde_json::Result<_>>()?;
        let file = TaskFile {
            format: emx::tasks::FORMAT.into(),
            kind: s.kind.into(),
            split: s.split.into(),
            task: k as u64 + 1,
            tasks: tasks.len() as u64,
            file: s.file.into(),
            puzzle: s.puzzle,
            text: s.text.into(),
            parts,
        };
        write_part(&out.join(&t.file), &(serde_json::to_string(&file)? + "\n"))?;
    }
    Ok(())
}

/// The line telling how to run the parts or the tasks.
fn how_to_run(out: &Path, tasks: Option<usize>, per_part: &str) -> String {
    match tasks {
        Some(n) => format!(
            "run each task with\n  emx task {}    (K = 1..{n}; writes task-K.result.json beside it)",
            out.join("task-K.json").display()
        ),
        None => format!("solve each with\n  {per_part}"),
    }
}
