//! Heule's edge-matching format (the `benchmarks/` files of his 2008 SAT
//! study and his `em-encode` encoder):
//!
//! ```text
//! h                 number of hints
//! x y piece rot     h hint lines
//! N E S W           one line per piece, clockwise from the top
//! ```
//!
//! Conventions, taken from the encoder (`em-encode.c`): `x` is the **row**
//! and `y` the **column**, both 1-based from the top-left (it calls
//! `getVariable(piece, x-1, y-1)` whose arguments are `(piece, row,
//! column)`); `piece` is 1-based in file order; `rot` is a number of
//! clockwise quarter turns, side `j` of the cell (0 = N, 1 = E, 2 = S,
//! 3 = W) showing the piece's side `(j + 4 - rot) % 4`, so after `rot = 1`
//! the North side shows the piece's West colour — emx's own convention. The
//! encoder uses the rotation only for inner pieces (a border piece has one
//! way to face the border); emx requires it to be that way.
//!
//! The board size is not stated: as in the encoder, the number of edge
//! pieces (one grey side) `2(r−2) + 2(c−2)` and the number of pieces `r·c`
//! give it, taking the solution with `r <= c`. CRLF line ends, trailing
//! blanks and blank lines are accepted.

use super::check::{check_puzzle, Lines};
use super::{MAX_COLOR, MAX_SIDE};
use crate::edgematch::{Clue, Color, EdgePuzzle, Tile};
use crate::frontend::ParseError;
use std::fmt::Write as _;

/// Parses a file in Heule's format.
pub fn parse_heule(text: &str, file: &str, name: &str) -> Result<EdgePuzzle, ParseError> {
    let err = |line: usize, message: String| ParseError { file: file.to_string(), line, col: None, message };
    let mut lines = text.lines().enumerate().map(|(k, l)| (k + 1, l.trim())).filter(|(_, l)| !l.is_empty());
    let (hline, header) = lines.next().ok_or_else(|| err(1, "empty file: expected the number of hints".into()))?;
    let n_hints = match header.parse::<usize>() {
        Ok(n) if n <= MAX_SIDE * MAX_SIDE => n,
        _ => return Err(err(hline, format!("bad hint count `{header}`: expected a non-negative integer"))),
    };
    let mut hints = Vec::with_capacity(n_hints);
    let mut hint_lines = Vec::with_capacity(n_hints);
    for i in 0..n_hints {
        let Some((ln, line)) = lines.next() else {
            return Err(err(
                text.lines().count().max(1),
                format!("the file ends after {i} of the {n_hints} hints announced on line {hline}"),
            ));
        };
        let f: Vec<&str> = line.split_whitespace().collect();
        let nums: Option<Vec<usize>> = f.iter().map(|s| s.parse::<usize>().ok()).collect();
        match nums {
            Some(v) if v.len() == 4 && v[0] >= 1 && v[1] >= 1 && v[2] >= 1 && v[3] <= 3 => {
                hints.push(Clue { tile: v[2] - 1, row: v[0] - 1, col: v[1] - 1, rotation: v[3] as u8 });
                hint_lines.push(ln);
            }
            _ => {
                return Err(err(
                    ln,
                    format!(
                        "bad hint `{line}`: expected `row column piece rotation` (row, column and piece from 1, rotation 0-3)"
                    ),
                ))
            }
        }
    }
    let mut tiles = Vec::new();
    let mut tile_lines = Vec::new();
    for (ln, line) in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(err(ln, format!("expected a piece `N E S W` (four colours), found {} fields", fields.len())));
        }
        let mut t = [0 as Color; 4];
        for (s, f) in fields.iter().enumerate() {
            t[s] = parse_colour(f).map_err(|m| err(ln, m))?;
        }
        if tiles.len() == MAX_SIDE * MAX_SIDE {
            return Err(err(ln, format!("more than {} pieces", MAX_SIDE * MAX_SIDE)));
        }
        tiles.push(Tile(t));
        tile_lines.push(ln);
    }
    let first_tile_line =
        *tile_lines.first().ok_or_else(|| err(hline, "no pieces: expected `N E S W` lines".into()))?;
    let (rows, cols) = infer_size(&tiles).map_err(|m| err(first_tile_line, m))?;
    let puzzle = EdgePuzzle { name: name.to_string(), rows, cols, tiles, clues: hints };
    let lines = Lines { size: first_tile_line, tiles: tile_lines, clues: hint_lines, origin: 1 };
    check_puzzle(&puzzle, &lines, file)?;
    Ok(puzzle)
}

