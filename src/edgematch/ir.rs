//! Edge matching as exact cover with colours.
//!
//! Primary items: one per cell (`r{row}c{col}`), one per tile (`t{n}`,
//! 1-based). Secondary items: one per inner join (`h{row}c{col}` between
//! `(row, col)` and `(row, col+1)`, `v{row}c{col}` between `(row, col)` and
//! `(row+1, col)`), coloured by the colour both cells show there. Options:
//! (tile, cell, rotation) with grey exactly on the border sides; rotations
//! of a tile that look the same in a cell are one option (a board is counted
//! once however its symmetric tiles are turned). A clue leaves its tile only
//! the clued placement and its cell only that tile.
//!
//! Geometry: dims `[cols, rows, 1]`, one piece per tile (named by its
//! 1-based number), placements `{piece: tile, cells: [cell], orientation:
//! rotation}`. Symmetries: the board rotations (4 for a square board, the
//! half turn for a rectangle) that map the clues onto themselves.

use super::option_table::OptionTable;
use super::{Board, EdgePuzzle, Placed, EAST, SOUTH};
use crate::ir::{Entry, Geometry, OptionId, PieceInfo, Placement, Problem, ProblemBuilder, Symmetry, NO_COLOR};
use std::collections::HashMap;

/// Largest number of options [`to_problem`] is asked to build (through
/// [`crate::input::load`]); about 100 bytes each, plus the solver's copy.
pub const MAX_OPTIONS: usize = 4_000_000;

/// An upper bound on the options of [`to_problem`]: for each number of grey
/// sides, tiles x cells of that kind x rotations (4 for inner tiles, 1
/// otherwise, as a rotation is fixed by the border except on 1-row
/// boards).
pub fn option_bound(puzzle: &EdgePuzzle) -> usize {
    let mut tiles = [0usize; 5];
    let mut cells = [0usize; 5];
    for t in &puzzle.tiles {
        tiles[t.grey_sides()] += 1;
    }
    for c in 0..puzzle.n_cells() {
        cells[puzzle.border_sides(c).iter().filter(|&&b| b).count()] += 1;
    }
    (0..5).map(|g| tiles[g] * cells[g] * if g == 0 || puzzle.rows == 1 || puzzle.cols == 1 { 4 } else { 1 }).sum()
}

/// The size of the IR [`to_problem`] would make (from [`option_bound`]: at
/// most two primary and four coloured secondary entries per option), for
/// the size cap.
pub fn estimate(puzzle: &EdgePuzzle) -> crate::size_cap::IrEstimate {
    let options = option_bound(puzzle) as u64;
    let symmetries = if puzzle.rows == puzzle.cols { 4 } else { 2 };
    crate::size_cap::IrEstimate::new(options, options * 6, symmetries)
}

