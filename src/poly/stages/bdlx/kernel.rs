//! The bdlx loop: each node's live list built from its parent's in one
//! pass that also counts the live images per cell, the branch on the most
//! constrained hole or piece, and the hand-over to the next stage.

use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::Kind;
use crate::poly::stages::bdlx::{Choice, Counts, LiveSource};
use crate::poly::stages::debruijn::Entry;
use crate::poly::walk::{Stop, Visit, Walker};
use crate::search::{Flow, StopReason};

impl<B: Bits> Walker<'_, B> {
    /// Writes the live list of the current node at `lbuf[lbuf_used..]`
    /// (segments at depth `self.depth`) and returns its end and counts.
    fn bdlx_root_list(&mut self, src: &LiveSource<B>) -> (usize, Counts<B>) {
        let g1 = self.s.images.groups.len() + 1;
        let base = self.bdlx.used;
        let need = base + src.entries.len();
        if self.bdlx.lbuf.len() < need {
            self.bdlx.lbuf.resize(need, Entry { mask: B::default(), img: 0, grp: 0 });
        }
        if self.bdlx.lseg.len() < (self.depth + 1) * g1 {
            self.bdlx.lseg.resize((self.depth + 1) * g1, 0);
        }
        let seg = self.depth * g1;
        let mut counts = Counts::default();
        let mut w = base;
        for g in 0..g1 - 1 {
            self.bdlx.lseg[seg + g] = w as u32;
            if self.left[g] == 0 {
                continue;
            }
            for e in &src.entries[src.gstart[g] as usize..src.gstart[g + 1] as usize] {
                if e.img >= self.lo[g] && e.mask.disjoint(&self.occ) {
                    self.bdlx.lbuf[w] = *e;
                    counts.add(e.mask);
                    w += 1;
                }
            }
        }
        self.bdlx.lseg[seg + g1 - 1] = w as u32;
        (w, counts)
    }

    /// Min-fit on the node whose live list is `lbuf[..end]` with segments at
    /// this depth: the cell or group with fewest branches (cells first on
    /// ties, as the DLX items are ordered).
    fn bdlx_choose(&self, end: usize, counts: &Counts<B>) -> Choice {
        let free = self.occ.not();
        if !free.andnot(counts.any()).is_zero() {
            return Choice::Dead;
        }
        let g1 = self.s.images.groups.len() + 1;
        let seg = &self.bdlx.lseg[self.depth * g1..(self.depth + 1) * g1];
        let mut best_group = None;
        let mut best = u32::MAX;
        let mut gs = self.avail;
        while gs != 0 {
            let g = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            let len = seg[g + 1] - seg[g];
            let need = self.left[g];
            if len < need {
                return Choice::Dead;
            }
            let theta = len + 1 - need;
            if theta < best {
                best = theta;
                best_group = Some(g);
            }
        }
        for k in 1..=7u32.min(best) {
            if let Some(c) = counts.exactly(free, k).lowest() {
                return Choice::Cell(c);
            }
        }
        if best <= 8 {
            return match best_group {
                Some(g) => Choice::Group(g),
                None => Choice::Dead,
            };
        }
        // Every cell has at least 8 images: count exactly (rare, near the root).
        let mut n = vec![0u32; self.s.images.n_cells];
        for e in &self.bdlx.lbuf[..end] {
            let mut m = e.mask.and(free);
            while let Some(c) = m.pop_lowest() {
                n[c] += 1;
            }
        }
        let mut f = free;
        let mut cell = None;
        while let Some(c) = f.pop_lowest() {
            if c < n.len() && n[c] < best {
                best = n[c];
                cell = Some(c);
            }
        }
        match (cell, best_group) {
            (Some(c), _) => Choice::Cell(c),
            (None, Some(g)) => Choice::Group(g),
            (None, None) => Choice::Dead,
        }
    }

    /// Runs bdlx from this node (every branch searched) down to the leaves
    /// or the next stage. Needs at most 64 groups (`avail` is a `u128`
    /// with the upper half unused).
    pub(in crate::poly) fn bdlx_kernel<const TRIG: bool>(
        &mut self,
        live: &LiveSource<B>,
        visit: &mut Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let handover = (1..self.n_left).rev().find(|&n| s.stages.kinds()[n as usize] != Kind::Bdlx).unwrap_or(0);
        let start = self.bdlx.used;
        let (end, counts) = self.bdlx_root_list(live);
        self.bdlx_node::<TRIG>(start, end, counts, handover, visit)
    }

    /// A node with pieces left whose live list is `lbuf[start..end]`
    /// (segments at this depth).
    fn bdlx_node<const TRIG: bool>(
        &mut self,
        start: usize,
        end: usize,
        counts: Counts<B>,
        handover: u32,
        visit: &mut Visit<'_>,
    ) -> Result<(), Stop> {
        let g1 = self.s.images.groups.len() + 1;
        let choice = self.bdlx_choose(end, &counts);
        let seg0 = self.depth * g1;
        match choice {
            Choice::Dead => Ok(()),
            Choice::Cell(c) => {
                let mut gs = self.avail;
                while gs != 0 {
                    let g = gs.trailing_zeros() as usize;
                    gs &= gs - 1;
                    let (a, b) = (self.bdlx.lseg[seg0 + g] as usize, self.bdlx.lseg[seg0 + g + 1] as usize);
                    for i in a..b {
                        if self.bdlx.lbuf[i].mask.test(c) {
                            self.bdlx_child::<TRIG>(start, end, i, g, false, handover, visit)?;
                        }
                    }
                }
                Ok(())
            }
            Choice::Group(g) => {
                let (a, b) = (self.bdlx.lseg[seg0 + g] as usize, self.bdlx.lseg[seg0 + g + 1] as usize);
                let need = self.left[g] as usize;
                // Child `i` takes image `i` and none before it: at least
                // `need - 1` images must remain after it.
                for i in a..b + 1 - need {
                    self.bdlx_child::<TRIG>(start, end, i, g, true, handover, visit)?;
                }
                Ok(())
            }
        }
    }

    /// Places live image `i` (group `g`) of the node `lbuf[start..end]`,
    /// builds the child's live list after `end` and searches it. `ordered`:
    /// the node branches on group `g`, so the child keeps only `g`'s images
    /// after `i`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn bdlx_child<const TRIG: bool>(
        &mut self,
        start: usize,
        end: usize,
        i: usize,
        g: usize,
        ordered: bool,
        handover: u32,
        visit: &mut Visit<'_>,
    ) -> Result<(), Stop> {
        let _ = start;
        let e = self.bdlx.lbuf[i];
        let g1 = self.s.images.groups.len() + 1;
        let seg0 = self.depth * g1;
        self.place(e.img);
        // Under an ordered branch `g`'s images up to `e` are excluded in
        // the whole subtree; a later stage reads that from `lo`.
        let (lo, lo_mask) = (self.lo[g], self.lo_mask);
        if ordered && self.left[g] > 0 {
            self.lo[g] = e.img + 1;
            self.lo_mask |= 1 << g;
        }
        let result = 'child: {
            if self.n_left == 0 {
                self.solutions += 1;
                break 'child match visit(&self.path[..self.depth]) {
                    Flow::Continue => Ok(()),
                    Flow::Stop => Err(Stop::Limit(StopReason::Visitor)),
                };
            }
            if TRIG && !self.triggers_ok() {
                break 'child Ok(());
            }
            if let Err(stop) = self.tick() {
                break 'child Err(stop);
            }
            if self.n_left == handover {
                // The next stage may run bdlx again: its lists go after ours.
                let used = std::mem::replace(&mut self.bdlx.used, end);
                let r = self.node(visit);
                self.bdlx.used = used;
                break 'child r;
            }
            let free = self.occ.not();
            if self.n_left == 1 {
                // The last piece: an image of the one group left covering
                // exactly the empty cells.
                let h = self.avail.trailing_zeros() as usize;
                let a = if ordered && h == g { i + 1 } else { self.bdlx.lseg[seg0 + h] as usize };
                let b = self.bdlx.lseg[seg0 + h + 1] as usize;
                for j in a..b {
                    let f = self.bdlx.lbuf[j];
                    if f.mask == free {
                        self.place(f.img);
                        self.solutions += 1;
                        let r = visit(&self.path[..self.depth]);
                        self.unplace(f.img);
                        if r == Flow::Stop {
                            break 'child Err(Stop::Limit(StopReason::Visitor));
                        }
                        break;
                    }
                }
                break 'child Ok(());
            }
            // The child's live list: the parent's minus the images that
            // meet `e` (and minus `g`'s images up to `i` when ordered).
            let cseg = (self.depth) * g1;
            if self.bdlx.lseg.len() < cseg + g1 {
                self.bdlx.lseg.resize(cseg + g1, 0);
            }
            let cap = end + (end - start);
            if self.bdlx.lbuf.len() < cap {
                self.bdlx.lbuf.resize(cap.next_power_of_two(), Entry { mask: B::default(), img: 0, grp: 0 });
            }
            let mut counts = Counts::default();
            let mut w = end;
            let mut gs = self.avail;
            let pm = e.mask;
            while gs != 0 {
                let h = gs.trailing_zeros() as usize;
                gs &= gs - 1;
                self.bdlx.lseg[cseg + h] = w as u32;
                let a = if ordered && h == g { i + 1 } else { self.bdlx.lseg[seg0 + h] as usize };
                let b = self.bdlx.lseg[seg0 + h + 1] as usize;
                for j in a..b {
                    let f = self.bdlx.lbuf[j];
                    if f.mask.disjoint(&pm) {
                        self.bdlx.lbuf[w] = f;
                        counts.add(f.mask);
                        w += 1;
                    }
                }
                self.bdlx.lseg[cseg + h + 1] = w as u32;
            }
            self.bdlx_node::<TRIG>(end, w, counts, handover, visit)
        };
        (self.lo[g], self.lo_mask) = (lo, lo_mask);
        self.unplace(e.img);
        result
    }
}
