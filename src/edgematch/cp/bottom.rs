//! The completion walker at the bottom of cp's tree (`--cp bottom=E`; what
//! was tried there: docs/tried/cp.md, "The bottom of the tree and the root
//! walk").
//!
//! Near the bottom of the tree edge filtering costs more than the nodes it
//! saves. Once a node at its fixpoint has at most `E` empty cells, the
//! search hands the state to this walker, which enumerates every
//! completion by plain depth-first search over bit sets and reports each
//! full board through the search's visitor, as the search would.
//!
//! The candidates of an empty cell are its cp domain at hand-over (already
//! filtered, and consistent with the cells filled before: the head start a
//! scan backtracker does not have), AND the options whose tile is still
//! free, AND, for each neighbour the walker filled, the options showing the
//! neighbour's colour on that side (`mask`, built once per engine). The
//! domain keeps the symmetry breaking (the pivot tile's cells), so the
//! walker adds none.
//!
//! Two cell orders: `static` fixes the order at hand-over (most filled
//! neighbours first, ties by the smaller domain); `dynamic` takes, at each
//! depth, the cell with the fewest candidates (and fails when one has
//! none: forward checking).

use super::config::BottomOrder;
use super::filter::Core;
use super::model::NONE;
use crate::search::{Flow, Limits, StopReason};

/// Polls the limits every this many placements (a power of two minus one).
pub(super) const WALK_POLL: u64 = 0xfff;

/// Tables and scratch space of the walker (one per searcher).
#[derive(Clone, Default)]
pub(crate) struct Walker {
    /// Words per option set.
    pub(super) w: usize,
    n_colors: usize,
    /// `mask[(s * n_colors + k) * w ..]`: the options showing colour `k` on
    /// side `s`.
    mask: Vec<u64>,
    /// The empty cells at hand-over (in the static or sweep order).
    pub(super) cells: Vec<u32>,
    /// Index of each board cell in `cells`, or [`NONE`].
    pub(super) index: Vec<u32>,
    /// Per walker cell: its domain at hand-over, then (dynamic) narrowed by
    /// the neighbours placed.
    pub(super) cc: Vec<u64>,
    /// Per walker cell: the tile and rotation placed, or `NONE`.
    pub(super) placed: Vec<(u32, u8)>,
    /// Static order: per walker cell, its neighbours earlier in the order
    /// as (side, walker index).
    earlier: Vec<Vec<(u8, u32)>>,
    /// Static order: per walker cell, its neighbours later in the order
    /// but one (forward checking).
    later: Vec<Vec<u32>>,
    /// Per depth: candidates left (`w` words).
    cand: Vec<u64>,
    /// Dynamic order: the walker cell of each depth and the undo length.
    at: Vec<(u32, u32)>,
    /// Dynamic order: saved `cc` blocks (walker index, position in
    /// `saved` of its `w` words).
    undo: Vec<(u32, usize)>,
    saved: Vec<u64>,
    /// Options whose tile is free (the walker's placements cleared).
    free: Vec<u64>,
    /// The sweep orders' tables.
    pub(super) sweep: super::sweep::Sweep,
}

impl Walker {
    fn build(&mut self, core: &Core) {
        let m = &core.m;
        let nt = m.rot_colors.len();
        let w = (4 * nt).div_ceil(64);
        let nc = m.n_colors;
        self.w = w;
        self.n_colors = nc;
        self.mask = vec![0; 4 * nc * w];
        for t in 0..nt {
            for r in 0..4 {
                let o = 4 * t + r;
                for s in 0..4 {
                    let k = m.rot_colors[t][r][s] as usize;
                    self.mask[(s * nc + k) * w + o / 64] |= 1 << (o % 64);
                }
            }
        }
        self.index = vec![NONE; m.n_cells];
    }
}

/// The outcome of a walk.
pub(crate) struct Walked {
    pub placements: u64,
    pub solutions: u64,
    pub stopped: Option<StopReason>,
}

