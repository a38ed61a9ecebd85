//! Loading any supported puzzle file into an [`Instance`]: the IR problem
//! plus what is needed to verify, draw and describe its solutions.

use crate::edgematch::{self, EdgePuzzle};
use crate::frontend::{polycube, LoadError, ParseError};
use crate::ir::{Problem, Solution};
use crate::memory::{self, MemoryEstimate, Tables};
use crate::render;
use crate::search::StopCheck;
use crate::size_cap::SizeCap;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

pub use crate::frontend::format::InputFormat;

/// The puzzle-specific part of an [`Instance`].
#[derive(Clone, Debug)]
pub enum InstanceKind {
    /// A polyomino / polycube puzzle.
    Polycube(Box<PolycubeInstance>),
    /// An edge-matching puzzle.
    EdgeMatch(Box<EdgeInstance>),
    /// A bare exact-cover problem (a `.dlx` file).
    Cover(Box<CoverInstance>),
}

/// A bare exact-cover problem: verification is [`crate::ir::verify`] and a
/// solution is drawn as its options' item lists.
#[derive(Clone, Debug)]
pub struct CoverInstance {
    /// The problem (options in file order).
    pub problem: Problem,
}

/// An edge-matching puzzle with its IR.
#[derive(Clone, Debug)]
pub struct EdgeInstance {
    /// The puzzle.
    pub puzzle: EdgePuzzle,
    /// Its exact-cover form ([`edgematch::ir::to_problem`]).
    pub problem: Problem,
}

/// A polycube puzzle with its IR.
#[derive(Clone, Debug)]
pub struct PolycubeInstance {
    /// The parsed definition.
    pub puzzle: polycube::Puzzle,
    /// The IR and piece groups.
    pub built: polycube::Built,
    /// How many puzzles the file holds.
    pub puzzles_in_file: usize,
    /// The puzzle-level verifier, prepared once, at the first solution
    /// checked ([`PolycubeInstance::verifier`]): on several threads that is
    /// on the calling thread while the workers search, not before they
    /// start, so preparing it delays no worker.
    verifier: std::sync::OnceLock<polycube::Verifier>,
    /// Whether the polycube engines take `built.problem`
    /// ([`crate::poly::handles`]), found out once by
    /// [`Instance::poly_handles`].
    pub poly_handles: std::sync::OnceLock<bool>,
}

impl PolycubeInstance {
    /// The puzzle-level verifier of `puzzle`, prepared on first use.
    pub fn verifier(&self) -> &polycube::Verifier {
        self.verifier.get_or_init(|| polycube::Verifier::new(&self.puzzle))
    }
}

/// A loaded puzzle, ready for any back-end.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The file it came from.
    pub file: String,
    /// Puzzle-specific data.
    pub kind: InstanceKind,
}

impl Instance {
    /// The exact-cover problem.
    pub fn problem(&self) -> &Problem {
        match &self.kind {
            InstanceKind::Polycube(p) => &p.built.problem,
            InstanceKind::EdgeMatch(e) => &e.problem,
            InstanceKind::Cover(c) => &c.problem,
        }
    }

    /// Whether this is a polycube puzzle the polycube engines take
    /// ([`crate::poly::handles`], checked once per instance).
    pub fn poly_handles(&self) -> bool {
        match &self.kind {
            InstanceKind::Polycube(p) => *p.poly_handles.get_or_init(|| crate::poly::handles(&p.built.problem)),
            _ => false,
        }
    }

    /// Checks a solution at the puzzle level (and as an exact cover).
    pub fn verify(&self, solution: &Solution) -> Result<(), String> {
        match &self.kind {
            InstanceKind::Polycube(p) => {
                p.verifier().verify_solution(&p.built.problem, solution).map_err(|e| e.to_string())
            }
            InstanceKind::EdgeMatch(e) => {
                crate::ir::verify(&e.problem, solution).map_err(|err| err.to_string())?;
                edgematch::ir::board_of(&e.puzzle, &e.problem, &solution.options)
                    .check_solution(&e.puzzle)
                    .map_err(|err| err.to_string())
            }
            InstanceKind::Cover(c) => crate::ir::verify(&c.problem, solution).map_err(|err| err.to_string()),
        }
    }

    /// A text drawing of a solution.
    pub fn render_text(&self, solution: &Solution) -> String {
        match &self.kind {
            InstanceKind::Polycube(_) => {
                let geo = self.problem().geometry.as_ref().expect("front-ends attach geometry");
                render::text::layers(geo, &solution.options)
            }
            InstanceKind::EdgeMatch(e) => {
                let board = edgematch::ir::board_of(&e.puzzle, &e.problem, &solution.options);
                render::text::board(&board)
            }
            InstanceKind::Cover(c) => {
                let mut options = solution.options.clone();
                options.sort_unstable();
                options.iter().map(|&o| c.problem.option_text(o) + "\n").collect()
            }
        }
    }

