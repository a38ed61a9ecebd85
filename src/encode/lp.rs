//! The MILP model of Salassa et al. (§2.1) for edge matching, in CPLEX LP
//! format, and the way back from an LP solution to a board.
//!
//! Variables (1-based rows, columns and tiles as in the paper):
//! `x_t_r_c_a` = tile `t` at row `r`, column `c`, rotated `a` clockwise
//! quarter turns (binary, every combination); `h_r_c` = the join right of
//! `(r, c)` is unmatched, `v_r_c` = the join below is unmatched (both in
//! `[0, 1]`). Minimise `Σ h + Σ v` subject to: each tile placed once (2),
//! each cell filled once (3), for every inner join and every non-grey
//! colour `l` the two sides' indicator sums differ by at most the join's
//! variable (4)–(7), and grey on every border side (8)–(11). An optimum of
//! 0 is a solution. For the META series this gives the variable and
//! constraint counts of the paper's Table 1.

use crate::edgematch::{Board, EdgePuzzle, Placed, EAST, GREY, NORTH, SOUTH, WEST};
use crate::frontend::ParseError;
use std::io::{self, Write};

/// A border constraint family: name, side that must be grey, its cells.
type BorderRow = (&'static str, usize, Vec<(usize, usize)>);

/// Sizes of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LpStats {
    /// Variables (x, h and v).
    pub variables: usize,
    /// Constraints.
    pub constraints: usize,
}

/// Writes terms `coef name` as ` + name` / ` - name`, wrapping long rows
/// (CPLEX limits lines to 510 characters; continuation lines are indented).
struct Row<'w, W: Write> {
    w: &'w mut W,
    len: usize,
}

impl<W: Write> Row<'_, W> {
    fn term(&mut self, sign: char, name: &str) -> io::Result<()> {
        if self.len > 200 {
            writeln!(self.w)?;
            write!(self.w, "   ")?;
            self.len = 3;
        }
        write!(self.w, " {sign} {name}")?;
        self.len += name.len() + 3;
        Ok(())
    }
}

fn x(t: usize, r: usize, c: usize, a: u8) -> String {
    format!("x_{}_{}_{}_{}", t + 1, r + 1, c + 1, a)
}

