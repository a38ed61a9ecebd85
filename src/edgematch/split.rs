//! Splitting an edge-matching enumeration into independent puzzle files
//! (`emx split`) and adding up their results (`emx merge`), so that a
//! search of CPU hours (Brendan's set-2 7x7 is about 6e9 cp decisions)
//! runs on any batch system (GNU parallel, a Slurm job array).
//!
//! A split fixes the first `depth` free cells in the scan backtracker's
//! order (row-major; on a board wider than tall, the rows of the board
//! turned a quarter, i.e. by columns from the bottom left) in every
//! way that keeps the rules among them (each tile once, grey exactly on
//! the border, matching sides between fixed cells and clues) and writes
//! each assignment as a puzzle file in emx's format: the original puzzle
//! with those cells as extra clues. The parts partition the solutions:
//! two parts differ in some fixed cell, and every solution extends the
//! assignment of its own first cells.
//!
//! Symmetry: on a square board without clues every solution has exactly
//! one rotation that puts a chosen corner tile in the top-left corner
//! (tiles are labelled, so no board is its own rotation), so the split
//! fixes that tile there and each part solution stands for 4 boards
//! ([`EdgeManifest::weight`]); the parts' solutions are then one per class
//! under rotation. Otherwise (clues, or a rectangle) nothing is fixed and
//! the weight is 1.

use super::scan::cell_order;
use super::{Board, Clue, EdgePuzzle, Placed, EAST, NORTH, SOUTH, WEST};
use crate::ir::{Equivalence, Problem, Solution, UniqueFilter};
use serde::{Deserialize, Serialize};

/// Value of [`EdgeManifest::kind`], which tells `emx merge` the manifest
/// apart from a polycube one.
pub const KIND: &str = "edgematch";

/// One part: a puzzle file and the cells it fixes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgePart {
    /// Puzzle file, relative to the manifest (none when the parts are
    /// grouped into task files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The clues the split added (0-based tile, row, column, rotation).
    pub fixed: Vec<Clue>,
}

/// `manifest.json` of an edge-matching split.
///
/// Invariant: the parts' clue sets are pairwise different assignments of
/// the same cells (with, on a square board without clues, the corner tile
/// of [`EdgeManifest::symmetry`] at the top-left), so their solution sets
/// are disjoint and cover every solution with that corner there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeManifest {
    /// Always [`KIND`].
    pub kind: String,
    /// The original puzzle file.
    pub file: String,
    /// Cells fixed in every part.
    pub depth: usize,
    /// Boards of the original puzzle each part solution stands for.
    pub weight: u64,
    /// How the board rotations were broken, if they were.
    pub symmetry: Option<String>,
    /// The parts.
    pub parts: Vec<EdgePart>,
    /// The split's identity ([`crate::tasks::split_id`] of the puzzle text
    /// and this manifest without this field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<String>,
    /// The task files the parts are grouped into (none: one file a part).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<crate::tasks::TaskEntry>,
}

/// Why a split cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SplitError {
    /// The depth is 0 or leaves no free cell.
    #[error("--depth must be between 1 and {0} (one less than the cells without a clue: a part must leave a cell to search)")]
    Depth(usize),
    /// The parts would be too many to write.
    #[error("depth {depth} gives more than {limit} parts: choose a smaller depth")]
    TooMany {
        /// The depth asked for.
        depth: usize,
        /// [`MAX_PARTS`].
        limit: usize,
    },
}

/// Most parts a split writes.
pub const MAX_PARTS: usize = 1_000_000;

/// What [`split`] computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeSplit {
    /// The assignments of the fixed cells, one per part (pairwise different).
    pub parts: Vec<Vec<Clue>>,
    /// How the board rotations were broken, if they were.
    pub symmetry: Option<String>,
    /// Boards of the puzzle each part board stands for.
    pub weight: u64,
}

