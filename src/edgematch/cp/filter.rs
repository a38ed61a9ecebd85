//! The filtering rules (Benoist & Bourreau §3–4) and their explanations
//! (§5.2).
//!
//! Rules, run after every placement:
//! * **contradiction**: a pair with fewer available tiles than demanding
//!   cells;
//! * **instantiation**: a pair with one available tile and one demanding
//!   cell names a cell to branch on first ([`Core::forced`]);
//! * **preemption**: a pair with as many available tiles as demanding cells
//!   reserves its tiles; a reserved tile no longer counts for the other
//!   pairs. Valid only while the demand sets are pairwise disjoint, i.e.
//!   no empty cell has three or four known sides; reservations made earlier
//!   stay (they remain true) but are not used while such a cell exists;
//! * **shared edges**: for a colour `k` with `m` sides left on `m''` tiles and
//!   `m'` demanded sides, `0 <= m - m' <= 2 h(m'')`;
//! * **border cycles**: border colours with exactly two sides left and no
//!   demand chain their tiles together; a chain that closes before using
//!   the whole border ring is a contradiction.
//!
//! Explanations are sets of decision *levels* (equivalently of cells: each
//! assigned cell has its own level; clues have level 0 and are never part
//! of an explanation), kept as bit sets of `w` words.

use super::config::CpConfig;
use super::domains::Domains;
use super::model::{Model, NONE, SLOT_SIDES};
use super::state::State;
use crate::edgematch::Color;

/// Undo records of the propagation trail (placements are undone by
/// [`State::unassign`], not here).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Undo {
    /// A tile was reserved by `pre[tile]`.
    Tag(u32),
    /// `pre_expl[pair]` was overwritten; the old words are on `saved_bits`.
    Expl(u32),
}

/// Bit-set helpers over `[u64]`.
pub(crate) mod bits {
    #[inline]
    pub fn set(b: &mut [u64], i: u32) {
        b[(i >> 6) as usize] |= 1 << (i & 63);
    }
    #[inline]
    pub fn test(b: &[u64], i: u32) -> bool {
        b[(i >> 6) as usize] >> (i & 63) & 1 != 0
    }
    #[inline]
    pub fn unset(b: &mut [u64], i: u32) {
        b[(i >> 6) as usize] &= !(1 << (i & 63));
    }
    #[inline]
    pub fn or(dst: &mut [u64], src: &[u64]) {
        for (d, s) in dst.iter_mut().zip(src) {
            *d |= s;
        }
    }
    /// Sets bits `1..=n`.
    pub fn set_upto(b: &mut [u64], n: u32) {
        b.fill(0);
        for i in 1..=n {
            set(b, i);
        }
    }
}

/// Model, state, trail and the explanation buffers: everything the rules
/// and the search share.
#[derive(Clone)]
pub(crate) struct Core {
    pub m: Model,
    pub st: State,
    pub cfg: CpConfig,
    /// Whether explanations are computed (backjumping on).
    pub explain: bool,
    /// Words per level set.
    pub w: usize,
    pub trail: Vec<Undo>,
    saved_bits: Vec<u64>,
    /// Explanation of each pair's reservations, `w` words per pair.
    pub pre_expl: Vec<u64>,
    /// Explanation of the latest failure.
    pub conflict: Vec<u64>,
    tmp: Vec<u64>,
    work: Vec<u32>,
    /// A cell fixed by the instantiation rule in the latest filtering.
    pub forced: u32,
    /// Reservations made (statistics).
    pub preempted: u64,
    /// Edge filtering (cell domains), when enabled.
    pub doms: Option<Domains>,
}

/// A point of the trails to come back to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    trail: u32,
    doms: u32,
}

impl Core {
    pub fn new(m: Model, cfg: CpConfig) -> Core {
        let w = (m.n_cells + 2).div_ceil(64);
        let st = State::new(&m);
        Core {
            doms: cfg.edge_filter.then(|| {
                let mut d = Domains::new(&m);
                d.cascade_min = cfg.edge_filter_above.cells(m.n_cells);
                d.cascade_waves = cfg.edge_filter_waves;
                d
            }),
            explain: cfg.backjump,
            pre_expl: vec![0; m.n_pairs * w],
            conflict: vec![0; w],
            tmp: vec![0; w],
            work: Vec::new(),
            trail: Vec::new(),
            saved_bits: Vec::new(),
            forced: NONE,
            preempted: 0,
            w,
            st,
            m,
            cfg,
        }
    }