    /// A solution as JSON: the list of placements, each a piece name and
    /// its cells as `[x, y, z]`.
    pub fn solution_json(&self, solution: &Solution) -> Value {
        if let InstanceKind::EdgeMatch(e) = &self.kind {
            return edgematch::ir::board_of(&e.puzzle, &e.problem, &solution.options).to_json();
        }
        if let InstanceKind::Cover(c) = &self.kind {
            let mut options = solution.options.clone();
            options.sort_unstable();
            return options.iter().map(|&o| json!({ "option": o, "items": c.problem.option_text(o) })).collect();
        }
        let geo = self.problem().geometry.as_ref().expect("front-ends attach geometry");
        let mut placed: Vec<Value> = geo
            .named_placements(&solution.options)
            .into_iter()
            .filter(|(_, p)| !geo.pieces[p.piece as usize].stationary)
            .map(|(name, p)| {
                let cells: Vec<[u32; 3]> = p.cells.iter().map(|&c| geo.coords(c)).collect();
                json!({ "piece": name, "cells": cells })
            })
            .collect();
        placed.sort_by(|a, b| a["piece"].as_str().cmp(&b["piece"].as_str()));
        Value::Array(placed)
    }
}

/// How [`load_with`] builds an instance.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Refuse an IR whose estimated memory exceeds this (`--max-size`).
    pub max_size: SizeCap,
    /// Stop the build at this instant ([`LoadError::Stopped`], `TimeLimit`).
    pub deadline: Option<Instant>,
    /// Stop the build once the process has used this much CPU time
    /// (`--clock cpu`; [`LoadError::Stopped`], `TimeLimit`).
    pub cpu_budget: Option<std::time::Duration>,
    /// Stop the build when this flag is set (Ctrl-C, a memory watcher:
    /// [`LoadError::Stopped`], `Interrupted`).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Refuse, before building, a run whose memory estimate (the IR and
    /// the tables of [`LoadOptions::tables`]) exceeds this many bytes
    /// ([`LoadError::OverMemoryLimit`]).
    pub memory_limit: Option<u64>,
    /// The engine whose tables the memory estimate counts (a back-end
    /// name, `auto` or empty for the one `auto` picks).
    pub backend: String,
}

impl LoadOptions {
    /// The build's [`StopCheck`].
    pub fn stop(&self) -> StopCheck {
        StopCheck { cpu_budget: self.cpu_budget, ..StopCheck::new(self.deadline, self.cancel.clone()) }
    }
}

/// The memory estimate of a polycube puzzle solved by `backend` (`auto`
/// or empty: the polycube engines up to 1024 free cells, which is where
/// they take a puzzle, DLX beyond).
pub fn polycube_memory(puzzle: &polycube::Puzzle, backend: &str) -> MemoryEstimate {
    let ir = polycube::estimate(puzzle);
    let cells = puzzle.dims.iter().map(|&d| d as u64).product::<u64>();
    let fixed: u64 = puzzle.pieces.iter().filter(|d| d.stationary).map(|d| d.cells.len() as u64).sum();
    let free = cells - fixed.min(cells);
    let pieces = puzzle.pieces.iter().filter(|d| !d.stationary).count() as u64;
    let tables = match backend {
        "poly" => Tables::Poly,
        "" | "auto" if free <= 1024 => Tables::Poly,
        "dlx" | "" | "auto" => Tables::Dlx,
        _ => Tables::None,
    };
    let bytes = match tables {
        Tables::Dlx => memory::dlx_tables(free + pieces, ir.options, ir.entries),
        Tables::Poly => memory::poly_tables(ir.options, free),
        Tables::None => 0,
    };
    // Every solution found is verified, through the verifier's memo.
    let bytes = bytes + memory::verifier_memo(ir.options);
    MemoryEstimate::new(ir, tables, bytes)
}

/// The memory estimate of an edge-matching puzzle: its IR (the engines'
/// tables are small beside it).
pub fn edgematch_memory(puzzle: &EdgePuzzle) -> MemoryEstimate {
    MemoryEstimate::new(edgematch::ir::estimate(puzzle), Tables::None, 0)
}

/// Loads puzzle number `index` (1-based) of `path`, in `format` or the
/// detected format, with the default size cap.
pub fn load(path: &Path, format: Option<InputFormat>, index: usize) -> Result<Instance, LoadError> {
    load_with(path, format, index, &LoadOptions::default())
}

