//! Tree search with breaks: the scan-row backtracker of the Eternity II
//! record solvers, allowed a budget of mismatched joins ("breaks").
//!
//! * Cells are filled in scan-row order, so a cell's west and north
//!   colours are known when it is reached. Candidate lists are precomputed
//!   per (border mask, west colour, north colour) — every (tile, rotation)
//!   showing grey exactly on the cell's border and those colours on W and
//!   N — and, for placements with breaks, per (border mask, west colour),
//!   (border mask, north colour) and border mask alone. A clued cell has
//!   its own lists holding only its clue; clue tiles are in no other list.
//! * A cell tries the exact matches first, then (if the schedule allows
//!   one more break) the tiles matching only its west or only its north
//!   neighbour, then (two more breaks) any tile.
//! * The break schedule: `limit[i]` is the most breaks allowed among the
//!   joins decided by the first `i + 1` cells: none before the fraction
//!   `from` of the board, then growing as `((i - start) / (n - start))^shape`
//!   up to the total budget at the last cell.
//! * Restarts every `restart_nodes` nodes, each with freshly shuffled
//!   candidate lists. Every complete board is a valid full board whose
//!   score is `joins - breaks`; after each new best the total budget becomes
//!   one less than its breaks, so the search only looks for better boards.
//!
//! The loop is iterative over preallocated arrays: nothing is allocated
//! while searching.

use super::assign::checkerboard;
use super::model::{Model, NONE};
use super::state::State;
use super::swap::descend;
use super::Worker;
use std::collections::HashMap;

/// One placement: a tile in a rotation and the dense colours it shows.
#[derive(Clone, Copy, Debug, Default)]
struct Cand {
    tile: u16,
    rot: u8,
    /// Dense colours N, E, S, W.
    col: [u8; 4],
}

/// The candidate tables of one puzzle.
///
/// Invariants: `start[k]..start[k + 1]` is the range in `cands` of list
/// `k`; list keys are `exact(m, w, n)`, `west(m, w)`, `north(m, n)`,
/// `any(m)` for a slot `m` (the cell's border mask, or `16 + k` for the
/// cell of clue `k`). Every candidate of a slot shows grey exactly on that
/// slot's border sides.
pub struct Tables {
    nc: usize,
    slots: usize,
    cands: Vec<Cand>,
    start: Vec<u32>,
    /// Slot of each cell.
    slot: Vec<u32>,
}

impl Tables {
    fn exact(&self, m: usize, w: usize, n: usize) -> usize {
        (m * self.nc + w) * self.nc + n
    }
    fn west(&self, m: usize, w: usize) -> usize {
        self.slots * self.nc * self.nc + m * self.nc + w
    }
    fn north(&self, m: usize, n: usize) -> usize {
        self.slots * self.nc * (self.nc + 1) + m * self.nc + n
    }
    fn any(&self, m: usize) -> usize {
        self.slots * self.nc * (self.nc + 2) + m
    }

    /// Builds the tables; `None` when the puzzle has more than 256 colours
    /// (grey included) or 65536 tiles ([`optimize`](super::optimize) then
    /// refuses the method).
    pub fn new(model: &Model) -> Option<Tables> {
        let n = model.n();
        if n > 1 << 16 {
            return None;
        }
        let mut dense: HashMap<u16, u8> = HashMap::from([(crate::edgematch::GREY, 0)]);
        for c in &model.colors {
            for &k in c {
                if !dense.contains_key(&k) {
                    if dense.len() > 255 {
                        return None;
                    }
                    let next = dense.len() as u8;
                    dense.insert(k, next);
                }
            }
        }
        let nc = dense.len();
        let clue_cells: Vec<usize> = (0..n).filter(|&c| model.clue[c].is_some()).collect();
        let slots = 16 + clue_cells.len();
        let mut slot: Vec<u32> = (0..n).map(|c| model.border_mask[c] as u32).collect();
        for (k, &c) in clue_cells.iter().enumerate() {
            slot[c] = (16 + k) as u32;
        }
        let mut t = Tables { nc, slots, cands: Vec::new(), start: Vec::new(), slot };
        let keys = slots * nc * (nc + 2) + slots;
        // (slot, tile, rotation) of every distinct look.
        let mut looks: Vec<(usize, Cand)> = Vec::new();
        let clued_tile: Vec<bool> = {
            let mut v = vec![false; n];
            model.clue.iter().flatten().for_each(|&(t, _)| v[t as usize] = true);
            v
        };
        for tile in 0..n as u32 {
            if clued_tile[tile as usize] {
                continue;
            }
            let mut seen: Vec<[u16; 4]> = Vec::with_capacity(4);
            for r in 0..4u8 {
                let look = model.color(tile, r);
                if seen.contains(&look) {
                    continue;
                }
                seen.push(look);
                let m = model.grey_mask[4 * tile as usize + r as usize] as usize;
                looks.push((m, Cand { tile: tile as u16, rot: r, col: look.map(|k| dense[&k]) }));
            }
        }
        for (k, &c) in clue_cells.iter().enumerate() {
            let (tile, r) = model.clue[c].expect("clued");
            let look = model.color(tile, r);
            looks.push((16 + k, Cand { tile: tile as u16, rot: r, col: look.map(|k| dense[&k]) }));
        }
        let mut lists: Vec<Vec<Cand>> = vec![Vec::new(); keys];
        for &(m, c) in &looks {
            let (w, no) = (c.col[3] as usize, c.col[0] as usize);
            lists[t.exact(m, w, no)].push(c);
            lists[t.west(m, w)].push(c);
            lists[t.north(m, no)].push(c);
            lists[t.any(m)].push(c);
        }
        t.start.push(0);
        for l in lists {
            t.cands.extend(l);
            t.start.push(t.cands.len() as u32);
        }
        Some(t)
    }

