//! `emx solve`'s output, written as the solutions come: each solution is
//! written when it is found and then dropped, so a run listing millions of
//! solutions holds none of them, in every format. The writer is guarded
//! (the size cap, `--max-size`): a run whose output would pass the cap
//! stops with an error, and an output file is renamed into place only at
//! the end (so it is complete, or absent).
//!
//! - text: the header line, each solution drawn, the summary;
//! - json: one object whose `solution_list` array is written element by
//!   element (the fields known before the search come first);
//! - jsonl: one line `{"index": K, "solution": ...}` per solution, then the
//!   summary object (the json object without `solution_list`);
//! - svg: the pictures go to a scratch file as they come, and the document
//!   (whose head holds its height) is put together at the end;
//! - board: each board as a board file under a `# NAME board K` line;
//! - bucas: each board as a `NAME jblackwood EDGES` line.

use super::args::SolveFormat;
use super::summary::{header_fields, print_header, print_summary, summary_fields, RunFacts};
use emx::input::{Instance, InstanceKind};
use emx::ir::Solution;
use emx::render::svg::{self, Column, Svg};
use emx::solve::SolveReport;
use emx::write::{OutputGuard, Scratch};
use serde_json::{json, Map, Value};
use std::io::{self, Write};
use std::path::Path;

/// Writes one run's output to `out` as the solutions come.
pub struct Stream<'a> {
    instance: &'a Instance,
    format: SolveFormat,
    quiet: bool,
    out: &'a mut dyn Write,
    /// Solutions written (or, for svg, handed to the picture).
    written: u64,
    svg: Option<SvgBody<'a>>,
}

impl<'a> Stream<'a> {
    /// Checks that `format` can show `instance` and writes what precedes
    /// the solutions. `scratch_dir` is where an SVG body is kept.
    pub fn start(
        instance: &'a Instance,
        format: SolveFormat,
        quiet: bool,
        out: &'a mut dyn Write,
        facts: &RunFacts,
        guard: &OutputGuard,
        scratch_dir: &Path,
    ) -> anyhow::Result<Self> {
        let mut svg = None;
        match format {
            SolveFormat::Text => print_header(out, instance)?,
            SolveFormat::Json => {
                let mut head = object_text(&header_fields(instance, facts));
                head.pop(); // the closing brace: the object goes on
                write!(out, "{head},\"solution_list\":[")?;
            }
            SolveFormat::Jsonl => {}
            SolveFormat::Board | SolveFormat::Bucas => {
                let InstanceKind::EdgeMatch(e) = &instance.kind else {
                    crate::usage_bail!(
                        "--format {} writes edge-matching boards: {} is not an edge-matching puzzle",
                        if format == SolveFormat::Board { "board" } else { "bucas" },
                        instance.file
                    )
                };
                if format == SolveFormat::Bucas {
                    // Every tile's colours need a letter: checked on the
                    // tile set laid out once, before the search.
                    let p = &e.puzzle;
                    let mut all = emx::edgematch::Board::empty(p.rows, p.cols);
                    for (k, cell) in all.cells.iter_mut().enumerate().take(p.tiles.len()) {
                        *cell = Some(emx::edgematch::Placed { tile: k as u32, rotation: 0 });
                    }
                    if let Err(err) = emx::frontend::edgematch::edge_string(p, &all) {
                        crate::usage_bail!("--format bucas: {}: {err}", instance.file)
                    }
                }
            }
            SolveFormat::Svg => {
                if matches!(instance.kind, InstanceKind::Cover(_)) {
                    return Err(crate::pictures::nothing_to_draw(instance));
                }
                let scratch = Scratch::create(scratch_dir, guard, "the SVG picture")?;
                svg = Some(SvgBody { instance, scratch, held: None, column: None, blocks: 0 });
            }
        }
        Ok(Stream { instance, format, quiet, out, written: 0, svg })
    }