/// A colour field: an integer from 0 to [`MAX_COLOR`].
pub(super) fn parse_colour(f: &str) -> Result<Color, String> {
    match f.parse::<i64>() {
        Ok(v) if (0..=MAX_COLOR as i64).contains(&v) => Ok(v as Color),
        Ok(v) if v < 0 => Err(format!("negative colour `{f}`: expected 0 (grey border) to {MAX_COLOR}")),
        _ => Err(format!("bad colour `{f}`: expected an integer from 0 (grey border) to {MAX_COLOR}")),
    }
}

/// Board size from the piece kinds: `r·c` pieces of which `2(r−2)+2(c−2)`
/// have one grey side and 4 have two; the smallest `r` that fits, `r <= c`.
fn infer_size(tiles: &[Tile]) -> Result<(usize, usize), String> {
    let n = tiles.len();
    let corners = tiles.iter().filter(|t| t.grey_sides() == 2).count();
    let edges = tiles.iter().filter(|t| t.grey_sides() == 1).count();
    if corners != 4 || edges % 2 == 1 {
        return Err(format!(
            "cannot infer the board size from {n} pieces with {corners} corner pieces (two grey sides) and {edges} edge pieces (one grey side): expected 4 corners and an even number of edges"
        ));
    }
    for r in 2..=MAX_SIDE {
        let Some(c) = (edges / 2 + 4).checked_sub(r) else { break };
        if c < r {
            break;
        }
        if r * c == n && c <= MAX_SIDE {
            return Ok((r, c));
        }
    }
    Err(format!(
        "cannot infer the board size: no r x c board (r, c from 2 to {MAX_SIDE}) has {n} cells of which {edges} are edge cells"
    ))
}

/// Writes a puzzle in Heule's format (hints 1-based, `row column piece
/// rotation`).
pub fn write_heule(puzzle: &EdgePuzzle) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", puzzle.clues.len());
    for c in &puzzle.clues {
        let _ = writeln!(out, "{} {} {} {}", c.row + 1, c.col + 1, c.tile + 1, c.rotation);
    }
    super::write_tile_lines(&mut out, &puzzle.tiles);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infers_square_and_rectangular_sizes() {
        let p = parse_heule("0\r\n0 1 1 0 \r\n0 0 1 1\r\n1 0 0 1\r\n1 1 0 0\r\n\r\n \r\n", "f", "n").unwrap();
        assert_eq!((p.rows, p.cols), (2, 2));
        let g = crate::edgematch::generate::generate(&crate::edgematch::generate::GenerateSpec {
            rows: 4,
            cols: 7,
            style: crate::edgematch::generate::Style::Uniform { colors: 3 },
            seed: 1,
        })
        .unwrap();
        let q = parse_heule(&write_heule(&g.puzzle), "f", "n").unwrap();
        assert_eq!((q.rows, q.cols, &q.tiles), (4, 7, &g.puzzle.tiles));
    }

    #[test]
    fn hints_are_row_column_piece_rotation() {
        let mut p = parse_heule("1\n1 2 2 0\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", "f", "n").unwrap();
        assert_eq!(p.clues, vec![Clue { tile: 1, row: 0, col: 1, rotation: 0 }]);
        p.name = "n".into();
        assert_eq!(parse_heule(&write_heule(&p), "f", "n").unwrap(), p);
        let e = parse_heule("1\n1 1 2 0\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", "f", "n").unwrap_err();
        assert!(e.to_string().starts_with("f:2: clue puts tile 2 with rotation 0 at (row 1, column 1)"), "{e}");
    }
}
