//! `bdlx`: DLX's min-fit choice on bit fields. Knuth's rule (branch on
//! the hole or the piece with the fewest ways to go on) gives the smallest
//! trees on compact 3-D puzzles (Busche: 68 M placements for the Tetris
//! Cube against 450 M for his best hybrid), but dancing links pay for it
//! with pointer chasing at every placement. Here a node instead holds the
//! array of the images that still fit (its *live list*, grouped by piece),
//! and a child's list is the parent's with the images that meet the placed
//! one removed: one linear, branch-light pass that also counts, bit-sliced,
//! how many live images cover each cell. The counts give the most
//! constrained hole in a few word operations, the segment lengths the most
//! constrained piece, and a cell no image covers or a piece with too few
//! images ends the branch before it is expanded.
//!
//! Identical pieces: a piece group with `b` copies left counts as a DLX
//! item of multiplicity `b` (`len + 1 - b` branches). When the search
//! branches on such a group, child `j` takes the group's `j`-th image and
//! keeps only the group's images after it, so each set of copies is placed
//! once (the exclusions a DLX stage above made arrive as `lo`).

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::model::Images;
use crate::poly::stages::debruijn::Entry;
use crate::poly::walk::{Kind, Stop, Visit, Walker};
use crate::search::{Flow, StopReason};

/// Per-cell counts of live images, bit-sliced: cell `c` is covered by
/// `b0 + 2 b1 + 4 b2` live images when `c` is not in `sat`, by at least 8
/// when it is.
#[derive(Clone, Copy, Debug, Default)]
struct Counts<B> {
    b0: B,
    b1: B,
    b2: B,
    sat: B,
}

impl<B: Bits> Counts<B> {
    /// Counts one more image covering `m`.
    #[inline(always)]
    fn add(&mut self, m: B) {
        let c0 = self.b0.and(m);
        self.b0 = self.b0.xor(m);
        let c1 = self.b1.and(c0);
        self.b1 = self.b1.xor(c0);
        let c2 = self.b2.and(c1);
        self.b2 = self.b2.xor(c1);
        self.sat = self.sat.or(c2);
    }

    /// Cells covered by at least one image.
    #[inline(always)]
    fn any(&self) -> B {
        self.b0.or(self.b1).or(self.b2).or(self.sat)
    }

    /// Cells of `cells` covered by exactly `k` (1..=7) images.
    #[inline(always)]
    fn exactly(&self, cells: B, k: u32) -> B {
        let pick = |plane: B, bit: u32| if k >> bit & 1 == 1 { plane } else { plane.not() };
        cells.and(pick(self.b0, 0)).and(pick(self.b1, 1)).and(pick(self.b2, 2)).andnot(self.sat)
    }
}

/// The images of every group, grouped, for building a first live list.
///
/// Invariant: the images of group `g` are `entries[gstart[g]..gstart[g +
/// 1]]`, in image order.
#[derive(Clone, Debug)]
pub struct LiveSource<B> {
    entries: Vec<Entry<B>>,
    gstart: Vec<u32>,
}

impl<B: Bits> LiveSource<B> {
    /// The source of `images` (masks in `t`).
    pub fn new(images: &Images, t: &Tables<B>) -> Self {
        let mut entries = Vec::with_capacity(images.len());
        let mut gstart = Vec::with_capacity(images.groups.len() + 1);
        for (g, ks) in t.by_group.iter().enumerate() {
            gstart.push(entries.len() as u32);
            entries.extend(ks.iter().map(|&k| Entry { mask: t.mask[k as usize], img: k, grp: g as u32 }));
        }
        gstart.push(entries.len() as u32);
        LiveSource { entries, gstart }
    }
}

/// What to branch on.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// Nothing fits: a dead end.
    Dead,
    /// Every image covering this cell.
    Cell(usize),
    /// Every image of this group.
    Group(usize),
}

