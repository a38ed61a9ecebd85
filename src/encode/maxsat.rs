//! The matched-edge score of an edge-matching puzzle as weighted MaxSAT,
//! and the way back from a MaxSAT solver's answer to a scored board.
//!
//! Variables: `o + 1` is IR option `o` (a tile in a cell in a rotation with
//! grey exactly on the border; clues already narrow a clued tile and cell
//! to their placement), as in the CNF. Then, for every inner join `J` and
//! every colour `c` that both of `J`'s cells can show there, `m(J, c)`:
//! "`J` is matched in colour `c`".
//!
//! * Hard: exactly one option per cell and per tile (the at-most-one part
//!   by `--amo`), `¬x` for the options a restriction drops, and for every
//!   `m(J, c)` the two clauses `m → ∨ {options of the first cell showing c
//!   on J}`, `m → ∨ {options of the second cell showing c on J}`.
//! * Soft, weight 1 per inner join: `∨_c m(J, c)`. A join whose cells share
//!   no colour gets a variable `z` with the hard clause `¬z` and the soft
//!   clause `z`, so every join has its soft clause.
//!
//! Exactness: a hard model places every tile once, in a border-valid
//! rotation, respecting the clues. A join's soft clause holds only through
//! some `m(J, c)`, which makes both cells show `c`: a model's cost is at
//! least the number of unmatched joins of its board. Conversely a board
//! matched on `J` in `c` satisfies `J`'s soft clause with `m(J, c)` true.
//! So the optimum cost is the least number of unmatched inner joins, and
//! in an optimal model the cost is exactly its board's.

use super::placement_text;
use super::restrict::Restriction;
use crate::edgematch::{Board, EdgePuzzle, EAST, NORTH, SOUTH, WEST};
use crate::input::Instance;
use crate::ir::Problem;
use emx_encoders::card::exactly_one;
use emx_encoders::wcnf::clause_text;
use emx_encoders::{AmoEncoding, ClauseSink, MaxSatAnswer, MaxSatStatus, Var, Wcnf};
use std::fmt::Write as _;

/// The WCNF of a puzzle and where its variables are.
///
/// Invariant: option `o` is variable `o`; `joins[k]` is the join of soft
/// clause `k`; every `match_vars` entry names a join index of `joins`.
#[derive(Clone, Debug)]
pub struct MaxSatEncoding {
    /// The formula.
    pub wcnf: Wcnf,
    /// The IR's options (variables `0..n_options`).
    pub n_options: u32,
    /// Inner joins in soft-clause order: `(cell, side)`, side `EAST` or
    /// `SOUTH` of the cell.
    pub joins: Vec<(usize, usize)>,
    /// `(variable, join index, colour)` of each `m(J, c)`.
    pub match_vars: Vec<(Var, usize, u16)>,
    /// Which constraint wrote the hard clauses: `(end, origin)`, the
    /// clauses before `end` and after the previous entry's end.
    origins: Vec<(usize, Origin)>,
}

/// The constraint a hard clause belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// A restriction drops this option.
    Dropped(u32),
    /// The exactly-one of a cell.
    Cell(usize),
    /// The exactly-one of a tile (0-based).
    Tile(usize),
    /// `m(J, c)` implies the colour on both sides: join index, colour.
    Join(usize, u16),
    /// A join's variable that no colour can make true.
    Unmatchable(usize),
}

