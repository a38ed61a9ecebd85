//! The META 2010 / Brendan Owen "pieces_set_2" format: a header line
//! `cols rows`, then one tile per line as four colours `N E S W`.

use super::check::{check_puzzle, Lines};
use super::heule::parse_colour;
use super::MAX_SIDE;
use crate::edgematch::{EdgePuzzle, Tile};
use crate::frontend::ParseError;
use std::fmt::Write as _;

/// Parses a META/Brendan file. `file` names it in errors, `name` names the
/// puzzle.
pub fn parse_meta(text: &str, file: &str, name: &str) -> Result<EdgePuzzle, ParseError> {
    let err =
        |line: usize, col: Option<usize>, message: String| ParseError { file: file.to_string(), line, col, message };
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let (hline, header) =
        lines.next().ok_or_else(|| err(1, None, "empty file: expected a `cols rows` header".into()))?;
    let nums: Vec<&str> = header.split_whitespace().collect();
    if nums.len() != 2 {
        return Err(err(hline + 1, None, format!("expected a `cols rows` header, found {} fields", nums.len())));
    }
    let side = |s: &str| -> Result<usize, ParseError> {
        match s.parse::<usize>() {
            Ok(v) if (1..=MAX_SIDE).contains(&v) => Ok(v),
            _ => Err(err(hline + 1, None, format!("bad board size `{s}`: expected an integer from 1 to {MAX_SIDE}"))),
        }
    };
    let (cols, rows) = (side(nums[0])?, side(nums[1])?);
    let mut tiles = Vec::with_capacity(rows * cols);
    let mut tile_lines = Vec::with_capacity(rows * cols);
    for (k, line) in lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(err(k + 1, None, format!("expected four colours `N E S W`, found {} fields", fields.len())));
        }
        let mut t = [0u16; 4];
        for (s, f) in fields.iter().enumerate() {
            t[s] = parse_colour(f).map_err(|m| err(k + 1, None, m))?;
        }
        if tiles.len() == rows * cols {
            return Err(err(k + 1, None, format!("more tiles than the {cols}x{rows} board holds ({})", rows * cols)));
        }
        tiles.push(Tile(t));
        tile_lines.push(k + 1);
    }
    if tiles.len() != rows * cols {
        let last = text.lines().count().max(1);
        return Err(err(
            last,
            None,
            format!("{} tiles for a {cols}x{rows} board: expected {}", tiles.len(), rows * cols),
        ));
    }
    let puzzle = EdgePuzzle { name: name.to_string(), rows, cols, tiles, clues: vec![] };
    check_puzzle(&puzzle, &Lines { size: hline + 1, tiles: tile_lines, clues: vec![], origin: 0 }, file)?;
    Ok(puzzle)
}

/// Writes a puzzle in the META format (`cols rows`, then `N E S W` per
/// tile). The format has no clues; the caller must not pass a puzzle with
/// clues.
pub fn write_meta(puzzle: &EdgePuzzle) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} {}", puzzle.cols, puzzle.rows);
    super::write_tile_lines(&mut out, &puzzle.tiles);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_header_and_tiles() {
        let p = parse_meta("2 1\n0 0 1 0\n0 0 0 1\n", "f", "n").unwrap();
        assert_eq!((p.rows, p.cols), (1, 2));
        assert_eq!(p.tiles[1], Tile([0, 0, 0, 1]));
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_meta("2 1\n0 0 1 0\n0 0 -1 1\n", "f", "n").unwrap_err();
        assert_eq!(e.to_string(), "f:3: negative colour `-1`: expected 0 (grey border) to 4095");
        let e = parse_meta("2 1\n0 0 1 0\n", "f", "n").unwrap_err();
        assert!(e.to_string().contains("1 tiles for a 2x1 board"));
    }
}
