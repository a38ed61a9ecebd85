//! emx's board file: one line per board row, one token per cell, `T/R`
//! (1-based tile number, clockwise quarter turns) or `.` for an empty cell;
//! `#` starts a comment. This is exactly what
//! [`render::text::board`](crate::render::text::board) writes.

use crate::edgematch::{Board, Placed};
use crate::frontend::ParseError;

/// A board read from a file, with where each of its cells stands there.
///
/// Invariant: `cells[i]` is the 1-based line and column of cell `i`'s
/// token (`board.cells[i]`), in the board's row-major order.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardAt {
    /// The board.
    pub board: Board,
    /// Line and column of each cell's token.
    pub cells: Vec<(usize, usize)>,
}

impl BoardAt {
    /// Refuses a cell naming a tile the puzzle does not have (`n_tiles`
    /// tiles), at the cell's place in `file`.
    pub fn check_tiles(&self, n_tiles: usize, file: &str) -> Result<(), ParseError> {
        for (cell, &(line, col)) in self.board.cells.iter().zip(&self.cells) {
            if let Some(p) = cell {
                if p.tile as usize >= n_tiles {
                    return Err(ParseError {
                        file: file.to_string(),
                        line,
                        col: Some(col),
                        message: format!("tile {}: the puzzle has {n_tiles} tiles (1 to {n_tiles})", p.tile + 1),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Parses every board of a board file: a board is a run of consecutive
/// lines with cells, ended by a line without any (blank or a comment), so
/// the boards `emx solve --format board` lists one after the other read
/// back. Rows of a board must all have the same number of cells.
pub fn parse_boards(text: &str, file: &str) -> Result<Vec<BoardAt>, ParseError> {
    let err =
        |line: usize, col: usize, message: String| ParseError { file: file.to_string(), line, col: Some(col), message };
    let mut boards = Vec::new();
    let mut cur: Option<BoardAt> = None;
    let (mut rows, mut cols) = (0, 0);
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let mut row = Vec::new();
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
            row.push((placed, (k + 1, col)));
        }
        if row.is_empty() {
            if let Some(b) = cur.take() {
                boards.push(b);
            }
            continue;
        }
        let b = cur.get_or_insert_with(|| {
            rows = 0;
            BoardAt { board: Board { rows: 0, cols: row.len(), cells: Vec::new() }, cells: Vec::new() }
        });
        if rows > 0 && row.len() != cols {
            return Err(err(k + 1, 1, format!("row has {} cells, earlier rows of this board have {cols}", row.len())));
        }
        cols = row.len();
        rows += 1;
        if rows > super::MAX_SIDE || cols > super::MAX_SIDE {
            return Err(err(k + 1, 1, format!("board larger than {0}x{0}", super::MAX_SIDE)));
        }
        for (placed, at) in row {
            b.board.cells.push(placed);
            b.cells.push(at);
        }
        b.board.rows = rows;
        b.board.cols = cols;
    }
    boards.extend(cur);
    if boards.is_empty() {
        return Err(err(1, 1, "empty board file: expected rows of TILE/ROTATION cells".into()));
    }
    Ok(boards)
}

/// Parses a board file that holds one board.
pub fn parse_board(text: &str, file: &str) -> Result<Board, ParseError> {
    let mut boards = parse_boards(text, file)?;
    if boards.len() > 1 {
        let second = boards[1].cells.first().map_or(1, |c| c.0);
        return Err(ParseError {
            file: file.to_string(),
            line: second,
            col: Some(1),
            message: format!("the file holds {} boards (a second starts here): expected one", boards.len()),
        });
    }
    Ok(boards.remove(0).board)
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

    #[test]
    fn boards_are_runs_of_rows_and_cells_know_their_place() {
        let text = "# solution 1\n1/0 2/1\n3/0 4/2\n\n# solution 2\n4/0 3/1\n 2/0 1/2\n";
        let boards = parse_boards(text, "f").unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!((boards[1].board.rows, boards[1].board.cols), (2, 2));
        assert_eq!(boards[1].cells[2], (7, 2));
        let e = parse_board(text, "f").unwrap_err();
        assert_eq!(e.to_string(), "f:6:1: the file holds 2 boards (a second starts here): expected one");
        let e = boards[0].check_tiles(3, "f").unwrap_err();
        assert_eq!(e.to_string(), "f:3:5: tile 4: the puzzle has 3 tiles (1 to 3)");
    }
}
