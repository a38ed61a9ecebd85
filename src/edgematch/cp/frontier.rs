//! Reasoning over the *frontier*, the empty cells with at least two known
//! sides: their candidate lists (the intersection of their Offer sets with
//! their known colours), edge-colour filtering between adjacent frontier
//! cells, and shaving.
//!
//! * **Edge filtering.** For each open side of a frontier cell, the set of
//!   colours its candidates show there (a bit mask). Where two frontier
//!   cells touch, a candidate showing a colour the other cell cannot show
//!   back is removed, to a fixpoint. This is the "edge variables"
//!   reasoning of the paper's Choco model restricted to the frontier, where
//!   candidate lists are short; it costs one pass over those lists per
//!   node. The reason a candidate goes is the neighbour's domain reason
//!   plus whatever had been removed from the neighbour.
//! * **Shaving** (limit `L`): every candidate of a cell with at most `L`
//!   candidates is placed in turn and the rules run; candidates that fail
//!   are removed (their explanations, minus the trial level, join the
//!   cell's removal reason). A cell with no candidate left fails the node;
//!   a cell with one is branched on at once.
//!
//! Filtered lists are kept for the node, so branching on a frontier cell
//! reuses them.

use super::filter::{bits, domain_reason};
use super::model::NONE;
use super::search::{Choice, Reason, Searcher};

/// The frontier of the current node and its filtered candidate lists.
#[derive(Clone)]
pub(crate) struct Frontier {
    /// Whether the lists describe the current node.
    valid: bool,
    stamp: Vec<u32>,
    idx: Vec<u32>,
    epoch: u32,
    pub cells: Vec<u32>,
    pub pair: Vec<u32>,
    pub start: Vec<u32>,
    pub len: Vec<u32>,
    pub cands: Vec<(u32, u8)>,
    /// Why candidates were removed, `w` words per frontier cell.
    pub reason: Vec<u64>,
    /// Cached domain reasons, `w` words per frontier cell.
    dom: Vec<u64>,
    dom_done: Vec<bool>,
    masks: Vec<[u128; 4]>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    tags: bool,
}

#[inline]
fn color_bit(k: u16) -> u128 {
    1u128 << (k % 128)
}

impl Frontier {
    pub fn new(n_cells: usize) -> Frontier {
        Frontier {
            valid: false,
            stamp: vec![0; n_cells],
            idx: vec![0; n_cells],
            epoch: 0,
            cells: Vec::new(),
            pair: Vec::new(),
            start: Vec::new(),
            len: Vec::new(),
            cands: Vec::new(),
            reason: Vec::new(),
            dom: Vec::new(),
            dom_done: Vec::new(),
            masks: Vec::new(),
            queue: Vec::new(),
            queued: Vec::new(),
            tags: false,
        }
    }

    /// Marks the lists stale (the node changed).
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Frontier index of `cell` in the current lists.
    pub fn index_of(&self, cell: u32) -> Option<usize> {
        (self.valid && self.stamp[cell as usize] == self.epoch).then(|| self.idx[cell as usize] as usize)
    }

    fn segment(&self, i: usize) -> &[(u32, u8)] {
        let s = self.start[i] as usize;
        &self.cands[s..s + self.len[i] as usize]
    }
}

impl Searcher {
    /// Collects the frontier and the candidates of each of its cells.
    fn collect_frontier(&mut self, tags: bool) {
        let w = self.core.w;
        let fr = &mut self.fr;
        fr.epoch = fr.epoch.wrapping_add(1);
        if fr.epoch == 0 {
            fr.stamp.fill(0);
            fr.epoch = 1;
        }
        fr.cells.clear();
        let st = &self.core.st;
        for &p in &st.active {
            for &e in st.demand(p) {
                let c = (e / 6) as usize;
                if fr.stamp[c] != fr.epoch {
                    fr.stamp[c] = fr.epoch;
                    fr.idx[c] = fr.cells.len() as u32;
                    fr.cells.push(c as u32);
                }
            }
        }
        let n = fr.cells.len();
        fr.pair.clear();
        fr.start.clear();
        fr.len.clear();
        fr.cands.clear();
        fr.reason.clear();
        fr.reason.resize(n * w, 0);
        fr.dom.resize(n * w, 0);
        fr.dom_done.clear();
        fr.dom_done.resize(n, false);
        fr.tags = tags;
        fr.valid = true;
        for i in 0..n {
            let c = self.fr.cells[i] as usize;
            let p = self.candidates(c, tags);
            let fr = &mut self.fr;
            fr.pair.push(p);
            fr.start.push(fr.cands.len() as u32);
            fr.len.push(self.scratch.len() as u32);
            fr.cands.extend_from_slice(&self.scratch);
        }
    }