/// Encodes `puzzle` (whose IR is `problem`) with `amo`, the options of
/// `excluded` forced false (empty: none).
pub fn encode(puzzle: &EdgePuzzle, problem: &Problem, amo: AmoEncoding, excluded: &[bool]) -> MaxSatEncoding {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let n = problem.n_options() as u32;
    let mut wcnf = Wcnf::new();
    for _ in 0..n {
        wcnf.new_var();
    }
    let dropped = |o: u32| excluded.get(o as usize).copied().unwrap_or(false);
    let mut origins = Vec::new();
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); problem.n_primary()];
    for o in 0..n {
        if dropped(o) {
            wcnf.add_clause(&[Var::new(o).negative()]);
            origins.push((wcnf.hard().n_clauses(), Origin::Dropped(o)));
        }
        for e in problem.option(o) {
            if (e.item as usize) < problem.n_primary() {
                uses[e.item as usize].push(o);
            }
        }
    }
    // The IR's primary items: the cells, then the tiles.
    for (item, u) in uses.iter().enumerate() {
        let lits: Vec<_> = u.iter().map(|&o| Var::new(o).positive()).collect();
        exactly_one(&mut wcnf, &lits, amo);
        let origin = if item < puzzle.n_cells() { Origin::Cell(item) } else { Origin::Tile(item - puzzle.n_cells()) };
        origins.push((wcnf.hard().n_clauses(), origin));
    }
    // Per cell, its kept options with the colours they show.
    let mut in_cell: Vec<Vec<(u32, [u16; 4])>> = vec![Vec::new(); puzzle.n_cells()];
    for (o, p) in geo.placements.iter().enumerate() {
        if !dropped(o as u32) {
            let colours = puzzle.tiles[p.piece as usize].rotated(p.orientation as u8);
            in_cell[p.cells[0] as usize].push((o as u32, colours));
        }
    }
    let mut joins = Vec::new();
    let mut match_vars = Vec::new();
    let mut soft_lits = Vec::new();
    for cell in 0..puzzle.n_cells() {
        for (side, back) in [(EAST, WEST), (SOUTH, NORTH)] {
            let Some(other) = puzzle.neighbour(cell, side) else { continue };
            let j = joins.len();
            joins.push((cell, side));
            let mut colours: Vec<u16> = in_cell[cell].iter().map(|(_, c)| c[side]).collect();
            colours.sort_unstable();
            colours.dedup();
            soft_lits.clear();
            for c in colours {
                let here: Vec<_> =
                    in_cell[cell].iter().filter(|(_, k)| k[side] == c).map(|&(o, _)| Var::new(o).positive()).collect();
                let there: Vec<_> =
                    in_cell[other].iter().filter(|(_, k)| k[back] == c).map(|&(o, _)| Var::new(o).positive()).collect();
                if there.is_empty() {
                    continue;
                }
                let m = wcnf.new_var();
                for side_options in [here, there] {
                    let mut clause = vec![m.negative()];
                    clause.extend(side_options);
                    wcnf.add_clause(&clause);
                }
                match_vars.push((m, j, c));
                origins.push((wcnf.hard().n_clauses(), Origin::Join(j, c)));
                soft_lits.push(m.positive());
            }
            if soft_lits.is_empty() {
                let z = wcnf.new_var();
                wcnf.add_clause(&[z.negative()]);
                origins.push((wcnf.hard().n_clauses(), Origin::Unmatchable(j)));
                soft_lits.push(z.positive());
            }
            wcnf.add_soft(1, &soft_lits);
        }
    }
    MaxSatEncoding { wcnf, n_options: n, joins, match_vars, origins }
}

/// `(row, column)` of a cell, 1-based.
fn at(puzzle: &EdgePuzzle, cell: usize) -> (usize, usize) {
    let (r, c) = puzzle.row_col(cell);
    (r + 1, c + 1)
}

/// The comment block at the top of the WCNF file.
pub fn comments(
    instance: &Instance,
    puzzle: &EdgePuzzle,
    enc: &MaxSatEncoding,
    amo: AmoEncoding,
    restriction: Option<&Restriction>,
) -> String {
    let problem = instance.problem();
    let mut s = String::new();
    let _ = writeln!(s, "emx wcnf encoding of {} ({}): the matched-edge score as MaxSAT", instance.file, problem.name);
    let _ = writeln!(
        s,
        "{} options, {} inner joins; at-most-one: {amo}; hard: a tile per cell, a cell per tile (options keep grey on the border and the clues); soft: one per inner join, weight 1",
        problem.n_options(),
        enc.joins.len()
    );
    let _ =
        writeln!(s, "the cost of a model is its number of unmatched inner joins; score = {} - cost", enc.joins.len());
    if let Some(r) = restriction {
        let _ = writeln!(s, "restriction: {} ({} options forced false)", r.description, r.n_excluded());
    }
    for o in 0..problem.n_options() as u32 {
        let _ = writeln!(s, "var {} = option {o}: {}", o + 1, placement_text(instance, o));
    }
    for &(v, j, c) in &enc.match_vars {
        let (cell, side) = enc.joins[j];
        let other = puzzle.neighbour(cell, side).expect("an inner join");
        let (a, b) = (at(puzzle, cell), at(puzzle, other));
        let _ = writeln!(
            s,
            "var {} = join of cells ({}, {}) and ({}, {}) matched in colour {c}",
            v.to_dimacs(),
            a.0,
            a.1,
            b.0,
            b.1
        );
    }
    s
}

