//! `emx decode`: map an answer produced elsewhere (a SAT model, a clique,
//! an LP solution) back to the puzzle, verify it and print it.

use crate::args::Format;
use crate::args::PuzzleArgs;
use crate::usage::{EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::encode::{clique, cnf, lp};
use emx::frontend::{read_text, LoadError, ParseError};
use emx::input::{self, Instance, InstanceKind};
use emx::ir::Solution;
use emx_encoders::SatAnswer;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("answer").required(true)))]
pub struct DecodeArgs {
    /// Puzzle file the answer belongs to.
    pub file: PathBuf,
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// A SAT solver's answer for `emx encode --to cnf` of FILE (`s`/`v`
    /// lines, or MiniSat's result file).
    #[arg(long, group = "answer", value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// Cliques of `emx encode --to clique` of FILE (cliquer's output or node
    /// numbers).
    #[arg(long, group = "answer", value_name = "CLIQUE")]
    pub clique: Option<PathBuf>,
    /// An LP solution of `emx encode --to lp` of FILE (`NAME VALUE` lines,
    /// e.g. HiGHS's solution file).
    #[arg(long, group = "answer", value_name = "SOLUTION")]
    pub lp_solution: Option<PathBuf>,
    /// The node map written beside the clique graph. Without it the nodes
    /// are numbered as `emx encode --to clique` numbers them with the same
    /// --pin-first-corner / --break-symmetry flags.
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// The graph was written with --pin-first-corner (without --map).
    #[arg(long, conflicts_with = "map")]
    pub pin_first_corner: bool,
    /// The graph was written with --break-symmetry (without --map).
    #[arg(long, conflicts_with = "map")]
    pub break_symmetry: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn parse_error(path: &Path, e: emx_encoders::ParseError) -> anyhow::Error {
    LoadError::Parse(ParseError { file: path.display().to_string(), line: e.line, col: None, message: e.message })
        .into()
}

/// Prints verified solutions, or the first verification failure.
fn report(instance: &Instance, solutions: &[(String, Solution)], format: Format) -> anyhow::Result<u8> {
    let mut out = Vec::new();
    let mut failed = None;
    for (label, s) in solutions {
        match instance.verify(s) {
            Ok(()) => out.push((label, s)),
            Err(reason) => {
                failed = Some(format!("{label}: does not decode to a solution of {}: {reason}", instance.file));
                break;
            }
        }
    }
    if let Some(f) = failed {
        eprintln!("error: {f}");
        return Ok(EXIT_BAD_INPUT);
    }
    match format {
        Format::Json => {
            let list: Vec<_> =
                out.iter().map(|(l, s)| json!({"source": l, "solution": instance.solution_json(s)})).collect();
            println!(
                "{}",
                json!({
                    "command": "decode",
                    "file": instance.file,
                    "puzzle": instance.problem().name,
                    "kind": crate::report::instance_kind(instance),
                    "verified": true,
                    "solutions": list,
                })
            );
        }
        Format::Svg => {
            let solutions: Vec<Solution> = out.iter().map(|(_, s)| (*s).clone()).collect();
            let picture = crate::pictures::solutions_picture(instance, &instance.problem().name, &solutions)?;
            crate::output::write(None, &picture)?;
        }
        Format::Text => {
            for (label, s) in out {
                println!("{label}: verified solution of {} ({} options)", instance.file, s.options.len());
                print!("{}", instance.render_text(s));
            }
        }
    }
    Ok(EXIT_OK)
}

pub fn run(args: DecodeArgs) -> anyhow::Result<u8> {
    // (clap's `requires = "clique"` does not fire here: `clique` is in the required group)
    crate::usage_ensure!(
        args.clique.is_some() || (args.map.is_none() && !args.pin_first_corner && !args.break_symmetry),
        "--map, --pin-first-corner and --break-symmetry describe a clique graph: they go with --clique"
    );
    let instance = input::load(&args.file, args.input.input_format, args.input.puzzle)?;
    let problem = instance.problem();
    if let Some(path) = &args.model {
        let text = read_text(path)?;
        let answer = emx_encoders::model::read_answer(&text).map_err(|e| parse_error(path, e))?;
        return match answer {
            SatAnswer::Unsat => {
                println!("{}: UNSATISFIABLE: no solution", path.display());
                Ok(EXIT_NO_SOLUTION)
            }
            SatAnswer::Unknown => {
                println!("{}: UNKNOWN: the solver gave up", path.display());
                Ok(EXIT_LIMIT)
            }
            SatAnswer::Sat(_) => {
                let s = cnf::solution_of(problem, &answer);
                report(&instance, &[(path.display().to_string(), s)], args.format)
            }
        };
    }
    if let Some(path) = &args.clique {
        let nodes = match &args.map {
            Some(m) => {
                let text = read_text(m)?;
                clique::read_map(&text, problem).map_err(|e| parse_error(m, e))?
            }
            None => {
                let r = crate::args::restrict::restriction(&instance, args.pin_first_corner, args.break_symmetry)?;
                let excluded = r.map(|r| r.excluded).unwrap_or_default();
                clique::graph(problem, &excluded)?.nodes().to_vec()
            }
        };
        let text = read_text(path)?;
        let cliques = emx_encoders::graph::read_cliques(&text, nodes.len() as u32).map_err(|e| parse_error(path, e))?;
        let solutions: Vec<(String, Solution)> = cliques
            .iter()
            .enumerate()
            .map(|(k, c)| {
                (format!("{} clique {} (size {})", path.display(), k + 1, c.len()), clique::solution_of(&nodes, c))
            })
            .collect();
        return report(&instance, &solutions, args.format);
    }
    let path = args.lp_solution.as_ref().expect("clap requires one answer");
    let InstanceKind::EdgeMatch(e) = &instance.kind else {
        crate::usage_bail!("--lp-solution applies to edge-matching puzzles (the MILP of `emx encode --to lp`)");
    };
    let text = read_text(path)?;
    let board = lp::read_solution(&text, &path.display().to_string(), &e.puzzle).map_err(LoadError::Parse)?;
    if let Err(err) = board.check_solution(&e.puzzle) {
        eprintln!("error: {}: the LP solution is not a solved board: {err}", path.display());
        return Ok(EXIT_BAD_INPUT);
    }
    let s = lp::options_of_board(&e.puzzle, problem, &board);
    report(&instance, &[(path.display().to_string(), s)], args.format)
}
