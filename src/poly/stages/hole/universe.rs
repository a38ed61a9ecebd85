//! The bottom of the MCH / EMCH search over a subtree's own image set, kept
//! as bit columns (AVX-512).
//!
//! When a placement leaves [`SWITCH`] pieces (or fewer, below a state
//! whose set did not fit), the images of those pieces
//! that still fit (at most [`CAPACITY`]) are numbered `0..n` (by group,
//! then by image id: the order of the cover lists) and turned into one row
//! of bits per cell: the images covering the cell. Below that state the
//! images still free are a bit set `live`, and
//!
//! * a hole's fit count is `popcount(live & row[cell])` (one AND and one
//!   population count per 512 bits, no list to walk);
//! * a placement clears the rows of its cells and its group's images from
//!   `live` (the child's set, in registers);
//! * the hole's images are the bits of `live & row[cell]`.
//!
//! The holes chosen are exactly those of [`crate::poly::stages::hole::choose`] (the same
//! neighbour levels, the same counts, the same ties), and the images are
//! tried in the same order, so the tree, its nodes and its solutions are
//! those of the hole kernel; the node costs less (no keyed lists, whose
//! dependent loads set the kernel's pace; docs/tried/poly.md, "MCH and
//! EMCH", the bottom 8 pieces over bit columns). The rows are built per
//! subtree by a 64 x 64 bit transpose per block of 64 images (byte
//! shuffles and `gf2p8affineqb`), cheap against the subtree it serves. A
//! set of at most 512 images is searched with one 512-bit word per row,
//! a larger one with two.
//!
//! It runs only at [`crate::cpu::Level::Avx512`].

use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::plan::schedule::Kind;
use crate::poly::plan::schedule::Widen;
use std::arch::x86_64::*;
use transpose::transpose64;

/// The walk below a subtree's root over its set (`universe/search.rs`).
mod search;
/// The 64 x 64 bit transpose of the build (`universe/transpose.rs`).
mod transpose;

/// Words of an image set.
const WORDS: usize = 16;
/// The most images a subtree's set holds.
pub(in crate::poly::stages::hole) const CAPACITY: usize = WORDS * 64;
/// Pieces left at the states whose subtrees are searched over their own
/// set. Chosen by measurement on the Tetris Cube: one piece more and the
/// sets often exceed [`CAPACITY`] (their subtrees stay in the hole
/// kernel); one or two fewer and many times as many sets are built, each
/// serving a smaller subtree, so the builds cost more than the cheaper
/// nodes save (docs/tried/poly.md, "MCH and EMCH": where the sets start).
pub(in crate::poly::stages::hole) const SWITCH: u32 = 8;
/// The cell index of the empty row (the padding of [`Universe`]'s cells).
const NO_CELL: u8 = 64;

/// A set of a subtree's images, bit `j` for image `j`.
type Set = [u64; WORDS];

/// One depth of the search: the images still free there and the
/// candidates not yet tried (with a bit per non-empty word of `cand`).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Frame {
    live: Set,
    cand: Set,
    words: u32,
}

/// The image set of one subtree and the tables it is built from.
///
/// Invariant after [`Universe::build`]: images `0..n` are the images of
/// the root's remaining groups disjoint from its occupancy, by group then
/// id; `ids[j]` is image `j`'s id; `rows[c]` bit `j` is set iff image `j`
/// covers cell `c` (`rows[64]` is empty); `grp[g]` holds the images of
/// group `g` (for the root's groups). The bits at `n` and above are
/// never in a live set.
pub struct Universe {
    /// The images by group: masks and ids, group `g` at
    /// `g_start[g]..g_start[g + 1]`.
    g_masks: Vec<u64>,
    g_ids: Vec<u32>,
    g_start: Vec<u32>,
    /// Each image's cells (by id), padded with [`NO_CELL`].
    cells: Vec<[u8; 8]>,
    rows: Vec<Set>,
    grp: Vec<Set>,
    ids: Vec<u32>,
    masks: Vec<u64>,
    /// The cells of image `j` (copied from `cells` at the build).
    local_cells: Vec<[u8; 8]>,
    /// The most cells of an image.
    max_cells: usize,
    n: usize,
    frames: Vec<Frame>,
}

