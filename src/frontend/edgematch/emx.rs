//! emx's own edge-matching text format, written for people:
//!
//! ```text
//! # A 3x3 puzzle. `#` starts a comment, anywhere.
//! name   tiny example          # optional
//! size   3 3                   # rows columns (or one number for a square)
//! colors red green blue        # optional names for colours 1, 2, 3 ...
//! tile   0 red green 0         # N E S W, clockwise from the top; 0 is the grey border
//! 0 2 3 red                    # the keyword `tile` may be left out
//! ...
//! clue   5 1 1 2               # tile 5 at row 1, column 1 (0-based, from the top-left), 2 quarter turns
//! ```
//!
//! Tiles are numbered 1, 2, ... in the order they appear. `size` must come
//! before the first tile; `colors` before a tile uses a name; clues may come
//! anywhere. Colours are numbers `0..=4095` or declared names; `0` (also
//! written `grey`) is the border.

use super::check::{check_puzzle, Lines};
use super::{MAX_COLOR, MAX_SIDE};
use crate::edgematch::{Clue, Color, EdgePuzzle, Tile};
use crate::frontend::ParseError;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The keywords that start a directive line.
pub const KEYWORDS: &[&str] = &["name", "size", "colors", "tile", "clue"];

/// Parses an emx edge-matching file. `file` names it in errors; `name` is
/// the puzzle name unless the file sets one.
pub fn parse_emx(text: &str, file: &str, name: &str) -> Result<EdgePuzzle, ParseError> {
    let err =
        |line: usize, col: usize, message: String| ParseError { file: file.to_string(), line, col: Some(col), message };
    let mut puzzle_name = name.to_string();
    let mut size: Option<(usize, usize)> = None;
    let mut names: HashMap<String, Color> = HashMap::new();
    let mut colors_line = 0;
    let mut tiles = Vec::new();
    let mut clues = Vec::new();
    let mut lines = Lines::default();
    for (k, raw) in text.lines().enumerate() {
        let ln = k + 1;
        let line = raw.split('#').next().unwrap_or("");
        let tokens = tokenize(line);
        let Some(&(c0, first)) = tokens.first() else { continue };
        let (keyword, args) = if KEYWORDS.contains(&first) {
            (first, &tokens[1..])
        } else if first.parse::<i64>().is_ok() || names.contains_key(first) || first == "grey" {
            ("tile", &tokens[..])
        } else {
            return Err(err(
                ln,
                c0,
                format!("unknown directive `{first}`: expected one of {} (or a tile `N E S W`)", KEYWORDS.join(", ")),
            ));
        };
        let end_col = line.trim_end().chars().count() + 1;
        match keyword {
            "name" => puzzle_name = line[line.find("name").unwrap_or(0) + 4..].trim().to_string(),
            "size" => {
                if size.is_some() {
                    return Err(err(ln, c0, format!("second `size` line: the size was set on line {}", lines.size)));
                }
                if !(1..=2).contains(&args.len()) {
                    return Err(err(
                        ln,
                        c0,
                        format!("`size` takes ROWS COLUMNS (or one number for a square), found {} values", args.len()),
                    ));
                }
                let side = |&(col, tok): &(usize, &str)| -> Result<usize, ParseError> {
                    match tok.parse::<usize>() {
                        Ok(v) if (1..=MAX_SIDE).contains(&v) => Ok(v),
                        _ => Err(err(
                            ln,
                            col,
                            format!("bad board side `{tok}`: expected an integer from 1 to {MAX_SIDE}"),
                        )),
                    }
                };
                let rows = side(&args[0])?;
                let cols = if args.len() == 2 { side(&args[1])? } else { rows };
                size = Some((rows, cols));
                lines.size = ln;
            }
            "colors" => {
                if !tiles.is_empty() || !names.is_empty() {
                    let why = if names.is_empty() { "after the first tile" } else { "twice" };
                    return Err(err(
                        ln,
                        c0,
                        format!("`colors` given {why}: declare colour names once, before the tiles"),
                    ));
                }
                if args.is_empty() {
                    return Err(err(ln, end_col, "`colors` needs at least one name".into()));
                }
                if args.len() > MAX_COLOR as usize {
                    return Err(err(ln, c0, format!("more than {MAX_COLOR} colour names")));
                }
                for (i, &(col, tok)) in args.iter().enumerate() {
                    if tok.parse::<i64>().is_ok() || tok == "grey" || KEYWORDS.contains(&tok) {
                        return Err(err(
                            ln,
                            col,
                            format!("bad colour name `{tok}`: names must not be numbers, keywords or `grey`"),
                        ));
                    }
                    if names.insert(tok.to_string(), i as Color + 1).is_some() {
                        return Err(err(ln, col, format!("colour name `{tok}` declared twice")));
                    }
                }
                colors_line = ln;
            }
            "tile" => {
                let Some((rows, cols)) = size else {
                    return Err(err(ln, c0, "tile before the `size` line: expected `size ROWS COLUMNS` first".into()));
                };
                if args.len() != 4 {
                    let col = args.get(4).map_or(end_col, |a| a.0);
                    return Err(err(ln, col, format!("expected four colours `N E S W`, found {}", args.len())));
                }
                if tiles.len() == rows * cols {
                    return Err(err(
                        ln,
                        c0,
                        format!(
                            "tile {} is one too many: the {rows}x{cols} board (line {}) holds {} tiles",
                            tiles.len() + 1,
                            lines.size,
                            rows * cols
                        ),
                    ));
                }
                let mut t = [0 as Color; 4];
                for (s, &(col, tok)) in args.iter().enumerate() {
                    t[s] = colour(tok, &names, colors_line).map_err(|m| err(ln, col, m))?;
                }
                tiles.push(Tile(t));
                lines.tiles.push(ln);
            }
            "clue" => {
                if args.len() != 4 {
                    let col = args.get(4).map_or(end_col, |a| a.0);
                    return Err(err(
                        ln,
                        col,
                        format!("`clue` takes TILE ROW COLUMN ROTATION, found {} values", args.len()),
                    ));
                }
                let num = |i: usize, what: &str, lo: usize, hi: usize| -> Result<usize, ParseError> {
                    let (col, tok) = args[i];
                    match tok.parse::<usize>() {
                        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                        _ => Err(err(ln, col, format!("bad {what} `{tok}`: expected an integer from {lo} to {hi}"))),
                    }
                };
                let tile = num(0, "tile number", 1, 1 << 16)? - 1;
                let row = num(1, "row", 0, MAX_SIDE - 1)?;
                let col = num(2, "column", 0, MAX_SIDE - 1)?;
                let rotation = num(3, "rotation", 0, 3)? as u8;
                clues.push(Clue { tile, row, col, rotation });
                lines.clues.push(ln);
            }
            _ => unreachable!("keyword list"),
        }
    }
    let Some((rows, cols)) = size else {
        return Err(ParseError {
            file: file.to_string(),
            line: text.lines().count().max(1),
            col: None,
            message: "no `size` line: expected `size ROWS COLUMNS` followed by the tiles".into(),
        });
    };
    if tiles.len() != rows * cols {
        return Err(ParseError {
            file: file.to_string(),
            line: lines.size,
            col: None,
            message: format!("{} tiles for the {rows}x{cols} board: expected {}", tiles.len(), rows * cols),
        });
    }
    let puzzle = EdgePuzzle { name: puzzle_name, rows, cols, tiles, clues };
    check_puzzle(&puzzle, &lines, file)?;
    Ok(puzzle)
}