    /// Makes sure the domain reason of frontier cell `i` is cached.
    fn dom_reason(&mut self, i: usize) {
        if self.fr.dom_done[i] {
            return;
        }
        let w = self.core.w;
        let mut out = std::mem::take(&mut self.fr.dom);
        out[i * w..(i + 1) * w].fill(0);
        domain_reason(
            &self.core,
            self.fr.cells[i] as usize,
            self.fr.pair[i],
            self.fr.tags,
            &mut out[i * w..(i + 1) * w],
        );
        self.fr.dom = out;
        self.fr.dom_done[i] = true;
    }

    /// Sets `conflict` to the failure of frontier cell `i`: no candidate.
    fn fail_cell(&mut self, i: usize) -> Choice {
        if self.core.explain {
            let w = self.core.w;
            self.dom_reason(i);
            let c = &mut self.core.conflict;
            c.copy_from_slice(&self.fr.reason[i * w..(i + 1) * w]);
            bits::or(c, &self.fr.dom[i * w..(i + 1) * w]);
        }
        Choice::Fail
    }

    /// Branches on frontier cell `i` with its filtered candidates.
    pub(super) fn branch_frontier(&mut self, i: usize) -> Choice {
        self.scratch.clear();
        let s = self.fr.start[i] as usize;
        self.scratch.extend_from_slice(&self.fr.cands[s..s + self.fr.len[i] as usize]);
        let (cell, pair, tags) = (self.fr.cells[i], self.fr.pair[i], self.fr.tags);
        self.push_frame(cell, pair, tags, Reason::Frontier(i));
        Choice::Branch
    }

    /// Edge filtering, then shaving. `Some` when a cell has no candidate
    /// left (fail) or one (branch on it).
    pub(super) fn shave(&mut self) -> Option<Choice> {
        let tags = self.core.use_tags();
        self.collect_frontier(tags);
        let n = self.fr.cells.len();
        if self.core.cfg.edge_filter {
            if let Some(i) = self.edge_filter() {
                return Some(self.fail_cell(i));
            }
        }
        if let Some(i) = (0..n).find(|&i| self.fr.len[i] == 0) {
            return Some(self.fail_cell(i));
        }
        if let Some(i) = (0..n).find(|&i| self.fr.len[i] == 1) {
            return Some(self.branch_frontier(i));
        }
        if !self.core.cfg.shaving {
            return None;
        }
        let limit = self.core.cfg.shave_limit as u32;
        let mut order: Vec<usize> = (0..n).filter(|&i| self.fr.len[i] <= limit).collect();
        order.sort_by_key(|&i| self.fr.len[i]);
        for i in order {
            match self.probe_cell(i) {
                0 => {
                    self.counters.shave_fails += 1;
                    return Some(self.fail_cell(i));
                }
                1 => return Some(self.branch_frontier(i)),
                _ => {}
            }
        }
        None
    }

