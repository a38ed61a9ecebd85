//! The per-root image lists of de Bruijn's algorithm ([`RootIndex`]), their
//! structure-of-arrays copy for the AVX2 fit test, the flat-box rows of the
//! single-cell check, and the last piece's lookup table.

use crate::poly::model::bits::Bits;
use crate::poly::model::rows::Rows;
use crate::poly::model::Images;
/// One image of a root list: its cells and id, side by side.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Entry<B> {
    /// The image's cells.
    pub mask: B,
    /// Image id.
    pub img: u32,
    /// The image's piece group (in the padding after `img` for `u64` and
    /// `u128` masks), so a kernel need not keep the group of the run it
    /// scans.
    pub grp: u32,
}

/// The images rooted at each cell, by the occupancy of the `width` cells
/// after it, and by piece group.
///
/// Invariant: for cell `c` and pattern `p` (bit `i` set iff cell `c + 1 + i`
/// is occupied), key `k = (c << width) | p` has `groups[k]` = the groups
/// with an image in its lists, and with `G` groups the images of group `g`
/// are `entries[gstart[k * (G + 1) + g]..gstart[k * (G + 1) + g + 1]]`, in
/// image order: exactly the images of `g` whose least cell is `c` and whose
/// cells among `c + 1 ..= c + width` are all free under `p`. Groups are
/// below 64.
#[derive(Clone, Debug)]
pub struct RootIndex<B> {
    pub(in crate::poly::stages::debruijn) width: u32,
    pub(in crate::poly::stages::debruijn) n_groups: usize,
    pub(in crate::poly::stages::debruijn) groups: Vec<u64>,
    pub(in crate::poly::stages::debruijn) gstart: Vec<u32>,
    pub(in crate::poly::stages::debruijn) entries: Vec<Entry<B>>,
    /// The images by exact cell set, to place a last piece by one lookup.
    pub(in crate::poly::stages::debruijn) last: LastPiece<B>,
    /// Cells next to each image.
    pub(in crate::poly::stages::debruijn) halo: Vec<B>,
    /// Whether an empty cell with no empty neighbour is a dead end (no
    /// piece has a single cell).
    pub(in crate::poly::stages::debruijn) prune_single: bool,
    /// Whether two empty cells next to each other with no other empty
    /// neighbour are a dead end (every piece has at least three cells).
    pub(in crate::poly::stages::debruijn) prune_pair: bool,
    /// The cells as rows of a flat box, when they are: the single-cell
    /// check is then a few shifts instead of a walk over the halo.
    pub(in crate::poly::stages::debruijn) rows: Option<Rows<B>>,
    /// The entries' cells and groups as a structure of arrays for the
    /// AVX2 fit test of [`lean`], when it applies (the processor has AVX2,
    /// at most 128 cells, no key with more than 64 entries).
    pub(in crate::poly::stages::debruijn) simd: Option<Soa>,
}

/// Entry `i` of [`RootIndex::entries`] as a structure of arrays: `lo[i]`
/// its cells `0..64`, `hi[i]` its cells `64..128` (no `hi` for boxes of at
/// most 64 cells), `grp[i]` its group, `img[i]` its image.
/// Invariant: `lo`, `grp` (and `hi` when not empty) have the entries'
/// length plus [`SOA_PAD`], the padding words zero (the 64 words or bytes
/// from any entry, and from the end, are inside: the AVX-512 pass reads a
/// list's 64 group bytes at once); `img` has the entries' length.
#[derive(Clone, Debug)]
pub(in crate::poly::stages::debruijn) struct Soa {
    pub(in crate::poly::stages::debruijn) lo: Vec<u64>,
    pub(in crate::poly::stages::debruijn) hi: Vec<u64>,
    pub(in crate::poly::stages::debruijn) grp: Vec<u8>,
    pub(in crate::poly::stages::debruijn) img: Vec<u32>,
    /// Per key, its whole list (all groups): the first entry's index in
    /// the low 32 bits, the list's length (at most 64) in the high ones.
    pub(in crate::poly::stages::debruijn) keys: Vec<u64>,
    /// The lean loop runs its AVX-512 copy ([`crate::poly::stages::debruijn::lean`]'s `run_avx512`):
    /// the SIMD level allows it ([`crate::cpu::avx512`]). Otherwise the
    /// AVX2 copy.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code, reason = "only x86-64 has an AVX-512 copy"))]
    pub(in crate::poly::stages::debruijn) avx512: bool,
}

/// Padding words after the [`Soa`] arrays.
pub(in crate::poly::stages::debruijn) const SOA_PAD: usize = 64;