/// Splits a line into `(1-based column, token)` pairs.
fn tokenize(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(start) = line[rest..].find(|c: char| !c.is_whitespace()).map(|s| rest + s) {
        let end = line[start..].find(char::is_whitespace).map_or(line.len(), |e| start + e);
        out.push((line[..start].chars().count() + 1, &line[start..end]));
        rest = end;
    }
    out
}

fn colour(tok: &str, names: &HashMap<String, Color>, colors_line: usize) -> Result<Color, String> {
    if tok == "grey" {
        return Ok(0);
    }
    if let Some(&k) = names.get(tok) {
        return Ok(k);
    }
    match tok.parse::<i64>() {
        Ok(v) if (0..=MAX_COLOR as i64).contains(&v) => Ok(v as Color),
        Ok(v) if v < 0 => Err(format!("negative colour `{tok}`: expected 0 (grey border) to {MAX_COLOR}")),
        Ok(_) => Err(format!("colour `{tok}` is too large: expected 0 to {MAX_COLOR}")),
        Err(_) if names.is_empty() => {
            Err(format!("unknown colour `{tok}`: expected a number from 0 to {MAX_COLOR} (no `colors` line names any)"))
        }
        Err(_) => Err(format!(
            "unknown colour `{tok}`: expected a number or a name declared by `colors` on line {colors_line}"
        )),
    }
}

/// Writes a puzzle in emx's format, with `header` lines as comments first.
pub fn write_emx(puzzle: &EdgePuzzle, header: &[String]) -> String {
    let mut out = String::new();
    for h in header {
        let _ = writeln!(out, "# {h}");
    }
    let _ = writeln!(out, "name {}", puzzle.name);
    let _ = writeln!(out, "size {} {}", puzzle.rows, puzzle.cols);
    let width = puzzle.tiles.iter().flat_map(|t| t.0).max().unwrap_or(0).to_string().len();
    for (k, t) in puzzle.tiles.iter().enumerate() {
        let [n, e, s, w] = t.0;
        let _ = writeln!(out, "tile {n:>width$} {e:>width$} {s:>width$} {w:>width$}   # {}", k + 1);
    }
    for c in &puzzle.clues {
        let _ = writeln!(out, "clue {} {} {} {}", c.tile + 1, c.row, c.col, c.rotation);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "\
# two by two
name  small
size 2 2
colors red blue
tile 0 red blue 0
tile 0 0 red red    # tile 2
grey blue red 0
0 0 blue blue
clue 2 0 1 0
";

    #[test]
    fn reads_names_comments_and_clues() {
        let p = parse_emx(EXAMPLE, "f", "stem").unwrap();
        assert_eq!(p.name, "small");
        assert_eq!((p.rows, p.cols), (2, 2));
        assert_eq!(p.tiles[0], Tile([0, 1, 2, 0]));
        assert_eq!(p.tiles[2], Tile([0, 2, 1, 0]));
        assert_eq!(p.clues, vec![Clue { tile: 1, row: 0, col: 1, rotation: 0 }]);
    }

    #[test]
    fn write_then_read_is_identity() {
        let p = parse_emx(EXAMPLE, "f", "stem").unwrap();
        let text = write_emx(&p, &["hello".into()]);
        assert_eq!(parse_emx(&text, "g", "x").unwrap(), p);
    }

    #[test]
    fn errors_point_at_line_and_column() {
        let e = parse_emx("size 2 2\ntile 0 1 -1 0\n", "f", "n").unwrap_err();
        assert_eq!(e.to_string(), "f:2:10: negative colour `-1`: expected 0 (grey border) to 4095");
        let e = parse_emx("tile 0 1 1 0\n", "f", "n").unwrap_err();
        assert!(e.to_string().starts_with("f:1:1: tile before the `size` line"), "{e}");
    }
}
