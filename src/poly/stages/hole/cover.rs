//! The images covering each cell, refined by the occupancy of the cell's
//! face neighbours: the lists MCH and EMCH count and gather from.
//!
//! Every image of two or more cells that covers a cell `c` also covers one
//! of `c`'s face neighbours, and it can only fit if those of its cells
//! are free. So the images covering `c` are stored once per occupancy
//! pattern of `c`'s neighbours (a *key*), each list holding only the images
//! whose cells among the neighbours are free under that pattern. A count
//! at a crowded hole then scans a few images in a few groups instead of
//! every image covering it, hundreds on a 3-D puzzle such as the Tetris
//! Cube (docs/engines.md, "poly", the MCH and EMCH paragraph).

use crate::poly::model::bits::Bits;
use crate::poly::model::Images;
use crate::poly::stages::debruijn::Entry;

/// Memory the index may take (bytes); fewer neighbours are used above it.
const INDEX_BUDGET: usize = 32 << 20;

/// The most neighbours a cell's keys use.
pub const FULL_WIDTH: usize = 6;

/// The most neighbours a cell's keys use when the index serves only the
/// stages above the set search (`hole::sets_below`), two levels on the
/// 3-D puzzles under `auto`: there the longer keys gain little, and the
/// smaller index misses the caches less, so the whole run is faster.
/// Without the set search the hole kernel runs to the bottom, where the
/// full width pays, so [`FULL_WIDTH`] stays. Measured on the Tetris Cube
/// and the solid pentominoes: docs/tried/poly.md, "MCH and EMCH", a
/// 4-neighbour cover index when the sets take the bottom.
pub const WIDTH_ABOVE_SETS: usize = 4;

/// Images covering each cell by the occupancy of its face neighbours, and
/// by piece group.
///
/// Invariant: cell `c` uses its first `width[c]` neighbours `nb[c][..]`,
/// the other entries of `nb[c]` are `c` (free when `c` is counted);
/// key `k = first[c] + p` for pattern `p < 2^width[c]` (bit `i` set iff
/// neighbour `i` is occupied); with `G` groups, the images of group `g`
/// under key `k` are `mask/img[gstart[k * (G + 1) + g]..gstart[k * (G + 1)
/// + g + 1]]`, in image order: exactly the images of `g` covering `c` none
/// of whose cells among the used neighbours is occupied under `p`;
/// `groups[k]` has bit `g` set iff that list is non-empty. `gstart` has
/// `groups.len() * (G + 1)` entries, all at most `entries.len()`.
#[derive(Clone, Debug)]
pub struct CoverIndex<B> {
    n_groups: usize,
    nb: Vec<[u16; 6]>,
    first: Vec<u32>,
    /// Groups with an image under each key.
    pub groups: Vec<u128>,
    gstart: Vec<u32>,
    /// The images (mask and id side by side, read together by the counts).
    entries: Vec<Entry<B>>,
    /// The used neighbours of each cell as a 64-bit mask (bits below 64).
    nbmask: Vec<u64>,
    /// Keys come from one `pext` of the occupancy (cells fit in 64 bits
    /// and the processor has a fast `pext`).
    pext: bool,
    /// The entries again as two arrays, masks (as 64-bit words) and image
    /// ids, for the AVX2 counts: filled only when the cells fit in 64 bits
    /// and the processor has AVX2 (empty otherwise). Each list is padded
    /// to a whole number of 4-entry blocks with entries of mask 0 (which
    /// never fit: the counts test `mask & (occ | cell) == cell`, and every
    /// image covering the counted cell has its bit), so a block needs no
    /// tail mask.
    simd_masks: Vec<u64>,
    simd_ids: Vec<u32>,
    /// For the AVX2 counts, each key's groups (low 64 bits, as two
    /// words) and the starts of its padded lists in the arrays above
    /// (laid out as a row of `gstart`: `G + 1` words), side by side in
    /// whole cache lines (`simd_key_lines` lines per key): the count's
    /// first two dependent loads then miss the cache once, not twice (the
    /// groups decide which start is read).
    simd_keys: Vec<KeyLine>,
    simd_key_lines: usize,
}