impl Universe {
    /// The tables for `t`, or `None` when the search cannot use them: more
    /// than 64 cells or groups, a piece of more than 8 cells, or a SIMD
    /// level below [`crate::cpu::Level::Avx512`] (a processor without
    /// one of its features, or the environment lowering the level, which
    /// keeps the AVX2 hole kernel throughout, as it keeps de Bruijn's AVX2
    /// loop).
    pub(in crate::poly) fn new<B: Bits>(t: &Tables<B>) -> Option<Box<Universe>> {
        if !Self::applies(t) {
            return None;
        }
        let mut g_start = vec![0u32; t.n_groups + 1];
        for &g in &t.group {
            g_start[g as usize + 1] += 1;
        }
        for g in 0..t.n_groups {
            g_start[g + 1] += g_start[g];
        }
        let mut at: Vec<u32> = g_start[..t.n_groups].to_vec();
        let (mut g_masks, mut g_ids) = (vec![0u64; t.mask.len()], vec![0u32; t.mask.len()]);
        let mut cells = vec![[NO_CELL; 8]; t.mask.len()];
        for (k, m) in t.mask.iter().enumerate() {
            let g = t.group[k] as usize;
            let i = at[g] as usize;
            at[g] += 1;
            g_masks[i] = m.low64();
            g_ids[i] = k as u32;
            let mut rest = m.low64();
            let mut c = 0;
            while rest != 0 {
                debug_assert!(c < 8, "`applies` checked the piece sizes");
                cells[k][c] = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                c += 1;
            }
        }
        // The compress stores write 8 entries at the count.
        let slack = CAPACITY + 64;
        Some(Box::new(Universe {
            g_masks,
            g_ids,
            g_start,
            cells,
            rows: vec![[0; WORDS]; 65],
            grp: vec![[0; WORDS]; t.n_groups],
            ids: vec![0; slack],
            local_cells: vec![[NO_CELL; 8]; slack],
            max_cells: t.mask.iter().map(|m| m.count() as usize).max().unwrap_or(0),
            masks: vec![0; slack],
            n: 0,
            frames: Vec::new(),
        }))
    }

    /// Whether [`Universe::new`] gives tables for `t` (the conditions it
    /// lists).
    pub(in crate::poly) fn applies<B: Bits>(t: &Tables<B>) -> bool {
        crate::cpu::avx512()
            && t.n_cells <= 64
            && t.n_groups <= 64
            && B::CAPACITY <= 64
            && t.mask.iter().all(|m| m.count() <= 8)
    }

