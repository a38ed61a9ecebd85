//! `emx generate edgematch`: a random edge-matching puzzle with a planted
//! solution, reproducible from its seed, written in any of the readable
//! formats with its solution beside it.

use crate::usage::{UsageError, EXIT_OK};
use anyhow::Context;
use clap::{Args, Subcommand};
use emx::edgematch::generate::{generate, GenerateSpec, Style};
use emx::frontend::edgematch::{write_emx, write_heule, write_meta};
use emx::render;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct GenerateArgs {
    #[command(subcommand)]
    pub what: GenerateWhat,
}

#[derive(Subcommand)]
pub enum GenerateWhat {
    /// A random edge-matching puzzle with a planted solution.
    ///
    /// Without --border-colors: Benoist & Bourreau's generator, every inner
    /// join (frame joins included) coloured uniformly from 1..=K. With
    /// --border-colors B: the Eternity II / Heule style, joins along the
    /// frame coloured from 1..=B, all other inner joins from B+1..=B+K.
    /// Tiles are shuffled and turned at random. The planted solution is
    /// written as a board file: to --solution, else beside --output
    /// (`NAME.solution.txt`), else as comment lines after the puzzle.
    Edgematch(EdgeGenArgs),
}

#[derive(Args)]
pub struct EdgeGenArgs {
    /// Square board side N (N x N).
    #[arg(long, value_name = "N", conflicts_with_all = ["rows", "cols"], required_unless_present_all = ["rows", "cols"])]
    pub size: Option<usize>,
    /// Board rows (with --cols, for an N x M board).
    #[arg(long, requires = "cols")]
    pub rows: Option<usize>,
    /// Board columns.
    #[arg(long, requires = "rows")]
    pub cols: Option<usize>,
    /// Number of (inner) colours K.
    #[arg(long, value_name = "K")]
    pub colors: u16,
    /// Number of frame colours B: switches to the Eternity II frame style.
    #[arg(long, value_name = "B")]
    pub border_colors: Option<u16>,
    /// Seed of the random generator; the same seed gives the same puzzle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the puzzle here instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Write the planted solution (a board file) here.
    #[arg(long, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// Format of the puzzle file.
    #[arg(long, value_enum, default_value_t = OutputFormat::Emx)]
    pub output_format: OutputFormat,
    /// How to report what was written: nothing (`text`), or one JSON object
    /// on stdout (`json`, needs --output so stdout is free).
    #[arg(long, default_value = "text", value_parser = crate::args::format("A summary of what was written as one JSON object (needs --output)", None))]
    pub format: crate::args::Format,
}

/// Puzzle file formats the generator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// emx's own format (`size`, `tile`, comments).
    Emx,
    /// Heule's format (hint count, then pieces).
    Heule,
    /// META / Brendan Owen format (`cols rows`, then pieces).
    Meta,
}

pub fn run(args: GenerateArgs) -> anyhow::Result<u8> {
    let GenerateWhat::Edgematch(a) = args.what;
    crate::usage_ensure!(
        a.format != crate::args::Format::Json || a.output.is_some(),
        "--format json prints a summary on stdout, so the puzzle needs a file: give --output FILE"
    );
    let (rows, cols) = match a.size {
        Some(n) => (n, n),
        None => (a.rows.unwrap_or(0), a.cols.unwrap_or(0)),
    };
    let style = match a.border_colors {
        Some(b) => Style::Frame { border_colors: b, inner_colors: a.colors },
        None => Style::Uniform { colors: a.colors },
    };
    let spec = GenerateSpec { rows, cols, style, seed: a.seed };
    let g = generate(&spec).map_err(|e| UsageError(e.to_string()))?;
    let board = render::text::board(&g.solution);
    let mut header = vec![
        format!("emx generate edgematch: {}", spec.describe()),
        match style {
            Style::Uniform { colors } => format!("colours 1..={colors} on every inner join; 0 is the grey border"),
            Style::Frame { border_colors, inner_colors } => format!(
                "frame colours 1..={border_colors} on joins along the border, inner colours {}..={} elsewhere; 0 is grey",
                border_colors + 1,
                border_colors + inner_colors
            ),
        },
    ];
    let solution_path = a.solution.clone().or_else(|| a.output.as_deref().map(beside));
    let mut text = match a.output_format {
        OutputFormat::Emx => {
            if let Some(p) = &solution_path {
                header.push(format!("planted solution: {}", p.display()));
            }
            write_emx(&g.puzzle, &header)
        }
        OutputFormat::Heule => write_heule(&g.puzzle),
        OutputFormat::Meta => write_meta(&g.puzzle),
    };
    match &solution_path {
        Some(p) => {
            let doc = format!("# planted solution of {}\n{board}", spec.describe());
            write_atomic(p, &doc)?;
        }
        None if a.output_format == OutputFormat::Emx => {
            text.push_str("# planted solution (tile/rotation per cell):\n");
            for line in board.lines() {
                text.push_str(&format!("#   {line}\n"));
            }
        }
        None => {
            return Err(UsageError(format!(
                "the {:?} format cannot hold the planted solution: give --solution FILE or --output FILE",
                a.output_format
            ))
            .into())
        }
    }
    if a.format == crate::args::Format::Json {
        let output = a.output.as_ref().map(|p| p.display().to_string());
        let v = serde_json::json!({
            "command": "generate",
            "kind": "edgematch",
            "puzzle": g.puzzle.name,
            "rows": rows,
            "cols": cols,
            "colors": a.colors,
            "border_colors": a.border_colors,
            "seed": a.seed,
            "output": output,
            "output_format": format!("{:?}", a.output_format).to_lowercase(),
            "solution": solution_path.as_ref().map(|p| p.display().to_string()),
        });
        if let Some(p) = &a.output {
            write_atomic(p, &text)?;
        }
        println!("{v}");
        return Ok(EXIT_OK);
    }
    match &a.output {
        Some(p) => {
            write_atomic(p, &text)?;
            // The puzzle went to a file: say what was written, on stderr.
            eprintln!(
                "wrote {} ({}, {} format){}",
                p.display(),
                spec.describe(),
                format!("{:?}", a.output_format).to_lowercase(),
                solution_path.as_ref().map_or(String::new(), |s| format!("; planted solution in {}", s.display()))
            );
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(EXIT_OK)
}

/// `dir/name.txt` -> `dir/name.solution.txt`.
fn beside(output: &Path) -> PathBuf {
    let stem = output.file_stem().map_or_else(|| "puzzle".into(), |s| s.to_string_lossy().into_owned());
    output.with_file_name(format!("{stem}.solution.txt"))
}

/// Writes `text` to `path` through [`emx::write::text_atomically`].
fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    emx::write::text_atomically(path, &emx::write::OutputGuard::default(), text)
        .with_context(|| format!("writing {}", path.display()))
}
