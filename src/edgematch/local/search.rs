//! The metaheuristics: the tabu VLNS of Schaus & Deville (their
//! Algorithm 1) and the multi-neighbourhood cycle of Salassa et al.

use super::assign::{checkerboard, reassign_groups};
use super::model::{Model, NONE};
use super::region::{border_cells, rectangle, resolve, resolve_with, ResolveLimits};
use super::state::State;
use super::swap::{descend, late_acceptance, perturb};
use super::{Move, Worker};

/// Picks up to `k` pairwise non-adjacent movable cells that are not tabu
/// (`tabu_until[c] > iteration`), preferring badly matched ones: a
/// uniformly drawn cell with `b` unmatched sides is kept with probability
/// `(1 + bias * b) / (1 + 4 * bias)` (the probabilistic selection of
/// Wauters et al.).
#[allow(clippy::too_many_arguments, reason = "scratch buffers passed in to avoid allocation")]
pub fn select_cells(
    model: &Model,
    state: &State,
    k: usize,
    bias: u32,
    tabu_until: Option<&[u64]>,
    iteration: u64,
    rng: &mut crate::search::Rng,
    mark: &mut [u64],
    stamp: u64,
) -> Vec<u32> {
    let n = model.n() as u32;
    let wmax = 1 + 4 * bias;
    let mut out = Vec::with_capacity(k);
    for _ in 0..30 * k {
        if out.len() >= k {
            break;
        }
        let c = rng.u32(0..n);
        if model.is_clued(c) || tabu_until.is_some_and(|t| t[c as usize] > iteration) || mark[c as usize] == stamp {
            continue;
        }
        if rng.u32(0..wmax) > bias * state.bad(model, c) {
            continue;
        }
        if model.nbr[c as usize].iter().any(|&o| o != NONE && mark[o as usize] == stamp) {
            continue;
        }
        mark[c as usize] = stamp;
        out.push(c);
    }
    out
}

/// Tabu lists and selection scratch for TA moves.
pub struct TabuTa {
    /// Iteration until which a cell may not be selected.
    cell_until: Vec<u64>,
    /// Iteration until which a tile may not move from cell `a` to cell `b`
    /// (`pair_until[a * n + b]`).
    pair_until: Vec<u64>,
    mark: Vec<u64>,
    stamp: u64,
    n: usize,
}

impl TabuTa {
    /// Empty lists for `model`.
    pub fn new(model: &Model) -> TabuTa {
        let n = model.n();
        TabuTa { cell_until: vec![0; n], pair_until: vec![0; n * n], mark: vec![0; n], stamp: 0, n }
    }

    /// One TA move at iteration `it`, with tabu tenures drawn from `w`'s
    /// parameters (`tabu == false`: plain probabilistic TA). The tiles of
    /// the first `force` selected cells must leave their cells (a forced
    /// move: the best re-placement that moves them, even if it lowers the
    /// score). Returns the score change (never negative when `force == 0`).
    pub fn step(&mut self, w: &mut Worker, state: &mut State, it: u64, tabu: bool, force: usize) -> i32 {
        let p = w.params;
        self.stamp += 1;
        let cell_until = tabu.then_some(&self.cell_until[..]);
        // TA.K: for the tabu search a sixteenth of the board, at least 8
        // (the best K grows with the board: docs/tried/local.md, "Tabu VLNS");
        // 16 for the multi-neighbourhood cycle as published.
        let k = if p.ta_cells > 0 {
            p.ta_cells
        } else if tabu {
            (w.model.n() / 16).max(8)
        } else {
            16
        };
        let cells = select_cells(w.model, state, k, p.bias, cell_until, it, &mut w.rng, &mut self.mark, self.stamp);
        let before: Vec<u32> = cells.iter().map(|&c| state.tile[c as usize]).collect();
        let n = self.n;
        let pair_until = &self.pair_until;
        let forbidden = |a: u32, b: u32| tabu && pair_until[a as usize * n + b as usize] > it;
        let forced = &cells[..force.min(cells.len())];
        let must_move = |c: u32| forced.contains(&c);
        let (changes, delta) = reassign_groups(w.model, state, &cells, &forbidden, &must_move, Some(&mut w.rng));
        if tabu {
            for &c in &cells {
                self.cell_until[c as usize] = it + w.rng.u64(p.tabu_cell.0..=p.tabu_cell.1);
            }
            for ch in &changes {
                let from = cells[before.iter().position(|&t| t == ch.tile).expect("moved tile came from the set")];
                if from != ch.cell {
                    // The tile may not go back from its new cell to its old one.
                    self.pair_until[ch.cell as usize * n + from as usize] =
                        it + w.rng.u64(p.tabu_pair.0..=p.tabu_pair.1);
                }
            }
        }
        delta
    }
}