/// The widest window when the lean loop's AVX2 copy applies: a key's fit
/// bits cost little per entry there, so one cell less than the scalar
/// loop's window (7) gives longer lists but an index that misses the
/// caches less, which pays (measured on the flat pentomino boxes:
/// docs/tried/poly.md, "de Bruijn's loop", the width of the root index's
/// window).
pub(in crate::poly::stages::debruijn) const SIMD_WINDOW: u32 = 6;

/// Whether the processor and masks `B` allow a [`Soa`]: at most 128
/// cells, and the SIMD level at least [`crate::cpu::Level::Avx2`] (AVX2
/// and the bit instructions, unless the environment lowers the level).
pub(in crate::poly::stages::debruijn) fn simd_possible<B: Bits>() -> bool {
    B::CAPACITY <= 128 && crate::cpu::avx2()
}

/// Memory the index may take (bytes); the window narrows to stay below.
pub(in crate::poly::stages::debruijn) const INDEX_BUDGET: usize = 24 << 20;

impl<B: Bits> RootIndex<B> {
    /// Builds the index with the widest window (at most `max_width` bits,
    /// at most [`SIMD_WINDOW`] for the lean loop's AVX2 copy) that fits
    /// the memory budget, and its [`Soa`] for that copy when no key has
    /// more than 64 entries. Needs at most 64 groups.
    pub fn new(images: &Images, masks: &[B], max_width: u32) -> Self {
        assert!(images.groups.len() <= 64);
        let n = images.n_cells;
        let n_groups = images.groups.len();
        let entry = std::mem::size_of::<Entry<B>>();
        let per_key = 8 + 4 * (n_groups + 1);
        let nb = images.neighbours();
        let prune_single = images.groups.iter().all(|g| g.size > 1);
        let prune_pair = images.groups.iter().all(|g| g.size > 2);
        let rows = Rows::of(&nb);
        // The lean loop's AVX2 copy applies (when no key has more than 64
        // entries; triggers and copies of pieces are the walker's to see).
        let lean_simd = rows.is_some() && prune_single && simd_possible::<B>();
        let mut width = max_width.min(if lean_simd { SIMD_WINDOW } else { 16 });
        let copies = loop {
            let copies: usize = images
                .cells
                .iter()
                .map(|cs| {
                    let root = cs[0] as usize;
                    let inside = cs.iter().filter(|&&c| (c as usize) > root && (c as usize) <= root + width as usize);
                    1usize << (width as usize - inside.count())
                })
                .sum();
            if width == 0 || copies * entry + (n << width) * per_key <= INDEX_BUDGET {
                break copies;
            }
            width -= 1;
        };
        let mut rooted: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, cs) in images.cells.iter().enumerate() {
            rooted[cs[0] as usize].push(k as u32);
        }
        let g1 = n_groups + 1;
        let n_pat = 1usize << width;
        let all = (n_pat - 1) as u64;
        let mut groups = Vec::with_capacity(n << width);
        let mut gstart = vec![0u32; (n << width) * g1];
        let mut entries = Vec::with_capacity(copies);
        // Per root cell, by counting: an image belongs to the lists of the
        // patterns that leave its window cells free, the subsets of the
        // complement of its window bits. The images of the cell are taken
        // in (group, image) order, so each list comes out in image order.
        // The work is the index's size, not patterns times images.
        let mut cand: Vec<(u64, u16, Entry<B>)> = Vec::new();
        // `count[p * n_groups + g]`: images of group `g` in pattern `p`'s
        // list, then the next free position of that list in `entries`.
        let mut count = vec![0u32; n_pat * n_groups];
        let mut filled = 0usize;
        for (c, ks) in rooted.iter_mut().enumerate() {
            ks.sort_by_key(|&k| (images.group[k as usize], k));
            cand.clear();
            cand.extend(ks.iter().map(|&k| {
                let mask = masks[k as usize];
                let g = images.group[k as usize];
                (!mask.window(c + 1, width) & all, g, Entry { mask, img: k, grp: g as u32 })
            }));
            count.fill(0);
            for &(free, g, _) in &cand {
                let mut p = free;
                loop {
                    count[p as usize * n_groups + g as usize] += 1;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & free;
                }
            }
            for p in 0..n_pat {
                let key = (c << width) | p;
                let starts = &mut gstart[key * g1..(key + 1) * g1];
                let counts = &mut count[p * n_groups..(p + 1) * n_groups];
                let mut present = 0u64;
                for (g, (start, n_in)) in starts.iter_mut().zip(counts.iter_mut()).enumerate() {
                    let k = *n_in;
                    *start = filled as u32;
                    *n_in = filled as u32;
                    present |= u64::from(k != 0) << g;
                    filled += k as usize;
                }
                starts[n_groups] = filled as u32;
                groups.push(present);
            }
            entries.resize(filled, Entry { mask: B::default(), img: 0, grp: 0 });
            for &(free, g, e) in &cand {
                let mut p = free;
                loop {
                    let at = &mut count[p as usize * n_groups + g as usize];
                    entries[*at as usize] = e;
                    *at += 1;
                    if p == 0 {
                        break;
                    }
                    p = (p - 1) & free;
                }
            }
        }
        let last = LastPiece::new(images, masks);
        let halo = images
            .cells
            .iter()
            .enumerate()
            .map(|(k, cs)| {
                cs.iter()
                    .flat_map(|&c| nb[c as usize].iter())
                    .fold(B::default(), |h, &b| h.or(B::bit(b as usize)))
                    .andnot(masks[k])
            })
            .collect();
        let longest = (0..groups.len()).map(|key| gstart[key * g1 + n_groups] - gstart[key * g1]).max().unwrap_or(0);
        let simd = (longest <= 64 && lean_simd).then(|| {
            // Written once at their final size (a collected copy padded
            // afterwards was a second array of the entries' length).
            fn pad(words: impl ExactSizeIterator<Item = u64>) -> Vec<u64> {
                let mut v = Vec::with_capacity(words.len() + SOA_PAD);
                v.extend(words);
                v.extend([0; SOA_PAD]);
                v
            }
            Soa {
                lo: pad(entries.iter().map(|e| e.mask.low64())),
                hi: if B::CAPACITY > 64 { pad(entries.iter().map(|e| e.mask.shr(64).low64())) } else { Vec::new() },
                grp: entries.iter().map(|e| e.grp as u8).chain([0; SOA_PAD]).collect(),
                img: entries.iter().map(|e| e.img).collect(),
                keys: (0..groups.len())
                    .map(|key| {
                        let (from, to) = (gstart[key * g1], gstart[key * g1 + n_groups]);
                        u64::from(from) | u64::from(to - from) << 32
                    })
                    .collect(),
                avx512: crate::cpu::avx512(),
            }
        });
        RootIndex { width, n_groups, groups, gstart, entries, last, halo, prune_single, prune_pair, rows, simd }
    }

    /// Sets whether the lean loop runs its AVX-512 copy (tests compare the
    /// copies); the index must have its AVX arrays.
    #[cfg(test)]
    pub(in crate::poly) fn set_lean_avx512(&mut self, on: bool) {
        self.simd.as_mut().expect("the AVX copies' arrays").avx512 = on;
    }

    /// Window width in bits.
    pub fn width(&self) -> u32 {
        self.width
    }
}