/// Why a MaxSAT answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaxSatError {
    /// The model breaks a hard clause.
    #[error("the model falsifies hard clause {clause} of the WCNF (`{lits} 0`): {meaning}")]
    Hard {
        /// 1-based hard clause.
        clause: usize,
        /// Its literals.
        lits: String,
        /// What the clause says, in the puzzle's terms.
        meaning: String,
    },
    /// The `o` line disagrees with the model.
    #[error("the solver claims cost {claimed} (line {line}), but its model falsifies soft clauses of weight {actual}")]
    Cost {
        /// The claimed cost.
        claimed: u64,
        /// Its line.
        line: usize,
        /// The model's cost.
        actual: u64,
    },
    /// An optimum claimed for a model that leaves matched joins unclaimed.
    #[error("the solver claims an optimum (line {line}) of cost {cost}, but the board of its model has only {unmatched} unmatched joins: that cost is not minimal")]
    NotOptimal {
        /// The `s` line.
        line: usize,
        /// The model's cost.
        cost: u64,
        /// The board's unmatched joins.
        unmatched: usize,
    },
}

/// A verified MaxSAT answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The board of the model's option variables (full, valid).
    pub board: Board,
    /// Matched inner joins of the board.
    pub matched: usize,
    /// All inner joins.
    pub joins: usize,
    /// The weight of the soft clauses the model falsifies.
    pub cost: u64,
    /// Whether the solver claimed an optimum (`s OPTIMUM FOUND`).
    pub optimum_claimed: bool,
}

/// Checks `model` against every hard clause, its cost against the solver's
/// claims, and reads its board.
pub fn decode(
    puzzle: &EdgePuzzle,
    problem: &Problem,
    enc: &MaxSatEncoding,
    answer: &MaxSatAnswer,
    model: &[bool],
) -> Result<Decoded, MaxSatError> {
    if let Some(k) = enc.wcnf.falsified_hard(model) {
        let clause = enc.wcnf.hard().clause(k);
        return Err(MaxSatError::Hard {
            clause: k + 1,
            lits: clause_text(clause),
            meaning: meaning(puzzle, problem, enc, k),
        });
    }
    let cost = enc.wcnf.cost(model);
    if let Some((claimed, line)) = answer.cost.filter(|&(c, _)| c != cost) {
        return Err(MaxSatError::Cost { claimed, line, actual: cost });
    }
    let options: Vec<u32> = (0..enc.n_options).filter(|&o| model.get(o as usize).copied().unwrap_or(false)).collect();
    let board = crate::edgematch::ir::board_of(puzzle, problem, &options);
    let score = board.score(puzzle);
    let unmatched = score.joins - score.matched;
    let optimum_claimed = matches!(answer.status, Some((MaxSatStatus::Optimum, _)));
    if let (true, Some((_, line))) = (optimum_claimed && (unmatched as u64) < cost, answer.status) {
        return Err(MaxSatError::NotOptimal { line, cost, unmatched });
    }
    Ok(Decoded { board, matched: score.matched, joins: score.joins, cost, optimum_claimed })
}

/// What hard clause `k` (0-based) says, in the puzzle's terms.
fn meaning(puzzle: &EdgePuzzle, problem: &Problem, enc: &MaxSatEncoding, k: usize) -> String {
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let origin = enc.origins[enc.origins.partition_point(|&(end, _)| end <= k)].1;
    let join = |j: usize| {
        let (cell, side) = enc.joins[j];
        let other = puzzle.neighbour(cell, side).expect("an inner join");
        let (a, b) = (at(puzzle, cell), at(puzzle, other));
        format!("cells ({}, {}) and ({}, {})", a.0, a.1, b.0, b.1)
    };
    match origin {
        Origin::Dropped(o) => {
            let p = &geo.placements[o as usize];
            let (r, c) = at(puzzle, p.cells[0] as usize);
            format!("the restriction drops tile {} at ({r}, {c}) rotation {}", p.piece + 1, p.orientation)
        }
        Origin::Cell(cell) => {
            let (r, c) = at(puzzle, cell);
            format!("cell ({r}, {c}) must hold exactly one tile")
        }
        Origin::Tile(t) => format!("tile {} must be placed exactly once", t + 1),
        Origin::Join(j, c) => {
            format!("the join of {} is claimed matched in colour {c}, which one of them does not show", join(j))
        }
        Origin::Unmatchable(j) => format!("the join of {} can match in no colour", join(j)),
    }
}
