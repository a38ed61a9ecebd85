//! The evolutionary baselines of Muñoz et al.: a genetic algorithm with
//! region crossover and region exchange / rotation mutation (their GA_1
//! setting: 90% crossover, 10% mutation, elitism 1, tournament 3) and the
//! artificial immune evolutionary algorithm (clone the best of a
//! tournament, mutate it more the worse it is, replace the worst of a
//! tournament). Individuals are full boards; the fitness is the score.
//!
//! Adaptations to keep every board valid: a region move only exchanges
//! tiles between cells of one class (corner, edge, inner) and turns a
//! border tile to the rotation that fits its new cell; clued cells never
//! change.

use super::model::Model;
use super::state::{Change, State};
use super::{build_start, Worker};

/// A random `h x w` rectangle (sides drawn in `lo..=hi`, clipped to the
/// board): `(r0, c0, h, w)`.
fn random_region(
    model: &Model,
    lo: usize,
    hi: usize,
    square: bool,
    rng: &mut crate::search::Rng,
) -> (usize, usize, usize, usize) {
    let h = rng.usize(lo..=hi).min(model.rows);
    let w = if square { h.min(model.cols) } else { rng.usize(lo..=hi).min(model.cols) };
    let h = if square { w } else { h };
    (rng.usize(0..=model.rows - h), rng.usize(0..=model.cols - w), h, w)
}

/// The rotation of tile `t` for `cell`: `keep` if it fits, else a random
/// fitting one.
fn fitting_rotation(model: &Model, t: u32, cell: u32, keep: u8, rng: &mut crate::search::Rng) -> u8 {
    if model.fits(t, keep, cell) {
        return keep;
    }
    let rots: Vec<u8> = model.rotations(t, cell).collect();
    rots[rng.usize(0..rots.len())]
}

/// Region crossover (Muñoz et al., Algorithm 1): the child is parent `a`
/// with a random region copied from parent `b`; tiles of `b`'s region are
/// taken out of the child where they were, and the child's displaced tiles
/// fill the emptied cells at random (within their class).
pub fn crossover(model: &Model, a: &State, b: &State, rng: &mut crate::search::Rng) -> State {
    let (r0, c0, h, w) = random_region(model, 2, 8, false, rng);
    let n = model.n();
    let mut tile: Vec<Option<u32>> = a.tile.iter().map(|&t| Some(t)).collect();
    let mut rot = a.rot.clone();
    let mut in_region = vec![false; n];
    for r in r0..r0 + h {
        for c in c0..c0 + w {
            in_region[r * model.cols + c] = true;
        }
    }
    // Tiles b puts in the region leave the cells where a has them.
    let mut from_b = vec![false; n];
    for x in (0..n).filter(|&x| in_region[x]) {
        from_b[b.tile[x] as usize] = true;
    }
    let mut displaced: Vec<u32> = Vec::new();
    for x in 0..n {
        let t = a.tile[x];
        if in_region[x] && !from_b[t as usize] {
            displaced.push(t);
        }
        if !in_region[x] && from_b[t as usize] {
            tile[x] = None;
        }
    }
    for x in (0..n).filter(|&x| in_region[x]) {
        tile[x] = Some(b.tile[x]);
        rot[x] = b.rot[x];
    }
    rng.shuffle(&mut displaced);
    for x in 0..n {
        if tile[x].is_some() {
            continue;
        }
        let k = displaced
            .iter()
            .position(|&t| model.tile_class[t as usize] == model.cell_class[x])
            .expect("displaced tiles match the emptied cells class by class");
        let t = displaced.swap_remove(k);
        tile[x] = Some(t);
        rot[x] = fitting_rotation(model, t, x as u32, rng.u8(0..4), rng);
    }
    State::from_parts(model, tile.into_iter().map(|t| t.expect("filled")).collect(), rot)
}

/// Region exchange mutation: two non-overlapping regions of one size swap
/// their contents cell by cell (cells of different classes keep theirs).
pub fn region_exchange(model: &Model, s: &mut State, rng: &mut crate::search::Rng) {
    for _ in 0..20 {
        let (r1, c1, h, w) = random_region(model, 1, 10, false, rng);
        let (r2, c2) = (rng.usize(0..=model.rows - h), rng.usize(0..=model.cols - w));
        let overlap = r1 < r2 + h && r2 < r1 + h && c1 < c2 + w && c2 < c1 + w;
        if overlap {
            continue;
        }
        let mut changes = Vec::new();
        for i in 0..h {
            for j in 0..w {
                let x = ((r1 + i) * model.cols + c1 + j) as u32;
                let y = ((r2 + i) * model.cols + c2 + j) as u32;
                if model.is_clued(x)
                    || model.is_clued(y)
                    || model.cell_class[x as usize] != model.cell_class[y as usize]
                {
                    continue;
                }
                let (tx, ty) = (s.tile[x as usize], s.tile[y as usize]);
                changes.push(Change { cell: y, tile: tx, rot: fitting_rotation(model, tx, y, s.rot[x as usize], rng) });
                changes.push(Change { cell: x, tile: ty, rot: fitting_rotation(model, ty, x, s.rot[y as usize], rng) });
            }
        }
        s.apply(model, &changes);
        return;
    }
}

