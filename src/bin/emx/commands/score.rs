//! `emx score`: the matched joins of edge-matching boards read from a file
//! (possibly partial or faulty), and every rule each board breaks.

use crate::args::BoardFormat;
use crate::usage::{UsageError, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::edgematch::score::{score, ScoreReport};
use emx::frontend::edgematch::{bucas_line, viewer_url};
use emx::frontend::format::read_puzzle;
use emx::frontend::{LoadError, ParseError};
use emx::input::InputFormat;
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub struct ScoreArgs {
    /// Board file: `TILE/ROTATION` per cell, or e2.bucas.name boards.
    ///
    /// `TILE/ROTATION` (or `.`) per cell, one board row per line, as `emx
    /// solve` prints and `emx generate` writes; the JSON of `emx solve`; or
    /// e2.bucas.name boards, one a line: `NAME ORDER EDGES`, a viewer URL
    /// or a bare edge string (docs/formats.md). Every board is scored.
    pub board: PathBuf,
    /// The puzzle file the board is for (META, Heule or emx format).
    #[arg(long)]
    pub puzzle: PathBuf,
    /// Input format of the puzzle, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(["meta", "heule", "emx"]))]
    pub input_format: Option<String>,
    /// Write the report to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "text", value_parser = crate::args::board_format("The score and the broken rules as one JSON object (docs/json.md)", "An SVG picture of the board with its mismatched joins marked"))]
    pub format: BoardFormat,
}

/// Exit code 0 when every board is valid (it may be partial), 1 when one
/// breaks a rule (border, a tile used twice, a clue), 2 when a board cannot
/// be read or does not fit the puzzle.
pub fn run(args: ScoreArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let puzzle = read_puzzle(&args.puzzle, format)?;
    let file = args.board.display().to_string();
    let text = emx::frontend::read_text(&args.board)?;
    let boards = emx::solution_file::read_named_boards(&puzzle, &text, &file).map_err(LoadError::from)?;
    let mut reports = Vec::new();
    for (name, board) in &boards {
        let report = score(board, &puzzle).map_err(|e| {
            LoadError::Parse(ParseError { file: file.clone(), line: 1, col: None, message: e.to_string() })
        })?;
        reports.push((name.as_str(), report));
    }
    let mut out = Vec::new();
    match args.format {
        BoardFormat::Json => {
            let list: Vec<_> = reports
                .iter()
                .zip(&boards)
                .map(|((name, r), (_, board))| {
                    let mut v = serde_json::to_value(r).expect("report serialises");
                    v["name"] = json!(name);
                    v["valid"] = json!(r.valid());
                    v["solved"] = json!(r.solved());
                    v["bucas_url"] = json!(viewer_url(&board_name(name, &puzzle), &puzzle, board).ok());
                    v
                })
                .collect();
            let v = json!({
                "command": "score",
                "kind": "edgematch",
                "board_file": file,
                "puzzle": args.puzzle.display().to_string(),
                "boards": list,
            });
            serde_json::to_writer(&mut out, &v)?;
            writeln!(out)?;
        }
        BoardFormat::Text => {
            for (name, r) in &reports {
                print_text(&mut out, &file, name, r)?;
            }
        }
        BoardFormat::Bucas => {
            for (name, board) in &boards {
                let line = bucas_line(&board_name(name, &puzzle), &puzzle, board)
                    .map_err(|e| UsageError(format!("{file}: --format bucas: {e}")))?;
                out.write_all(line.as_bytes())?;
            }
        }
        BoardFormat::Svg => {
            // The boards drawn, mismatched joins in red.
            let drawn: Vec<emx::edgematch::Board> = boards.iter().map(|(_, b)| b.clone()).collect();
            let style = emx::render::svg::BoardStyle::solution();
            out.write_all(emx::render::svg::boards(&puzzle, &drawn, &file, &style).as_bytes())?;
        }
    }
    crate::output::write(args.output.as_deref(), &String::from_utf8_lossy(&out))?;
    Ok(if reports.iter().all(|(_, r)| r.valid()) { EXIT_OK } else { EXIT_NO_SOLUTION })
}

/// The name a board is written under: its own, else the puzzle's.
fn board_name(name: &str, puzzle: &emx::edgematch::EdgePuzzle) -> String {
    if name.is_empty() {
        puzzle.name.clone()
    } else {
        name.to_string()
    }
}

fn print_text(out: &mut impl Write, file: &str, name: &str, r: &ScoreReport) -> std::io::Result<()> {
    let title = if name.is_empty() { file.to_string() } else { format!("{file}: {name}") };
    writeln!(out, "{title} ({} x {})", r.rows, r.cols)?;
    let partial = if r.empty > 0 { format!(", {} empty", r.empty) } else { " (complete)".into() };
    writeln!(out, "cells: {} filled{partial}", r.filled)?;
    writeln!(
        out,
        "score: {} / {} matched inner joins ({} unmatched{})",
        r.matched,
        r.joins,
        r.unmatched,
        if r.empty > 0 {
            format!(", {} next to an empty cell", r.joins - r.matched - r.unmatched)
        } else {
            String::new()
        }
    )?;
    if r.valid() {
        writeln!(out, "rules: ok (grey exactly on the border, each tile at most once, clues kept)")?;
    } else {
        writeln!(out, "rules: {} broken", r.faults.len())?;
        for f in &r.faults {
            writeln!(out, "  {f}")?;
        }
    }
    if r.solved() {
        writeln!(out, "solved: every join matches")?;
    }
    Ok(())
}
