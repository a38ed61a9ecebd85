//! Option restrictions applied before encoding: pinning the first corner
//! tile of an edge-matching puzzle (the symmetry break of Salassa et al.),
//! and a generic symmetry break from the problem's listed symmetries.
//! A restriction is a mask of excluded options; the encoders drop those
//! nodes (clique, `.dlx`) or force their variables false (CNF).

use crate::edgematch::EdgePuzzle;
use crate::ir::{ItemId, Problem, Symmetry};

/// What a restriction did, for comments and reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restriction {
    /// One flag per option: `true` = excluded.
    pub excluded: Vec<bool>,
    /// A one-line description.
    pub description: String,
}

impl Restriction {
    /// Number of excluded options.
    pub fn n_excluded(&self) -> usize {
        self.excluded.iter().filter(|&&x| x).count()
    }

    /// Combines two restrictions (an option excluded by either is excluded).
    pub fn and(mut self, other: Restriction) -> Restriction {
        for (a, b) in self.excluded.iter_mut().zip(other.excluded) {
            *a |= b;
        }
        self.description = format!("{}; {}", self.description, other.description);
        self
    }
}

/// Pins the first corner tile in file order to the top-left cell (in its
/// one rotation that fits there) and keeps every other tile out of that
/// cell. Every solution of a square board without clues has that tile in
/// some corner, and a board rotation takes it to the top-left, so exactly
/// one solution of each rotation class survives. On a rectangle (where only
/// the half turn is a symmetry) or with clues the pin would lose solutions,
/// so it is refused.
pub fn pin_first_corner(puzzle: &EdgePuzzle, problem: &Problem) -> Result<Restriction, String> {
    if puzzle.rows != puzzle.cols {
        return Err(format!(
            "--pin-first-corner needs a square board ({}x{} given): on a rectangle it would lose solutions",
            puzzle.rows, puzzle.cols
        ));
    }
    if !puzzle.clues.is_empty() {
        return Err(
            "--pin-first-corner needs a puzzle without clues: the clues already fix the board's orientation".into()
        );
    }
    let Some(t0) = puzzle.tiles.iter().position(|t| t.grey_sides() == 2) else {
        return Err("--pin-first-corner: the puzzle has no corner tile (two grey sides)".into());
    };
    let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
    let excluded: Vec<bool> = geo.placements.iter().map(|p| (p.piece as usize == t0) != (p.cells[0] == 0)).collect();
    Ok(Restriction { excluded, description: format!("corner tile {} pinned to r0c0", t0 + 1) })
}

/// A symmetry break from `problem.symmetries`: picks a primary item of
/// multiplicity 1 (a piece, a tile) whose options the symmetries permute
/// among themselves with every orbit of full size, and keeps one option per
/// orbit (the least). Each class of solutions under the group then has
/// exactly one member left. The whole listed group is tried first, then its
/// rotations alone (mirror images often fix a flat piece or swap two
/// chiral ones). Returns the item, the restriction and the order of the
/// group used (identity included), or `None` when no listed group is
/// closed under composition or no item qualifies.
pub fn break_symmetry(problem: &Problem) -> Option<(ItemId, Restriction, usize)> {
    let all: Vec<&Symmetry> = problem.symmetries.iter().collect();
    let rotations: Vec<&Symmetry> = problem.symmetries.iter().filter(|s| !s.reflection).collect();
    break_with(problem, &all).or_else(|| break_with(problem, &rotations))
}

fn break_with(problem: &Problem, syms: &[&Symmetry]) -> Option<(ItemId, Restriction, usize)> {
    if syms.is_empty() {
        return None;
    }
    let n = problem.n_options();
    // Closed under composition (with the identity implicit)?
    let identity: Vec<u32> = (0..n as u32).collect();
    let mut composed = vec![0u32; n];
    for a in syms {
        for b in syms {
            for (o, c) in composed.iter_mut().enumerate() {
                *c = a.option_map[b.option_map[o] as usize];
            }
            if composed != identity && !syms.iter().any(|s| s.option_map == composed) {
                return None;
            }
        }
    }
    let order = syms.len() + 1;
    let mut users: Vec<Vec<u32>> = vec![Vec::new(); problem.n_primary()];
    for o in 0..n as u32 {
        for e in problem.option(o) {
            if problem.is_primary(e.item) && problem.multiplicity(e.item) == 1 {
                users[e.item as usize].push(o);
            }
        }
    }
    let mut best: Option<(ItemId, Vec<u32>)> = None;
    'item: for (item, opts) in users.iter().enumerate() {
        if opts.is_empty() {
            continue;
        }
        let mut kept = Vec::new();
        for &o in opts {
            let mut orbit: Vec<u32> = std::iter::once(o).chain(syms.iter().map(|s| s.option_map[o as usize])).collect();
            orbit.sort_unstable();
            orbit.dedup();
            if orbit.len() != order || orbit.iter().any(|x| opts.binary_search(x).is_err()) {
                continue 'item;
            }
            if orbit[0] == o {
                kept.push(o);
            }
        }
        if best.as_ref().is_none_or(|(_, k)| kept.len() < k.len()) {
            best = Some((item as ItemId, kept));
        }
    }
    let (item, kept) = best?;
    let mut excluded = vec![false; n];
    for &o in &users[item as usize] {
        excluded[o as usize] = kept.binary_search(&o).is_err();
    }
    let description = format!(
        "symmetry break: item `{}` keeps {} of its {} options (one per orbit of a group of {} symmetries)",
        problem.items()[item as usize].name,
        kept.len(),
        users[item as usize].len(),
        order
    );
    Some((item, Restriction { excluded, description }, order))
}