/// Enumerates every completion of the board of `core` (at a fixpoint, with
/// domains) in the order of `core.cfg`, calling `visit` with the full
/// board, whose walker cells get level `level`. `solutions_before` and
/// `placed_before` are the solutions (for the solution limit) and walker
/// placements (for polling) of the run so far.
pub(crate) fn walk(
    wk: &mut Walker,
    core: &mut Core,
    level: u32,
    limits: &Limits,
    (solutions_before, placed_before): (u64, u64),
    poll: &mut dyn FnMut(&Limits, u64) -> Option<StopReason>,
    visit: &mut dyn FnMut(&Core) -> Flow,
) -> Walked {
    if wk.w == 0 {
        wk.build(core);
    }
    let w = wk.w;
    let order = core.cfg.bottom_order;
    let doms = core.doms.as_ref().expect("the walker needs domains");
    debug_assert_eq!(doms.w, w);
    // The empty cells and their domains.
    wk.cells.clear();
    for c in 0..core.m.n_cells {
        if core.st.tile_at[c] == NONE {
            wk.cells.push(c as u32);
        }
    }
    let n = wk.cells.len();
    match order {
        BottomOrder::Static => static_order(wk, core),
        BottomOrder::Row | BottomOrder::Col | BottomOrder::Sweep => super::sweep::order_cells(wk, core, order),
        BottomOrder::Dynamic => {}
    }
    wk.cc.clear();
    for &c in &wk.cells {
        wk.cc.extend_from_slice(&doms.dom[c as usize * w..(c as usize + 1) * w]);
    }
    for (i, &c) in wk.cells.iter().enumerate() {
        wk.index[c as usize] = i as u32;
    }
    wk.placed.clear();
    wk.placed.resize(n, (NONE, 0));
    wk.free.clear();
    wk.free.resize(w, !0);
    wk.cand.clear();
    wk.cand.resize(n * w, 0);
    let mut out = Walked { placements: 0, solutions: 0, stopped: None };
    let mut ctx = Ctx { limits, solutions_before, placed_before, level, poll, visit, out: &mut out };
    match order {
        BottomOrder::Static => walk_static(wk, core, &mut ctx),
        BottomOrder::Dynamic => walk_dynamic(wk, core, &mut ctx),
        BottomOrder::Row | BottomOrder::Col | BottomOrder::Sweep => super::sweep::walk_sweep(wk, core, &mut ctx),
    }
    for &c in &wk.cells {
        wk.index[c as usize] = NONE;
    }
    out
}

pub(super) struct Ctx<'a, 'b> {
    limits: &'a Limits,
    solutions_before: u64,
    placed_before: u64,
    level: u32,
    /// Polls the limits given the run's walker placements so far.
    poll: &'a mut dyn FnMut(&Limits, u64) -> Option<StopReason>,
    visit: &'a mut dyn FnMut(&Core) -> Flow,
    out: &'b mut Walked,
}

impl Ctx<'_, '_> {
    /// Counts a placement; `false` when a limit stops the walk.
    #[inline]
    pub(super) fn count(&mut self) -> bool {
        self.out.placements += 1;
        let placed = self.placed_before + self.out.placements;
        if placed & WALK_POLL == 0 {
            if let Some(stop) = (self.poll)(self.limits, placed) {
                self.out.stopped = Some(stop);
                return false;
            }
        }
        true
    }

    /// A full board: written into the state, reported, taken back. `false`
    /// when the visitor or the solution limit stops the walk.
    #[cold]
    pub(super) fn solution(&mut self, wk: &Walker, core: &mut Core) -> bool {
        for (i, &c) in wk.cells.iter().enumerate() {
            let (t, r) = wk.placed[i];
            core.st.assign(&core.m, c as usize, t as usize, r, self.level);
        }
        self.out.solutions += 1;
        let flow = (self.visit)(core);
        for &c in wk.cells.iter().rev() {
            core.st.unassign(&core.m, c as usize);
        }
        if flow == Flow::Stop {
            self.out.stopped = Some(StopReason::Visitor);
            return false;
        }
        if self.limits.max_solutions.is_some_and(|m| self.solutions_before + self.out.solutions >= m) {
            self.out.stopped = Some(StopReason::SolutionLimit);
            return false;
        }
        true
    }
}

