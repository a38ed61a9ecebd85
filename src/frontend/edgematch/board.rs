//! emx's board file: one line per board row, one token per cell, `T/R`
//! (1-based tile number, clockwise quarter turns) or `.` for an empty cell;
//! `#` starts a comment. This is exactly what
//! [`render::text::board`](crate::render::text::board) writes.

use crate::edgematch::{Board, Placed};
use crate::frontend::ParseError;

/// Parses a board file. Rows must all have the same number of cells.
pub fn parse_board(text: &str, file: &str) -> Result<Board, ParseError> {
    let err =
        |line: usize, col: usize, message: String| ParseError { file: file.to_string(), line, col: Some(col), message };
    let mut cells = Vec::new();
    let (mut rows, mut cols) = (0, 0);
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut n = 0;
        let mut rest = 0;
        while let Some(start) = line[rest..].find(|c: char| !c.is_whitespace()).map(|s| rest + s) {
            let end = line[start..].find(char::is_whitespace).map_or(line.len(), |e| start + e);
            let tok = &line[start..end];
            rest = end;
            let col = line[..start].chars().count() + 1;
            let placed = if tok == "." {
                None
            } else {
                let parsed =
                    tok.split_once('/').and_then(|(t, r)| Some((t.parse::<u32>().ok()?, r.parse::<u8>().ok()?)));
                match parsed {
                    Some((t, r)) if t >= 1 && r < 4 => Some(Placed { tile: t - 1, rotation: r }),
                    _ => {
                        return Err(err(
                            k + 1,
                            col,
                            format!("bad cell `{tok}`: expected TILE/ROTATION (tile from 1, rotation 0-3) or `.`"),
                        ))
                    }
                }
            };
            cells.push(placed);
            n += 1;
        }
        if n == 0 {
            continue;
        }
        if rows > 0 && n != cols {
            return Err(err(k + 1, 1, format!("row has {n} cells, earlier rows have {cols}")));
        }
        cols = n;
        rows += 1;
        if rows > super::MAX_SIDE || cols > super::MAX_SIDE {
            return Err(err(k + 1, 1, format!("board larger than {0}x{0}", super::MAX_SIDE)));
        }
    }
    if rows == 0 {
        return Err(err(1, 1, "empty board file: expected rows of TILE/ROTATION cells".into()));
    }
    Ok(Board { rows, cols, cells })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text;

    #[test]
    fn round_trips_through_the_text_renderer() {
        let b = Board {
            rows: 2,
            cols: 2,
            cells: vec![Some(Placed { tile: 0, rotation: 3 }), None, Some(Placed { tile: 11, rotation: 0 }), None],
        };
        assert_eq!(parse_board(&text::board(&b), "f").unwrap(), b);
        let e = parse_board("1/0 2/5\n", "f").unwrap_err();
        assert_eq!(e.to_string(), "f:1:5: bad cell `2/5`: expected TILE/ROTATION (tile from 1, rotation 0-3) or `.`");
        assert!(parse_board("1/0 2/1\n3/0\n", "f").is_err());
    }
}
