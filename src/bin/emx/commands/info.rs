//! `emx info`: what a puzzle file holds (its kind, size, pieces or tiles,
//! symmetries and IR size) without searching it, and with `--sizes` the
//! size of every encoding, counted without writing it.

use crate::args::Format;
use crate::usage::EXIT_OK;
use clap::Args;
use emx::encode::size;
use emx::input::{self, InputFormat, Instance, InstanceKind};
use emx::size_cap::{human, SizeCap};
use emx_encoders::CnfOptions;
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Args)]
pub struct InfoArgs {
    /// Puzzle file: a polycube definition file, an edge-matching puzzle (META, Heule, emx) or Knuth's .dlx.
    pub file: PathBuf,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
    /// Write the description to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = crate::args::format("The description as one JSON object (docs/json.md)", Some("An SVG picture of the pieces (polycube) or the tiles (edge matching)")))]
    pub format: crate::args::Format,
    /// Also report the size of every encoding (CNF, clique graph, .dlx, LP).
    ///
    /// Each is counted, not written, and only up to --max-size.
    #[arg(long)]
    pub sizes: bool,
    /// Refuse to build an IR larger than this (units K, M, G, T).
    ///
    /// With --sizes, counting an encoding stops there too.
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    pub max_size: SizeCap,
}

pub fn run(args: InfoArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let instance = input::load_with(
        &args.file,
        format,
        args.puzzle,
        &input::LoadOptions { max_size: args.max_size, ..Default::default() },
    )?;
    let sizes = if args.sizes { Some(encoding_sizes(&instance, args.max_size)?) } else { None };
    let mut out = String::new();
    let code = describe(&args, &instance, sizes.as_ref().map(|s| s.0.clone()), &mut out)?;
    if let (Some((_, text)), Format::Text) = (&sizes, args.format) {
        out.push_str(text);
    }
    crate::output::write(args.output.as_deref(), &out)?;
    Ok(code)
}

/// `writeln!` into the report being built (a `String`, which cannot fail).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).expect("writing to a String")
    };
}

/// The sizes of every encoding of `instance` as JSON and as text.
fn encoding_sizes(instance: &Instance, cap: SizeCap) -> anyhow::Result<(Value, String)> {
    let problem = instance.problem();
    let cnf = size::cnf_size(problem, &CnfOptions::default())?;
    let g = emx::encode::clique::graph(problem, &[])?;
    let clique = size::clique_size(&g, cap.bytes);
    drop(g);
    let dlx = size::dlx_size(instance, &[], "", cap.bytes);
    let lp = match &instance.kind {
        InstanceKind::EdgeMatch(e) => Some(size::lp_size(&e.puzzle, "", cap.bytes)),
        _ => None,
    };
    let over = |(bytes, complete): (u64, bool)| {
        if complete {
            human(bytes)
        } else {
            format!("over {} (counting stopped)", human(cap.bytes))
        }
    };
    let ir = match &instance.kind {
        InstanceKind::Polycube(pc) => Some(emx::frontend::polycube::estimate(&pc.puzzle)),
        InstanceKind::EdgeMatch(e) => Some(emx::edgematch::ir::estimate(&e.puzzle)),
        InstanceKind::Cover(_) => None,
    };
    // What `emx solve --memory-limit` checks (the engine `auto` picks).
    let memory = match &instance.kind {
        InstanceKind::Polycube(pc) => Some(emx::input::polycube_memory(&pc.puzzle, "auto")),
        InstanceKind::EdgeMatch(e) => Some(emx::input::edgematch_memory(&e.puzzle)),
        InstanceKind::Cover(_) => None,
    };
    let mut text = String::new();
    if let Some(m) = &memory {
        text.push_str(&format!(
            "memory estimate of solve (checked against --memory-limit before building): {} (IR build {}, engine tables {})\n",
            human(m.bytes),
            human(m.ir.bytes),
            human(m.table_bytes)
        ));
    }
    if let Some(ir) = &ir {
        text.push_str(&format!(
            "IR estimate (checked against --max-size before building): {} ({} options, {} entries at most)\n",
            human(ir.bytes),
            ir.options,
            ir.entries
        ));
    }
    text.push_str(&format!("encodings (counted up to --max-size {}):\n", human(cap.bytes)));
    text.push_str(&format!(
        "  cnf:    {} variables, {} clauses, {} literals; file about {}, formula in memory {}\n",
        cnf.vars,
        cnf.clauses,
        cnf.literals,
        human(cnf.file_bytes),
        human(cnf.memory_bytes)
    ));
    text.push_str(&format!(
        "  clique: {} nodes, {}{} edges; file {}\n",
        clique.nodes,
        if clique.complete { "" } else { "more than " },
        clique.edges,
        over((clique.file_bytes, clique.complete))
    ));
    text.push_str(&format!("  dlx:    file {}\n", over(dlx)));
    if let Some(lp) = lp {
        text.push_str(&format!("  lp:     file {}\n", over(lp)));
    }
    let counted = |(bytes, complete): (u64, bool)| json!({"bytes": bytes, "complete": complete});
    let v = json!({
        "max_size": cap.bytes,
        "ir_estimate": ir,
        "memory_estimate": memory.map(|m| m.bytes),
        "cnf": cnf,
        "clique": clique,
        "dlx": counted(dlx),
        "lp": lp.map(counted),
    });
    Ok((v, text))
}

