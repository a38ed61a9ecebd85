//! `emx decode`: map an answer produced elsewhere (a SAT model, a MaxSAT
//! model, a clique, an LP solution) back to the puzzle, check it against
//! the encoding it answers and the puzzle's rules, and print it. Nothing in
//! the answer is trusted: a SAT model is checked against every clause of
//! the CNF rebuilt with the same flags, a MaxSAT model against every hard
//! clause and its claimed cost, LP values against their bounds; a claim
//! that cannot be checked (unsatisfiable) is reported as the solver's.

use crate::args::Format;
use crate::args::PuzzleArgs;
use crate::usage::{UsageError, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION, EXIT_OK};
use clap::Args;
use emx::edgematch::{Board, EdgePuzzle};
use emx::encode::restrict::Restriction;
use emx::encode::sat::{SatEngine, SatSolver};
use emx::encode::{clique, cnf, explain, lp, maxsat};
use emx::frontend::{read_text, LoadError, ParseError};
use emx::input::{self, Instance, InstanceKind};
use emx::ir::Solution;
use emx::search::{Engine, Flow, Limits};
use emx_encoders::{MaxSatStatus, SatAnswer};
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("answer").required(true)))]
pub struct DecodeArgs {
    /// Puzzle file the answer belongs to.
    pub file: PathBuf,
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// A SAT solver's answer for `emx encode FILE --to cnf`, checked clause by clause.
    ///
    /// `s`/`v` lines, or MiniSat's result file. It is checked against every
    /// clause of that CNF, rebuilt from the same encoding flags (--amo,
    /// --card, --colors, ..., --pin-first-corner, --break-symmetry).
    #[arg(long, group = "answer", value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// A MaxSAT solver's answer for `emx encode FILE --to wcnf`, checked and scored.
    ///
    /// Edge matching: `s`, `o COST` and `v` lines, the model as literals or as
    /// one string of 0/1): checked against every hard clause of the WCNF
    /// rebuilt with the same --amo / --pin-first-corner / --break-symmetry,
    /// and the claimed cost against the model's; the board is scored.
    #[arg(long, group = "answer", value_name = "ANSWER")]
    pub maxsat_model: Option<PathBuf>,
    /// Cliques of `emx encode --to clique` of FILE (cliquer's output or node
    /// numbers).
    #[arg(long, group = "answer", value_name = "CLIQUE")]
    pub clique: Option<PathBuf>,
    /// An LP solution of `emx encode --to lp` of FILE, scored as a board.
    ///
    /// `NAME VALUE` lines, e.g. HiGHS's solution file. The board is scored: unmatched joins
    /// lower the score, they are not errors.
    #[arg(long, group = "answer", value_name = "SOLUTION")]
    pub lp_solution: Option<PathBuf>,
    /// With --lp-solution: how far a binary variable's value may be from 0
    /// or 1. [default: 1e-6]
    #[arg(long, value_name = "EPS")]
    pub lp_tolerance: Option<f64>,
    /// The node map written beside the clique graph.
    ///
    /// Without it the nodes
    /// are numbered as `emx encode --to clique` numbers them with the same
    /// --pin-first-corner / --break-symmetry flags.
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// The encoding was written with --pin-first-corner (cnf, wcnf, or a
    /// clique graph without --map).
    #[arg(long, conflicts_with = "map")]
    pub pin_first_corner: bool,
    /// The encoding was written with --break-symmetry (cnf, wcnf, or a
    /// clique graph without --map).
    #[arg(long, conflicts_with = "map")]
    pub break_symmetry: bool,
    #[command(flatten)]
    pub cnf: crate::args::cnf::CnfFlags,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn parse_error(path: &Path, e: emx_encoders::ParseError) -> anyhow::Error {
    LoadError::Parse(ParseError { file: path.display().to_string(), line: e.line, col: e.col, message: e.message })
        .into()
}

/// Prints a refusal and gives the bad-input exit code.
fn refuse(message: String) -> anyhow::Result<u8> {
    eprintln!("error: {message}");
    Ok(EXIT_BAD_INPUT)
}

/// Prints verified solutions, or the first one that is not a solution, in
/// the puzzle's terms (with `hint` appended: the likely cause).
fn report(instance: &Instance, solutions: &[(String, Solution)], format: Format, hint: &str) -> anyhow::Result<u8> {
    for (label, s) in solutions {
        if let Some(reason) = explain::solution_fault(instance, s) {
            return refuse(format!("{label}: does not decode to a solution of {}: {reason}{hint}", instance.file));
        }
    }
    match format {
        Format::Json => {
            let list: Vec<_> =
                solutions.iter().map(|(l, s)| json!({"source": l, "solution": instance.solution_json(s)})).collect();
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
            let solutions: Vec<Solution> = solutions.iter().map(|(_, s)| s.clone()).collect();
            let picture = crate::pictures::solutions_picture(instance, &instance.problem().name, &solutions)?;
            crate::output::write(None, &picture)?;
        }
        Format::Text => {
            for (label, s) in solutions {
                println!("{label}: verified solution of {} ({} options)", instance.file, s.options.len());
                print!("{}", instance.render_text(s));
            }
        }
    }
    Ok(EXIT_OK)
}

/// What a MaxSAT answer said, beside its board.
struct Claims {
    cost: u64,
    claimed_cost: Option<u64>,
    optimum_claimed: bool,
}

/// Prints a full, valid board with its score (unmatched joins allowed).
fn report_board(
    instance: &Instance,
    puzzle: &EdgePuzzle,
    label: &str,
    board: &Board,
    claims: Option<Claims>,
    format: Format,
) -> anyhow::Result<u8> {
    let score = board.score(puzzle);
    let unmatched = score.joins - score.matched;
    match format {
        Format::Json => {
            let mut v = json!({
                "command": "decode",
                "file": instance.file,
                "puzzle": instance.problem().name,
                "kind": crate::report::instance_kind(instance),
                "verified": true,
                "solutions": [{"source": label, "solution": board.to_json()}],
                "solved": unmatched == 0,
                "score": {"matched": score.matched, "joins": score.joins},
                "cost": null,
                "claimed_cost": null,
                "optimum_claimed": null,
            });
            if let Some(c) = &claims {
                v["cost"] = c.cost.into();
                v["claimed_cost"] = c.claimed_cost.into();
                v["optimum_claimed"] = c.optimum_claimed.into();
            }
            println!("{v}");
        }
        Format::Svg => {
            let style = emx::render::svg::BoardStyle::solution();
            let picture =
                emx::render::svg::boards(puzzle, std::slice::from_ref(board), &instance.problem().name, &style);
            crate::output::write(None, &picture)?;
        }
        Format::Text => {
            let what = if unmatched == 0 { "verified solution" } else { "verified board" };
            let matched = match unmatched {
                0 => "every inner join matched".to_string(),
                1 => "1 unmatched join".to_string(),
                n => format!("{n} unmatched joins"),
            };
            let solver = claims.map_or_else(String::new, |c| {
                let optimum = if c.optimum_claimed { ", claimed optimal" } else { ", not claimed optimal" };
                format!("; the solver's cost {}{optimum}", c.claimed_cost.unwrap_or(c.cost))
            });
            println!(
                "{label}: {what} of {}: score {}/{} ({matched}){solver}",
                instance.file, score.matched, score.joins
            );
            print!("{}", emx::render::text::board(board));
        }
    }
    Ok(EXIT_OK)
}

/// The restriction the decode flags describe, and the options it drops.
fn restriction(args: &DecodeArgs, instance: &Instance) -> anyhow::Result<(Option<Restriction>, Vec<bool>)> {
    let r = crate::args::restrict::restriction(instance, args.pin_first_corner, args.break_symmetry)?;
    let excluded = r.as_ref().map(|r| r.excluded.clone()).unwrap_or_default();
    Ok((r, excluded))
}

/// How long emx's own search tries to refute a claim of unsatisfiability.
const UNSAT_CHECK: std::time::Duration = std::time::Duration::from_secs(2);

fn decode_model(args: &DecodeArgs, instance: &Instance, path: &Path) -> anyhow::Result<u8> {
    let problem = instance.problem();
    let (r, excluded) = restriction(args, instance)?;
    let opts = args.cnf.options(instance, excluded)?;
    let enc = cnf::encode(problem, &opts)?;
    let text = read_text(path)?;
    let answer =
        emx_encoders::model::read_answer_within(&text, Some(enc.cnf.n_vars())).map_err(|e| parse_error(path, e))?;
    match answer {
        SatAnswer::Unsat => {
            // The claim cannot be read back, but it can be put to the test:
            // emx's own SAT search on the same CNF, for a short while.
            let line = text
                .lines()
                .position(|l| {
                    matches!(l.split_whitespace().collect::<Vec<_>>().as_slice(), ["s", "UNSATISFIABLE"] | ["UNSAT"])
                })
                .map_or(1, |k| k + 1);
            let limits = Limits { max_solutions: Some(1), ..Limits::none().with_time_limit(Some(UNSAT_CHECK)) };
            let mut engine = SatEngine::new(problem, SatSolver::Varisat, opts.clone());
            let mut found: Option<Vec<u32>> = None;
            let stats = engine.run(&limits, &mut |s| {
                found = Some(s.to_vec());
                Flow::Stop
            });
            let (path, file) = (path.display(), &instance.file);
            if let Some(options) = found {
                let solution = Solution { options };
                let board = instance.render_text(&solution);
                return refuse(format!(
                    "{path}:{line}: the solver says UNSATISFIABLE, but the CNF has a model: emx's own search found this solution of {file}:\n{board}"
                ));
            }
            if engine.error().is_none() && stats.stopped.is_none() {
                println!("{path}: the solver says UNSATISFIABLE, and emx's own search of the same CNF agrees: {file} has no solution under these flags");
            } else {
                println!(
                    "{path}: the solver says UNSATISFIABLE: that is its claim; emx's own search found no solution in {} s, so it is not checked (`emx solve {file}` searches to the end)",
                    UNSAT_CHECK.as_secs()
                );
            }
            Ok(EXIT_NO_SOLUTION)
        }
        SatAnswer::Unknown => {
            println!("{}: the solver says UNKNOWN: it gave up", path.display());
            Ok(EXIT_LIMIT)
        }
        SatAnswer::Sat(_) => {
            if let Err(k) = cnf::check_model(&enc.cnf, &answer) {
                let clause = enc.cnf.clause(k);
                let comments = cnf::comments(instance, &enc, &opts, r.as_ref()).lines().count();
                let lits = emx_encoders::wcnf::clause_text(clause);
                return refuse(format!(
                    "{}: the model falsifies clause {} of the CNF (`{lits} 0`, line {} of `emx encode {} --to cnf` with these flags): it is not a model of that CNF (was it encoded with other flags?)",
                    path.display(),
                    k + 1,
                    comments + 2 + k,
                    instance.file
                ));
            }
            let s = cnf::solution_of(problem, &answer);
            report(instance, &[(path.display().to_string(), s)], args.format, "")
        }
    }
}

fn decode_maxsat(args: &DecodeArgs, instance: &Instance, path: &Path) -> anyhow::Result<u8> {
    let InstanceKind::EdgeMatch(e) = &instance.kind else {
        crate::usage_bail!("--maxsat-model applies to edge-matching puzzles (the WCNF of `emx encode --to wcnf`)");
    };
    let amo = args.cnf.amo.parse().map_err(anyhow::Error::msg)?;
    let (r, excluded) = restriction(args, instance)?;
    let enc = maxsat::encode(&e.puzzle, &e.problem, amo, &excluded);
    let text = read_text(path)?;
    let answer =
        emx_encoders::wcnf::read_maxsat_answer(&text, enc.wcnf.n_vars()).map_err(|err| parse_error(path, err))?;
    let Some((model, _)) = &answer.model else {
        return match answer.status {
            Some((MaxSatStatus::Unsatisfiable, _)) => {
                println!(
                    "{}: the solver says UNSATISFIABLE: that is its claim, not checked here; the hard clauses only ask for a tile per cell with grey on the border (`emx optimize {}` finds such boards)",
                    path.display(),
                    instance.file
                );
                Ok(EXIT_NO_SOLUTION)
            }
            _ => {
                println!("{}: the solver says UNKNOWN and gives no model", path.display());
                Ok(EXIT_LIMIT)
            }
        };
    };
    let decoded = match maxsat::decode(&e.puzzle, &e.problem, &enc, &answer, model) {
        Ok(d) => d,
        Err(err) => {
            // A hard clause's line in the file `emx encode --to wcnf` writes.
            let line = match &err {
                maxsat::MaxSatError::Hard { clause, .. } => {
                    let comments = maxsat::comments(instance, &e.puzzle, &enc, amo, r.as_ref()).lines().count();
                    format!(
                        " (line {} of `emx encode {} --to wcnf` with these flags)",
                        comments + clause,
                        instance.file
                    )
                }
                _ => String::new(),
            };
            return refuse(format!("{}: {err}{line}", path.display()));
        }
    };
    if let Some(fault) = explain::board_fault(&e.puzzle, &decoded.board) {
        return refuse(format!("{}: the model's board is not a valid arrangement: {fault}", path.display()));
    }
    let claims = Claims {
        cost: decoded.cost,
        claimed_cost: answer.cost.map(|(c, _)| c),
        optimum_claimed: decoded.optimum_claimed,
    };
    report_board(instance, &e.puzzle, &path.display().to_string(), &decoded.board, Some(claims), args.format)
}

fn decode_clique(args: &DecodeArgs, instance: &Instance, path: &Path) -> anyhow::Result<u8> {
    let problem = instance.problem();
    let nodes = match &args.map {
        Some(m) => {
            let text = read_text(m)?;
            clique::read_map(&text, problem).map_err(|e| parse_error(m, e))?
        }
        None => clique::graph(problem, &restriction(args, instance)?.1)?.nodes().to_vec(),
    };
    // Without the node map, a graph written with other flags numbers its
    // nodes otherwise: the likely cause of a clique that does not decode.
    let hint = if args.map.is_some() {
        String::new()
    } else {
        let flags = match (args.pin_first_corner, args.break_symmetry) {
            (true, _) => "with --pin-first-corner",
            (_, true) => "with --break-symmetry",
            _ => "without --pin-first-corner or --break-symmetry",
        };
        format!(
            " (the nodes were numbered as `emx encode --to clique` numbers them {flags}; if the graph was written with other flags, give the same flags or its node map with --map FILE.map)"
        )
    };
    let text = read_text(path)?;
    let cliques = match emx_encoders::graph::read_cliques(&text, nodes.len() as u32) {
        Ok(c) => c,
        Err(e) => {
            let file = path.display().to_string();
            let position = e.col.map_or_else(|| format!("{file}:{}", e.line), |c| format!("{file}:{}:{c}", e.line));
            return refuse(format!("{position}: {}{hint}", e.message));
        }
    };
    let solutions: Vec<(String, Solution)> = cliques
        .iter()
        .enumerate()
        .map(|(k, c)| {
            (format!("{} clique {} (size {})", path.display(), k + 1, c.len()), clique::solution_of(&nodes, c))
        })
        .collect();
    report(instance, &solutions, args.format, &hint)
}

fn decode_lp(args: &DecodeArgs, instance: &Instance, path: &Path) -> anyhow::Result<u8> {
    let InstanceKind::EdgeMatch(e) = &instance.kind else {
        crate::usage_bail!("--lp-solution applies to edge-matching puzzles (the MILP of `emx encode --to lp`)");
    };
    let tolerance = args.lp_tolerance.unwrap_or(lp::DEFAULT_TOLERANCE);
    crate::usage_ensure!(
        (0.0..0.5).contains(&tolerance),
        "--lp-tolerance {tolerance}: expected a number from 0 to below 0.5"
    );
    let text = read_text(path)?;
    let board =
        lp::read_solution_with(&text, &path.display().to_string(), &e.puzzle, tolerance).map_err(LoadError::Parse)?;
    if let Some(fault) = explain::board_fault(&e.puzzle, &board) {
        return refuse(format!("{}: the LP solution is not a valid board: {fault}", path.display()));
    }
    report_board(instance, &e.puzzle, &path.display().to_string(), &board, None, args.format)
}

pub fn run(args: DecodeArgs) -> anyhow::Result<u8> {
    // (clap's `requires` does not fire here: the answers are in a required group)
    crate::usage_ensure!(
        args.clique.is_some() || args.map.is_none(),
        "--map names the node map of a clique graph: it goes with --clique"
    );
    crate::usage_ensure!(
        args.lp_solution.is_none() || (!args.pin_first_corner && !args.break_symmetry),
        "--pin-first-corner and --break-symmetry describe a cnf, wcnf or clique encoding; an LP solution is read without them"
    );
    crate::usage_ensure!(
        args.lp_tolerance.is_none() || args.lp_solution.is_some(),
        "--lp-tolerance goes with --lp-solution"
    );
    let instance = input::load(&args.file, args.input.input_format, args.input.puzzle)?;
    if let Some(path) = &args.model {
        return decode_model(&args, &instance, path);
    }
    if let Some(path) = &args.maxsat_model {
        return decode_maxsat(&args, &instance, path);
    }
    if let Some(path) = &args.clique {
        return decode_clique(&args, &instance, path);
    }
    match &args.lp_solution {
        Some(path) => decode_lp(&args, &instance, path),
        None => Err(UsageError("give one answer: --model, --maxsat-model, --clique or --lp-solution".into()).into()),
    }
}