/// Writes the model for `puzzle` (rectangular boards allowed; clues are
/// fixed with equality constraints `x = 1`).
pub fn write(w: &mut impl Write, puzzle: &EdgePuzzle, comment: &str) -> io::Result<LpStats> {
    let (rows, cols, n) = (puzzle.rows, puzzle.cols, puzzle.tiles.len());
    let colours: Vec<u16> = {
        let mut c: Vec<u16> = puzzle.tiles.iter().flat_map(|t| t.0).filter(|&c| c != GREY).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let mut constraints = 0;
    for line in comment.lines() {
        writeln!(w, "\\ {line}")?;
    }
    writeln!(w, "Minimize")?;
    let mut obj = Row { w, len: 5 };
    write!(obj.w, " obj:")?;
    let mut first = true;
    for r in 0..rows {
        for c in 0..cols {
            for (name, ok) in
                [(format!("h_{}_{}", r + 1, c + 1), c + 1 < cols), (format!("v_{}_{}", r + 1, c + 1), r + 1 < rows)]
            {
                if ok {
                    if first {
                        write!(obj.w, " {name}")?;
                        first = false;
                    } else {
                        obj.term('+', &name)?;
                    }
                }
            }
        }
    }
    if first {
        write!(obj.w, " 0")?;
    }
    writeln!(w)?;
    writeln!(w, "Subject To")?;
    // (2) each tile once.
    for t in 0..n {
        write!(w, " tile_{}:", t + 1)?;
        let mut row = Row { w, len: 12 };
        for r in 0..rows {
            for c in 0..cols {
                for a in 0..4 {
                    row.term('+', &x(t, r, c, a))?;
                }
            }
        }
        writeln!(w, " = 1")?;
        constraints += 1;
    }
    // (3) each cell once.
    for r in 0..rows {
        for c in 0..cols {
            write!(w, " cell_{}_{}:", r + 1, c + 1)?;
            let mut row = Row { w, len: 12 };
            for t in 0..n {
                for a in 0..4 {
                    row.term('+', &x(t, r, c, a))?;
                }
            }
            writeln!(w, " = 1")?;
            constraints += 1;
        }
    }
    // (4)-(7) joins, per non-grey colour, both signs.
    for r in 0..rows {
        for c in 0..cols {
            for (kind, side, dr, dc) in [('h', EAST, 0, 1), ('v', SOUTH, 1, 0)] {
                let (r2, c2) = (r + dr, c + dc);
                if r2 >= rows || c2 >= cols {
                    continue;
                }
                let other = (side + 2) % 4;
                for &l in &colours {
                    for (tag, plus_first) in [("a", true), ("b", false)] {
                        write!(w, " {kind}{tag}_{}_{}_{l}:", r + 1, c + 1)?;
                        let mut row = Row { w, len: 16 };
                        let (s1, s2) = if plus_first { ('+', '-') } else { ('-', '+') };
                        for t in 0..n {
                            for a in 0..4u8 {
                                if puzzle.tiles[t].rotated(a)[side] == l {
                                    row.term(s1, &x(t, r, c, a))?;
                                }
                            }
                        }
                        for t in 0..n {
                            for a in 0..4u8 {
                                if puzzle.tiles[t].rotated(a)[other] == l {
                                    row.term(s2, &x(t, r2, c2, a))?;
                                }
                            }
                        }
                        row.term('-', &format!("{kind}_{}_{}", r + 1, c + 1))?;
                        writeln!(w, " <= 0")?;
                        constraints += 1;
                    }
                }
            }
        }
    }
    // (8)-(11) grey on the border.
    let border: [BorderRow; 4] = [
        ("top", NORTH, (0..cols).map(|c| (0, c)).collect()),
        ("bottom", SOUTH, (0..cols).map(|c| (rows - 1, c)).collect()),
        ("left", WEST, (0..rows).map(|r| (r, 0)).collect()),
        ("right", EAST, (0..rows).map(|r| (r, cols - 1)).collect()),
    ];
    for (name, side, cells) in &border {
        for &(r, c) in cells {
            write!(w, " {name}_{}_{}:", r + 1, c + 1)?;
            let mut row = Row { w, len: 16 };
            for t in 0..n {
                for a in 0..4u8 {
                    if puzzle.tiles[t].rotated(a)[*side] == GREY {
                        row.term('+', &x(t, r, c, a))?;
                    }
                }
            }
            writeln!(w, " = 1")?;
            constraints += 1;
        }
    }
    for clue in &puzzle.clues {
        writeln!(w, " clue_{}: {} = 1", clue.tile + 1, x(clue.tile, clue.row, clue.col, clue.rotation))?;
        constraints += 1;
    }
    writeln!(w, "Bounds")?;
    let mut n_joins = 0;
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                writeln!(w, " 0 <= h_{}_{} <= 1", r + 1, c + 1)?;
                n_joins += 1;
            }
            if r + 1 < rows {
                writeln!(w, " 0 <= v_{}_{} <= 1", r + 1, c + 1)?;
                n_joins += 1;
            }
        }
    }
    writeln!(w, "Binaries")?;
    for t in 0..n {
        for r in 0..rows {
            for c in 0..cols {
                let names: Vec<String> = (0..4).map(|a| x(t, r, c, a)).collect();
                writeln!(w, " {}", names.join(" "))?;
            }
        }
    }
    writeln!(w, "End")?;
    Ok(LpStats { variables: n * rows * cols * 4 + n_joins, constraints })
}

/// How far an LP value may be from 0 or 1 and still count as that integer.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// [`read_solution_with`] with [`DEFAULT_TOLERANCE`].
pub fn read_solution(text: &str, file: &str, puzzle: &EdgePuzzle) -> Result<Board, ParseError> {
    read_solution_with(text, file, puzzle, DEFAULT_TOLERANCE)
}