/// The other neighbourhoods of the Salassa et al. cycle, each to its local
/// optimum: BO, BW, TSR, then `regions` RO re-solves. Returns the gain.
pub fn polish(w: &mut Worker, state: &mut State, regions: usize) -> i32 {
    let before = state.score as i32;
    let p = w.params;
    let limits = ResolveLimits { max_holes: p.max_holes, nodes_per_try: p.resolve_nodes };
    // BO: the border with the inner part fixed.
    w.timed(Move::Bo, state, |w, s| {
        let border = border_cells(w.model);
        let mut nodes = 0;
        resolve(w.model, s, &border, limits, &mut w.rng, &mut nodes);
    });
    // BW until no gain, then TSR to a local optimum.
    w.timed(Move::Bw, state, |w, s| {
        checkerboard(w.model, s, Some(&mut w.rng));
    });
    w.timed(Move::Tsr, state, |w, s| {
        descend(w.model, s, &mut w.rng);
    });
    // RO: random rectangles, biased towards badly matched cells.
    let (h, wd) = (p.region.0.min(w.model.rows), p.region.1.min(w.model.cols));
    for _ in 0..regions {
        if w.should_stop() {
            break;
        }
        w.timed(Move::Ro, state, |w, s| {
            let (r0, c0) = region_around_bad(w.model, s, h, wd, &mut w.rng);
            let cells = rectangle(w.model, r0, c0, h, wd);
            let mut nodes = 0;
            resolve(w.model, s, &cells, limits, &mut w.rng, &mut nodes);
        });
    }
    state.score as i32 - before
}

/// Top-left corner of an `h x w` rectangle containing a random badly
/// matched cell (any cell if all match).
fn region_around_bad(model: &Model, state: &State, h: usize, w: usize, rng: &mut crate::search::Rng) -> (usize, usize) {
    let bad: Vec<u32> = (0..model.n() as u32).filter(|&c| state.bad(model, c) > 0).collect();
    let (r, c) = if bad.is_empty() {
        (rng.usize(0..model.rows), rng.usize(0..model.cols))
    } else {
        let x = bad[rng.usize(0..bad.len())] as usize;
        (x / model.cols, x % model.cols)
    };
    let r0 = r.saturating_sub(rng.usize(0..h)).min(model.rows - h);
    let c0 = c.saturating_sub(rng.usize(0..w)).min(model.cols - w);
    (r0, c0)
}

