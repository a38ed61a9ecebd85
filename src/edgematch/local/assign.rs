//! The very large neighbourhood of Schaus & Deville (TA) and its
//! checkerboard form (BW): take the tiles out of pairwise non-adjacent
//! cells and put them back optimally. With no two holes adjacent, a tile's
//! matched joins in a hole depend only on the fixed neighbours, so the best
//! re-placement is an assignment problem (tile -> hole, weight = matched
//! joins of the tile's best rotation there), solved by Kuhn–Munkres.
//! Border and inner tiles are never mixed: each class of cells (corner,
//! edge, inner) is its own assignment problem.

use super::model::Model;
use super::state::{Change, State};
use pathfinding::prelude::{kuhn_munkres, Matrix};

/// Solves a maximum-weight assignment of `n` rows to `n` columns
/// (`weights[row * n + col]`); returns the column of each row.
pub fn max_assignment(n: usize, weights: Vec<i64>) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let m = Matrix::from_vec(n, n, weights).expect("n * n weights");
    kuhn_munkres(&m).1
}

/// Knobs of one assignment move.
pub struct AssignParams<'a> {
    /// Arcs (from cell, to cell) that must not be used (tabu); never asked
    /// about a tile staying in its own cell.
    pub forbidden: &'a dyn Fn(u32, u32) -> bool,
    /// Cells whose tile must leave (its own cell gets the weight of a
    /// forbidden arc): a forced move, which may lower the score. Ignored
    /// for a cell alone in its class.
    pub must_move: &'a dyn Fn(u32) -> bool,
    /// Random tie-breaking among equally good re-placements (and among a
    /// tile's equally good rotations); `None` keeps the first optimum.
    pub rng: Option<&'a mut crate::search::Rng>,
}

/// Re-places the tiles of `cells` optimally. `cells` must be pairwise
/// non-adjacent, unclued, and all of one class ([`Model::group`]). Returns
/// the changes applied (cells whose tile or rotation changed) and the score
/// change, which is never negative when no cell must move: leaving every
/// tile where it is, in its own rotation, is always one of the assignments
/// considered and no forbidden arc is ever better than it.
pub fn reassign(model: &Model, state: &mut State, cells: &[u32], params: AssignParams) -> (Vec<Change>, i32) {
    let m = cells.len();
    if m == 0 {
        return (Vec::new(), 0);
    }
    debug_assert!(cells.iter().all(|&c| !model.is_clued(c)));
    debug_assert!(cells.iter().all(|&c| model.group(c) == model.group(cells[0])));
    debug_assert!(cells.iter().enumerate().all(|(i, &a)| cells[i + 1..].iter().all(|&b| !model.adjacent(a, b))));
    let AssignParams { forbidden, must_move, mut rng } = params;
    let mut forced = false;
    // Scale the real weights so that the noise (< NOISE per arc, < m * NOISE
    // in total) can only break ties.
    const NOISE: i64 = 8;
    let scale = NOISE * (m as i64 + 1);
    let start_rot = rng.as_mut().map_or(0, |r| r.u8(0..4));
    let mut weights = vec![0i64; m * m];
    let mut best_rot = vec![0u8; m * m];
    for (i, &from) in cells.iter().enumerate() {
        let t = state.tile[from as usize];
        for (j, &to) in cells.iter().enumerate() {
            let mut best = -1i64;
            let mut br = 0u8;
            for k in 0..4u8 {
                let r = (start_rot + k) & 3;
                if !model.fits(t, r, to) {
                    continue;
                }
                let f = state.fit(model, to, model.color(t, r)) as i64;
                // Keep the current rotation on ties in its own cell, so that
                // "nothing moves" is a candidate of the current weight.
                if f > best || (f == best && i == j && r == state.rot[from as usize]) {
                    best = f;
                    br = r;
                }
            }
            debug_assert!(best >= 0, "tile of one class fits every cell of it");
            let banned = if i != j { forbidden(from, to) } else { m > 1 && must_move(from) };
            forced |= banned && i == j;
            let w = if banned { -scale * 8 } else { best * scale };
            let noise = rng.as_mut().map_or(0, |r| r.i64(0..NOISE));
            weights[i * m + j] = w + noise;
            best_rot[i * m + j] = br;
        }
    }
    let to_col = max_assignment(m, weights);
    let mut changes = Vec::with_capacity(m);
    for (i, &j) in to_col.iter().enumerate() {
        let (from, to) = (cells[i], cells[j]);
        let t = state.tile[from as usize];
        let r = best_rot[i * m + j];
        if from != to || r != state.rot[from as usize] {
            changes.push(Change { cell: to, tile: t, rot: r });
        }
    }
    let delta = state.apply(model, &changes);
    debug_assert!(forced || delta >= 0, "assignment lowered the score by {}", -delta);
    (changes, delta)
}