    /// Resets to the empty board.
    pub fn reset(&mut self) {
        self.st = State::new(&self.m);
        self.trail.clear();
        self.saved_bits.clear();
        self.forced = NONE;
    }

    /// Whether reservations are in force: preemption on and no empty cell
    /// with three or four known sides.
    #[inline]
    pub fn use_tags(&self) -> bool {
        self.cfg.preemption && self.st.bucket[3].is_empty() && self.st.bucket[4].is_empty()
    }

    /// The current trail positions.
    #[inline]
    pub fn mark(&mut self) -> Mark {
        Mark { trail: self.trail.len() as u32, doms: self.doms.as_mut().map_or(0, |d| d.mark() as u32) }
    }

    /// The current trail positions without a new copy-on-write epoch for
    /// the domains: cells already saved since the latest [`Core::mark`] are
    /// not saved again. Undoing to such a mark alone leaves those cells as
    /// they are; it is exact once the caller also undoes to that earlier
    /// mark (forced placements, unwound with the decision that forced
    /// them: [`super::singles`]).
    #[inline]
    pub fn mark_shared(&mut self) -> Mark {
        Mark { trail: self.trail.len() as u32, doms: self.doms.as_ref().map_or(0, |d| d.log_len() as u32) }
    }

    /// Undoes the trails down to `mark`.
    pub fn undo_to(&mut self, mark: Mark) {
        if let Some(d) = &mut self.doms {
            d.undo_to(mark.doms as usize);
        }
        let mark = mark.trail as usize;
        while self.trail.len() > mark {
            match self.trail.pop().expect("trail entry") {
                Undo::Tag(t) => {
                    let t = t as usize;
                    let p = self.st.pre[t];
                    self.st.pre[t] = NONE;
                    self.st.own[p as usize] -= 1;
                    for k in 0..self.m.n_tile_pairs[t] as usize {
                        let q = self.m.tile_pairs[t][k];
                        if q != p {
                            self.st.nb[q as usize] -= 1;
                        }
                    }
                }
                Undo::Expl(p) => {
                    let w = self.w;
                    let at = self.saved_bits.len() - w;
                    self.pre_expl[p as usize * w..(p as usize + 1) * w].copy_from_slice(&self.saved_bits[at..]);
                    self.saved_bits.truncate(at);
                }
            }
        }
    }

    /// Runs every rule after the placement on `placed` (or, with `NONE`,
    /// checks every colour: the root). On failure returns `false` with the
    /// explanation in `conflict` (when explaining).
    pub fn filter(&mut self, placed: u32) -> bool {
        self.forced = NONE;
        if self.cfg.shared_edges || self.cfg.cycles {
            if placed != NONE {
                let t = self.st.tile_at[placed as usize] as usize;
                for i in 0..self.m.tile_colors[t].len() {
                    let k = self.m.tile_colors[t][i].0;
                    if !self.check_color(k) {
                        return false;
                    }
                }
            } else {
                for k in 1..self.m.n_colors as Color {
                    if !self.check_color(k) {
                        return false;
                    }
                }
            }
        }
        if !self.check_pairs() {
            return false;
        }
        let ok = match &mut self.doms {
            Some(d) if placed != NONE => d.propagate(&self.m, &self.st, placed as usize),
            Some(d) => d.init(&self.m, &self.st),
            None => true,
        };
        if !ok && self.explain {
            // Domain reductions are not explained: blame every level.
            let top = self.st.level_at.iter().copied().max().unwrap_or(0);
            bits::set_upto(&mut self.conflict, top);
        }
        ok
    }

    fn check_pairs(&mut self) -> bool {
        let tags = self.use_tags();
        self.work.clear();
        self.work.extend_from_slice(&self.st.active);
        while let Some(p) = self.work.pop() {
            let pi = p as usize;
            let d = self.st.dem_len[pi];
            let avail = self.st.off_len[pi] - if tags { self.st.nb[pi] } else { 0 };
            if avail < d {
                if self.explain {
                    self.conflict.fill(0);
                    explain_pair(self, p, tags, true, Out::Conflict);
                }
                return false;
            }
            if avail == d {
                if tags && avail > self.st.own[pi] {
                    self.preempt(p);
                }
                if d == 1 && self.cfg.instantiation {
                    self.forced = self.st.dem[pi][0] / 6;
                }
            }
        }
        true
    }

