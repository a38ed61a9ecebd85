//! `emx split`: cut a polycube search or an edge-matching enumeration into
//! independent subproblem files.

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
use serde_json::json;
use std::path::PathBuf;

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
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = args.file.file_stem().map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
        args.file.with_file_name(format!("{stem}-split"))
    });
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
    };
    for (k, (options, w)) in parts.iter().enumerate() {
        let name = format!("part-{:0width$}.txt", k + 1);
        let placed = placed_pieces(problem, options);
        let header = format!(
            "emx split: part {} of {} of {} (puzzle {}), depth {}\nweight {w}: each solution of this part stands for {w} solutions of the fixed box",
            k + 1,
            parts.len(),
            instance.file,
            args.puzzle,
            args.depth
        );
        write_part(&out.join(&name), &part_text(&pc.puzzle, &placed, &header))?;
        manifest.parts.push(Part { file: name, weight: *w, placed });
    }
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
            "directory": out.display().to_string(),
            "manifest": manifest_path.display().to_string(),
        });
        println!("{v}");
        return Ok(EXIT_OK);
    }
    println!(
        "{}: {} parts at depth {} in {} ({} solutions above the split); solve each with\n  emx solve PART --format json --all > PART.json\nthen: emx merge {}",
        instance.file,
        parts.len(),
        args.depth,
        out.display(),
        manifest.found.len(),
        manifest_path.display()
    );
    Ok(EXIT_OK)
}

/// Writes the parts and `manifest.json` of an edge-matching split.
fn run_edge(args: &SplitArgs, file: &str, puzzle: &EdgePuzzle) -> anyhow::Result<u8> {
    let EdgeSplit { parts, symmetry, weight } =
        split(puzzle, args.depth).map_err(|e| crate::usage_error!("{file}: {e}"))?;
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = args.file.file_stem().map_or("puzzle".into(), |s| s.to_string_lossy().into_owned());
        args.file.with_file_name(format!("{stem}-split"))
    });
    std::fs::create_dir_all(&out)?;
    let width = parts.len().to_string().len().max(4);
    let mut manifest = EdgeManifest {
        kind: KIND.into(),
        file: std::fs::canonicalize(&args.file)?.display().to_string(),
        depth: args.depth,
        weight,
        symmetry: symmetry.clone(),
        parts: Vec::with_capacity(parts.len()),
    };
    for (k, fixed) in parts.iter().enumerate() {
        let name = format!("part-{:0width$}.txt", k + 1);
        let header = [
            format!("emx split: part {} of {} of {file}, {} cells fixed (scan order)", k + 1, parts.len(), args.depth),
            format!("weight {weight}: each board of this part stands for {weight} boards of the puzzle"),
        ];
        let part = part_puzzle(puzzle, fixed, &format!("{}-part-{}", puzzle.name, k + 1));
        write_part(&out.join(&name), &write_emx(&part, &header))?;
        manifest.parts.push(EdgePart { file: name, fixed: fixed.clone() });
    }
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
            "directory": out.display().to_string(),
            "manifest": manifest_path.display().to_string(),
        });
        println!("{v}");
        return Ok(EXIT_OK);
    }
    println!(
        "{file}: {} parts with {} cells fixed in {}{}; solve each with\n  emx solve PART --format json [--all] > PART.json\nthen: emx merge {}",
        parts.len(),
        args.depth,
        out.display(),
        symmetry.map_or(String::new(), |s| format!(" ({s}; each part board stands for {weight})")),
        manifest_path.display()
    );
    Ok(EXIT_OK)
}