/// The static order: repeatedly the cell with the most filled (or earlier)
/// neighbours, ties by the smaller domain, then reading order. Fills
/// `earlier`.
fn static_order(wk: &mut Walker, core: &Core) {
    let m = &core.m;
    let doms = core.doms.as_ref().expect("domains");
    let n = wk.cells.len();
    let mut left: Vec<u32> = std::mem::take(&mut wk.cells);
    let mut filled: Vec<bool> = (0..m.n_cells).map(|c| core.st.tile_at[c] != NONE).collect();
    let mut cells = Vec::with_capacity(n);
    while !left.is_empty() {
        let key = |c: u32| {
            let known =
                (0..4).filter(|&s| m.nbr[c as usize][s] == NONE || filled[m.nbr[c as usize][s] as usize]).count();
            (std::cmp::Reverse(known), doms.size[c as usize])
        };
        let (best, _) = left.iter().enumerate().min_by_key(|&(_, &c)| key(c)).expect("a cell left");
        let c = left.remove(best);
        filled[c as usize] = true;
        cells.push(c);
    }
    wk.cells = cells;
    wk.earlier.resize(n.max(wk.earlier.len()), Vec::new());
    wk.later.resize(n.max(wk.later.len()), Vec::new());
    let mut pos = vec![NONE; m.n_cells];
    for (i, &c) in wk.cells.iter().enumerate() {
        pos[c as usize] = i as u32;
        wk.earlier[i].clear();
        wk.later[i].clear();
        for s in 0..4 {
            let nb = m.nbr[c as usize][s];
            if nb != NONE && pos[nb as usize] != NONE {
                let j = pos[nb as usize];
                wk.earlier[i].push((s as u8, j));
                if j as usize + 1 < i {
                    wk.later[j as usize].push(i as u32);
                }
            }
        }
    }
}

/// The candidates of static depth `d` into `cand[d]`; `false` if none.
#[inline]
fn static_cands(wk: &mut Walker, core: &Core, d: usize) -> bool {
    let w = wk.w;
    let (cand, rest) = (&mut wk.cand[d * w..(d + 1) * w], &wk.cc[d * w..(d + 1) * w]);
    let mut any = 0;
    for i in 0..w {
        cand[i] = rest[i] & wk.free[i];
    }
    for &(s, j) in &wk.earlier[d] {
        let (t, r) = wk.placed[j as usize];
        let k = core.m.rot_colors[t as usize][r as usize][(s as usize + 2) & 3] as usize;
        let at = (s as usize * wk.n_colors + k) * w;
        let mk = &wk.mask[at..at + w];
        for i in 0..w {
            cand[i] &= mk[i];
        }
    }
    for &x in cand.iter() {
        any |= x;
    }
    any != 0
}

/// Forward checking: whether static cell `j` (after `d + 1`) keeps a
/// candidate given the cells placed up to depth `d`.
#[inline]
fn static_live(wk: &Walker, core: &Core, j: usize, d: usize) -> bool {
    let w = wk.w;
    let mut any = 0;
    for i in 0..w {
        let mut x = wk.cc[j * w + i] & wk.free[i];
        for &(s, e) in &wk.earlier[j] {
            if e as usize <= d {
                let (t, r) = wk.placed[e as usize];
                let k = core.m.rot_colors[t as usize][r as usize][(s as usize + 2) & 3] as usize;
                x &= wk.mask[(s as usize * wk.n_colors + k) * w + i];
            }
        }
        any |= x;
    }
    any != 0
}

/// Takes the lowest candidate of `cand[d]` (removing it), or `None`.
#[inline]
fn pop(cand: &mut [u64]) -> Option<usize> {
    for (i, x) in cand.iter_mut().enumerate() {
        if *x != 0 {
            let b = x.trailing_zeros() as usize;
            *x &= *x - 1;
            return Some(i * 64 + b);
        }
    }
    None
}

#[inline]
fn take_tile(free: &mut [u64], t: usize) {
    free[(4 * t) / 64] &= !(0xf << ((4 * t) % 64));
}

#[inline]
fn give_tile(free: &mut [u64], t: usize) {
    free[(4 * t) / 64] |= 0xf << ((4 * t) % 64);
}

fn walk_static(wk: &mut Walker, core: &mut Core, ctx: &mut Ctx) {
    let n = wk.cells.len();
    let w = wk.w;
    if n == 0 || !static_cands(wk, core, 0) {
        return;
    }
    let mut d = 0;
    loop {
        let Some(o) = pop(&mut wk.cand[d * w..(d + 1) * w]) else {
            if d == 0 {
                return;
            }
            d -= 1;
            give_tile(&mut wk.free, wk.placed[d].0 as usize);
            continue;
        };
        let (t, r) = (o >> 2, (o & 3) as u8);
        if !ctx.count() {
            return;
        }
        wk.placed[d] = (t as u32, r);
        if d + 1 == n {
            if !ctx.solution(wk, core) {
                return;
            }
            continue;
        }
        take_tile(&mut wk.free, t);
        if static_cands(wk, core, d + 1) && wk.later[d].iter().all(|&j| static_live(wk, core, j as usize, d)) {
            d += 1;
        } else {
            give_tile(&mut wk.free, t);
        }
    }
}

