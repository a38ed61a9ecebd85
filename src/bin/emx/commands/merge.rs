//! `emx merge`: add up the results of the parts of an `emx split` (polycube
//! or edge matching, told apart by the manifest's `kind`).

use crate::args::Format;
use crate::usage::{EXIT_LIMIT, EXIT_OK};
use clap::Args;
use emx::edgematch::split::{EdgeManifest, EdgePartResult};
use emx::input::{self, InputFormat};
use emx::poly::run::split::{merge, Manifest, PartResult};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct MergeArgs {
    /// The `manifest.json` written by `emx split`.
    pub manifest: PathBuf,
    /// Result files of the parts (`emx solve PART --format json`), in part
    /// order; default: each part's file with the extension `.json`.
    pub results: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = crate::args::format("The merged counts as one JSON object (docs/json.md)", None))]
    pub format: crate::args::Format,
}

pub fn run(args: MergeArgs) -> anyhow::Result<u8> {
    let text =
        std::fs::read_to_string(&args.manifest).map_err(|e| crate::usage_error!("{}: {e}", args.manifest.display()))?;
    let not_manifest =
        |e: serde_json::Error| crate::usage_error!("{}: not an emx split manifest: {e}", args.manifest.display());
    let value: serde_json::Value = serde_json::from_str(&text).map_err(not_manifest)?;
    let dir = args.manifest.parent().map(PathBuf::from).unwrap_or_default();
    let files = |parts: Vec<&str>| -> anyhow::Result<Vec<PathBuf>> {
        if args.results.is_empty() {
            return Ok(parts.iter().map(|p| dir.join(p).with_extension("json")).collect());
        }
        crate::usage_ensure!(
            args.results.len() == parts.len(),
            "{} result files for {} parts",
            args.results.len(),
            parts.len()
        );
        Ok(args.results.clone())
    };
    if value.get("kind").and_then(|k| k.as_str()) == Some(emx::edgematch::split::KIND) {
        let manifest: EdgeManifest = serde_json::from_value(value).map_err(not_manifest)?;
        let files = files(manifest.parts.iter().map(|p| p.file.as_str()).collect())?;
        return merge_edge(&args, manifest, &files);
    }
    let manifest: Manifest = serde_json::from_value(value).map_err(not_manifest)?;
    let files = files(manifest.parts.iter().map(|p| p.file.as_str()).collect())?;
    let results: Vec<PartResult> = read_results(&files)?;
    let instance = input::load(std::path::Path::new(&manifest.file), Some(InputFormat::Polycube), manifest.puzzle)?;
    let merged = merge(instance.problem(), &manifest, &results, &|s| instance.verify(s))?;
    match args.format {
        Format::Json | Format::Svg => {
            println!("{}", json!({ "command": "merge", "file": manifest.file, "merged": merged }))
        }
        Format::Text => {
            print_parts_merged(&manifest.file, merged.parts, merged.complete);
            println!("solutions in the fixed box: {}", merged.fixed_box);
            match (merged.unique, merged.unique_mirror) {
                (Some(u), Some(m)) => println!("up to rotation: {u}; up to rotation and reflection: {m}"),
                (None, Some(m)) => println!("up to rotation and reflection: {m} (the split broke reflections, so rotation classes are not counted)"),
                _ => println!("(solve the parts with --all to count classes up to rotation)"),
            }
        }
    }
    Ok(if merged.complete { EXIT_OK } else { EXIT_LIMIT })
}

/// Reads each part's `emx solve --format json` result (its last line).
pub fn read_results<T: serde::de::DeserializeOwned>(files: &[PathBuf]) -> anyhow::Result<Vec<T>> {
    let missing: Vec<&PathBuf> = files.iter().filter(|f| !f.exists()).collect();
    if let Some(first) = missing.first() {
        crate::usage_bail!(
            "{} of {} part results are missing (the first: {}): solve each part first, \
             `emx solve PART --format json --all > PART.json` for a PART.txt",
            missing.len(),
            files.len(),
            first.display()
        );
    }
    files
        .iter()
        .map(|f| {
            let t = std::fs::read_to_string(f).map_err(|e| crate::usage_error!("{}: {e}", f.display()))?;
            serde_json::from_str(t.lines().last().unwrap_or(""))
                .map_err(|e| crate::usage_error!("{}: not an `emx solve --format json` result: {e}", f.display()))
        })
        .collect()
}

/// The first line of a merge's text output, for both kinds of puzzle.
pub(crate) fn print_parts_merged(file: &str, parts: usize, complete: bool) {
    println!("{file}: {parts} parts merged{}", if complete { "" } else { " (some parts did not finish)" });
}

/// Adds up the results of an edge-matching split's parts.
fn merge_edge(args: &MergeArgs, manifest: EdgeManifest, files: &[PathBuf]) -> anyhow::Result<u8> {
    let results: Vec<EdgePartResult> = read_results(files)?;
    let instance = emx::input::load(Path::new(&manifest.file), None, 1)?;
    let emx::input::InstanceKind::EdgeMatch(em) = &instance.kind else {
        crate::usage_bail!("{}: the manifest's puzzle is not an edge-matching puzzle", manifest.file)
    };
    let merged = emx::edgematch::split::merge(&em.puzzle, instance.problem(), &manifest, &results)?;
    match args.format {
        Format::Json | Format::Svg => {
            println!("{}", json!({ "command": "merge", "file": manifest.file, "kind": "edgematch", "merged": merged }))
        }
        Format::Text => {
            print_parts_merged(&manifest.file, merged.parts, merged.complete);
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