    /// Builds the set of the images of groups `avail` disjoint from `occ`;
    /// false when they are more than [`CAPACITY`].
    ///
    /// # Safety
    /// The processor has the parts [`Universe::new`] checks.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni"
    )]
    unsafe fn build(&mut self, occ: u64, avail: u64) -> bool {
        let occv = _mm512_set1_epi64(occ as i64);
        let (gm, gi) = (self.g_masks.as_ptr(), self.g_ids.as_ptr());
        let (om, oi) = (self.masks.as_mut_ptr(), self.ids.as_mut_ptr());
        let mut n = 0usize;
        let mut gs = avail;
        while gs != 0 {
            let g = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            let first = n;
            let (a, b) = (self.g_start[g] as usize, self.g_start[g + 1] as usize);
            let mut i = a;
            while i < b {
                let tail: __mmask8 = if b - i >= 8 { 0xff } else { (1u8 << (b - i)) - 1 };
                let m = _mm512_maskz_loadu_epi64(tail, gm.add(i) as *const i64);
                let keep = _mm512_mask_testn_epi64_mask(tail, m, occv);
                let ids = _mm256_maskz_loadu_epi32(tail, gi.add(i) as *const i32);
                _mm512_storeu_si512(om.add(n) as *mut __m512i, _mm512_maskz_compress_epi64(keep, m));
                _mm256_storeu_si256(oi.add(n) as *mut __m256i, _mm256_maskz_compress_epi32(keep, ids));
                n += keep.count_ones() as usize;
                if n > CAPACITY {
                    return false;
                }
                i += 8;
            }
            set_range(&mut self.grp[g], first, n);
        }
        self.n = n;
        for j in 0..n {
            *self.local_cells.get_unchecked_mut(j) = *self.cells.get_unchecked(*oi.add(j) as usize);
        }
        // Whole blocks: the masks past `n` are empty.
        let blocks = n.div_ceil(64);
        for j in n..blocks * 64 {
            *om.add(j) = 0;
        }
        for w in 0..blocks {
            let mut out = [0u64; 64];
            transpose64(om.add(64 * w) as *const u64, out.as_mut_ptr());
            for (c, &r) in out.iter().enumerate() {
                self.rows[c][w] = r;
            }
        }
        true
    }

    /// The images of `live` that stay free once image `j` (of group `g`)
    /// is placed: those meeting none of its cells (at most `P`) and not of
    /// its group.
    #[inline(always)]
    fn without<const W: usize, const P: usize>(&self, live: &Set, j: usize, g: usize) -> Set {
        // SAFETY: `j < n` and `g` is a group (the callers'); cells index
        // the 65 rows.
        unsafe {
            let cl = self.local_cells.get_unchecked(j);
            let r = |i: usize| self.rows.get_unchecked(cl[i] as usize);
            let gr = self.grp.get_unchecked(g);
            let (r0, r1, r2, r3, r4, r5) = (r(0), r(1), r(2), r(3), r(4), r(5));
            let mut out = *live;
            for x in 0..W {
                out[x] &= !(gr[x] | r0[x] | r1[x] | r2[x] | r3[x] | r4[x] | r5[x]);
            }
            if P > 6 {
                let (r6, r7) = (r(6), r(7));
                for x in 0..W {
                    out[x] &= !(r6[x] | r7[x]);
                }
            }
            out
        }
    }

    /// Fits of the images in `live` at cell `c`.
    #[inline(always)]
    fn count<const W: usize>(&self, live: &Set, c: usize) -> u32 {
        // SAFETY: cells are below 64 (rows has 65).
        let row = unsafe { self.rows.get_unchecked(c) };
        let mut n = 0;
        for w in 0..W {
            n += (live[w] & row[w]).count_ones();
        }
        n
    }

    /// The hole of [`crate::poly::stages::hole::choose::choose_emch`] (by `kind`'s widening)
    /// or [`crate::poly::stages::hole::choose::choose_mch`] at `occ` with images `live`: the
    /// cell and its fits (0: none, or no fit).
    #[inline(always)]
    fn choose<B: Bits, const W: usize>(&self, t: &Tables<B>, live: &Set, occ: u64, kind: Kind) -> (usize, u32) {
        let free = B::from_words(!occ, 0).and(t.padding.not());
        let mut holes = t.counter.fewest_flat(free).low64();
        let (mut best, mut cell) = (u32::MAX, 0);
        while holes != 0 {
            let c = holes.trailing_zeros() as usize;
            holes &= holes - 1;
            let n = self.count::<W>(live, c);
            if n < best {
                (best, cell) = (n, c);
                if n <= 1 {
                    break;
                }
            }
        }
        if best == u32::MAX {
            return (0, 0);
        }
        match kind {
            Kind::Emch(w) => {
                if w.levels > 0 && best > w.threshold {
                    self.widen::<B, W>(t, free, live, w, &mut best, &mut cell);
                }
                (cell, best)
            }
            _ => self.mch_rest::<W>(free.low64(), live, cell, best),
        }
    }

    /// MCH after its first pass (`first`, `best`), as `choose_mch`: a cell
    /// before `first` with as few fits wins, after it only fewer.
    #[inline(always)]
    fn mch_rest<const W: usize>(&self, free: u64, live: &Set, first: usize, mut best: u32) -> (usize, u32) {
        if best == 0 {
            return (first, 0);
        }
        let mut cell = first;
        let mut holes = free & ((1u64 << first) - 1);
        let mut limit = best + 1;
        while holes != 0 {
            let c = holes.trailing_zeros() as usize;
            holes &= holes - 1;
            let n = self.count::<W>(live, c);
            if n < limit {
                (best, limit, cell) = (n, n, c);
                if n == 0 {
                    return (c, 0);
                }
            }
        }
        let mut holes = free & !(u64::MAX >> (63 - first));
        while best > 1 && holes != 0 {
            let c = holes.trailing_zeros() as usize;
            holes &= holes - 1;
            let n = self.count::<W>(live, c);
            if n < best {
                (best, cell) = (n, c);
            }
        }
        (cell, best)
    }

    /// The further neighbour levels of a widened EMCH, as `choose`'s `widen`.
    #[inline(always)]
    fn widen<B: Bits, const W: usize>(
        &self,
        t: &Tables<B>,
        free: B,
        live: &Set,
        w: Widen,
        best: &mut u32,
        cell: &mut usize,
    ) {
        let levels = t.counter.levels(free);
        let mut k = levels.iter().position(|l| !l.is_zero()).unwrap_or(levels.len()) + 1;
        let mut extra = w.levels;
        while extra > 0 && k < levels.len() {
            let mut holes = levels[k].low64();
            k += 1;
            if holes == 0 {
                continue;
            }
            extra -= 1;
            while *best > w.threshold && holes != 0 {
                let c = holes.trailing_zeros() as usize;
                holes &= holes - 1;
                let n = self.count::<W>(live, c);
                if n < *best {
                    (*best, *cell) = (n, c);
                }
            }
            if *best <= w.threshold {
                break;
            }
        }
    }
}

/// Sets bits `a..b` of `s`.
#[inline(always)]
fn set_range(s: &mut Set, a: usize, b: usize) {
    for (w, x) in s.iter_mut().enumerate() {
        let (lo, hi) = (w * 64, w * 64 + 64);
        let from = a.clamp(lo, hi) - lo;
        let to = b.clamp(lo, hi) - lo;
        *x = if to <= from { 0 } else { (u64::MAX >> (64 - (to - from))) << from };
    }
}

/// The state a subtree over its own set starts from (its placement
/// counted already).
pub(in crate::poly::stages::hole) struct Root {
    pub occ: u64,
    pub avail: u64,
    pub n_left: u32,
    /// Depth of the root's children in the path.
    pub depth: usize,
    /// Parity and volume states.
    pub triggers: (usize, i64, usize),
}

#[cfg(test)]
mod tests;