    /// Reserves the unreserved available tiles of tight pair `p`.
    fn preempt(&mut self, p: u32) {
        let pi = p as usize;
        if self.explain {
            self.tmp.fill(0);
            explain_pair(self, p, true, false, Out::Tmp);
            let w = self.w;
            let slot = pi * w..(pi + 1) * w;
            if self.st.own[pi] > 0 {
                self.saved_bits.extend_from_slice(&self.pre_expl[slot.clone()]);
                self.trail.push(Undo::Expl(p));
            }
            self.pre_expl[slot].copy_from_slice(&self.tmp);
        }
        let start = self.m.pair_start[pi] as usize;
        for i in start..start + self.st.off_len[pi] as usize {
            let t = self.m.mem_tile[self.st.off[i] as usize] as usize;
            if self.st.pre[t] != NONE {
                continue;
            }
            self.st.pre[t] = p;
            self.st.own[pi] += 1;
            self.trail.push(Undo::Tag(t as u32));
            self.preempted += 1;
            for k in 0..self.m.n_tile_pairs[t] as usize {
                let q = self.m.tile_pairs[t][k];
                if q != p {
                    self.st.nb[q as usize] += 1;
                    if self.st.dem_len[q as usize] > 0 {
                        self.work.push(q);
                    }
                }
            }
        }
    }

    /// The shared-edges bound and the border-cycle rule for colour `k`.
    fn check_color(&mut self, k: Color) -> bool {
        let ki = k as usize;
        let (edges, demanded) = (self.st.edges[ki], self.st.demanded[ki]);
        if self.cfg.shared_edges {
            let free = edges - demanded;
            let left = self.st.tiles_left[ki].max(0) as usize;
            if free < 0 || free > 2 * self.m.h[left] as i32 {
                if self.explain {
                    self.conflict.fill(0);
                    self.explain_colors(&[k]);
                }
                return false;
            }
        }
        if self.cfg.cycles && self.m.border_color[ki] && edges == 2 && demanded == 0 {
            return self.border_chain(k);
        }
        true
    }

    /// The two available tiles with border colour `k`, if there are exactly
    /// two.
    fn two_tiles(&self, k: Color) -> Option<[u32; 2]> {
        let mut found = [NONE; 2];
        let mut n = 0;
        for &t in &self.m.tiles_with[k as usize] {
            if self.st.cell_of[t as usize] == NONE {
                if n == 2 {
                    return None;
                }
                found[n] = t;
                n += 1;
            }
        }
        (n == 2).then_some(found)
    }

    /// Follows the chain of forced border joins from colour `k0`; fails if
    /// it closes into a cycle shorter than the border ring.
    fn border_chain(&mut self, k0: Color) -> bool {
        let Some([start, mut cur]) = self.two_tiles(k0) else {
            return true;
        };
        let mut prev = k0;
        let mut len = 2usize;
        let mut chain: Vec<Color> = vec![k0];
        loop {
            let Some([x, y]) = self.m.border_sides[cur as usize] else {
                return true;
            };
            let k = if x == prev {
                y
            } else if y == prev {
                x
            } else {
                return true;
            };
            let ki = k as usize;
            if k == prev || !self.m.border_color[ki] || self.st.edges[ki] != 2 || self.st.demanded[ki] != 0 {
                return true;
            }
            let Some([a, b]) = self.two_tiles(k) else {
                return true;
            };
            let next = if a == cur { b } else { a };
            chain.push(k);
            if next == start {
                if len < self.m.ring_size {
                    if self.explain {
                        self.conflict.fill(0);
                        self.explain_colors(&chain);
                    }
                    return false;
                }
                return true;
            }
            cur = next;
            prev = k;
            len += 1;
            if len > self.m.ring_size {
                return true;
            }
        }
    }

    /// Adds to `conflict` the cells holding a tile of one of `colors`.
    fn explain_colors(&mut self, colors: &[Color]) {
        for &k in colors {
            for &t in &self.m.tiles_with[k as usize] {
                let c = self.st.cell_of[t as usize];
                if c != NONE {
                    add_cell(&self.st, &mut self.conflict, c);
                }
            }
        }
    }
}

