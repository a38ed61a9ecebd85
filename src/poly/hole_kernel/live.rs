//! Live image lists at the bottom of the hole kernel's tree (round 25):
//! per depth, the remaining groups' images still disjoint from the
//! occupancy. A child's list is its parent's filtered; the union of the
//! kept masks and the groups seen decide whether the child is dead (a
//! free cell no remaining image covers, or a remaining group with no
//! image that fits).

use super::super::bits::Bits;
use super::super::tables::Tables;
use std::sync::atomic::{AtomicU64, Ordering};

/// Per-depth lists in two flat arrays (`cap` entries a depth).
///
/// Invariant: depth `d`'s list is `mask/group[d * cap..d * cap + len[d]]`
/// when it was built: every image of a group available at that depth
/// whose mask is disjoint from that depth's occupancy (and possibly a few
/// more, never fewer: a cut from it is sound).
#[derive(Clone, Debug, Default)]
pub struct LiveLists {
    cap: usize,
    mask: Vec<u64>,
    group: Vec<u64>,
    len: Vec<u32>,
    /// Per depth, per group: (start, length) of the group's segment.
    seg: Vec<[(u32, u32); 64]>,
    /// Filter with AVX-512 (checked at run time, `EMX_NO_AVX512` off).
    avx512: bool,
}

/// Instrumentation counters by pieces left at the child (experiment).
pub static STATS: [[AtomicU64; 4]; 16] = [const { [const { AtomicU64::new(0) }; 4] }; 16];

impl LiveLists {
    /// Room for `levels` depths of `n_images` entries.
    pub fn reserve(&mut self, levels: usize, n_images: usize) {
        self.cap = (n_images + 15) & !7;
        let want = self.cap * levels;
        if self.mask.len() < want {
            self.mask.resize(want, 0);
            self.group.resize(want, 0);
        }
        if self.len.len() < levels {
            self.len.resize(levels, 0);
            self.seg.resize(levels, [(0, 0); 64]);
        }
        #[cfg(target_arch = "x86_64")]
        {
            self.avx512 = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
                && std::env::var_os("EMX_NO_AVX512").is_none();
        }
    }

    /// Builds depth `d`'s list from the whole image set: the images of
    /// groups `avail` disjoint from `occ`. Returns whether the state is alive.
    pub fn build<B: Bits>(&mut self, t: &Tables<B>, d: usize, occ: B, avail: u64) -> bool {
        let at = d * self.cap;
        let mut n = 0;
        let (mut union, mut seen) = (0u64, 0u64);
        let occ64 = occ.low64();
        let mut gs = avail;
        while gs != 0 {
            let g = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            let start = n;
            for &k in &t.by_group[g] {
                let m = t.mask[k as usize].low64();
                if m & occ64 == 0 {
                    self.mask[at + n] = m;
                    self.group[at + n] = 1 << g;
                    n += 1;
                    union |= m;
                    seen |= 1 << g;
                }
            }
            self.seg[d][g] = (start as u32, (n - start) as u32);
        }
        self.len[d] = n as u32;
        for i in n..n + 8 {
            self.mask[at + i] = 0;
            self.group[at + i] = 0;
        }
        (union | occ64) == u64::MAX && seen == avail
    }

