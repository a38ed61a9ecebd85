//! `emx split` and `emx merge` for edge-matching puzzles: the parts fix the
//! first cells (in scan's order) as clues; see `emx::edgematch::split`.

use crate::merge::MergeArgs;
use crate::split::SplitArgs;
use crate::{Format, EXIT_LIMIT, EXIT_OK};
use emx::edgematch::split::{merge, part_puzzle, split, EdgeManifest, EdgePart, EdgePartResult, EdgeSplit, KIND};
use emx::edgematch::EdgePuzzle;
use emx::frontend::edgematch::write_emx;
use emx::poly::split::{write_atomically, write_part};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Writes the parts and `manifest.json` of an edge-matching split.
pub fn run(args: &SplitArgs, file: &str, puzzle: &EdgePuzzle) -> anyhow::Result<u8> {
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

/// Adds up the results of an edge-matching split's parts.
pub fn merge_run(args: &MergeArgs, manifest: EdgeManifest, files: &[PathBuf]) -> anyhow::Result<u8> {
    let results: Vec<EdgePartResult> = crate::merge::read_results(files)?;
    let instance = emx::input::load(Path::new(&manifest.file), None, 1)?;
    let emx::input::InstanceKind::EdgeMatch(em) = &instance.kind else {
        crate::usage_bail!("{}: the manifest's puzzle is not an edge-matching puzzle", manifest.file)
    };
    let merged = merge(&em.puzzle, instance.problem(), &manifest, &results)?;
    match args.format {
        Format::Json | Format::Svg => {
            println!("{}", json!({ "command": "merge", "file": manifest.file, "kind": "edgematch", "merged": merged }))
        }
        Format::Text => {
            crate::merge::print_parts_merged(&manifest.file, merged.parts, merged.complete);
            println!("boards: {}", merged.boards);
            match merged.unique {
                Some(u) => println!("up to rotation: {u}"),
                None => println!("(solve the parts with --all to count classes up to rotation)"),
            }
            if merged.verified > 0 {
                println!("{} boards rebuilt and verified", merged.verified);
            }
        }
    }
    Ok(if merged.complete { EXIT_OK } else { EXIT_LIMIT })
}