/// Where an explanation goes.
#[derive(Clone, Copy)]
pub(crate) enum Out {
    Conflict,
    Tmp,
}

#[inline]
pub(crate) fn add_cell(st: &State, out: &mut [u64], c: u32) {
    let l = st.level_at[c as usize];
    if l > 0 {
        bits::set(out, l);
    }
}

/// Explains why pair `p` has at most as many available tiles as demanding
/// cells: the neighbours that make each cell demand `p`, the cells of the
/// placed tiles of `p` (or, with `substitute` and the older-cells option,
/// that cell's older neighbours showing `p`), and with `tags` the
/// explanations of the reservations of `p`'s tiles by other pairs.
pub(crate) fn explain_pair(core: &mut Core, p: u32, tags: bool, substitute: bool, out: Out) {
    let (m, st) = (&core.m, &core.st);
    let out = match out {
        Out::Conflict => &mut core.conflict,
        Out::Tmp => &mut core.tmp,
    };
    for &e in st.demand(p) {
        let (cell, slot) = (e as usize / 6, e as usize % 6);
        let (a, b) = SLOT_SIDES[slot];
        for side in [a, b] {
            let n = m.nbr[cell][side];
            if n != NONE {
                add_cell(st, out, n);
            }
        }
    }
    let older = substitute && core.cfg.older_cells;
    for &mem in st.unavailable(m, p) {
        let y = st.cell_of[m.mem_tile[mem as usize] as usize];
        if older {
            if let Some([n1, n2]) = older_witness(m, st, y as usize, p) {
                for n in [n1, n2] {
                    if n != NONE {
                        add_cell(st, out, n);
                    }
                }
                continue;
            }
        }
        add_cell(st, out, y);
    }
    if tags {
        let w = core.w;
        for &mem in st.offer(m, p) {
            let q = st.pre[m.mem_tile[mem as usize] as usize];
            if q != NONE && q != p {
                bits::or(out, &core.pre_expl[q as usize * w..(q as usize + 1) * w]);
            }
        }
    }
}

/// Two neighbours of filled cell `y` (or [`NONE`] for the border), both
/// filled before `y`, across a slot where `y`'s tile shows pair `p`.
fn older_witness(m: &Model, st: &State, y: usize, p: u32) -> Option<[u32; 2]> {
    let col = &st.colors_at[y];
    let lvl = st.level_at[y];
    let slots = if m.is_opposite(p) { 4..6 } else { 0..4 };
    for slot in slots {
        if m.slot_pair(slot, col) != p {
            continue;
        }
        let (a, b) = SLOT_SIDES[slot];
        let (n1, n2) = (m.nbr[y][a], m.nbr[y][b]);
        let older = |n: u32| n == NONE || (st.tile_at[n as usize] != NONE && st.level_at[n as usize] < lvl);
        if older(n1) && older(n2) {
            return Some([n1, n2]);
        }
    }
    None
}

/// Why empty cell `c`, whose candidates came from pair `p`, can take no
/// other tile: its filled neighbours (they fix its known sides), the cells
/// of placed tiles that would fit, and with `tags` the reservations of
/// fitting tiles by other pairs.
pub(crate) fn domain_reason(core: &Core, c: usize, p: u32, tags: bool, out: &mut [u64]) {
    let (m, st) = (&core.m, &core.st);
    for side in 0..4 {
        let n = m.nbr[c][side];
        if n != NONE && st.tile_at[n as usize] != NONE {
            add_cell(st, out, n);
        }
    }
    let fits_any = |t: usize| (0..m.n_rots[t] as usize).any(|i| st.fits(m, c, t, m.rots[t][i] as usize));
    for &mem in st.unavailable(m, p) {
        let t = m.mem_tile[mem as usize] as usize;
        if fits_any(t) {
            add_cell(st, out, st.cell_of[t]);
        }
    }
    if tags {
        let w = core.w;
        for &mem in st.offer(m, p) {
            let t = m.mem_tile[mem as usize] as usize;
            let q = st.pre[t];
            if q != NONE && q != p && fits_any(t) {
                bits::or(out, &core.pre_expl[q as usize * w..(q as usize + 1) * w]);
            }
        }
    }
}