/// Algorithm 1 of Schaus & Deville: TA moves with tabu cells and tabu
/// reverse moves (`force` cells per move must change tile, so the current
/// board can drift downhill away from the best); a plateau (no improvement
/// of the current board for `plateau` iterations) triggers the polish cycle
/// (if enabled) and then a diversification by random swaps (or forced TA
/// moves with `kick`), stronger by
/// `perturb_grow` swaps for each consecutive plateau without a new best;
/// after `intensify_after` such plateaus the best board is restored, and
/// after `restart_after` a fresh start board replaces the current one.
pub fn tabu(w: &mut Worker, start: State) {
    let mut cur = start;
    let mut best = cur.clone();
    let mut ta = TabuTa::new(w.model);
    let mut level = cur.score;
    let mut since = 0u64;
    let mut fails = 0u32;
    let mut stale = 0u32;
    // Long enough for the tabu walk to drift along the plateaus: better
    // than half as long on META 10x10 and Eternity II (docs/tried/local.md,
    // "Tabu VLNS").
    let plateau = if w.params.plateau > 0 { w.params.plateau } else { (6 * w.model.n() as u64).max(1500) };
    loop {
        w.iterations += 1;
        let it = w.iterations;
        if it & 15 == 0 && w.should_stop() {
            break;
        }
        let d = ta.step(w, &mut cur, it, true, w.params.force);
        w.moves.ta.calls += 1;
        w.moves.ta.gain += d as i64;
        w.moves.ta.improving += (d > 0) as u64;
        if cur.score > best.score {
            best.clone_from(&cur);
            w.offer(&best);
            fails = 0;
            stale = 0;
        }
        if cur.score > level {
            level = cur.score;
            since = 0;
            continue;
        }
        since += 1;
        if since < plateau {
            continue;
        }
        if w.params.polish {
            polish(w, &mut cur, w.params.regions_per_cycle);
            if cur.score > best.score {
                best.clone_from(&cur);
                w.offer(&best);
                fails = 0;
                stale = 0;
                level = cur.score;
                since = 0;
                continue;
            }
        }
        fails += 1;
        stale += 1;
        let best_before = best.score;
        if w.params.restart_after > 0 && stale >= w.params.restart_after {
            cur = super::build_start(w, w.start_kind());
            fails = 0;
            stale = 0;
        } else if w.params.accept > 0 {
            // Iterated local search, "better or within T": the current
            // local optimum is kept when close enough to the best.
            if cur.score + w.params.accept < best.score {
                cur.clone_from(&best);
            }
            diversify(w, &mut cur, &mut best, &mut ta, fails);
        } else if fails >= w.params.intensify_after {
            cur.clone_from(&best);
            fails = 0;
        } else {
            diversify(w, &mut cur, &mut best, &mut ta, fails);
        }
        if best.score > best_before {
            // The late-acceptance walk passed a new best.
            w.offer(&best);
            fails = 0;
            stale = 0;
        }
        level = cur.score;
        since = 0;
    }
}

/// The diversification of `tabu` after its `fails`-th plateau without a
/// new best: RO regions rebuilt even when worse (`ro_kick`), a
/// late-acceptance swap walk (`lahc`, which may raise `best`), forced TA
/// moves (`kick`) or random swaps.
fn diversify(w: &mut Worker, cur: &mut State, best: &mut State, ta: &mut TabuTa, fails: u32) {
    let p = w.params;
    if p.ro_kick > 0 {
        let limits = ResolveLimits { max_holes: p.max_holes, nodes_per_try: p.resolve_nodes };
        let (h, wd) = (p.region.0.min(w.model.rows), p.region.1.min(w.model.cols));
        for _ in 0..p.ro_kick {
            let (r0, c0) = region_around_bad(w.model, cur, h, wd, &mut w.rng);
            let cells = rectangle(w.model, r0, c0, h, wd);
            let mut nodes = 0;
            resolve_with(w.model, cur, &cells, limits, &mut w.rng, &mut nodes, true);
        }
    } else if p.lahc > 0 {
        w.timed(Move::Tsr, cur, |w, s| {
            late_acceptance(w.model, s, best, p.lahc_moves, p.lahc, p.lahc_slack, &mut w.rng);
        });
    } else if p.kick {
        // Forced TA moves: each takes the best re-placement that moves one
        // tile out of its cell.
        let strength = p.perturb_moves + p.perturb_grow * (fails as usize).saturating_sub(1);
        for _ in 0..strength {
            w.iterations += 1;
            let d = ta.step(w, cur, w.iterations, true, 1);
            w.moves.ta.calls += 1;
            w.moves.ta.gain += d as i64;
        }
    } else {
        let strength = p.perturb_moves + p.perturb_grow * (fails as usize).saturating_sub(1);
        perturb(w.model, cur, strength, &mut w.rng);
    }
}

