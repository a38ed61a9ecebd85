//! `emx encode`: write a puzzle as DIMACS CNF, a DIMACS clique graph,
//! Knuth's `.dlx` text, the CPLEX-LP MILP of Salassa et al. or the weighted
//! MaxSAT (WCNF) of the matched-edge score.

use crate::args::restrict::restriction;
use crate::args::PuzzleArgs;
use crate::usage::EXIT_OK;
use anyhow::Context;
use clap::builder::PossibleValuesParser;
use clap::{Args, ValueEnum};
use emx::encode::restrict::Restriction;
use emx::encode::size;
use emx::encode::{clique, cnf, lp, maxsat};
use emx::input::{self, InstanceKind};
use emx::size_cap::SizeCap;
use emx::write::{atomically, OutputGuard};
use emx_encoders::WcnfFormat;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Output formats of `emx encode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// DIMACS CNF: a variable per option (variable o+1 = option o), `c` lines
    /// map variables to placements.
    Cnf,
    /// DIMACS graph (`p edge N M`, `e u v`): a node per option, an edge between
    /// compatible options; a node map is written beside it.
    Clique,
    /// Knuth's .dlx exact-cover text (DLX1/DLX2/DLX3 input).
    Dlx,
    /// CPLEX LP: the MILP of Salassa et al. (edge matching only).
    Lp,
    /// Weighted MaxSAT (WCNF) of the matched-edge score (edge matching only):
    /// hard a tile per cell and a cell per tile, soft one per inner join; cost
    /// = unmatched joins.
    Wcnf,
}

#[derive(Args)]
pub struct EncodeArgs {
    /// Puzzle file (polycube definition, edge-matching META file, or .dlx).
    pub file: PathBuf,
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Output format.
    #[arg(long, value_enum)]
    pub to: Target,
    /// Output file (default: standard output). Written to a temporary file
    /// and renamed when complete.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Node-to-placement map of a clique graph (default: OUT.map when -o is
    /// given; none on standard output unless this is set).
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// Edge matching: pin the first corner tile to the top-left cell.
    ///
    /// Square boards without clues: fix the first corner tile in file order to
    /// the top-left cell and keep every other tile out of it
    /// (the symmetry break of Salassa et al.).
    #[arg(long)]
    pub pin_first_corner: bool,
    /// Keep one placement per symmetry orbit of one piece or tile (cnf, clique, dlx).
    ///
    /// The orbits come from the puzzle's symmetries, so each class of symmetric solutions has one
    /// member left.
    #[arg(long)]
    pub break_symmetry: bool,
    #[command(flatten)]
    pub cnf: crate::args::cnf::CnfFlags,
    /// With --to wcnf: the current MaxSAT form or the classic `p wcnf` one.
    ///
    /// `standard` writes the MaxSAT Evaluation format used
    /// from 2022 on (`h` before hard clauses, no header), `classic` the
    /// older `p wcnf VARIABLES CLAUSES TOP` form. [default: standard]
    #[arg(long, value_name = "FORM", value_parser = PossibleValuesParser::new(WcnfFormat::NAMES))]
    pub wcnf_format: Option<String>,
    /// How to report what was written: text on stderr or JSON on stdout.
    ///
    /// A line on stderr (`text`), or one JSON object on stdout (`json`, needs
    /// -o so stdout is free).
    #[arg(long, value_enum, default_value_t = crate::args::Format::Text)]
    pub format: crate::args::Format,
    /// Refuse a model or an output larger than this many bytes (units K, M, G, T).
    ///
    /// It bounds the IR (estimated before building) and the
    /// encoding (counted or estimated before writing).
    #[arg(long, value_name = "SIZE", default_value = "2G")]
    pub max_size: SizeCap,
}

/// The `--format json` summary of a written encoding: every size field is
/// present, `null` where it does not apply to the target.
#[derive(Default, serde::Serialize)]
struct Summary {
    variables: Option<u64>,
    clauses: Option<u64>,
    literals: Option<u64>,
    nodes: Option<u64>,
    edges: Option<u64>,
    map: Option<String>,
    items: Option<u64>,
    options: Option<u64>,
    constraints: Option<u64>,
}

/// Writes an output to `path` atomically, or to standard output, never
/// past `guard`'s cap.
fn output<T>(
    path: Option<&PathBuf>,
    guard: &OutputGuard,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>,
) -> anyhow::Result<T> {
    match path {
        Some(p) => atomically(p, guard, |w| write(w)).with_context(|| format!("writing {}", p.display())),
        None => {
            let stdout = emx::write::Guarded::new(std::io::stdout().lock(), guard, "standard output");
            let mut w = std::io::BufWriter::with_capacity(1 << 20, stdout);
            let v = write(&mut w)?;
            w.flush()?;
            Ok(v)
        }
    }
}

pub fn run(args: EncodeArgs) -> anyhow::Result<u8> {
    let cap = args.max_size;
    let instance = input::load_with(
        &args.file,
        args.input.input_format,
        args.input.puzzle,
        &input::LoadOptions { max_size: cap, ..Default::default() },
    )?;
    let guard = OutputGuard { cap, cancel: None };
    crate::usage_ensure!(
        args.map.is_none() || matches!(args.to, Target::Clique),
        "--map names the node map of a clique graph: it needs --to clique"
    );
    let problem = instance.problem();
    let restriction = restriction(&instance, args.pin_first_corner, args.break_symmetry)?;
    let excluded: Vec<bool> = restriction.as_ref().map(|r| r.excluded.clone()).unwrap_or_default();
    let note = restriction.as_ref().map(|r| format!("restriction: {}", r.description)).unwrap_or_default();
    let out_name = args.output.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string());
    crate::usage_ensure!(
        args.format != crate::args::Format::Svg,
        "emx encode writes no picture: --format text or json (to draw the puzzle: emx render)"
    );
    crate::usage_ensure!(
        args.format != crate::args::Format::Json || args.output.is_some(),
        "--format json prints a summary on stdout, so the encoding needs a file: give -o FILE"
    );
    crate::usage_ensure!(
        args.wcnf_format.is_none() || matches!(args.to, Target::Wcnf),
        "--wcnf-format chooses the form of a WCNF file: it needs --to wcnf"
    );
    let mut summary = Summary::default();
    let start = Instant::now();
    match args.to {
        Target::Cnf => {
            let opts = args.cnf.options(&instance, excluded)?;
            size::cnf_size(problem, &opts)?.check(cap)?;
            let enc = cnf::encode(problem, &opts)?;
            let comments = cnf::comments(&instance, &enc, &opts, restriction.as_ref());
            output(args.output.as_ref(), &guard, |mut w| emx_encoders::dimacs::write_cnf(&mut w, &enc.cnf, &comments))?;
            summary.variables = Some(enc.cnf.n_vars() as u64);
            summary.clauses = Some(enc.cnf.n_clauses() as u64);
            summary.literals = Some(enc.cnf.n_literals() as u64);
            summary.options = Some(problem.n_options() as u64);
            eprintln!(
                "emx encode: wrote {out_name}: cnf, {} variables ({} options), {} clauses, {} literals, {:.3} s",
                enc.cnf.n_vars(),
                problem.n_options(),
                enc.cnf.n_clauses(),
                enc.cnf.n_literals(),
                start.elapsed().as_secs_f64()
            );
        }
        Target::Clique => {
            let g = clique::graph(problem, &excluded)?;
            let counted = size::clique_size(&g, cap.bytes);
            counted.check(cap)?;
            let stats = output(args.output.as_ref(), &guard, |mut w| clique::write(&mut w, &instance, &g, &note))?;
            let map = args.map.clone().or_else(|| {
                args.output.as_ref().map(|p| {
                    let mut s = p.clone().into_os_string();
                    s.push(".map");
                    PathBuf::from(s)
                })
            });
            if let Some(m) = &map {
                atomically(m, &guard, |w| clique::write_map(w, &instance, &g))
                    .with_context(|| format!("writing {}", m.display()))?;
            }
            summary.nodes = Some(stats.nodes.into());
            summary.edges = Some(stats.edges);
            summary.map = map.as_ref().map(|m| m.display().to_string());
            eprintln!(
                "emx encode: wrote {out_name}: clique graph, {} nodes, {} edges{}, {:.3} s",
                stats.nodes,
                stats.edges,
                map.map_or_else(|| ", no node map (give --map)".to_string(), |m| format!(", node map {}", m.display())),
                start.elapsed().as_secs_f64()
            );
        }
        Target::Dlx => {
            let names = emx::encode::dlx_names(&instance, &excluded)
                .map_err(|e| crate::usage::UsageError(format!("{}: {e}", instance.file)))?;
            size::check_counted(cap, "the .dlx file", size::dlx_size(&instance, &excluded, &note, cap.bytes))?;
            output(args.output.as_ref(), &guard, |mut w| {
                emx::encode::write_dlx(&mut w, &instance, &names, &excluded, &note)
            })?;
            summary.items = Some(problem.items().len() as u64);
            summary.options =
                Some((problem.n_options() - restriction.as_ref().map_or(0, Restriction::n_excluded)) as u64);
            eprintln!(
                "emx encode: wrote {out_name}: .dlx, {} items, {} options, {:.3} s",
                problem.items().len(),
                problem.n_options() - restriction.as_ref().map_or(0, Restriction::n_excluded),
                start.elapsed().as_secs_f64()
            );
        }
        Target::Lp => {
            let InstanceKind::EdgeMatch(e) = &instance.kind else {
                crate::usage_bail!(
                    "--to lp writes the MILP of Salassa et al., which is for edge-matching puzzles only"
                );
            };
            if args.break_symmetry {
                crate::usage_bail!("--break-symmetry is not available for --to lp (use --pin-first-corner)");
            }
            let mut puzzle = e.puzzle.clone();
            if args.pin_first_corner {
                // The pin is a clue: the first corner tile at r0c0 in the rotation that fits.
                let t0 = puzzle.tiles.iter().position(|t| t.grey_sides() == 2).expect("checked by the restriction");
                let rotation = (0..4u8).find(|&r| puzzle.fits_border(t0, r, 0)).expect("a corner tile fits a corner");
                puzzle.clues.push(emx::edgematch::Clue { tile: t0, row: 0, col: 0, rotation });
            }
            let comment = format!("emx: MILP of Salassa et al. for {} ({})\n{note}", instance.file, problem.name);
            size::check_counted(cap, "the LP model", size::lp_size(&puzzle, &comment, cap.bytes))?;
            let stats = output(args.output.as_ref(), &guard, |mut w| lp::write(&mut w, &puzzle, &comment))?;
            summary.variables = Some(stats.variables as u64);
            summary.constraints = Some(stats.constraints as u64);
            eprintln!(
                "emx encode: wrote {out_name}: lp, {} variables, {} constraints, {:.3} s",
                stats.variables,
                stats.constraints,
                start.elapsed().as_secs_f64()
            );
        }
        Target::Wcnf => {
            let InstanceKind::EdgeMatch(e) = &instance.kind else {
                crate::usage_bail!(
                    "--to wcnf writes the matched-edge score as MaxSAT, which is for edge-matching puzzles only"
                );
            };
            let format: WcnfFormat =
                args.wcnf_format.as_deref().unwrap_or("standard").parse().map_err(anyhow::Error::msg)?;
            let amo = args.cnf.amo.parse().map_err(anyhow::Error::msg)?;
            let enc = maxsat::encode(&e.puzzle, problem, amo, &excluded);
            let comments = maxsat::comments(&instance, &e.puzzle, &enc, amo, restriction.as_ref());
            let hard = enc.wcnf.hard();
            let counted =
                size::counted(cap.bytes, |w| emx_encoders::wcnf::write_wcnf(w, &enc.wcnf, format, &comments))?;
            size::check_counted(cap, "the WCNF file", counted)?;
            output(args.output.as_ref(), &guard, |mut w| {
                emx_encoders::wcnf::write_wcnf(&mut w, &enc.wcnf, format, &comments)
            })?;
            summary.variables = Some(enc.wcnf.n_vars() as u64);
            summary.clauses = Some((hard.n_clauses() + enc.wcnf.n_soft()) as u64);
            summary.literals = Some(hard.n_literals() as u64);
            summary.options = Some(problem.n_options() as u64);
            eprintln!(
                "emx encode: wrote {out_name}: wcnf ({}), {} variables ({} options), {} hard clauses, {} soft clauses (one per inner join), {:.3} s",
                format.name(),
                enc.wcnf.n_vars(),
                problem.n_options(),
                hard.n_clauses(),
                enc.wcnf.n_soft(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    if args.format == crate::args::Format::Json {
        let mut v = serde_json::to_value(&summary)?;
        v["command"] = "encode".into();
        v["file"] = instance.file.clone().into();
        v["puzzle"] = problem.name.clone().into();
        v["kind"] = crate::report::instance_kind(&instance).into();
        v["to"] = format!("{:?}", args.to).to_lowercase().into();
        v["output"] = out_name.into();
        v["restriction"] = restriction.as_ref().map(|r| r.description.clone()).into();
        v["time_s"] = start.elapsed().as_secs_f64().into();
        println!("{v}");
    }
    Ok(EXIT_OK)
}