/// The parts of `puzzle` at `depth`: the assignments of its first `depth`
/// free cells in scan's order ([`cell_order`]), the symmetry note and the
/// weight.
pub fn split(puzzle: &EdgePuzzle, depth: usize) -> Result<EdgeSplit, SplitError> {
    let mut board = Board::empty(puzzle.rows, puzzle.cols);
    let mut used = vec![false; puzzle.tiles.len()];
    for c in &puzzle.clues {
        board.cells[puzzle.cell(c.row, c.col)] = Some(Placed { tile: c.tile as u32, rotation: c.rotation });
        used[c.tile] = true;
    }
    let free: Vec<usize> = cell_order(puzzle).into_iter().filter(|&i| board.cells[i].is_none()).collect();
    if depth == 0 || depth >= free.len() {
        return Err(SplitError::Depth(free.len().saturating_sub(1)));
    }
    // The corner tile fixed at the top-left on a square board without clues.
    let corner = (puzzle.clues.is_empty() && puzzle.rows == puzzle.cols && puzzle.rows >= 2)
        .then(|| (0..puzzle.tiles.len()).find(|&t| (0..4).any(|r| puzzle.fits_border(t, r, 0))))
        .flatten();
    let symmetry = corner.map(|t| format!("tile {} fixed in the top-left corner (board rotations)", t + 1));
    let weight = if corner.is_some() { 4 } else { 1 };
    let mut parts = Vec::new();
    let mut walk = Walk { puzzle, free: &free[..depth], corner, board, used, parts: &mut parts };
    walk.extend(0)?;
    Ok(EdgeSplit { parts, symmetry, weight })
}

/// The depth-first enumeration of the fixed cells' assignments.
struct Walk<'a> {
    puzzle: &'a EdgePuzzle,
    free: &'a [usize],
    corner: Option<usize>,
    board: Board,
    used: Vec<bool>,
    parts: &'a mut Vec<Vec<Clue>>,
}

impl Walk<'_> {
    fn extend(&mut self, k: usize) -> Result<(), SplitError> {
        if k == self.free.len() {
            if self.parts.len() == MAX_PARTS {
                return Err(SplitError::TooMany { depth: self.free.len(), limit: MAX_PARTS });
            }
            let p = self.puzzle;
            let fixed = self
                .free
                .iter()
                .map(|&i| {
                    let (row, col) = p.row_col(i);
                    let t = self.board.cells[i].expect("fixed above");
                    Clue { tile: t.tile as usize, row, col, rotation: t.rotation }
                })
                .collect();
            self.parts.push(fixed);
            return Ok(());
        }
        let cell = self.free[k];
        for t in 0..self.puzzle.tiles.len() {
            if self.used[t] || (cell == 0 && self.corner.is_some_and(|c| c != t)) {
                continue;
            }
            let mut seen: Vec<[u16; 4]> = Vec::new();
            for r in 0..4u8 {
                let colours = self.puzzle.tiles[t].rotated(r);
                if seen.contains(&colours) || !self.puzzle.fits_border(t, r, cell) || !self.matches(cell, colours) {
                    continue;
                }
                seen.push(colours);
                self.board.cells[cell] = Some(Placed { tile: t as u32, rotation: r });
                self.used[t] = true;
                let r = self.extend(k + 1);
                self.used[t] = false;
                self.board.cells[cell] = None;
                r?;
            }
        }
        Ok(())
    }

    /// Whether `colours` at `cell` match every filled neighbour.
    fn matches(&self, cell: usize, colours: [u16; 4]) -> bool {
        [NORTH, EAST, SOUTH, WEST].into_iter().all(|s| {
            self.puzzle.neighbour(cell, s).is_none_or(|nb| {
                self.board.colours(self.puzzle, nb).is_none_or(|other| other[(s + 2) % 4] == colours[s])
            })
        })
    }
}

/// The puzzle of one part: `puzzle` with the `fixed` cells as clues.
pub fn part_puzzle(puzzle: &EdgePuzzle, fixed: &[Clue], name: &str) -> EdgePuzzle {
    let mut p = puzzle.clone();
    p.name = name.to_string();
    p.clues.extend_from_slice(fixed);
    p
}

/// The result of one part (`emx solve PART --format json`), as merge reads it.
#[derive(Clone, Debug, Deserialize)]
pub struct EdgePartResult {
    /// Boards of the part.
    pub found: u64,
    /// Boards reported (`emx solve`'s `solutions`), when given.
    #[serde(default)]
    pub solutions: Option<u64>,
    /// `emx solve`'s `mode`: `"all"` means `solution_list` claims to hold
    /// every board.
    #[serde(default)]
    pub mode: Option<String>,
    /// Where the result was read (named in errors).
    #[serde(skip)]
    pub source: String,
    /// Whether the part's search finished.
    pub complete: bool,
    /// Boards: all of them when solved with `--all` (a count lists its
    /// first board only).
    #[serde(default)]
    pub solution_list: Option<Vec<BoardJson>>,
}

impl EdgePartResult {
    /// Whether the result claims to list every board it counts.
    pub fn lists_all(&self) -> bool {
        self.mode.as_deref() == Some("all")
    }
}

