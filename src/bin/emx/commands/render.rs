//! `emx render`: a picture (or text, or JSON) of a puzzle, or of a solution
//! or board read from a file.

use crate::pictures::{nothing_to_draw, puzzle_picture};
use crate::usage::EXIT_OK;
use crate::usage_ensure;
use clap::Args;
use emx::input::{self, InputFormat, Instance, InstanceKind};
use emx::ir::Solution;
use emx::render::{svg, text};
use emx::solution_file;
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct RenderArgs {
    /// Puzzle file.
    pub file: PathBuf,
    /// A solution or board to draw (without it: the pieces or the tiles).
    ///
    /// Edge matching: a board file (`T/R` per cell), the JSON of `emx
    /// solve --format json`, or e2.bucas.name boards (`NAME ORDER EDGES`
    /// lines, viewer URLs, edge strings); polycubes: that JSON or a layer drawing as
    /// `emx solve` prints it. Without it the pieces are drawn (edge
    /// matching: the tiles in file order).
    #[arg(long, short, value_name = "FILE")]
    pub solution: Option<PathBuf>,
    /// Which solution of a file holding several (1-based).
    #[arg(long, default_value_t = 1, value_name = "K", requires = "solution")]
    pub index: usize,
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(InputFormat::NAMES))]
    pub input_format: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Svg)]
    pub format: RenderFormat,
    /// Title of the picture (default: the puzzle name).
    #[arg(long)]
    pub title: Option<String>,
    /// Write to this file (atomically) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// What `render` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RenderFormat {
    /// An SVG picture.
    Svg,
    /// The text drawing.
    Text,
    /// The solution or board as JSON.
    Json,
    /// The edge-matching board as an e2.bucas.name edge string, `NAME
    /// jblackwood EDGES` (docs/formats.md).
    Bucas,
}

pub fn run(args: RenderArgs) -> anyhow::Result<u8> {
    let format = args.input_format.as_deref().and_then(InputFormat::from_name);
    let instance = input::load(&args.file, format, args.puzzle)?;
    let title = args.title.clone().unwrap_or_else(|| instance.problem().name.clone());
    let Some(sol_path) = &args.solution else {
        let out = match args.format {
            RenderFormat::Svg => puzzle_picture(&instance, &title)?,
            RenderFormat::Text | RenderFormat::Json | RenderFormat::Bucas => {
                return Err(crate::usage::UsageError(
                    "--format text, json and bucas draw a solution: give one with --solution FILE (or use `emx info` to describe the puzzle)".into(),
                )
                .into())
            }
        };
        crate::output::write(args.output.as_deref(), &out)?;
        return Ok(EXIT_OK);
    };
    let sol_file = sol_path.display().to_string();
    let text = emx::frontend::read_text(sol_path)?;
    usage_ensure!(args.index >= 1, "--index counts from 1");
    usage_ensure!(
        args.format != RenderFormat::Bucas || matches!(instance.kind, InstanceKind::EdgeMatch(_)),
        "--format bucas writes edge-matching boards: {} is not an edge-matching puzzle",
        instance.file
    );
    let out = match &instance.kind {
        InstanceKind::Cover(_) => {
            let solutions = solution_file::read_solutions(&instance, &text, &sol_file)?;
            let solution = pick(solutions, args.index, &sol_file)?;
            let check = instance.verify(&solution).err();
            match args.format {
                RenderFormat::Svg => return Err(nothing_to_draw(&instance)),
                // bucas is refused above for anything but edge matching.
                RenderFormat::Text | RenderFormat::Bucas => instance.render_text(&solution),
                RenderFormat::Json => placements_json(&instance, "cover", &solution, check),
            }
        }
        InstanceKind::EdgeMatch(e) => {
            let boards = solution_file::read_boards(&e.puzzle, &text, &sol_file)?;
            let board = pick(boards, args.index, &sol_file)?;
            // A board need not be a solution (a local-search result is
            // drawn with its mismatches); say what is wrong with it.
            let check = board.check_solution(&e.puzzle).err().map(|err| err.to_string());
            match args.format {
                RenderFormat::Svg => svg::board(&e.puzzle, &board, &title, &svg::BoardStyle::solution()),
                RenderFormat::Text => text::board(&board),
                RenderFormat::Bucas => emx::frontend::edgematch::bucas_line(&title, &e.puzzle, &board)
                    .map_err(|err| crate::usage::UsageError(format!("{sol_file}: --format bucas: {err}")))?,
                RenderFormat::Json => {
                    let valid_board = board.check(&e.puzzle).is_ok();
                    let score = valid_board.then(|| board.score(&e.puzzle));
                    format!(
                        "{}\n",
                        json!({
                            "command": "render",
                            "file": instance.file,
                            "puzzle": instance.problem().name,
                            "kind": "edgematch",
                            "board": board.to_json(),
                            "score": score,
                            "solution": check.is_none(),
                            "problem": check,
                        })
                    )
                }
            }
        }
        InstanceKind::Polycube(_) => {
            let geo = instance.problem().geometry.as_ref().expect("front-ends attach geometry");
            let solutions = solution_file::read_polycube(geo, &text, &sol_file)?;
            let solution = pick(solutions, args.index, &sol_file)?;
            let check = instance.verify(&solution).err();
            match args.format {
                RenderFormat::Svg => svg::solutions(geo, &title, &[solution.options.as_slice()]),
                // bucas is refused above for anything but edge matching.
                RenderFormat::Text | RenderFormat::Bucas => text::layers(geo, &solution.options),
                RenderFormat::Json => placements_json(&instance, "polycube", &solution, check),
            }
        }
    };
    crate::output::write(args.output.as_deref(), &out)?;
    Ok(EXIT_OK)
}

fn pick<T>(mut list: Vec<T>, index: usize, file: &str) -> anyhow::Result<T> {
    usage_ensure!(index <= list.len(), "{file} holds {} solution(s); --index {index} is out of range", list.len());
    Ok(list.swap_remove(index - 1))
}

/// The JSON of a rendered polycube or exact-cover solution: its placements
/// and whether it solves the puzzle (`problem` says why not).
fn placements_json(instance: &Instance, kind: &str, solution: &Solution, check: Option<String>) -> String {
    let v = json!({
        "command": "render",
        "file": instance.file,
        "puzzle": instance.problem().name,
        "kind": kind,
        "placements": instance.solution_json(solution),
        "solution": check.is_none(),
        "problem": check,
    });
    format!("{v}\n")
}