/// [`reassign`] on a set of non-adjacent cells of any classes: one
/// assignment per class (`must_move`: see [`AssignParams::must_move`]).
/// Returns the changes and the total score change.
pub fn reassign_groups(
    model: &Model,
    state: &mut State,
    cells: &[u32],
    forbidden: &dyn Fn(u32, u32) -> bool,
    must_move: &dyn Fn(u32) -> bool,
    mut rng: Option<&mut crate::search::Rng>,
) -> (Vec<Change>, i32) {
    let mut by_group: Vec<Vec<u32>> = vec![Vec::new(); model.movable.len()];
    for &c in cells {
        by_group[model.group(c)].push(c);
    }
    let mut all = Vec::new();
    let mut delta = 0;
    for g in by_group.iter().filter(|g| !g.is_empty()) {
        let (ch, d) = reassign(model, state, g, AssignParams { forbidden, must_move, rng: rng.as_deref_mut() });
        all.extend(ch);
        delta += d;
    }
    (all, delta)
}

/// BW: alternately re-place every movable cell of one checkerboard colour,
/// then of the other, until a full round gains nothing. Returns the gain.
pub fn checkerboard(model: &Model, state: &mut State, mut rng: Option<&mut crate::search::Rng>) -> i32 {
    let colour_cells = |parity: usize| -> Vec<u32> {
        model
            .movable
            .iter()
            .flatten()
            .copied()
            .filter(|&c| {
                let (r, col) = (c as usize / model.cols, c as usize % model.cols);
                (r + col) % 2 == parity
            })
            .collect()
    };
    let sets = [colour_cells(0), colour_cells(1)];
    let never = |_: u32, _: u32| false;
    let mut total = 0;
    loop {
        let mut round = 0;
        for set in &sets {
            round += reassign_groups(model, state, set, &never, &|_| false, rng.as_deref_mut()).1;
        }
        total += round;
        if round == 0 {
            return total;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::construct;
    use crate::edgematch::local::tests::meta;

    #[test]
    fn assignment_never_lowers_the_score_and_keeps_the_board_valid() {
        let p = meta("brendan_set2/pieces_08x08.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(7);
        let mut state = construct::random(&model, &mut rng);
        let never = |_: u32, _: u32| false;
        for it in 0..300 {
            // A random set of non-adjacent cells.
            let mut cells: Vec<u32> = Vec::new();
            for _ in 0..20 {
                let c = rng.u32(0..64);
                if !cells.iter().any(|&x| x == c || model.adjacent(x, c)) {
                    cells.push(c);
                }
            }
            let before = state.score;
            let use_rng = it % 2 == 0;
            let (_, d) = reassign_groups(&model, &mut state, &cells, &never, &|_| false, use_rng.then_some(&mut rng));
            assert!(d >= 0);
            assert_eq!(state.score as i32, before as i32 + d);
            state.valid(&model).unwrap();
            state.to_board(&model).check(&p).unwrap();
        }
        let before = state.score;
        let gain = checkerboard(&model, &mut state, Some(&mut rng));
        assert!(gain >= 0);
        assert_eq!(state.score as i32, before as i32 + gain);
        state.valid(&model).unwrap();
    }

    #[test]
    fn tabu_arcs_are_not_used() {
        let p = meta("brendan_set2/pieces_06x06.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(3);
        let mut state = construct::random(&model, &mut rng);
        let inner: Vec<u32> = model.movable[model.group(14)].iter().copied().filter(|&c| c % 2 == 0).collect();
        let cells: Vec<u32> = inner.into_iter().filter(|&c| (c / 6 + c % 6) % 2 == 0).collect();
        let all = |a: u32, b: u32| a != b;
        let tiles_before = state.tile.clone();
        let (changes, d) = reassign_groups(&model, &mut state, &cells, &all, &|_| false, Some(&mut rng));
        assert!(d >= 0);
        for ch in changes {
            // Only rotations in place are allowed.
            assert_eq!(tiles_before[ch.cell as usize], ch.tile);
            assert!(cells.contains(&ch.cell));
        }
    }
}