/// Builds the IR of an edge-matching puzzle (which must be valid).
pub fn to_problem(puzzle: &EdgePuzzle) -> Problem {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let mut b = ProblemBuilder::new(puzzle.name.clone());
    let cell_item: Vec<u32> = (0..rows * cols).map(|i| b.primary(format!("r{}c{}", i / cols, i % cols))).collect();
    let tile_item: Vec<u32> = (0..puzzle.tiles.len()).map(|t| b.primary(format!("t{}", t + 1))).collect();
    // join_item[cell][side] for EAST and SOUTH; WEST/NORTH look up the neighbour.
    let mut h = vec![u32::MAX; rows * cols];
    let mut v = vec![u32::MAX; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                h[r * cols + c] = b.secondary(format!("h{r}c{c}"));
            }
            if r + 1 < rows {
                v[r * cols + c] = b.secondary(format!("v{r}c{c}"));
            }
        }
    }
    let colour_ids: Vec<u32> = (0..puzzle.n_colors()).map(|k| b.color(&k.to_string())).collect();
    let clue_at: HashMap<usize, &super::Clue> = puzzle.clues.iter().map(|c| (puzzle.cell(c.row, c.col), c)).collect();
    let clue_of: HashMap<usize, &super::Clue> = puzzle.clues.iter().map(|c| (c.tile, c)).collect();
    let mut placements = Vec::new();
    for (t, &t_item) in tile_item.iter().enumerate() {
        for cell in 0..rows * cols {
            let fixed = clue_of.get(&t).map(|c| puzzle.cell(c.row, c.col));
            if fixed.is_some_and(|f| f != cell) || clue_at.get(&cell).is_some_and(|c| c.tile != t) {
                continue;
            }
            // The looks already listed for (t, cell), in a fixed array:
            // a `Vec` here cost an allocation per pair.
            let (mut seen, mut n_seen) = ([[0u16; 4]; 4], 0);
            for r in 0..4u8 {
                let colours = puzzle.tiles[t].rotated(r);
                if !puzzle.fits_border(t, r, cell) || seen[..n_seen].contains(&colours) {
                    continue;
                }
                if let Some(c) = clue_of.get(&t) {
                    if colours != puzzle.tiles[t].rotated(c.rotation) {
                        continue;
                    }
                }
                seen[n_seen] = colours;
                n_seen += 1;
                // The cell, the tile and up to four joins, in an array: a
                // `Vec` grown from two cost an allocation and two
                // reallocations an option.
                let mut entries = [Entry { item: cell_item[cell], color: NO_COLOR }; 6];
                entries[1] = Entry { item: t_item, color: NO_COLOR };
                let mut n_entries = 2;
                let joins = [
                    (super::NORTH, puzzle.neighbour(cell, super::NORTH).map(|n| v[n])),
                    (EAST, (h[cell] != u32::MAX).then_some(h[cell])),
                    (SOUTH, (v[cell] != u32::MAX).then_some(v[cell])),
                    (super::WEST, puzzle.neighbour(cell, super::WEST).map(|n| h[n])),
                ];
                for (side, item) in joins {
                    if let Some(item) = item {
                        entries[n_entries] = Entry { item, color: colour_ids[colours[side] as usize] };
                        n_entries += 1;
                    }
                }
                b.option(entries[..n_entries].iter().copied());
                placements.push(Placement { piece: t as u32, cells: vec![cell as u32], orientation: r as u32 });
            }
        }
    }
    let pieces =
        (0..puzzle.tiles.len()).map(|t| PieceInfo { names: vec![(t + 1).to_string()], stationary: false }).collect();
    let geometry = Geometry { dims: [cols as u32, rows as u32, 1], pieces, placements, fixed: vec![] };
    let mut problem = b.build(Some(geometry)).expect("edge-matching IR is well formed");
    problem.symmetries = board_rotations(puzzle, &problem);
    problem
}

/// The board as a solution's placements show it.
pub fn board_of(puzzle: &EdgePuzzle, problem: &Problem, options: &[OptionId]) -> Board {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let mut board = Board::empty(puzzle.rows, puzzle.cols);
    for &o in options {
        let p = &geo.placements[o as usize];
        board.cells[p.cells[0] as usize] = Some(Placed { tile: p.piece, rotation: p.orientation as u8 });
    }
    board
}

/// The options of a full board (`None` if a cell is empty or holds a
/// placement the IR does not have, e.g. against a clue).
pub fn options_of(puzzle: &EdgePuzzle, problem: &Problem, board: &Board) -> Option<Vec<OptionId>> {
    let index = option_table(puzzle, problem);
    let (cells, tiles) = (puzzle.n_cells(), puzzle.tiles.len());
    board
        .cells
        .iter()
        .enumerate()
        .map(|(cell, p)| {
            let p = (*p)?;
            if cell >= cells || p.tile as usize >= tiles {
                return None;
            }
            index.find(cell, p.tile as usize, p.rotation)
        })
        .collect()
}

/// `problem`'s options by (cell, tile, rotation) on the puzzle as given,
/// in the flat [`OptionTable`] (cheaper to build and to read than a hash
/// map keyed by colours; see its doc).
fn option_table(puzzle: &EdgePuzzle, problem: &Problem) -> OptionTable {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let placements: Vec<(u32, u32, u8)> =
        geo.placements.iter().map(|p| (p.piece, p.cells[0], p.orientation as u8)).collect();
    OptionTable::new(puzzle, &placements, &|cell| cell, 0)
}

/// Option id of each `(tile, cell, colours as placed)`: the reference the
/// tests check [`OptionTable`]'s look-ups against.
#[cfg(test)]
fn option_index(puzzle: &EdgePuzzle, problem: &Problem) -> HashMap<(u32, u32, [u16; 4]), OptionId> {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    geo.placements
        .iter()
        .enumerate()
        .map(|(o, p)| {
            ((p.piece, p.cells[0], puzzle.tiles[p.piece as usize].rotated(p.orientation as u8)), o as OptionId)
        })
        .collect()
}

