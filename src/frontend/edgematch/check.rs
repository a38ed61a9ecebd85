//! Checks shared by the edge-matching readers, run on a parsed puzzle with
//! the line each tile and clue came from, so that every mistake is reported
//! as `file:line: what was expected`.

use crate::edgematch::{EdgePuzzle, GREY};
use crate::frontend::ParseError;

/// Where the parts of a puzzle were read from (1-based lines).
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// Line of the size header (or of the first tile when the size is
    /// inferred).
    pub size: usize,
    /// Line of each tile.
    pub tiles: Vec<usize>,
    /// Line of each clue.
    pub clues: Vec<usize>,
    /// What the file's first row and column are called (0 in the emx
    /// format, 1 in Heule's), so a clue's cell is reported as the file
    /// names it.
    pub origin: usize,
}

/// Checks that every tile fits some cell (grey only where a border can be),
/// that the tiles have as many grey sides as the board has border sides
/// class by class (corner, edge, inner), and that the clues name existing
/// tiles and cells, are pairwise distinct and respect the border.
pub fn check_puzzle(puzzle: &EdgePuzzle, lines: &Lines, file: &str) -> Result<(), ParseError> {
    let o = lines.origin;
    let err = |line: usize, message: String| ParseError { file: file.to_string(), line, col: None, message };
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    // Distinct border patterns of the board's cells, and cells per number of
    // border sides.
    let mut patterns: Vec<(usize, [bool; 4])> = Vec::new();
    let mut cells_with = [0usize; 5];
    for cell in 0..puzzle.n_cells() {
        let b = puzzle.border_sides(cell);
        cells_with[b.iter().filter(|&&x| x).count()] += 1;
        if !patterns.iter().any(|(_, p)| *p == b) {
            patterns.push((cell, b));
        }
    }
    let mut tiles_with: [Vec<usize>; 5] = Default::default();
    for (t, tile) in puzzle.tiles.iter().enumerate() {
        let fits = patterns.iter().any(|&(cell, _)| (0..4).any(|r| puzzle.fits_border(t, r, cell)));
        if !fits {
            let [n, e, s, w] = tile.0;
            return Err(err(
                lines.tiles[t],
                format!(
                    "tile {} `{n} {e} {s} {w}` fits no cell of the {rows}x{cols} board: grey (0) may only face the border, on one side (edge tile) or two adjacent sides (corner tile)",
                    t + 1
                ),
            ));
        }
        tiles_with[tile.grey_sides()].push(t);
    }
    let kind = |g: usize| ["inner", "edge", "corner", "end", "lone"][g];
    if let Some(g) = (0..5).find(|&g| tiles_with[g].len() > cells_with[g]) {
        let (have, want) = (tiles_with[g].len(), cells_with[g]);
        let list: Vec<String> = tiles_with[g].iter().take(12).map(|t| (t + 1).to_string()).collect();
        let more = if have > 12 { ", ..." } else { "" };
        let classes: Vec<usize> = (0..5).filter(|&c| cells_with[c] > 0 || !tiles_with[c].is_empty()).rev().collect();
        let names: Vec<&str> = classes.iter().map(|&c| kind(c)).collect();
        let wanted: Vec<String> = classes.iter().map(|&c| cells_with[c].to_string()).collect();
        let found: Vec<String> = classes.iter().map(|&c| tiles_with[c].len().to_string()).collect();
        return Err(err(
            lines.tiles[tiles_with[g][want]],
            format!(
                "{have} {} tiles ({g} grey side{}: tiles {}{more}) but the {rows}x{cols} board has {want} {} cell{}: expected {} ({}) tiles, found {}",
                kind(g),
                if g == 1 { "" } else { "s" },
                list.join(", "),
                kind(g),
                if want == 1 { "" } else { "s" },
                wanted.join(", "),
                names.join(", "),
                found.join(", ")
            ),
        ));
    }
    let mut tile_clue = vec![None; puzzle.tiles.len()];
    let mut cell_clue = vec![None; puzzle.n_cells()];
    for (k, clue) in puzzle.clues.iter().enumerate() {
        let line = lines.clues[k];
        if clue.tile >= puzzle.tiles.len() {
            return Err(err(
                line,
                format!(
                    "clue names tile {}, but there are {} tiles: expected 1 to {}",
                    clue.tile + 1,
                    puzzle.tiles.len(),
                    puzzle.tiles.len()
                ),
            ));
        }
        if clue.row >= rows || clue.col >= cols {
            return Err(err(
                line,
                format!(
                    "clue cell (row {}, column {}) is outside the {rows}x{cols} board: expected row {o} to {} and column {o} to {}",
                    clue.row + o,
                    clue.col + o,
                    rows - 1 + o,
                    cols - 1 + o
                ),
            ));
        }
        if clue.rotation > 3 {
            return Err(err(line, format!("clue rotation {}: expected 0 to 3", clue.rotation)));
        }
        let cell = puzzle.cell(clue.row, clue.col);
        if let Some(other) = tile_clue[clue.tile].replace(line) {
            return Err(err(line, format!("tile {} is already fixed by the clue on line {other}", clue.tile + 1)));
        }
        if let Some(other) = cell_clue[cell].replace(line) {
            return Err(err(
                line,
                format!(
                    "cell (row {}, column {}) is already fixed by the clue on line {other}",
                    clue.row + o,
                    clue.col + o
                ),
            ));
        }
        if !puzzle.fits_border(clue.tile, clue.rotation, cell) {
            let shown = puzzle.tiles[clue.tile].rotated(clue.rotation);
            let greys: Vec<&str> =
                ["N", "E", "S", "W"].iter().zip(shown).filter(|(_, c)| *c == GREY).map(|(s, _)| *s).collect();
            return Err(err(
                line,
                format!(
                    "clue puts tile {} with rotation {} at (row {}, column {}), showing grey on [{}]: expected grey exactly on the border sides of that cell",
                    clue.tile + 1,
                    clue.rotation,
                    clue.row + o,
                    clue.col + o,
                    greys.join(" ")
                ),
            ));
        }
    }
    Ok(())
}