    /// [`LiveLists::filter`] by group segments (no group array read).
    #[inline(always)]
    pub fn filter_seg(&mut self, d: usize, occ: u64, avail: u64) -> bool {
        let from = d * self.cap;
        let to = from + self.cap;
        let mut union = 0u64;
        let mut n = 0usize;
        let mut gs = avail;
        while gs != 0 {
            let g = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            let (a, l) = self.seg[d][g];
            #[cfg(target_arch = "x86_64")]
            let (cnt, u) = if self.avx512 {
                // SAFETY: AVX-512 checked; segments lie inside depth `d`'s
                // list, the child's room is `cap` entries.
                unsafe {
                    seg_512(
                        self.mask.as_ptr().add(from + a as usize),
                        l as usize,
                        self.mask.as_mut_ptr().add(to + n),
                        occ,
                    )
                }
            } else {
                seg_scalar(&mut self.mask, from + a as usize, l as usize, to + n, occ)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let (cnt, u) = seg_scalar(&mut self.mask, from + a as usize, l as usize, to + n, occ);
            if cnt == 0 {
                return false;
            }
            self.seg[d + 1][g] = (n as u32, cnt as u32);
            n += cnt;
            union |= u;
        }
        (union | occ) == u64::MAX
    }

    /// Builds depth `d + 1`'s list from depth `d`'s for occupancy `occ`
    /// and groups `avail`; returns whether the child is alive.
    #[inline(always)]
    pub fn filter(&mut self, d: usize, occ: u64, avail: u64, stats: bool, n_left: u32) -> bool {
        let from = d * self.cap;
        let to = from + self.cap;
        let len = self.len[d] as usize;
        #[cfg(target_arch = "x86_64")]
        if self.avx512 {
            // SAFETY: checked above; the lists have `cap` entries a depth,
            // at least 8 past each list's end.
            let (n, alive) = unsafe {
                filter_512(
                    self.mask.as_ptr().add(from),
                    self.group.as_ptr().add(from),
                    len,
                    self.mask.as_mut_ptr().add(to),
                    self.group.as_mut_ptr().add(to),
                    occ,
                    avail,
                )
            };
            self.len[d + 1] = n as u32;
            return alive;
        }
        let (mut union, mut seen) = (0u64, 0u64);
        let mut n = 0;
        for i in 0..len {
            let m = self.mask[from + i];
            let g = self.group[from + i];
            self.mask[to + n] = m;
            self.group[to + n] = g;
            let keep = (m & occ == 0) & (g & avail != 0);
            if keep {
                union |= m;
                seen |= g;
            }
            n += keep as usize;
        }
        self.len[d + 1] = n as u32;
        let alive = match mode() {
            1 => (union | occ) == u64::MAX,
            2 => seen == avail,
            _ => (union | occ) == u64::MAX && seen == avail,
        };
        if stats {
            let s = &STATS[n_left.min(15) as usize];
            s[0].fetch_add(1, Ordering::Relaxed);
            s[1].fetch_add(len as u64, Ordering::Relaxed);
            s[2].fetch_add(n as u64, Ordering::Relaxed);
            s[3].fetch_add(!alive as u64, Ordering::Relaxed);
        }
        alive
    }
}

/// The AVX-512 filter: 8 entries a turn (`vptestnmq`, `vptestmq`,
/// `vpcompressq` in registers, whole stores); writes 8 zero entries past
/// the child's end (mask 0, group 0: never kept) so that no turn needs a
/// tail mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,popcnt")]
unsafe fn filter_512(
    sm: *const u64,
    sg: *const u64,
    len: usize,
    dm: *mut u64,
    dg: *mut u64,
    occ: u64,
    avail: u64,
) -> (usize, bool) {
    use std::arch::x86_64::*;
    let occv = _mm512_set1_epi64(occ as i64);
    let availv = _mm512_set1_epi64(avail as i64);
    let mut uv = _mm512_setzero_si512();
    let mut gv = _mm512_setzero_si512();
    let mut n = 0usize;
    let mut i = 0usize;
    while i < len {
        let m = _mm512_loadu_si512(sm.add(i) as *const _);
        let g = _mm512_loadu_si512(sg.add(i) as *const _);
        let k = _mm512_mask_test_epi64_mask(_mm512_testn_epi64_mask(m, occv), g, availv);
        let cm = _mm512_maskz_compress_epi64(k, m);
        let cg = _mm512_maskz_compress_epi64(k, g);
        _mm512_storeu_si512(dm.add(n) as *mut _, cm);
        _mm512_storeu_si512(dg.add(n) as *mut _, cg);
        uv = _mm512_or_si512(uv, cm);
        gv = _mm512_or_si512(gv, cg);
        n += (k as u32).count_ones() as usize;
        i += 8;
    }
    _mm512_storeu_si512(dm.add(n) as *mut _, _mm512_setzero_si512());
    _mm512_storeu_si512(dg.add(n) as *mut _, _mm512_setzero_si512());
    let union = _mm512_reduce_or_epi64(uv) as u64;
    let seen = _mm512_reduce_or_epi64(gv) as u64;
    (n, (union | occ) == u64::MAX && seen == avail)
}

/// One segment, scalar: (kept, union).
#[inline(always)]
fn seg_scalar(mask: &mut [u64], from: usize, len: usize, to: usize, occ: u64) -> (usize, u64) {
    let (mut n, mut u) = (0, 0);
    for i in 0..len {
        let m = mask[from + i];
        mask[to + n] = m;
        let keep = m & occ == 0;
        u |= if keep { m } else { 0 };
        n += keep as usize;
    }
    (n, u)
}

/// One segment with AVX-512: (kept, union).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,popcnt,bmi2")]
unsafe fn seg_512(sm: *const u64, len: usize, dm: *mut u64, occ: u64) -> (usize, u64) {
    use std::arch::x86_64::*;
    let occv = _mm512_set1_epi64(occ as i64);
    let mut uv = _mm512_setzero_si512();
    let mut n = 0usize;
    let mut i = 0usize;
    while i < len {
        let lanes = _bzhi_u32(0xff, (len - i).min(8) as u32) as u8;
        let m = _mm512_maskz_loadu_epi64(lanes, sm.add(i) as *const _);
        let k = _mm512_mask_testn_epi64_mask(lanes, m, occv);
        let cm = _mm512_maskz_compress_epi64(k, m);
        _mm512_storeu_si512(dm.add(n) as *mut _, cm);
        uv = _mm512_or_si512(uv, cm);
        n += (k as u32).count_ones() as usize;
        i += 8;
    }
    (n, _mm512_reduce_or_epi64(uv) as u64)
}

fn mode() -> u32 {
    static M: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *M.get_or_init(|| std::env::var("EMX_R25_MODE").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}

/// Prints the counters (experiment).
pub fn print_stats() {
    eprintln!("n_left states parent_len_sum child_len_sum dead");
    for (k, s) in STATS.iter().enumerate() {
        let v: Vec<u64> = s.iter().map(|a| a.load(Ordering::Relaxed)).collect();
        if v[0] > 0 {
            eprintln!(
                "{k} {} {} {} {} (mean parent {:.1}, child {:.1})",
                v[0],
                v[1],
                v[2],
                v[3],
                v[1] as f64 / v[0] as f64,
                v[2] as f64 / v[0] as f64
            );
        }
    }
}