/// One cache line of [`CoverIndex`]'s per-key AVX2 records.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct KeyLine([u32; 16]);

/// Entries a block of the AVX2 counts may write past the last fitting
/// image (it writes 4 at the current count).
pub const SIMD_PAD: usize = 4;

/// The bits of `x` at the positions of `m`, packed (BMI2 `pext`). Only
/// called when [`crate::cpu::fast_pext`] said the instruction exists.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pext(x: u64, m: u64) -> u64 {
    let r: u64;
    // SAFETY: a register-only instruction, present (checked by `cpu::fast_pext`
    // before any index enables it).
    unsafe {
        std::arch::asm!("pext {r}, {x}, {m}", r = lateout(reg) r, x = in(reg) x, m = in(reg) m, options(pure, nomem, nostack));
    }
    r
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn pext(_x: u64, _m: u64) -> u64 {
    unreachable!("pext is only used on x86_64")
}

impl<B: Bits> CoverIndex<B> {
    /// Builds the index for `images` (with masks `masks`), using as many
    /// neighbours per cell as the memory budget allows, at most `width`.
    pub fn new(images: &Images, masks: &[B], width: usize) -> Self {
        let n = images.n_cells;
        assert!(n <= 1 << 16, "cells are numbered in 16 bits");
        let n_groups = images.groups.len();
        let neighbours = images.neighbours();
        let mut covering: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, cs) in images.cells.iter().enumerate() {
            for &b in cs {
                covering[b as usize].push(k as u32);
            }
        }
        for ks in &mut covering {
            ks.sort_by_key(|&k| (images.group[k as usize], k));
        }
        // How many neighbours each cell uses: at most `cap`, lowered until
        // the index fits the budget.
        let mut cap = width.min(FULL_WIDTH);
        let per_entry = std::mem::size_of::<Entry<B>>();
        let per_key = 16 + 4 * (n_groups + 1);
        let width_of = |c: usize, cap: usize| neighbours[c].len().min(cap);
        // Keys and entries at that width (the index's exact size).
        let (n_keys, n_entries) = loop {
            let (mut keys, mut n_entries) = (0usize, 0usize);
            for c in 0..n {
                let w = width_of(c, cap);
                let used = &neighbours[c][..w];
                keys += 1usize << w;
                for &k in &covering[c] {
                    let inside = images.cells[k as usize].iter().filter(|b| used.contains(b)).count();
                    n_entries += 1usize << (w - inside);
                }
            }
            if cap == 0 || keys * per_key + n_entries * per_entry <= INDEX_BUDGET {
                break (keys, n_entries);
            }
            cap -= 1;
        };
        let mut nb = Vec::with_capacity(n);
        let mut first = Vec::with_capacity(n + 1);
        let mut groups = Vec::with_capacity(n_keys);
        let mut gstart = Vec::with_capacity(n_keys * (n_groups + 1));
        let mut entries: Vec<Entry<B>> = Vec::with_capacity(n_entries);
        let mut nbmask = Vec::with_capacity(n);
        let mut count: Vec<u32> = Vec::new();
        for c in 0..n {
            let w = width_of(c, cap);
            // Unused positions name the cell itself, free whenever it is
            // counted: the key loop needs no length.
            // The used neighbours in ascending bit order, so that the
            // pattern is also the occupancy bits at `nbmask[c]`, packed.
            let mut row = [c as u16; 6];
            let mut used: Vec<u32> = neighbours[c][..w].to_vec();
            used.sort_unstable();
            for (i, &b) in used.iter().enumerate() {
                row[i] = b as u16;
            }
            nb.push(row);
            nbmask.push(used.iter().fold(0u64, |m, &b| if b < 64 { m | 1 << b } else { m }));
            first.push(groups.len() as u32);
            // The neighbour pattern each image occupies.
            let uses: Vec<u64> = covering[c]
                .iter()
                .map(|&k| {
                    (0..w).filter(|&i| images.cells[k as usize].contains(&(row[i] as u32))).fold(0, |p, i| p | 1 << i)
                })
                .collect();
            let ks = &covering[c];
            let entries_of: Vec<Entry<B>> = ks
                .iter()
                .map(|&k| Entry { mask: masks[k as usize], img: k, grp: images.group[k as usize] as u32 })
                .collect();
            // By counting, as the root index does: an image is in the lists
            // of the patterns that leave its used neighbours free (the
            // subsets of the complement of its pattern); taken in (group,
            // image) order, each list comes out in image order. The work is
            // the index's size, not patterns times images.
            // `count[p * n_groups + g]`: images of group `g`
            // under pattern `p`, then the next free position of that list.
            let n_pat = 1usize << w;
            let all = (n_pat - 1) as u64;
            count.clear();
            count.resize(n_pat * n_groups, 0);
            for (&u, e) in uses.iter().zip(&entries_of) {
                let g = e.grp as usize;
                subsets(!u & all, |p| count[p * n_groups + g] += 1);
            }
            let mut filled = entries.len();
            for p in 0..n_pat {
                let mut present = 0u128;
                for (g, slot) in count[p * n_groups..(p + 1) * n_groups].iter_mut().enumerate() {
                    gstart.push(filled as u32);
                    present |= u128::from(*slot != 0) << g;
                    let k = *slot as usize;
                    *slot = filled as u32;
                    filled += k;
                }
                gstart.push(filled as u32);
                groups.push(present);
            }
            entries.resize(filled, Entry { mask: B::default(), img: 0, grp: 0 });
            for (&u, e) in uses.iter().zip(&entries_of) {
                let g = e.grp as usize;
                subsets(!u & all, |p| {
                    let at = &mut count[p * n_groups + g];
                    entries[*at as usize] = *e;
                    *at += 1;
                });
            }
        }
        debug_assert!(entries.len() == n_entries && groups.len() == n_keys, "sizes as counted");
        let pext = B::CAPACITY == 64 && crate::cpu::fast_pext();
        let (mut simd_masks, mut simd_ids, mut simd_start) = (Vec::new(), Vec::new(), Vec::new());
        if B::CAPACITY == 64 && crate::cpu::avx2() {
            // The padded starts first, then each array in one pass of
            // slice copies (this runs for every candidate engine of the
            // piece choice).
            simd_start.reserve(gstart.len());
            let mut len = 0u32;
            for row in gstart.chunks(n_groups + 1) {
                for w in row.windows(2) {
                    simd_start.push(len);
                    len += (w[1] - w[0]).next_multiple_of(4);
                }
                simd_start.push(len);
            }
            simd_masks = vec![0u64; len as usize];
            simd_ids = vec![0u32; len as usize];
            for (row, at) in gstart.chunks(n_groups + 1).zip(simd_start.chunks(n_groups + 1)) {
                for (w, &to) in row.windows(2).zip(at) {
                    let (a, b, to) = (w[0] as usize, w[1] as usize, to as usize);
                    for ((m, id), e) in
                        simd_masks[to..to + b - a].iter_mut().zip(&mut simd_ids[to..to + b - a]).zip(&entries[a..b])
                    {
                        (*m, *id) = (e.mask.low64(), e.img);
                    }
                }
            }
        }
        let simd_key_lines = (n_groups + 3).div_ceil(16);
        let mut simd_keys = Vec::new();
        if !simd_masks.is_empty() {
            simd_keys = vec![KeyLine::default(); groups.len() * simd_key_lines];
            for (key, lines) in simd_keys.chunks_mut(simd_key_lines).enumerate() {
                // SAFETY: `KeyLine` is 16 plain words; the lines of one
                // key are contiguous.
                let words: &mut [u32] =
                    unsafe { std::slice::from_raw_parts_mut(lines.as_mut_ptr() as *mut u32, 16 * lines.len()) };
                let g = groups[key] as u64;
                (words[0], words[1]) = (g as u32, (g >> 32) as u32);
                let i = key * (n_groups + 1);
                words[2..2 + n_groups + 1].copy_from_slice(&simd_start[i..i + n_groups + 1]);
            }
        }
        CoverIndex {
            n_groups,
            nb,
            first,
            groups,
            gstart,
            entries,
            nbmask,
            pext,
            simd_masks,
            simd_ids,
            simd_keys,
            simd_key_lines,
        }
    }

    /// The key of cell `c` under occupancy `occ`.
    #[inline(always)]
    pub fn key(&self, c: usize, occ: &B) -> usize {
        if self.pext {
            debug_assert!(c < self.first.len() && c < self.nbmask.len());
            // SAFETY: `c` is a cell (callers pass cells of the board), and
            // `first` and `nbmask` have one entry per cell.
            let (first, nbmask) = unsafe { (*self.first.get_unchecked(c), *self.nbmask.get_unchecked(c)) };
            return first as usize + pext(occ.low64(), nbmask) as usize;
        }
        self.key_by_neighbours(c, occ)
    }

    /// [`CoverIndex::key`] by testing the neighbours one by one.
    #[inline(always)]
    fn key_by_neighbours(&self, c: usize, occ: &B) -> usize {
        let row = &self.nb[c];
        let mut p = 0usize;
        for (i, &b) in row.iter().enumerate() {
            p |= (occ.test(b as usize) as usize) << i;
        }
        self.first[c] as usize + p
    }

    /// The images of group `g` under key `key`.
    #[inline(always)]
    pub fn list(&self, key: usize, g: usize) -> &[Entry<B>] {
        let i = key * (self.n_groups + 1) + g;
        &self.entries[self.gstart[i] as usize..self.gstart[i + 1] as usize]
    }

    /// The starts of the lists of key `key`, one per group and the end:
    /// group `g`'s list is `entries()[row[g]..row[g + 1]]`.
    ///
    /// # Safety
    /// `key` must come from [`CoverIndex::key`].
    #[inline(always)]
    pub unsafe fn row_unchecked(&self, key: usize) -> &[u32] {
        let i = key * (self.n_groups + 1);
        debug_assert!(i + self.n_groups < self.gstart.len());
        self.gstart.get_unchecked(i..i + self.n_groups + 1)
    }

    /// All list entries, key after key.
    #[inline(always)]
    pub fn entries(&self) -> &[Entry<B>] {
        &self.entries
    }

    /// Whether the AVX2 arrays are there (see [`CoverIndex::simd_arrays`]).
    #[inline]
    pub fn has_simd(&self) -> bool {
        !self.simd_masks.is_empty()
    }

    /// The masks and ids of [`CoverIndex::entries`] as two arrays, each
    /// list padded to whole blocks of 4 with entries of mask 0 (empty
    /// without AVX2).
    #[inline(always)]
    pub fn simd_arrays(&self) -> (&[u64], &[u32]) {
        (&self.simd_masks, &self.simd_ids)
    }

    /// The groups (low 64 bits) of key `key` and the starts of its lists
    /// in the padded AVX2 arrays: group `g`'s list is
    /// `simd_arrays()[row[g]..row[g + 1]]`, a multiple of 4 long. One
    /// cache line holds both when the groups are at most 13.
    ///
    /// # Safety
    /// `key` must come from [`CoverIndex::key`], and the index must have
    /// its AVX2 arrays.
    #[inline(always)]
    pub unsafe fn simd_key_unchecked(&self, key: usize) -> (u64, &[u32]) {
        debug_assert!((key + 1) * self.simd_key_lines <= self.simd_keys.len());
        // SAFETY: a key has `simd_key_lines` lines of 16 words, holding
        // its 2 + G + 1 words (see `new`).
        unsafe {
            let p = self.simd_keys.as_ptr().add(key * self.simd_key_lines) as *const u32;
            let groups = *p as u64 | (*p.add(1) as u64) << 32;
            (groups, std::slice::from_raw_parts(p.add(2), self.n_groups + 1))
        }
    }

    /// Number of list entries (for reports and tests).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the index holds no image.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Calls `f` with every subset of `free` (`free` included, 0 last).
