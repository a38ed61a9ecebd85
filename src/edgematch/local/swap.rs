//! TSR: swap two tiles of one class, trying every fitting rotation of each
//! (a cell paired with itself is a rotation in place), and random
//! swap-and-rotate moves for diversification.

use super::model::Model;
use super::state::{Change, State};

/// The best rotations and score change for swapping cells `a` and `b`
/// (same class, `a != b`): `(delta, ra, rb)` where `a` gets `b`'s tile in
/// `ra` and `b` gets `a`'s in `rb`.
pub fn best_swap(model: &Model, state: &State, a: u32, b: u32) -> (i32, u8, u8) {
    let (ta, tb) = (state.tile[a as usize], state.tile[b as usize]);
    let mut best = (i32::MIN, 0, 0);
    if model.adjacent(a, b) {
        for ra in model.rotations(tb, a) {
            for rb in model.rotations(ta, b) {
                let d = state.swap_delta(model, a, b, ra, rb);
                if d > best.0 {
                    best = (d, ra, rb);
                }
            }
        }
        return best;
    }
    // Not adjacent: each side is independent.
    let old = state.fit(model, a, state.colors[a as usize]) + state.fit(model, b, state.colors[b as usize]);
    let (mut fa, mut ra) = (0, 0);
    for r in model.rotations(tb, a) {
        let f = state.fit(model, a, model.color(tb, r)) as i32 + 1;
        if f > fa {
            (fa, ra) = (f, r);
        }
    }
    let (mut fb, mut rb) = (0, 0);
    for r in model.rotations(ta, b) {
        let f = state.fit(model, b, model.color(ta, r)) as i32 + 1;
        if f > fb {
            (fb, rb) = (f, r);
        }
    }
    (fa - 1 + fb - 1 - old as i32, ra, rb)
}

/// The best rotation of the tile in `cell` and its score change.
pub fn best_rotation(model: &Model, state: &State, cell: u32) -> (i32, u8) {
    let t = state.tile[cell as usize];
    let now = state.fit(model, cell, state.colors[cell as usize]) as i32;
    let mut best = (0, state.rot[cell as usize]);
    for r in model.rotations(t, cell) {
        let d = state.fit(model, cell, model.color(t, r)) as i32 - now;
        if d > best.0 {
            best = (d, r);
        }
    }
    best
}

/// Swaps the tiles of `a` and `b` in the given rotations.
pub fn apply_swap(model: &Model, state: &mut State, a: u32, b: u32, ra: u8, rb: u8) -> i32 {
    let (ta, tb) = (state.tile[a as usize], state.tile[b as usize]);
    state.apply(model, &[Change { cell: a, tile: tb, rot: ra }, Change { cell: b, tile: ta, rot: rb }])
}

/// First-improvement descent over all swaps and rotations until no move
/// improves (a local optimum of TSR). Cells are scanned from a random
/// start. Returns the gain.
pub fn descend(model: &Model, state: &mut State, rng: &mut crate::search::Rng) -> i32 {
    let mut total = 0;
    loop {
        let mut improved = false;
        for cells in &model.movable {
            let m = cells.len();
            if m == 0 {
                continue;
            }
            let off = rng.usize(0..m);
            for i in 0..m {
                let a = cells[(i + off) % m];
                let (d, r) = best_rotation(model, state, a);
                if d > 0 {
                    let t = state.tile[a as usize];
                    total += state.apply(model, &[Change { cell: a, tile: t, rot: r }]);
                    improved = true;
                }
                for &b in cells.iter() {
                    if b == a {
                        continue;
                    }
                    let (d, ra, rb) = best_swap(model, state, a, b);
                    if d > 0 {
                        total += apply_swap(model, state, a, b, ra, rb);
                        improved = true;
                    }
                }
            }
        }
        if !improved {
            return total;
        }
    }
}

/// `count` random swap-and-rotate moves (any score change), for
/// diversification. Returns the score change.
pub fn perturb(model: &Model, state: &mut State, count: usize, rng: &mut crate::search::Rng) -> i32 {
    let mut total = 0;
    let groups: Vec<&Vec<u32>> = model.movable.iter().filter(|g| g.len() >= 2).collect();
    if groups.is_empty() {
        return 0;
    }
    let sizes: usize = groups.iter().map(|g| g.len()).sum();
    for _ in 0..count {
        // Pick a group in proportion to its size.
        let mut k = rng.usize(0..sizes);
        let g = groups.iter().find(|g| {
            if k < g.len() {
                true
            } else {
                k -= g.len();
                false
            }
        });
        let g = g.expect("k < sizes");
        let a = g[rng.usize(0..g.len())];
        let b = g[rng.usize(0..g.len())];
        if a == b {
            continue;
        }
        let ra: Vec<u8> = model.rotations(state.tile[b as usize], a).collect();
        let rb: Vec<u8> = model.rotations(state.tile[a as usize], b).collect();
        let (ra, rb) = (ra[rng.usize(0..ra.len())], rb[rng.usize(0..rb.len())]);
        total += apply_swap(model, state, a, b, ra, rb);
    }
    total
}

