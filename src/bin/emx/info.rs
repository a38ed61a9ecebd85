//! `emx info`.

use crate::{Format, EXIT_OK};
use clap::Args;
use emx::input::{self, InputFormat, InstanceKind};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct InfoArgs {
    /// Puzzle file.
    pub file: PathBuf,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn run(args: InfoArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let instance = input::load(&args.file, format, args.puzzle)?;
    let problem = instance.problem();
    let pc = match &instance.kind {
        InstanceKind::Polycube(pc) => pc,
        InstanceKind::Cover(_) => {
            let v = json!({
                "file": instance.file,
                "puzzle": problem.name,
                "primary_items": problem.n_primary(),
                "secondary_items": problem.n_secondary(),
                "colors": problem.colors().len() - 1,
                "options": problem.n_options(),
                "entries": problem.n_entries(),
            });
            match args.format {
                Format::Json => println!("{v}"),
                Format::Text => {
                    println!("{} ({}): exact cover", problem.name, instance.file);
                    println!(
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
                "file": instance.file,
                "puzzle": problem.name,
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
                Format::Json => println!("{v}"),
                Format::Text => {
                    println!("{} ({})", problem.name, instance.file);
                    println!(
                        "board: {} x {} (rows x cols), {} tiles, {} colours, {} clues",
                        p.rows,
                        p.cols,
                        p.tiles.len(),
                        p.n_colors(),
                        p.clues.len()
                    );
                    println!("inner joins: {}", p.n_joins());
                    println!(
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
        "file": instance.file,
        "puzzle": problem.name,
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
        Format::Json => println!("{v}"),
        Format::Text => {
            let [x, y, z] = pc.puzzle.dims;
            println!("{} ({}, puzzle {} of {})", problem.name, instance.file, args.puzzle, pc.puzzles_in_file);
            println!("box: {x} x {y} x {z}{}", if pc.puzzle.one_side { ", one-sided (no flips)" } else { "" });
            println!("{:<12} {:>5} {:>12} {:>7}", "piece", "cells", "orientations", "images");
            for g in &built.groups {
                let label = if g.names.len() > 1 {
                    format!("{} (x{})", g.names.join(" "), g.names.len())
                } else {
                    g.names[0].clone()
                };
                println!("{:<12} {:>5} {:>12} {:>7}", label, g.shape.len(), g.orientations.len(), g.images);
            }
            let identical: Vec<_> = built.groups.iter().filter(|g| g.names.len() > 1).collect();
            if identical.is_empty() {
                println!("identical pieces: none");
            } else {
                for g in identical {
                    println!("identical pieces: {} (interchangeable; counted once)", g.names.join(", "));
                }
            }
            if !stationary.is_empty() {
                println!("stationary: {}", stationary.join(" "));
            }
            println!(
                "items: {} primary, {} secondary; options: {}; entries: {}",
                problem.n_primary(),
                problem.n_secondary(),
                problem.n_options(),
                problem.n_entries()
            );
            println!(
                "box symmetries: {} rotations, {} with mirror images (identity included)",
                built.rotations, built.rotations_and_mirrors
            );
        }
    }
    Ok(EXIT_OK)
}