/// A board as `emx solve --format json` lists it.
#[derive(Clone, Debug, Deserialize)]
pub struct BoardJson {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Cells in row-major order (1-based tiles).
    pub cells: Vec<Option<CellJson>>,
}

/// One cell of a [`BoardJson`].
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CellJson {
    /// 1-based tile.
    pub tile: u32,
    /// Clockwise quarter turns.
    pub rotation: u8,
}

/// What an edge-matching merge computed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EdgeMerged {
    /// Part results read.
    pub parts: usize,
    /// Whether every part has a result and every part's search finished.
    pub complete: bool,
    /// Boards of the original puzzle (over the parts with a result).
    pub boards: u64,
    /// Classes under the board rotations that keep the clues (known when
    /// the split fixed a corner tile, or every part listed its boards).
    pub unique: Option<u64>,
    /// Boards rebuilt and verified (with `--all` results).
    pub verified: u64,
}

/// Why a merge failed.
#[derive(Debug, thiserror::Error)]
pub enum EdgeMergeError {
    /// A count disagrees with its list, a part's board is not a solution
    /// of the original puzzle or breaks its part's clues, or a board is
    /// listed twice.
    #[error("{0}")]
    Mismatch(String),
}

/// Adds up part results (`results[k]` for `manifest.parts[k]`, `None`
/// when missing). Each result that lists all its boards must count exactly
/// its list. When every result present lists all its boards, checks each
/// board against the original puzzle and its part's clues, refuses one
/// listed twice and counts the classes under rotation.
pub fn merge(
    puzzle: &EdgePuzzle,
    problem: &Problem,
    manifest: &EdgeManifest,
    results: &[Option<EdgePartResult>],
) -> Result<EdgeMerged, EdgeMergeError> {
    let present = || manifest.parts.iter().zip(results).filter_map(|(p, r)| r.as_ref().map(|r| (p, r)));
    let mismatch = |source: &str, what: String| EdgeMergeError::Mismatch(format!("{source}: {what}"));
    for (_, r) in present() {
        let Some(list) = r.solution_list.as_ref().filter(|_| r.lists_all()) else { continue };
        let n = list.len() as u64;
        for (what, claimed) in [("found", Some(r.found)), ("solutions", r.solutions)] {
            if let Some(c) = claimed.filter(|&c| c != n) {
                return Err(mismatch(&r.source, format!("`{what}` claims {c} boards but the solution list holds {n}")));
            }
        }
    }
    let found: u64 = present().map(|(_, r)| r.found).sum();
    let mut merged = EdgeMerged {
        parts: present().count(),
        complete: results.iter().all(|r| r.as_ref().is_some_and(|r| r.complete)),
        boards: manifest.weight * found,
        ..EdgeMerged::default()
    };
    if manifest.symmetry.is_some() {
        merged.unique = Some(found);
    }
    // A count-mode result lists only its first board: only complete lists
    // are rebuilt.
    if !present().all(|(_, r)| r.lists_all() && r.solution_list.is_some()) {
        return Ok(merged);
    }
    let mut classes = UniqueFilter::new(&problem.symmetries, Equivalence::Rotations);
    let mut seen: std::collections::HashMap<Vec<u32>, &str> = std::collections::HashMap::new();
    for (part, r) in present() {
        let source = r.source.as_str();
        for b in r.solution_list.as_ref().expect("checked above") {
            let board = to_board(puzzle, b).map_err(|EdgeMergeError::Mismatch(e)| mismatch(source, e))?;
            board.check_solution(puzzle).map_err(|e| mismatch(source, e.to_string()))?;
            if let Some(c) = part.fixed.iter().find(|c| {
                let at = board.cells[puzzle.cell(c.row, c.col)].expect("a full board");
                at.tile as usize != c.tile
                    || puzzle.tiles[c.tile].rotated(at.rotation) != puzzle.tiles[c.tile].rotated(c.rotation)
            }) {
                return Err(mismatch(
                    source,
                    format!("a board does not keep the part's clue at ({}, {})", c.row, c.col),
                ));
            }
            let options = super::ir::options_of(puzzle, problem, &board)
                .ok_or_else(|| mismatch(source, "a board uses a placement the puzzle does not have".into()))?;
            crate::ir::verify(problem, &Solution { options: options.clone() })
                .map_err(|e| mismatch(source, e.to_string()))?;
            let mut key = options.clone();
            key.sort_unstable();
            if let Some(first) = seen.insert(key, source) {
                return Err(mismatch(
                    source,
                    format!("lists a board already listed by {first} (each board belongs to one part)"),
                ));
            }
            classes.insert(&options);
            merged.verified += 1;
        }
    }
    let n = classes.classes() as u64;
    if let Some(u) = merged.unique {
        if u != n {
            return Err(EdgeMergeError::Mismatch(format!(
                "the parts list {n} classes under rotation but count {u} boards with the corner tile fixed"
            )));
        }
    }
    merged.unique = Some(n);
    Ok(merged)
}

