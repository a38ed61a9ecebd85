//! `bdlx`: DLX's min-fit choice on bit fields. Knuth's rule (branch on
//! the hole or the piece with the fewest ways to go on) gives the smallest
//! trees on compact 3-D puzzles (in Busche's article, a fraction of the
//! placements of his best schedule on the Tetris Cube), but dancing links
//! pay for it with pointer chasing at every placement. Here a node instead holds the
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

mod kernel;

/// Per-cell counts of live images, bit-sliced: cell `c` is covered by
/// `b0 + 2 b1 + 4 b2` live images when `c` is not in `sat`, by at least 8
/// when it is.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::poly::stages::bdlx) struct Counts<B> {
    b0: B,
    b1: B,
    b2: B,
    sat: B,
}

impl<B: Bits> Counts<B> {
    /// Counts one more image covering `m`.
    #[inline(always)]
    pub(in crate::poly::stages::bdlx) fn add(&mut self, m: B) {
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
    pub(in crate::poly::stages::bdlx) fn any(&self) -> B {
        self.b0.or(self.b1).or(self.b2).or(self.sat)
    }

    /// Cells of `cells` covered by exactly `k` (1..=7) images.
    #[inline(always)]
    pub(in crate::poly::stages::bdlx) fn exactly(&self, cells: B, k: u32) -> B {
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
    pub(in crate::poly::stages::bdlx) entries: Vec<Entry<B>>,
    pub(in crate::poly::stages::bdlx) gstart: Vec<u32>,
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
pub(in crate::poly::stages::bdlx) enum Choice {
    /// Nothing fits: a dead end.
    Dead,
    /// Every image covering this cell.
    Cell(usize),
    /// Every image of this group.
    Group(usize),
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

/// What the bdlx stage keeps per walker: the live lists along the current
/// path.
///
/// Invariant: `lseg[d * (groups + 1) + g]` is where group `g`'s live images
/// of depth `d` start in `lbuf` (the last entry ends the list);
/// `lbuf[..used]` holds the lists of the bdlx stages enclosing the current
/// one.
#[derive(Debug, Default)]
pub struct BdlxScratch<B> {
    /// The live lists, one after the other along the current path.
    pub(in crate::poly) lbuf: Vec<Entry<B>>,
    /// The segments of `lbuf` by depth and group.
    pub(in crate::poly) lseg: Vec<u32>,
    /// The part of `lbuf` in use by enclosing bdlx stages.
    pub(in crate::poly) used: usize,
}