fn describe(args: &InfoArgs, instance: &Instance, sizes: Option<Value>, out: &mut String) -> anyhow::Result<u8> {
    let with_sizes = |mut v: Value| {
        if let Some(s) = &sizes {
            v["sizes"] = s.clone();
        }
        v
    };
    let problem = instance.problem();
    if args.format == Format::Svg {
        out.push_str(&crate::pictures::puzzle_picture(instance, &problem.name)?);
        return Ok(EXIT_OK);
    }
    let pc = match &instance.kind {
        InstanceKind::Polycube(pc) => pc,
        InstanceKind::Cover(_) => {
            let v = json!({
                "command": "info",
                "file": instance.file,
                "puzzle": problem.name,
                "kind": "cover",
                "primary_items": problem.n_primary(),
                "secondary_items": problem.n_secondary(),
                "colors": problem.colors().len() - 1,
                "options": problem.n_options(),
                "entries": problem.n_entries(),
            });
            match args.format {
                Format::Json | Format::Svg => outln!(out, "{}", with_sizes(v)),
                Format::Text => {
                    outln!(out, "{} ({}): exact cover", problem.name, instance.file);
                    outln!(
                        out,
                        "items: {} primary, {} secondary; colours: {}; options: {}; entries: {}",
                        problem.n_primary(),
                        problem.n_secondary(),
                        problem.colors().len() - 1,
                        problem.n_options(),
                        problem.n_entries()
                    );
                }
            }
            return Ok(EXIT_OK);
        }
        InstanceKind::EdgeMatch(e) => {
            let p = &e.puzzle;
            let v = json!({
                "command": "info",
                "file": instance.file,
                "puzzle": problem.name,
                "kind": "edgematch",
                "rows": p.rows,
                "cols": p.cols,
                "tiles": p.tiles.len(),
                "colors": p.n_colors(),
                "clues": p.clues.len(),
                "joins": p.n_joins(),
                "primary_items": problem.n_primary(),
                "secondary_items": problem.n_secondary(),
                "options": problem.n_options(),
                "board_symmetries": problem.symmetries.len() + 1,
            });
            match args.format {
                Format::Json | Format::Svg => outln!(out, "{}", with_sizes(v)),
                Format::Text => {
                    outln!(out, "{} ({})", problem.name, instance.file);
                    outln!(
                        out,
                        "board: {} x {} (rows x cols), {} tiles, {} colours, {} clues",
                        p.rows,
                        p.cols,
                        p.tiles.len(),
                        p.n_colors(),
                        p.clues.len()
                    );
                    outln!(out, "inner joins: {}", p.n_joins());
                    outln!(
                        out,
                        "items: {} primary, {} secondary; options: {}; board symmetries: {}",
                        problem.n_primary(),
                        problem.n_secondary(),
                        problem.n_options(),
                        problem.symmetries.len() + 1
                    );
                }
            }
            return Ok(EXIT_OK);
        }
    };
    let built = &pc.built;
    let pieces: Vec<_> = built
        .groups
        .iter()
        .map(|g| {
            json!({
                "names": g.names,
                "cells": g.shape.len(),
                "orientations": g.orientations.len(),
                "images": g.images,
            })
        })
        .collect();
    let stationary: Vec<&str> = pc.puzzle.pieces.iter().filter(|d| d.stationary).map(|d| d.name.as_str()).collect();
    let v = json!({
        "command": "info",
        "file": instance.file,
        "puzzle": problem.name,
        "kind": "polycube",
        "puzzles_in_file": pc.puzzles_in_file,
        "dims": pc.puzzle.dims,
        "one_side": pc.puzzle.one_side,
        "pieces": pieces,
        "stationary": stationary,
        "primary_items": problem.n_primary(),
        "secondary_items": problem.n_secondary(),
        "options": problem.n_options(),
        "entries": problem.n_entries(),
        "box_rotations": built.rotations,
        "box_rotations_and_mirrors": built.rotations_and_mirrors,
    });
    match args.format {
        Format::Json | Format::Svg => outln!(out, "{}", with_sizes(v)),
        Format::Text => {
            let [x, y, z] = pc.puzzle.dims;
            outln!(out, "{} ({}, puzzle {} of {})", problem.name, instance.file, args.puzzle, pc.puzzles_in_file);
            outln!(out, "box: {x} x {y} x {z}{}", if pc.puzzle.one_side { ", one-sided (no flips)" } else { "" });
            outln!(out, "{:<12} {:>5} {:>12} {:>7}", "piece", "cells", "orientations", "images");
            for g in &built.groups {
                let label = if g.names.len() > 1 {
                    format!("{} (x{})", g.names.join(" "), g.names.len())
                } else {
                    g.names[0].clone()
                };
                outln!(out, "{:<12} {:>5} {:>12} {:>7}", label, g.shape.len(), g.orientations.len(), g.images);
            }
            let identical: Vec<_> = built.groups.iter().filter(|g| g.names.len() > 1).collect();
            if identical.is_empty() {
                outln!(out, "identical pieces: none");
            } else {
                for g in identical {
                    outln!(out, "identical pieces: {} (interchangeable; counted once)", g.names.join(", "));
                }
            }
            if !stationary.is_empty() {
                outln!(out, "stationary: {}", stationary.join(" "));
            }
            outln!(
                out,
                "items: {} primary, {} secondary; options: {}; entries: {}",
                problem.n_primary(),
                problem.n_secondary(),
                problem.n_options(),
                problem.n_entries()
            );
            outln!(
                out,
                "box symmetries: {} rotations, {} with mirror images (identity included)",
                built.rotations,
                built.rotations_and_mirrors
            );
        }
    }
    Ok(EXIT_OK)
}