#[inline(always)]
fn subsets(free: u64, mut f: impl FnMut(usize)) {
    let mut p = free;
    loop {
        f(p as usize);
        if p == 0 {
            break;
        }
        p = (p - 1) & free;
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::frontend::polycube;
    use crate::poly::stages::hole::cover::*;

    /// The Tetris Cube's images and their cover index (on u64 masks), for
    /// the tests that compare two ways of reading the index.
    pub(crate) fn tetris_index() -> (Images, CoverIndex<u64>) {
        let text = std::fs::read_to_string("instances/polycube/tetriscube_def.txt").unwrap();
        let puzzle = polycube::parse(&text, "t").unwrap().remove(0);
        let built = polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, Default::default()).unwrap();
        let masks: Vec<u64> = images.cells.iter().map(|cs| cs.iter().fold(0u64, |m, &b| m | 1 << b)).collect();
        let ci = CoverIndex::<u64>::new(&images, &masks, FULL_WIDTH);
        (images, ci)
    }

    #[test]
    fn pext_keys_equal_neighbour_keys() {
        let (images, ci) = tetris_index();
        if !ci.pext {
            eprintln!("skipped: this processor has no fast pext, keys come from the neighbour loop only");
            return;
        }
        let mut rng = crate::search::Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..500 {
            let x = rng.next_u64();
            for c in 0..images.n_cells {
                let occ = x & !(1u64 << c);
                assert_eq!(ci.key(c, &occ), ci.key_by_neighbours(c, &occ), "cell {c}, occupancy {occ:#x}");
            }
        }
    }

    #[test]
    fn lists_hold_exactly_the_fitting_images_in_order() {
        for (text, n_pieces) in [("tetriscube", 12), ("somacube", 7)] {
            let path = format!("instances/polycube/{text}_def.txt");
            let puzzle = polycube::parse(&std::fs::read_to_string(path).unwrap(), "t").unwrap().remove(0);
            let built = polycube::build(&puzzle, "t").unwrap();
            let images = Images::from_problem(&built.problem, Default::default()).unwrap();
            assert_eq!(images.groups.len(), n_pieces);
            let masks: Vec<u64> = images.cells.iter().map(|cs| cs.iter().fold(0u64, |m, &b| m | 1 << b)).collect();
            for width in [FULL_WIDTH, WIDTH_ABOVE_SETS, 1] {
                let ci = CoverIndex::<u64>::new(&images, &masks, width);
                let g1 = ci.n_groups + 1;
                for c in 0..images.n_cells {
                    let keys = ci.first.get(c + 1).map_or(ci.groups.len(), |&f| f as usize) - ci.first[c] as usize;
                    let w = keys.trailing_zeros() as usize;
                    assert_eq!(keys, 1 << w);
                    assert!(w <= width, "{text}: cell {c} keyed on {w} neighbours, at most {width} asked");
                    for p in 0..keys {
                        let key = ci.first[c] as usize + p;
                        for g in 0..ci.n_groups {
                            let want: Vec<u32> = (0..images.len() as u32)
                                .filter(|&k| images.group[k as usize] as usize == g && masks[k as usize] & 1 << c != 0)
                                .filter(|&k| {
                                    (0..w).all(|i| p & 1 << i == 0 || masks[k as usize] & 1 << ci.nb[c][i] == 0)
                                })
                                .collect();
                            let (a, b) = (ci.gstart[key * g1 + g] as usize, ci.gstart[key * g1 + g + 1] as usize);
                            let got: Vec<u32> = ci.entries[a..b].iter().map(|e| e.img).collect();
                            assert_eq!(got, want, "{text}: cell {c}, pattern {p}, group {g}");
                            assert_eq!(ci.groups[key] >> g & 1 == 1, !want.is_empty());
                        }
                    }
                }
            }
        }
    }
}