/// An open-addressing table from an image's exact cell set to the image.
///
/// Invariant: `slots.len()` is a power of two at least twice the number
/// of images; a slot holds `(mask, image)` or `u32::MAX` as image when
/// empty; every image sits in the first free slot of its probe sequence
/// (linear probing from `hash(mask)`). Masks of distinct images differ
/// (identical pieces form one group; distinct groups differ in shape).
#[derive(Clone, Debug)]
pub(in crate::poly::stages::debruijn) struct LastPiece<B> {
    pub(in crate::poly::stages::debruijn) slots: Vec<(B, u32)>,
    pub(in crate::poly::stages::debruijn) shift: u32,
}

impl<B: Bits> LastPiece<B> {
    pub(in crate::poly::stages::debruijn) fn new(images: &Images, masks: &[B]) -> Self {
        let bits = (2 * images.len().max(1)).next_power_of_two().trailing_zeros().max(1);
        let mut t = LastPiece { slots: vec![(B::default(), u32::MAX); 1 << bits], shift: 64 - bits };
        for (k, m) in masks.iter().enumerate() {
            let mut i = t.slot(m);
            while t.slots[i].1 != u32::MAX {
                if t.slots[i].0 == *m {
                    break;
                }
                i = (i + 1) & (t.slots.len() - 1);
            }
            if t.slots[i].1 == u32::MAX {
                t.slots[i] = (*m, k as u32);
            }
        }
        t
    }

    #[inline(always)]
    pub(in crate::poly::stages::debruijn) fn slot(&self, m: &B) -> usize {
        (m.hash64().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    /// The image covering exactly `cells`, if any.
    #[inline(always)]
    pub(in crate::poly::stages::debruijn) fn find(&self, cells: &B) -> Option<u32> {
        let mut i = self.slot(cells);
        loop {
            // SAFETY: `i` is masked to the table size.
            let (m, k) = unsafe { *self.slots.get_unchecked(i) };
            if k == u32::MAX {
                return None;
            }
            if m == *cells {
                return Some(k);
            }
            i = (i + 1) & (self.slots.len() - 1);
        }
    }
}