/// Reads an LP solution: lines `NAME VALUE` (as written by HiGHS, or by
/// any script), where the `x_t_r_c_a` variables with value 1 form the
/// board. Every value of an `x_`, `h_` or `v_` variable must be a finite
/// number, and an `x_` value must lie within `tolerance` of 0 or 1 (`nan`,
/// `inf`, `2` or `0.5` are errors at their line and column). Other lines
/// (headers, `#` comments, other variables, HiGHS's row values) are
/// skipped; reading stops at HiGHS's `# Dual solution values` section.
pub fn read_solution_with(text: &str, file: &str, puzzle: &EdgePuzzle, tolerance: f64) -> Result<Board, ParseError> {
    let mut board = Board::empty(puzzle.rows, puzzle.cols);
    let err =
        |line: usize, col: usize, message: String| ParseError { file: file.to_string(), line, col: Some(col), message };
    let mut any = false;
    for (k, raw) in text.lines().enumerate() {
        if raw.trim().starts_with("# Dual") {
            break;
        }
        let mut f = columns(raw);
        let (Some((_, name)), Some((col, value))) = (f.next(), f.next()) else { continue };
        if !["x_", "h_", "v_"].iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let Ok(v) = value.parse::<f64>() else {
            return Err(err(k + 1, col, format!("expected a number after `{name}`, found `{value}`")));
        };
        if !v.is_finite() {
            return Err(err(k + 1, col, format!("the value `{value}` of `{name}` is not a finite number")));
        }
        let Some(rest) = name.strip_prefix("x_") else { continue };
        let one = (v - 1.0).abs() <= tolerance;
        if !one && v.abs() > tolerance {
            return Err(err(
                k + 1,
                col,
                format!("the value `{value}` of the binary `{name}` is neither 0 nor 1 (within {tolerance:e}; see --lp-tolerance)"),
            ));
        }
        if !one {
            continue;
        }
        let parts: Vec<usize> = rest.split('_').filter_map(|p| p.parse().ok()).collect();
        let &[t, r, c, a] = parts.as_slice() else {
            return Err(err(k + 1, 1, format!("expected a variable `x_TILE_ROW_COL_ROT`, found `{name}`")));
        };
        if t == 0 || t > puzzle.tiles.len() || r == 0 || r > puzzle.rows || c == 0 || c > puzzle.cols || a > 3 {
            return Err(err(
                k + 1,
                1,
                format!("variable `{name}` is outside the {}x{} puzzle", puzzle.rows, puzzle.cols),
            ));
        }
        let cell = puzzle.cell(r - 1, c - 1);
        if let Some(before) = board.cells[cell] {
            return Err(err(
                k + 1,
                1,
                format!("cell ({r}, {c}) is filled twice: tile {} and `{name}`", before.tile + 1),
            ));
        }
        board.cells[cell] = Some(Placed { tile: t as u32 - 1, rotation: a as u8 });
        any = true;
    }
    if !any {
        return Err(ParseError {
            file: file.to_string(),
            line: text.lines().count().max(1),
            col: None,
            message: "no variable `x_TILE_ROW_COL_ROT` set to 1".into(),
        });
    }
    Ok(board)
}

/// The blank-separated tokens of a line with their 1-based columns.
fn columns(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut rest = line;
    let mut col = 1;
    std::iter::from_fn(move || {
        let skip = rest.len() - rest.trim_start().len();
        col += rest[..skip].chars().count();
        rest = &rest[skip..];
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (tok, at) = (&rest[..end], col);
        col += tok.chars().count();
        rest = &rest[end..];
        Some((at, tok))
    })
}

/// The IR options of a full board (each cell's tile, cell and colours as
/// placed; rotations the IR merged because they look alike map to the
/// kept one). Cells without a matching option are skipped, so verification
/// reports them.
pub fn options_of_board(puzzle: &EdgePuzzle, problem: &crate::ir::Problem, board: &Board) -> crate::ir::Solution {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let index: std::collections::HashMap<(u32, u32, [u16; 4]), u32> = geo
        .placements
        .iter()
        .enumerate()
        .map(|(o, p)| ((p.piece, p.cells[0], puzzle.tiles[p.piece as usize].rotated(p.orientation as u8)), o as u32))
        .collect();
    let options = board
        .cells
        .iter()
        .enumerate()
        .filter_map(|(cell, p)| {
            let p = (*p)?;
            index.get(&(p.tile, cell as u32, puzzle.tiles[p.tile as usize].rotated(p.rotation))).copied()
        })
        .collect();
    crate::ir::Solution { options }
}