/// A late-acceptance walk (Burke & Bykov) of `moves` swap-and-rotate
/// moves: a random pair of one class (or one cell, a rotation in place)
/// in its best rotations, accepted when the new score is at least the
/// current one or the score `history` moves ago (at first: the start
/// score less `slack`), so the board can cross small valleys. `best` is replaced by the walk's board when
/// that scores higher. Returns the score change of `state`.
pub fn late_acceptance(
    model: &Model,
    state: &mut State,
    best: &mut State,
    moves: usize,
    history: usize,
    slack: u32,
    rng: &mut crate::search::Rng,
) -> i32 {
    let start = state.score as i32;
    let groups: Vec<&Vec<u32>> = model.movable.iter().filter(|g| !g.is_empty()).collect();
    if groups.is_empty() || history == 0 {
        return 0;
    }
    let sizes: usize = groups.iter().map(|g| g.len()).sum();
    let mut hist = vec![state.score.saturating_sub(slack); history];
    for step in 0..moves {
        let mut k = rng.usize(0..sizes);
        let g = groups
            .iter()
            .find(|g| {
                if k < g.len() {
                    true
                } else {
                    k -= g.len();
                    false
                }
            })
            .expect("k < sizes");
        let a = g[rng.usize(0..g.len())];
        let b = g[rng.usize(0..g.len())];
        let (d, ra, rb) = if a == b {
            let (d, r) = best_rotation(model, state, a);
            (d, r, r)
        } else {
            best_swap(model, state, a, b)
        };
        let new = state.score as i32 + d;
        let slot = step % history;
        if d >= 0 || new >= hist[slot] as i32 {
            if a == b {
                let t = state.tile[a as usize];
                state.apply(model, &[Change { cell: a, tile: t, rot: ra }]);
            } else {
                apply_swap(model, state, a, b, ra, rb);
            }
            if state.score > best.score {
                best.clone_from(state);
            }
        }
        hist[slot] = state.score;
    }
    state.score as i32 - start
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::construct;
    use crate::edgematch::local::tests::meta;

    #[test]
    fn swap_deltas_equal_full_rescoring() {
        let p = meta("brendan_set2/pieces_06x06.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(9);
        let mut state = construct::random(&model, &mut rng);
        for _ in 0..3000 {
            let g = &model.movable[rng.usize(0..model.movable.len())];
            let (a, b) = (g[rng.usize(0..g.len())], g[rng.usize(0..g.len())]);
            if a == b {
                continue;
            }
            let ra: Vec<u8> = model.rotations(state.tile[b as usize], a).collect();
            let rb: Vec<u8> = model.rotations(state.tile[a as usize], b).collect();
            let (ra, rb) = (ra[rng.usize(0..ra.len())], rb[rng.usize(0..rb.len())]);
            let predicted = state.swap_delta(&model, a, b, ra, rb);
            let before = state.score;
            let d = apply_swap(&model, &mut state, a, b, ra, rb);
            assert_eq!(d, predicted);
            assert_eq!(state.full_score(&model) as i32, before as i32 + d);
            state.valid(&model).unwrap();
            let (bd, bra, brb) = best_swap(&model, &state, a, b);
            assert_eq!(bd, state.swap_delta(&model, a, b, bra, brb));
        }
        let before = state.score;
        let gain = descend(&model, &mut state, &mut rng);
        assert_eq!(state.score, before + gain as u32);
        state.valid(&model).unwrap();
        // A local optimum: no swap or rotation improves.
        for g in &model.movable {
            for &a in g {
                assert!(best_rotation(&model, &state, a).0 <= 0);
                for &b in g {
                    if a != b {
                        assert!(best_swap(&model, &state, a, b).0 <= 0);
                    }
                }
            }
        }
        let before = state.score as i32;
        let d = perturb(&model, &mut state, 50, &mut rng);
        assert_eq!(state.score as i32, before + d);
        state.valid(&model).unwrap();
    }
}