/// The multi-neighbourhood local search of Salassa et al.: TA (plain,
/// `ta_iterations` moves), BO, BW, TSR, RO (`regions_per_cycle` regions),
/// repeated while a cycle gains; when it does not, random swaps perturb
/// the board (an iterated local search), and after `intensify_after` cycles
/// without a new best the best board is restored.
pub fn multi(w: &mut Worker, start: State) {
    let mut cur = start;
    let mut best = cur.clone();
    let mut ta = TabuTa::new(w.model);
    let mut fails = 0u32;
    while !w.should_stop() {
        let before = cur.score;
        for _ in 0..w.params.ta_iterations {
            w.iterations += 1;
            let it = w.iterations;
            if it & 15 == 0 && w.should_stop() {
                break;
            }
            let d = ta.step(w, &mut cur, it, false, 0);
            w.moves.ta.calls += 1;
            w.moves.ta.gain += d as i64;
            w.moves.ta.improving += (d > 0) as u64;
        }
        w.offer(&cur);
        polish(w, &mut cur, w.params.regions_per_cycle);
        if cur.score > best.score {
            best.clone_from(&cur);
            w.offer(&best);
            fails = 0;
        }
        if cur.score > before {
            continue;
        }
        fails += 1;
        if fails >= w.params.intensify_after {
            cur.clone_from(&best);
            fails = 0;
        } else {
            perturb(w.model, &mut cur, w.params.perturb_moves, &mut w.rng);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::{construct, evolution, region, swap, tests::meta};
    use crate::edgematch::Clue;

    /// Every kind of move, in a random sequence, on a puzzle with a clue:
    /// the incremental score always equals a full rescoring and the board
    /// stays valid (border, each tile once, clue in place).
    #[test]
    fn random_move_sequences_keep_score_and_board_valid() {
        let mut p = meta("brendan_set2/pieces_08x08.txt");
        let inner = (0..64).find(|&t| p.tiles[t].grey_sides() == 0).unwrap();
        p.clues.push(Clue { tile: inner, row: 3, col: 4, rotation: 1 });
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(13);
        let mut s = construct::scan(&model, &mut rng);
        let mut ta = TabuTa::new(&model);
        let never = |_: u32, _: u32| false;
        let limits = ResolveLimits { max_holes: 2, nodes_per_try: 2000 };
        for step in 0..400u64 {
            let before = s.score as i64;
            let reported: i64 = match step % 11 {
                0 => {
                    let cells = select_cells(&model, &s, 12, 4, None, step, &mut rng, &mut ta.mark, step + 1);
                    let must = |c: u32| step % 2 == 0 && c == cells[0];
                    reassign_groups(&model, &mut s, &cells, &never, &must, Some(&mut rng)).1 as i64
                }
                1 => checkerboard(&model, &mut s, Some(&mut rng)) as i64,
                2 => swap::perturb(&model, &mut s, 3, &mut rng) as i64,
                3 => descend(&model, &mut s, &mut rng) as i64,
                4 => {
                    let cells = region::rectangle(&model, rng.usize(0..5), rng.usize(0..5), 4, 4);
                    let mut nodes = 0;
                    resolve(&model, &mut s, &cells, limits, &mut rng, &mut nodes).unwrap_or(0) as i64
                }
                5 => {
                    let mut nodes = 0;
                    resolve(&model, &mut s, &border_cells(&model), limits, &mut rng, &mut nodes).unwrap_or(0) as i64
                }
                6 => {
                    evolution::region_exchange(&model, &mut s, &mut rng);
                    s.score as i64 - before
                }
                7 => {
                    evolution::region_rotation(&model, &mut s, &mut rng);
                    s.score as i64 - before
                }
                9 => {
                    let mut best = s.clone();
                    let d = swap::late_acceptance(&model, &mut s, &mut best, 200, 10, 3, &mut rng) as i64;
                    assert!(best.score >= s.score && best.score as i64 >= before);
                    assert_eq!(best.to_board(&model).score(&p).matched, best.score as usize);
                    d
                }
                10 => {
                    let cells = region::rectangle(&model, rng.usize(0..5), rng.usize(0..5), 4, 4);
                    let mut nodes = 0;
                    region::resolve_with(&model, &mut s, &cells, limits, &mut rng, &mut nodes, true).unwrap_or(0) as i64
                }
                _ => {
                    let g = &model.movable[model.group(9)];
                    let (a, b) = (g[rng.usize(0..g.len())], g[rng.usize(0..g.len())]);
                    if a == b {
                        0
                    } else {
                        let (d, ra, rb) = swap::best_swap(&model, &s, a, b);
                        assert_eq!(swap::apply_swap(&model, &mut s, a, b, ra, rb), d);
                        d as i64
                    }
                }
            };
            assert_eq!(s.score as i64, before + reported, "step {step}");
            s.valid(&model).unwrap();
            s.to_board(&model).check(&p).unwrap();
            assert_eq!(s.to_board(&model).score(&p).matched, s.score as usize);
        }
    }
}