    /// Shuffles every list in place.
    fn shuffle(&mut self, rng: &mut crate::search::Rng) {
        for k in 0..self.start.len() - 1 {
            let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
            rng.shuffle(&mut self.cands[a..b]);
        }
    }
}

/// The break schedule: most breaks allowed after each cell, for a total
/// budget `total`.
pub fn schedule(n: usize, total: u32, from: f64, shape: f64) -> Vec<u32> {
    let first = ((from.clamp(0.0, 1.0) * n as f64) as usize).min(n.saturating_sub(1));
    (0..n)
        .map(|i| {
            if i + 1 == n {
                total
            } else if i < first {
                0
            } else {
                let f = (i + 1 - first) as f64 / (n - first) as f64;
                (total as f64 * f.powf(shape)).floor() as u32
            }
        })
        .collect()
}

/// Breaks added by a placement in each phase.
const COST: [u32; 4] = [0, 1, 1, 2];

/// How often (in nodes) the clock is checked.
const POLL_MASK: u64 = 0xffff;

/// Per-depth search state.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Phase: 0 exact, 1 break on north, 2 break on west, 3 both.
    phase: u8,
    pos: u32,
    end: u32,
    /// Breaks among the joins decided by the cells before this one.
    breaks: u32,
    /// The candidate placed here (index into `cands`).
    placed: u32,
    w: u8,
    n: u8,
}

/// What a breaks search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The best complete board, if any.
    pub best: Option<State>,
    /// Nodes (placements) visited.
    pub nodes: u64,
    /// Restarts done.
    pub restarts: u64,
}

/// The search's knobs (from [`Params`](super::Params)).
#[derive(Clone, Copy, Debug)]
pub struct Knobs {
    /// Fraction of the board placed without breaks.
    pub from: f64,
    /// Exponent of the schedule's growth.
    pub shape: f64,
    /// Initial total budget (0: a sixth of the joins).
    pub budget: u32,
    /// Nodes per restart.
    pub restart_nodes: u64,
    /// Polish every complete board by BW and a TSR descent.
    pub polish: bool,
    /// Complete boards looked for: up to `slack` more breaks than one
    /// better than the best (useful with `polish`).
    pub slack: u32,
}