    /// Writes one solution (verified, and kept by the run's mode).
    pub fn solution(&mut self, s: &Solution) -> io::Result<()> {
        let k = self.written;
        self.written += 1;
        match self.format {
            SolveFormat::Text => {
                if !self.quiet {
                    writeln!(self.out, "\nsolution {}:", k + 1)?;
                    write!(self.out, "{}", self.instance.render_text(s))?;
                }
            }
            SolveFormat::Json => {
                if k > 0 {
                    self.out.write_all(b",")?;
                }
                serde_json::to_writer(&mut *self.out, &self.instance.solution_json(s))?;
            }
            SolveFormat::Jsonl => {
                serde_json::to_writer(
                    &mut *self.out,
                    &json!({ "index": k + 1, "solution": self.instance.solution_json(s) }),
                )?;
                self.out.write_all(b"\n")?;
            }
            SolveFormat::Board => {
                let InstanceKind::EdgeMatch(e) = &self.instance.kind else { unreachable!("checked at the start") };
                let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &s.options);
                writeln!(self.out, "# {} board {}", self.instance.problem().name, k + 1)?;
                write!(self.out, "{}", emx::render::text::board(&board))?;
                writeln!(self.out)?;
            }
            SolveFormat::Bucas => {
                let InstanceKind::EdgeMatch(e) = &self.instance.kind else { unreachable!("checked at the start") };
                let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &s.options);
                let line = emx::frontend::edgematch::bucas_line(&e.puzzle.name, &e.puzzle, &board)
                    .map_err(io::Error::other)?;
                self.out.write_all(line.as_bytes())?;
            }
            SolveFormat::Svg => self.svg.as_mut().expect("made at the start").add(s)?,
        }
        Ok(())
    }

    /// Writes what follows the solutions; for svg and board, the summary
    /// goes to stderr (unless quiet), the output being the picture or the
    /// boards.
    pub fn finish(self, report: &SolveReport, facts: &RunFacts) -> anyhow::Result<()> {
        let Stream { instance, format, quiet, out, written, svg } = self;
        match format {
            SolveFormat::Text => {
                if written > 0 && !quiet {
                    writeln!(out)?;
                }
                print_summary(out, instance, report, facts.counters)?;
            }
            SolveFormat::Json => {
                let mut rest = object_text(&summary_fields(report, facts));
                rest.remove(0); // the opening brace: this ends the object begun at the start
                writeln!(out, "],{rest}")?;
            }
            SolveFormat::Jsonl => {
                let mut all = header_fields(instance, facts);
                all.extend(summary_fields(report, facts));
                serde_json::to_writer(&mut *out, &Value::Object(all))?;
                writeln!(out)?;
            }
            SolveFormat::Svg | SolveFormat::Board | SolveFormat::Bucas => {
                if let Some(body) = svg {
                    body.finish(out)?;
                }
                if !quiet {
                    let mut summary = Vec::new();
                    print_header(&mut summary, instance)?;
                    print_summary(&mut summary, instance, report, facts.counters)?;
                    eprint!("{}", String::from_utf8_lossy(&summary));
                }
            }
        }
        out.flush()?;
        Ok(())
    }
}

fn object_text(fields: &Map<String, Value>) -> String {
    serde_json::to_string(fields).expect("JSON values serialise")
}

/// An SVG picture of the solutions, drawn block by block into a scratch
/// file. The first solution is held until a second one arrives (or the
/// run ends), since a list of one picture has no captions.
struct SvgBody<'a> {
    instance: &'a Instance,
    scratch: Scratch,
    held: Option<Solution>,
    /// Fixed by the first solution drawn.
    column: Option<Column>,
    blocks: usize,
}

impl SvgBody<'_> {
    fn add(&mut self, s: &Solution) -> io::Result<()> {
        if self.blocks == 0 && self.held.is_none() {
            self.held = Some(s.clone());
            return Ok(());
        }
        if let Some(first) = self.held.take() {
            self.draw(&first, true)?;
        }
        self.draw(s, true)
    }

    fn draw(&mut self, s: &Solution, captions: bool) -> io::Result<()> {
        let k = self.blocks;
        self.blocks += 1;
        let mut svg = Svg::new(0.0, 0.0);
        match &self.instance.kind {
            InstanceKind::Polycube(_) => {
                let geo = self.instance.problem().geometry.as_ref().expect("front-ends attach geometry");
                let col = *self.column.get_or_insert_with(|| svg::pieces::column(geo));
                svg::pieces::solution_block(&mut svg, geo, &col, k, captions, &s.options);
            }
            InstanceKind::EdgeMatch(e) => {
                let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &s.options);
                let style = svg::BoardStyle::solution();
                let col = *self.column.get_or_insert_with(|| svg::board::column(board.rows, board.cols, &style));
                svg::board::board_block(&mut svg, &e.puzzle, &col, k, captions, &board, &style);
            }
            InstanceKind::Cover(_) => unreachable!("refused at the start"),
        }
        self.scratch.write_all(svg.into_body().as_bytes())
    }

    /// Writes the document: the head (now that the height is known), the
    /// title, the blocks, the tail.
    fn finish(mut self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(only) = self.held.take() {
            self.draw(&only, false)?;
        }
        let captions = self.blocks > 1;
        let title = &self.instance.problem().name;
        let col = match self.column {
            Some(col) => col,
            // No solution: an empty picture of the board's or box's size.
            None => match &self.instance.kind {
                InstanceKind::Polycube(_) => {
                    svg::pieces::column(self.instance.problem().geometry.as_ref().expect("front-ends attach geometry"))
                }
                InstanceKind::EdgeMatch(e) => {
                    svg::board::column(e.puzzle.rows, e.puzzle.cols, &svg::BoardStyle::solution())
                }
                InstanceKind::Cover(_) => unreachable!("refused at the start"),
            },
        };
        out.write_all(svg::head(col.width, col.height(self.blocks, captions)).as_bytes())?;
        let mut head = Svg::new(0.0, 0.0);
        col.title(&mut head, title);
        out.write_all(head.into_body().as_bytes())?;
        self.scratch.copy_to(out)?;
        out.write_all(svg::TAIL.as_bytes())
    }
}