/// Loads puzzle number `index` (1-based) of `path`, in `format` or the
/// detected format (a `.dlx` extension means Knuth's format).
pub fn load_with(
    path: &Path,
    format: Option<InputFormat>,
    index: usize,
    opts: &LoadOptions,
) -> Result<Instance, LoadError> {
    let file = path.display().to_string();
    let text = crate::frontend::read_text(path)?;
    let by_extension = path.extension().is_some_and(|e| e == "dlx").then_some(InputFormat::Dlx);
    let stem = path.file_stem().map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned());
    load_text(&text, &file, &stem, format.or(by_extension), index, opts)
}

/// Loads puzzle number `index` (1-based) from `text` (named `file` in
/// errors, `stem` as the puzzle name), in `format` or the detected format.
pub fn load_text(
    text: &str,
    file: &str,
    stem: &str,
    format: Option<InputFormat>,
    index: usize,
    opts: &LoadOptions,
) -> Result<Instance, LoadError> {
    let file = file.to_string();
    let stem = stem.to_string();
    let too_large = |file: &String, error| LoadError::TooLarge { file: file.clone(), error };
    let over_memory = |file: &String, error| LoadError::OverMemoryLimit { file: file.clone(), error };
    // Checked by the build (after the estimates, so that a run over the
    // memory limit is refused as such, not stopped by the watcher).
    let stop = opts.stop();
    let format = match format.or_else(|| InputFormat::detect(text)) {
        Some(f) => f,
        None => {
            return Err(ParseError {
                file,
                line: 1,
                col: None,
                message: format!(
                    "cannot tell the format of this file: expected a polycube definition (starting with `D:`), an edge-matching file (META `cols rows`, Heule hint count, emx `size ROWS COLS`) or a Knuth `.dlx` file; use --input-format {}",
                    InputFormat::NAMES.join("|")
                ),
            }
            .into())
        }
    };
    match format {
        InputFormat::Meta | InputFormat::Heule | InputFormat::Emx => {
            if index != 1 {
                return Err(ParseError {
                    file,
                    line: 1,
                    col: None,
                    message: format!("puzzle {index} requested, but the file holds 1 puzzle"),
                }
                .into());
            }
            let puzzle = crate::frontend::format::parse_puzzle(text, format, &file, &stem)?;
            let options = edgematch::ir::option_bound(&puzzle);
            if options > edgematch::ir::MAX_OPTIONS {
                return Err(ParseError {
                    file,
                    line: 1,
                    col: None,
                    message: format!(
                        "the {}x{} board needs up to {options} exact-cover options; emx builds at most {} (`emx score` reads boards of any size)",
                        puzzle.rows, puzzle.cols, edgematch::ir::MAX_OPTIONS
                    ),
                }
                .into());
            }
            edgematch::ir::estimate(&puzzle).check(opts.max_size).map_err(|e| too_large(&file, e))?;
            if let Some(limit) = opts.memory_limit {
                edgematch_memory(&puzzle).check(limit).map_err(|e| over_memory(&file, e))?;
            }
            let problem = edgematch::ir::to_problem(&puzzle);
            Ok(Instance { file, kind: InstanceKind::EdgeMatch(Box::new(EdgeInstance { puzzle, problem })) })
        }
        InputFormat::Dlx => {
            let problem = crate::frontend::dlx::dlx_problem(text, &file, &stem)?;
            Ok(Instance { file, kind: InstanceKind::Cover(Box::new(CoverInstance { problem })) })
        }
        InputFormat::Polycube => {
            let mut puzzles = polycube::parse(text, &file)?;
            let n = puzzles.len();
            if index == 0 || index > n {
                return Err(ParseError {
                    file,
                    line: 1,
                    col: None,
                    message: format!("puzzle {index} requested, but the file holds {n} puzzle(s)"),
                }
                .into());
            }
            let puzzle = puzzles.swap_remove(index - 1);
            let name = if n > 1 { format!("{stem}{}", puzzle.name) } else { stem };
            polycube::estimate(&puzzle).check(opts.max_size).map_err(|e| too_large(&file, e))?;
            if let Some(limit) = opts.memory_limit {
                polycube_memory(&puzzle, &opts.backend).check(limit).map_err(|e| over_memory(&file, e))?;
            }
            let built = polycube::build_checked(&puzzle, &name, &stop).map_err(|e| match e {
                crate::ir::BuildError::Stopped(reason) => LoadError::Stopped { file: file.clone(), reason },
                e => ParseError { file: file.clone(), line: puzzle.line, col: None, message: e.to_string() }.into(),
            })?;
            Ok(Instance {
                file,
                kind: InstanceKind::Polycube(Box::new(PolycubeInstance {
                    verifier: std::sync::OnceLock::new(),
                    puzzle,
                    built,
                    puzzles_in_file: n,
                    poly_handles: std::sync::OnceLock::new(),
                })),
            })
        }
    }
}