/// Runs the breaks search until `stop` says so (checked every 64 K nodes)
/// or a perfect board is found; every new best board goes to `w.offer`.
/// `cpu_limit`: stop after this many CPU seconds of the worker.
pub fn search(w: &mut Worker, knobs: Knobs, cpu_limit: f64) -> Found {
    let model = w.model;
    let n = model.n();
    let Some(mut t) = Tables::new(model) else {
        return Found { best: None, nodes: 0, restarts: 0 };
    };
    let joins = model.joins as u32;
    let mut total = if knobs.budget > 0 { knobs.budget } else { (joins / 6).max(1) };
    let mut flat = false;
    let plan = |total: u32, flat: bool| if flat { vec![total; n] } else { schedule(n, total, knobs.from, knobs.shape) };
    let mut limit = plan(total, flat);
    let mut used = vec![false; n];
    let mut frames = vec![Frame::default(); n + 1];
    // West and north neighbours of each cell (NONE on the border).
    let west: Vec<u32> = (0..n).map(|c| model.nbr[c][3]).collect();
    let north: Vec<u32> = (0..n).map(|c| model.nbr[c][0]).collect();
    let mut best: Option<State> = None;
    let mut best_breaks = u32::MAX;
    let mut nodes: u64 = 0;
    let mut boards: u64 = 0;
    let mut restarts: u64 = 0;
    let mut stop = false;
    'restart: while !stop {
        restarts += 1;
        if flat {
            limit = plan(total, flat);
        }
        t.shuffle(&mut w.rng);
        used.iter_mut().for_each(|u| *u = false);
        let mut restart_nodes = 0u64;
        let mut d = 0usize;
        let mut entering = true;
        loop {
            if entering {
                if d == n {
                    // A complete board.
                    let breaks = frames[n].breaks;
                    boards += 1;
                    if breaks < best_breaks || knobs.polish {
                        let tile = (0..n).map(|c| t.cands[frames[c].placed as usize].tile as u32).collect();
                        let rot = (0..n).map(|c| t.cands[frames[c].placed as usize].rot).collect();
                        let mut s = State::from_parts(model, tile, rot);
                        debug_assert_eq!(s.score, joins - breaks);
                        if knobs.polish {
                            checkerboard(model, &mut s, Some(&mut w.rng));
                            descend(model, &mut s, &mut w.rng);
                        }
                        if joins - s.score < best_breaks {
                            best_breaks = joins - s.score;
                            w.offer(&s);
                            best = Some(s);
                            if best_breaks == 0 {
                                break 'restart;
                            }
                            total = (best_breaks - 1 + knobs.slack).min(joins);
                            limit = plan(total, flat);
                        }
                    }
                    d -= 1;
                    entering = false;
                    continue;
                }
                let wc = west[d];
                let nc = north[d];
                let wcol = if wc == NONE { 0 } else { t.cands[frames[wc as usize].placed as usize].col[1] };
                let ncol = if nc == NONE { 0 } else { t.cands[frames[nc as usize].placed as usize].col[2] };
                let f = &mut frames[d];
                f.w = wcol;
                f.n = ncol;
                f.phase = 0;
                let k = t.exact(t.slot[d] as usize, f.w as usize, f.n as usize);
                f.pos = t.start[k];
                f.end = t.start[k + 1];
            } else {
                used[t.cands[frames[d].placed as usize].tile as usize] = false;
            }
            // Find the next candidate of cell d.
            let f = frames[d];
            let allowed = limit[d] as i64 - f.breaks as i64;
            let m = t.slot[d] as usize;
            let (inner_w, inner_n) = (west[d] != NONE, north[d] != NONE);
            let (mut phase, mut pos, mut end) = (f.phase, f.pos, f.end);
            let mut chosen = None;
            if allowed >= 0 {
                'find: loop {
                    if COST[phase as usize] as i64 <= allowed {
                        while pos < end {
                            let ci = pos;
                            pos += 1;
                            let c = t.cands[ci as usize];
                            if used[c.tile as usize] {
                                continue;
                            }
                            let skip = match phase {
                                1 => c.col[0] == f.n,
                                2 => c.col[3] == f.w,
                                3 => c.col[0] == f.n || c.col[3] == f.w,
                                _ => false,
                            };
                            if !skip {
                                chosen = Some(ci);
                                break 'find;
                            }
                        }
                    }
                    // The next phase the schedule and the border allow.
                    let k = loop {
                        phase += 1;
                        match phase {
                            1 if allowed >= 1 && inner_n => break Some(t.west(m, f.w as usize)),
                            2 if allowed >= 1 && inner_w => break Some(t.north(m, f.n as usize)),
                            3 if allowed >= 2 && inner_w && inner_n => break Some(t.any(m)),
                            4.. => break None,
                            _ => {}
                        }
                    };
                    let Some(k) = k else { break 'find };
                    pos = t.start[k];
                    end = t.start[k + 1];
                }
            }
            let Some(ci) = chosen else {
                if d == 0 {
                    // Every board within the schedule has been seen: allow
                    // the breaks anywhere; once that tree is exhausted too,
                    // no board has fewer breaks than the best.
                    if flat {
                        stop = true;
                    }
                    flat = true;
                    continue 'restart;
                }
                d -= 1;
                entering = false;
                continue;
            };
            let fr = &mut frames[d];
            fr.phase = phase;
            fr.pos = pos;
            fr.end = end;
            fr.placed = ci;
            let breaks = f.breaks + COST[phase as usize];
            used[t.cands[ci as usize].tile as usize] = true;
            frames[d + 1].breaks = breaks;
            d += 1;
            entering = true;
            nodes += 1;
            restart_nodes += 1;
            if nodes & POLL_MASK == 0 && (w.should_stop() || w.cpu_seconds() >= cpu_limit) {
                stop = true;
                continue 'restart;
            }
            if restart_nodes >= knobs.restart_nodes {
                continue 'restart;
            }
        }
    }
    w.iterations += nodes;
    w.boards += boards;
    Found { best, nodes, restarts }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_is_zero_then_grows_to_the_total() {
        let s = schedule(100, 12, 0.5, 4.0);
        assert_eq!(s.len(), 100);
        assert!(s[..50].iter().all(|&k| k == 0));
        assert!(s.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(s[99], 12);
        assert_eq!(schedule(10, 3, 1.0, 1.0)[9], 3);
        assert_eq!(schedule(1, 5, 0.5, 2.0), vec![5]);
    }

    #[test]
    fn tables_list_every_look_under_its_keys() {
        let p = crate::edgematch::local::tests::meta("brendan_set2/pieces_05x05.txt");
        let model = Model::new(&p).unwrap();
        let t = Tables::new(&model).unwrap();
        for m in 0..t.slots {
            let any = t.any(m);
            let all = &t.cands[t.start[any] as usize..t.start[any + 1] as usize];
            for c in all {
                assert_eq!(model.grey_mask[4 * c.tile as usize + c.rot as usize] as usize, m);
                let k = t.exact(m, c.col[3] as usize, c.col[0] as usize);
                let exact = &t.cands[t.start[k] as usize..t.start[k + 1] as usize];
                assert!(exact.iter().any(|e| e.tile == c.tile && e.rot == c.rot));
            }
        }
    }
}