    /// Tries every candidate of frontier cell `i`, keeps those that pass the
    /// rules, and returns how many remain.
    fn probe_cell(&mut self, i: usize) -> u32 {
        let w = self.core.w;
        let level = self.next_level();
        let cell = self.fr.cells[i] as usize;
        let s = self.fr.start[i] as usize;
        let mut kept = 0;
        for k in 0..self.fr.len[i] as usize {
            let (t, r) = self.fr.cands[s + k];
            let mark = self.core.mark();
            self.core.st.assign(&self.core.m, cell, t as usize, r, level);
            let ok = self.core.filter(cell as u32);
            self.counters.probes += 1;
            if !ok && self.core.explain {
                bits::unset(&mut self.core.conflict, level);
                bits::or(&mut self.fr.reason[i * w..(i + 1) * w], &self.core.conflict);
            }
            self.core.undo_to(mark);
            self.core.st.unassign(&self.core.m, cell);
            if ok {
                self.fr.cands[s + kept] = (t, r);
                kept += 1;
            }
        }
        self.fr.len[i] = kept as u32;
        kept as u32
    }

    /// Colour masks of the open sides of frontier cell `i`.
    fn compute_masks(&mut self, i: usize) {
        let m = &self.core.m;
        let mut mask = [0u128; 4];
        for &(t, r) in self.fr.segment(i) {
            let col = &m.rot_colors[t as usize][r as usize];
            for s in 0..4 {
                mask[s] |= color_bit(col[s]);
            }
        }
        self.fr.masks[i] = mask;
    }

    /// Edge filtering to a fixpoint. Returns a frontier cell left without
    /// candidates, if any.
    fn edge_filter(&mut self) -> Option<usize> {
        let n = self.fr.cells.len();
        let w = self.core.w;
        self.fr.masks.resize(n, [0; 4]);
        for i in 0..n {
            self.compute_masks(i);
        }
        self.fr.queue.clear();
        self.fr.queue.extend(0..n as u32);
        self.fr.queued.clear();
        self.fr.queued.resize(n, true);
        while let Some(i) = self.fr.queue.pop() {
            let i = i as usize;
            self.fr.queued[i] = false;
            let c = self.fr.cells[i] as usize;
            let mut changed = false;
            for side in 0..4 {
                let nb = self.core.m.nbr[c][side];
                if nb == NONE || self.core.st.tile_at[nb as usize] != NONE {
                    continue;
                }
                let Some(j) = self.fr.index_of(nb) else { continue };
                let allowed = self.fr.masks[j][(side + 2) & 3];
                if self.fr.masks[i][side] & !allowed == 0 {
                    continue;
                }
                let s = self.fr.start[i] as usize;
                let mut kept = 0;
                for k in 0..self.fr.len[i] as usize {
                    let (t, r) = self.fr.cands[s + k];
                    let col = self.core.m.rot_colors[t as usize][r as usize][side];
                    if color_bit(col) & allowed != 0 {
                        self.fr.cands[s + kept] = (t, r);
                        kept += 1;
                    }
                }
                self.counters.edge_prunes += (self.fr.len[i] as usize - kept) as u64;
                self.fr.len[i] = kept as u32;
                if self.core.explain {
                    self.dom_reason(j);
                    let (ri, rj) = (i * w..(i + 1) * w, j * w..(j + 1) * w);
                    let mut r = std::mem::take(&mut self.fr.reason);
                    let (a, b) = if i < j {
                        let (lo, hi) = r.split_at_mut(rj.start);
                        (&mut lo[ri], &hi[..w])
                    } else {
                        let (lo, hi) = r.split_at_mut(ri.start);
                        (&mut hi[..w], &lo[rj])
                    };
                    bits::or(a, b);
                    bits::or(a, &self.fr.dom[j * w..(j + 1) * w]);
                    self.fr.reason = r;
                }
                if kept == 0 {
                    return Some(i);
                }
                self.compute_masks(i);
                changed = true;
            }
            if changed {
                for side in 0..4 {
                    let nb = self.core.m.nbr[c][side];
                    if nb == NONE || self.core.st.tile_at[nb as usize] != NONE {
                        continue;
                    }
                    if let Some(j) = self.fr.index_of(nb) {
                        if !self.fr.queued[j] {
                            self.fr.queued[j] = true;
                            self.fr.queue.push(j as u32);
                        }
                    }
                }
            }
        }
        None
    }
}