fn to_board(puzzle: &EdgePuzzle, b: &BoardJson) -> Result<Board, EdgeMergeError> {
    if (b.rows, b.cols) != (puzzle.rows, puzzle.cols) || b.cells.len() != puzzle.n_cells() {
        return Err(EdgeMergeError::Mismatch(format!(
            "a listed board is {}x{} with {} cells, the puzzle {}x{}",
            b.rows,
            b.cols,
            b.cells.len(),
            puzzle.rows,
            puzzle.cols
        )));
    }
    let cells = b
        .cells
        .iter()
        .map(|c| {
            c.map(|c| {
                if c.tile == 0 || c.tile as usize > puzzle.tiles.len() {
                    Err(EdgeMergeError::Mismatch(format!("a listed board names tile {}", c.tile)))
                } else {
                    Ok(Placed { tile: c.tile - 1, rotation: c.rotation & 3 })
                }
            })
            .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Board { rows: b.rows, cols: b.cols, cells })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::edgematch::brendan_set2 as brendan;

    /// The boards of a puzzle, by the scan backtracker.
    fn boards(p: &EdgePuzzle) -> Vec<Board> {
        let problem = super::super::ir::to_problem(p);
        let mut out = Vec::new();
        let mut engine = super::super::scan::Scan::new(p, &problem).unwrap();
        use crate::search::Engine;
        engine.run(&crate::search::Limits::none(), &mut |s| {
            out.push(super::super::ir::board_of(p, &problem, s));
            crate::search::Flow::Continue
        });
        out
    }

    #[test]
    fn cells_are_fixed_in_cell_order() {
        // 2 rows x 3 columns: scan searches it turned, by columns from the bottom left.
        let wide = EdgePuzzle {
            name: "w".into(),
            rows: 2,
            cols: 3,
            tiles: vec![super::super::Tile([0; 4]); 6],
            clues: vec![],
        };
        assert_eq!(cell_order(&wide), vec![3, 0, 4, 1, 5, 2]);
        let tall = EdgePuzzle { rows: 3, cols: 2, ..wide };
        assert_eq!(cell_order(&tall), (0..6).collect::<Vec<_>>());
        // The 4x3 (3 rows, 4 columns) fixes its bottom-left cells first.
        let p = brendan("04x03");
        let EdgeSplit { parts, .. } = split(&p, 2).unwrap();
        let first: Vec<usize> = cell_order(&p)[..2].to_vec();
        for fixed in &parts {
            let cells: Vec<usize> = fixed.iter().map(|c| p.cell(c.row, c.col)).collect();
            assert_eq!(cells, first);
        }
    }

    #[test]
    fn parts_partition_the_boards() {
        for (name, depth) in [("04x04", 1), ("04x04", 3), ("05x05", 2), ("04x03", 2)] {
            let p = brendan(name);
            let all = boards(&p);
            let EdgeSplit { parts, symmetry, weight } = split(&p, depth).unwrap();
            let mut total = 0;
            for fixed in &parts {
                let n = boards(&part_puzzle(&p, fixed, "part")).len() as u64;
                total += n;
            }
            assert_eq!(total * weight, all.len() as u64, "{name} at depth {depth}");
            assert_eq!(symmetry.is_some(), p.rows == p.cols, "{name}");
            // Distinct assignments.
            let mut sorted = parts.clone();
            sorted.sort_by_key(|f| f.iter().map(|c| (c.tile, c.rotation)).collect::<Vec<_>>());
            sorted.dedup();
            assert_eq!(sorted.len(), parts.len());
        }
    }

    #[test]
    fn bad_depths_are_errors() {
        let p = brendan("03x03");
        assert_eq!(split(&p, 0).unwrap_err(), SplitError::Depth(8));
        assert_eq!(split(&p, 9).unwrap_err(), SplitError::Depth(8));
        assert!(split(&p, 8).is_ok());
    }
}