fn board_rotations(puzzle: &EdgePuzzle, problem: &Problem) -> Vec<Symmetry> {
    let (rows, cols) = (puzzle.rows, puzzle.cols);
    let quarter_turns: &[u8] = if rows == cols { &[1, 2, 3] } else { &[2] };
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let index = option_table(puzzle, problem);
    let mut out = Vec::new();
    'turn: for &q in quarter_turns {
        // Turning the board q quarter turns clockwise.
        let map_cell = |cell: usize| -> usize {
            let (mut r, mut c) = (cell / cols, cell % cols);
            let (mut nr, mut nc) = (rows, cols);
            for _ in 0..q {
                (r, c) = (c, nr - 1 - r);
                (nr, nc) = (nc, nr);
            }
            r * nc + c
        };
        let mut option_map = Vec::with_capacity(geo.placements.len());
        for p in &geo.placements {
            match index.find(map_cell(p.cells[0] as usize), p.piece as usize, p.orientation as u8 + q) {
                Some(o) => option_map.push(o),
                None => continue 'turn, // a clue is not symmetric under this turn
            }
        }
        out.push(Symmetry { name: format!("rotate {}°", 90 * q as u32), reflection: false, option_map });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dlx;
    use crate::ir::{Equivalence, UniqueFilter};
    use crate::search::{Flow, Limits};

    use crate::edgematch::brendan_set2 as brendan;

    fn counts(p: &EdgePuzzle) -> (u64, usize) {
        let pr = to_problem(p);
        let mut f = UniqueFilter::new(&pr.symmetries, Equivalence::Rotations);
        let stats = dlx::Dlx::new(&pr).search(&Limits::none(), |s| {
            crate::ir::verify(&pr, &crate::ir::Solution { options: s.to_vec() }).unwrap();
            board_of(p, &pr, s).check_solution(p).unwrap();
            f.insert(s);
            Flow::Continue
        });
        (stats.solutions, f.classes())
    }

    /// `board_rotations` (on the flat `OptionTable`) against the hash map
    /// of (tile, cell, colours) it replaced: the same turns, the same
    /// option maps, on square and oblong boards, with and without clues
    /// (a clue in one cell removes the turns that move it).
    #[test]
    fn board_rotations_match_the_colour_index() {
        use crate::edgematch::generate::{generate, GenerateSpec, Style};
        let mut puzzles = vec![brendan("04x04"), brendan("05x04"), brendan("06x03")];
        for (rows, cols, clue) in [(4, 4, (1, 1)), (4, 4, (0, 0)), (3, 5, (1, 2))] {
            let style = Style::Uniform { colors: 2 };
            let mut g = generate(&GenerateSpec { rows, cols, style, seed: 3 }).unwrap();
            let p = g.solution.cells[clue.0 * cols + clue.1].unwrap();
            g.puzzle.clues.push(crate::edgematch::Clue {
                tile: p.tile as usize,
                row: clue.0,
                col: clue.1,
                rotation: p.rotation,
            });
            puzzles.push(g.puzzle);
        }
        let mut turns = 0;
        for p in &puzzles {
            let pr = to_problem(p);
            let index = option_index(p, &pr);
            let geo = pr.geometry.as_ref().unwrap();
            let (rows, cols) = (p.rows, p.cols);
            let mut expected = Vec::new();
            for q in if rows == cols { vec![1u8, 2, 3] } else { vec![2] } {
                let turn = |cell: usize| {
                    let (mut r, mut c, mut nr, mut nc) = (cell / cols, cell % cols, rows, cols);
                    for _ in 0..q {
                        (r, c, nr, nc) = (c, nr - 1 - r, nc, nr);
                    }
                    r * nc + c
                };
                let map: Option<Vec<OptionId>> = geo
                    .placements
                    .iter()
                    .map(|pl| {
                        let look = p.tiles[pl.piece as usize].rotated(pl.orientation as u8 + q);
                        index.get(&(pl.piece, turn(pl.cells[0] as usize) as u32, look)).copied()
                    })
                    .collect();
                if let Some(map) = map {
                    expected.push(map);
                }
            }
            let got: Vec<Vec<OptionId>> = pr.symmetries.iter().map(|s| s.option_map.clone()).collect();
            assert_eq!(got, expected, "{}", p.name);
            turns += got.len();
        }
        // Brendan 4x4: 3 turns, 5x4 and 6x3: 1 each; the clued boards keep
        // the turns that fix their clue (the centre of none of them).
        assert!(turns >= 5, "{turns}");
    }

    #[test]
    fn brendan_small_counts() {
        assert_eq!(counts(&brendan("03x03")), (8, 2));
        assert_eq!(counts(&brendan("04x04")), (48, 12));
    }
}