/// Region rotation mutation: a square region turns a quarter turn
/// clockwise, its tiles with it (an orbit of four cells turns only when
/// its cells are unclued and of one class).
pub fn region_rotation(model: &Model, s: &mut State, rng: &mut crate::search::Rng) {
    let (r0, c0, k, _) = random_region(model, 1, 10, true, rng);
    let mut changes = Vec::new();
    let cell = |i: usize, j: usize| ((r0 + i) * model.cols + c0 + j) as u32;
    // Orbits of the quarter turn (i, j) -> (j, k-1-i): one per cell of
    // the top-left quadrant, plus the centre of an odd square (a rotation
    // in place).
    let mut starts: Vec<(usize, usize)> = (0..k / 2).flat_map(|i| (0..k.div_ceil(2)).map(move |j| (i, j))).collect();
    if k % 2 == 1 {
        starts.push((k / 2, k / 2));
    }
    for (i, j) in starts {
        {
            let mut orbit = vec![cell(i, j)];
            let (mut a, mut b) = (i, j);
            for _ in 0..3 {
                (a, b) = (b, k - 1 - a);
                let c = cell(a, b);
                if !orbit.contains(&c) {
                    orbit.push(c);
                }
            }
            let class = model.cell_class[orbit[0] as usize];
            if orbit.iter().any(|&c| model.is_clued(c) || model.cell_class[c as usize] != class) {
                continue;
            }
            for (m, &from) in orbit.iter().enumerate() {
                let to = orbit[(m + 1) % orbit.len()];
                let t = s.tile[from as usize];
                let r = fitting_rotation(model, t, to, (s.rot[from as usize] + 1) & 3, rng);
                changes.push(Change { cell: to, tile: t, rot: r });
            }
        }
    }
    s.apply(model, &changes);
}

/// One mutation, exchange or rotation with equal probability.
pub fn mutate(model: &Model, s: &mut State, rng: &mut crate::search::Rng) {
    if rng.bool() {
        region_exchange(model, s, rng);
    } else {
        region_rotation(model, s, rng);
    }
}

fn tournament(pop: &[State], size: usize, best: bool, rng: &mut crate::search::Rng) -> usize {
    let mut pick = rng.usize(0..pop.len());
    for _ in 1..size {
        let c = rng.usize(0..pop.len());
        if (best && pop[c].score > pop[pick].score) || (!best && pop[c].score < pop[pick].score) {
            pick = c;
        }
    }
    pick
}

fn initial_population(w: &mut Worker, start: State) -> Vec<State> {
    let size = w.params.population.max(2);
    let mut pop = vec![start];
    while pop.len() < size && !w.should_stop() {
        let s = build_start(w, w.start_kind());
        w.offer(&s);
        pop.push(s);
    }
    pop
}

/// The genetic algorithm (GA_1 of Muñoz et al.).
pub fn genetic(w: &mut Worker, start: State) {
    let mut pop = initial_population(w, start);
    let size = pop.len();
    let k = w.params.tournament;
    while !w.should_stop() {
        let elite = (0..size).max_by_key(|&i| pop[i].score).expect("non-empty");
        let mut next = Vec::with_capacity(size);
        next.push(pop[elite].clone());
        while next.len() < size {
            w.iterations += 1;
            let child = if w.rng.f64() < 0.9 {
                let a = tournament(&pop, k, true, &mut w.rng);
                let b = tournament(&pop, k, true, &mut w.rng);
                crossover(w.model, &pop[a], &pop[b], &mut w.rng)
            } else {
                let mut c = pop[tournament(&pop, k, true, &mut w.rng)].clone();
                mutate(w.model, &mut c, &mut w.rng);
                c
            };
            w.offer(&child);
            next.push(child);
            if w.iterations & 63 == 0 && w.should_stop() {
                return;
            }
        }
        pop = next;
    }
}

/// The artificial immune evolutionary algorithm (Muñoz et al.,
/// Algorithm 2): the clone of a tournament's best is mutated
/// `1 + 9 * (worst - its score) / (worst - best)` times and replaces a
/// tournament's worst.
pub fn immune(w: &mut Worker, start: State) {
    let mut pop = initial_population(w, start);
    let k = w.params.tournament;
    while !w.should_stop() {
        for _ in 0..64 {
            w.iterations += 1;
            let (lo, hi) = pop.iter().fold((u32::MAX, 0), |(lo, hi), s| (lo.min(s.score), hi.max(s.score)));
            let pick = tournament(&pop, k, true, &mut w.rng);
            let mut clone = pop[pick].clone();
            let range = if hi > lo { (hi - clone.score) as f64 / (hi - lo) as f64 } else { 1.0 };
            let times = 1 + (9.0 * range).round() as usize;
            for _ in 0..times {
                mutate(w.model, &mut clone, &mut w.rng);
            }
            w.offer(&clone);
            let out = tournament(&pop, k, false, &mut w.rng);
            pop[out] = clone;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::construct;
    use crate::edgematch::local::tests::meta;

    #[test]
    fn operators_keep_boards_valid() {
        let p = meta("brendan_set2/pieces_10x10.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(2);
        let mut a = construct::scan(&model, &mut rng);
        let b = construct::random(&model, &mut rng);
        for _ in 0..200 {
            let c = crossover(&model, &a, &b, &mut rng);
            c.valid(&model).unwrap();
            let before = a.score;
            region_exchange(&model, &mut a, &mut rng);
            a.valid(&model).unwrap();
            region_rotation(&model, &mut a, &mut rng);
            a.valid(&model).unwrap();
            assert_eq!(a.score, a.full_score(&model), "from {before}");
        }
    }
}
