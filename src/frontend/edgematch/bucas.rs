//! Boards as e2.bucas.name `board_edges` strings, one board a line:
//!
//! ```text
//! # comment
//! NAME ORDER EDGES
//! ```
//!
//! `EDGES` has 4 letters per cell, cells row-major from the top-left, each
//! cell's letters Up Right Down Left (N E S W); `a` is grey, `aaaa` an empty
//! cell. `ORDER` says how letters map to colour numbers: `jblackwood`
//! (letter k is colour k, the numbering of Heule's Eternity II file) or
//! `jef` (Jef Bucas's own order, mapped to that numbering). The tiles are
//! recovered from the colours: each cell gets the first unused tile (and
//! rotation) showing them.

use crate::edgematch::{Board, Color, EdgePuzzle, Placed};
use crate::frontend::ParseError;
use std::collections::HashMap;

/// `jef` letter order: letter k shows this colour of Heule's numbering.
const JEF: [Color; 23] = [0, 1, 9, 17, 5, 13, 2, 10, 18, 6, 14, 3, 11, 19, 7, 15, 4, 12, 20, 8, 16, 21, 22];

/// Whether `text` looks like a bucas board file (first data line `NAME
/// ORDER EDGES` with a known order).
pub fn is_bucas(text: &str) -> bool {
    let first = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty());
    first.is_some_and(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        f.len() == 3 && ["jblackwood", "jef"].contains(&f[1])
    })
}

/// Reads every board of a bucas file, recovering tiles from `puzzle`.
pub fn parse_bucas(text: &str, file: &str, puzzle: &EdgePuzzle) -> Result<Vec<(String, Board)>, ParseError> {
    let err = |line: usize, message: String| ParseError { file: file.to_string(), line, col: None, message };
    let mut by_look: HashMap<[Color; 4], Vec<Placed>> = HashMap::new();
    for (t, tile) in puzzle.tiles.iter().enumerate() {
        for r in 0..4u8 {
            let list = by_look.entry(tile.rotated(r)).or_default();
            if !list.iter().any(|p| p.tile == t as u32) {
                list.push(Placed { tile: t as u32, rotation: r });
            }
        }
    }
    let n = puzzle.n_cells();
    let mut boards = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 {
            return Err(err(k + 1, format!("expected `NAME ORDER EDGES`, found {} fields", f.len())));
        }
        let colour = |ch: u8| -> Option<Color> {
            let i = ch.checked_sub(b'a')? as usize;
            match f[1] {
                "jblackwood" if i < 26 => Some(i as Color),
                "jef" => JEF.get(i).copied(),
                _ => None,
            }
        };
        if !["jblackwood", "jef"].contains(&f[1]) {
            return Err(err(k + 1, format!("unknown letter order `{}`: expected jblackwood or jef", f[1])));
        }
        let edges = f[2].as_bytes();
        if edges.len() != 4 * n {
            return Err(err(
                k + 1,
                format!("{} letters for a {}x{} board: expected {}", edges.len(), puzzle.rows, puzzle.cols, 4 * n),
            ));
        }
        let mut board = Board::empty(puzzle.rows, puzzle.cols);
        let mut used = vec![false; puzzle.tiles.len()];
        for cell in 0..n {
            let mut look = [0 as Color; 4];
            for s in 0..4 {
                let ch = edges[4 * cell + s];
                look[s] = colour(ch)
                    .ok_or_else(|| err(k + 1, format!("bad letter `{}` for order {}", char::from(ch), f[1])))?;
            }
            let (row, col) = puzzle.row_col(cell);
            let found = by_look.get(&look).and_then(|l| l.iter().find(|p| !used[p.tile as usize]));
            match found {
                Some(&p) => {
                    used[p.tile as usize] = true;
                    board.cells[cell] = Some(p);
                }
                None if look == [0; 4] => {}
                None => {
                    let shown: Vec<String> = look.iter().map(|c| c.to_string()).collect();
                    return Err(err(
                        k + 1,
                        format!(
                            "cell (row {row}, column {col}) shows `{}` (N E S W), which no unused tile of the puzzle shows",
                            shown.join(" ")
                        ),
                    ));
                }
            }
        }
        boards.push((f[0].to_string(), board));
    }
    if boards.is_empty() {
        return Err(err(1, "no board: expected `NAME ORDER EDGES` lines".into()));
    }
    Ok(boards)
}