impl<B: Bits> Walker<'_, B> {
    /// Writes the live list of the current node at `lbuf[lbuf_used..]`
    /// (segments at depth `self.depth`) and returns its end and counts.
    fn bdlx_root_list(&mut self) -> (usize, Counts<B>) {
        let src = self.s.live.as_ref().expect("bdlx stages have a live source");
        let g1 = self.s.images.groups.len() + 1;
        let base = self.lbuf_used;
        let need = base + src.entries.len();
        if self.lbuf.len() < need {
            self.lbuf.resize(need, Entry { mask: B::default(), img: 0, grp: 0 });
        }
        if self.lseg.len() < (self.depth + 1) * g1 {
            self.lseg.resize((self.depth + 1) * g1, 0);
        }
        let seg = self.depth * g1;
        let mut counts = Counts::default();
        let mut w = base;
        for g in 0..g1 - 1 {
            self.lseg[seg + g] = w as u32;
            if self.left[g] == 0 {
                continue;
            }
            for e in &src.entries[src.gstart[g] as usize..src.gstart[g + 1] as usize] {
                if e.img >= self.lo[g] && e.mask.disjoint(&self.occ) {
                    self.lbuf[w] = *e;
                    counts.add(e.mask);
                    w += 1;
                }
            }
        }
        self.lseg[seg + g1 - 1] = w as u32;
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
        let seg = &self.lseg[self.depth * g1..(self.depth + 1) * g1];
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
        for e in &self.lbuf[..end] {
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
    pub(in crate::poly) fn bdlx_kernel<const TRIG: bool>(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let s = self.s;
        let handover = (1..self.n_left).rev().find(|&n| s.stage_of[n as usize] != Kind::Bdlx).unwrap_or(0);
        let start = self.lbuf_used;
        let (end, counts) = self.bdlx_root_list();
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
                    let (a, b) = (self.lseg[seg0 + g] as usize, self.lseg[seg0 + g + 1] as usize);
                    for i in a..b {
                        if self.lbuf[i].mask.test(c) {
                            self.bdlx_child::<TRIG>(start, end, i, g, false, handover, visit)?;
                        }
                    }
                }
                Ok(())
            }
            Choice::Group(g) => {
                let (a, b) = (self.lseg[seg0 + g] as usize, self.lseg[seg0 + g + 1] as usize);
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
        let e = self.lbuf[i];
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
                let used = std::mem::replace(&mut self.lbuf_used, end);
                let r = self.node(visit);
                self.lbuf_used = used;
                break 'child r;
            }
            let free = self.occ.not();
            if self.n_left == 1 {
                // The last piece: an image of the one group left covering
                // exactly the empty cells.
                let h = self.avail.trailing_zeros() as usize;
                let a = if ordered && h == g { i + 1 } else { self.lseg[seg0 + h] as usize };
                let b = self.lseg[seg0 + h + 1] as usize;
                for j in a..b {
                    let f = self.lbuf[j];
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
            if self.lseg.len() < cseg + g1 {
                self.lseg.resize(cseg + g1, 0);
            }
            let cap = end + (end - start);
            if self.lbuf.len() < cap {
                self.lbuf.resize(cap.next_power_of_two(), Entry { mask: B::default(), img: 0, grp: 0 });
            }
            let mut counts = Counts::default();
            let mut w = end;
            let mut gs = self.avail;
            let pm = e.mask;
            while gs != 0 {
                let h = gs.trailing_zeros() as usize;
                gs &= gs - 1;
                self.lseg[cseg + h] = w as u32;
                let a = if ordered && h == g { i + 1 } else { self.lseg[seg0 + h] as usize };
                let b = self.lseg[seg0 + h + 1] as usize;
                for j in a..b {
                    let f = self.lbuf[j];
                    if f.mask.disjoint(&pm) {
                        self.lbuf[w] = f;
                        counts.add(f.mask);
                        w += 1;
                    }
                }
                self.lseg[cseg + h + 1] = w as u32;
            }
            self.bdlx_node::<TRIG>(end, w, counts, handover, visit)
        };
        (self.lo[g], self.lo_mask) = (lo, lo_mask);
        self.unplace(e.img);
        result
    }
}

/// The images of the hole or piece bdlx would branch on at this state,
/// computed from scratch (for sampling, estimates and split searches):
/// writes them to `out`, returns how many.
pub fn candidates<B: Bits>(t: &Tables<B>, occ: B, left: &[u32], avail: u128, lo: &[u32], out: &mut [u32]) -> usize {
    let free = occ.not();
    let mut counts = Counts::default();
    let mut per_group: Vec<Vec<u32>> = vec![Vec::new(); left.len()];
    let mut gs = avail;
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        for &k in &t.by_group[g] {
            if k >= lo[g] && t.mask[k as usize].disjoint(&occ) {
                counts.add(t.mask[k as usize]);
                per_group[g].push(k);
            }
        }
    }
    if !free.andnot(counts.any()).is_zero() {
        return 0;
    }
    let mut best = u32::MAX;
    let mut best_group = None;
    let mut gs = avail;
    while gs != 0 {
        let g = gs.trailing_zeros() as usize;
        gs &= gs - 1;
        let len = per_group[g].len() as u32;
        if len < left[g] {
            return 0;
        }
        if len + 1 - left[g] < best {
            best = len + 1 - left[g];
            best_group = Some(g);
        }
    }
    let mut cell = None;
    for k in 1..=7u32.min(best) {
        if let Some(c) = counts.exactly(free, k).lowest() {
            cell = Some(c);
            break;
        }
    }
    if cell.is_none() && best > 8 {
        let mut f = free;
        while let Some(c) = f.pop_lowest() {
            let n = per_group.iter().flatten().filter(|&&k| t.mask[k as usize].test(c)).count() as u32;
            if n < best {
                best = n;
                cell = Some(c);
            }
        }
    }
    let mut n = 0;
    match (cell, best_group) {
        (Some(c), _) => {
            for &k in per_group.iter().flatten() {
                if t.mask[k as usize].test(c) {
                    out[n] = k;
                    n += 1;
                }
            }
        }
        (None, Some(g)) => {
            // Branching on a group from scratch takes each image as the
            // copy placed now; with copies left the order matters, so the
            // generic walk branches on a cell instead when `g` has copies.
            if left[g] > 1 {
                let c = free.lowest().expect("free cells remain");
                for &k in per_group.iter().flatten() {
                    if t.mask[k as usize].test(c) {
                        out[n] = k;
                        n += 1;
                    }
                }
            } else {
                for &k in &per_group[g] {
                    out[n] = k;
                    n += 1;
                }
            }
        }
        (None, None) => {}
    }
    n
}