/// Dynamic order: the unplaced walker cell with the fewest candidates
/// (`cc & free`) into `cand[d]`, recorded in `at[d]`; `false` if a cell
/// has none.
#[inline(always)]
fn dynamic_choose(wk: &mut Walker, d: usize) -> bool {
    let w = wk.w;
    let mut best = NONE;
    let mut best_n = u32::MAX;
    for i in 0..wk.cells.len() {
        if wk.placed[i].0 != NONE {
            continue;
        }
        let cc = &wk.cc[i * w..(i + 1) * w];
        let k: u32 = cc.iter().zip(&wk.free).map(|(a, b)| (a & b).count_ones()).sum();
        if k < best_n {
            best_n = k;
            best = i as u32;
            if k <= 1 {
                break;
            }
        }
    }
    if best_n == 0 {
        return false;
    }
    let i = best as usize;
    for j in 0..w {
        wk.cand[d * w + j] = wk.cc[i * w + j] & wk.free[j];
    }
    wk.at[d] = (best, wk.undo.len() as u32);
    true
}

fn walk_dynamic(wk: &mut Walker, core: &mut Core, ctx: &mut Ctx) {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::popcnt() {
        // SAFETY: the CPU has the instruction.
        unsafe { walk_dynamic_popcnt(wk, core, ctx) };
        return;
    }
    walk_dynamic_body(wk, core, ctx);
}

/// [`walk_dynamic_body`] with the `popcnt` instruction (the candidate
/// counts are most of the walker's work).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn walk_dynamic_popcnt(wk: &mut Walker, core: &mut Core, ctx: &mut Ctx) {
    walk_dynamic_body(wk, core, ctx);
}

#[inline(always)]
fn walk_dynamic_body(wk: &mut Walker, core: &mut Core, ctx: &mut Ctx) {
    let n = wk.cells.len();
    let w = wk.w;
    wk.at.clear();
    wk.at.resize(n, (NONE, 0));
    wk.undo.clear();
    wk.saved.clear();
    if n == 0 || !dynamic_choose(wk, 0) {
        return;
    }
    let mut d = 0;
    loop {
        let (i, undo_len) = wk.at[d];
        let i = i as usize;
        // Undo the previous candidate of this depth.
        if wk.placed[i].0 != NONE {
            give_tile(&mut wk.free, wk.placed[i].0 as usize);
            wk.placed[i].0 = NONE;
            while wk.undo.len() > undo_len as usize {
                let (j, at) = wk.undo.pop().expect("an undo entry");
                let j = j as usize;
                wk.cc[j * w..(j + 1) * w].copy_from_slice(&wk.saved[at..at + w]);
                wk.saved.truncate(at);
            }
        }
        let Some(o) = pop(&mut wk.cand[d * w..(d + 1) * w]) else {
            if d == 0 {
                return;
            }
            d -= 1;
            continue;
        };
        let (t, r) = (o >> 2, (o & 3) as u8);
        if !ctx.count() {
            return;
        }
        wk.placed[i] = (t as u32, r);
        if d + 1 == n {
            if !ctx.solution(wk, core) {
                return;
            }
            continue;
        }
        take_tile(&mut wk.free, t);
        let c = wk.cells[i] as usize;
        let colors = core.m.rot_colors[t][r as usize];
        for (s, &k) in colors.iter().enumerate() {
            let nb = core.m.nbr[c][s];
            if nb == NONE {
                continue;
            }
            let j = wk.index[nb as usize];
            if j == NONE || wk.placed[j as usize].0 != NONE {
                continue;
            }
            let j = j as usize;
            let at = wk.saved.len();
            wk.saved.extend_from_slice(&wk.cc[j * w..(j + 1) * w]);
            wk.undo.push((j as u32, at));
            let base = (((s + 2) & 3) * wk.n_colors + k as usize) * w;
            for x in 0..w {
                wk.cc[j * w + x] &= wk.mask[base + x];
            }
        }
        if dynamic_choose(wk, d + 1) {
            d += 1;
        }
    }
}
