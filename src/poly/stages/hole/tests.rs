//! Tests of the hole kernel's counts and choices against the scalar
//! counts and the reference engines.

use crate::poly::model::tables::Tables;
use crate::poly::plan::schedule::Widen;
use crate::poly::stages::hole::choose::{choose_emch, Slots};
use crate::poly::stages::hole::cover::tests::tetris_index;
use crate::poly::stages::hole::cover::SIMD_PAD;
use crate::poly::stages::hole::emch;
use crate::poly::stages::hole::*;

/// The kernel's EMCH choice, plain and widened, scalar and AVX2, picks
/// the same hole with the same images in the same order as the
/// reference [`crate::poly::stages::hole::emch::candidates`] (so the same nodes).
#[test]
fn emch_choice_equals_reference() {
    let (images, ci) = tetris_index();
    let t = Tables::<u64>::new(&images);
    let stride = 4096 + SIMD_PAD;
    let mut buf = vec![0u32; 2 * stride];
    let mut want = vec![0u32; stride];
    let mut rng = crate::search::Rng::new(0x2545_f491_4f6c_dd1d);
    let widths = [(0, 0), (0, 1), (1, 1), (2, 1), (4, 1), (0, 2), (2, 2), (3, 2), (0, 6), (2, 6)];
    let (mut widened, mut differs) = (0, 0);
    for round in 0..1000 {
        // A random partial packing: up to 9 pieces placed where they fit.
        let (occ, avail) = random_packing(&t, images.groups.len(), &mut rng, round % 10);
        let plain = emch::choose(&t, &ci, occ, avail as u128, Widen::default());
        for (threshold, levels) in widths {
            let w = Widen { threshold, levels };
            let m = emch::candidates(&t, &ci, occ, avail as u128, w, &mut want);
            let wide = emch::choose(&t, &ci, occ, avail as u128, w);
            widened += (wide != plain) as u32;
            differs += (wide.0 != plain.0) as u32;
            for simd in [false, true] {
                if simd && !ci.has_simd() {
                    continue;
                }
                let mut slots = Slots { buf: &mut buf, stride, best: 0 };
                let n = if simd {
                    choose_emch::<u64, true>(&t, &ci, occ, avail, || w, &mut slots)
                } else {
                    choose_emch::<u64, false>(&t, &ci, occ, avail, || w, &mut slots)
                };
                let at = slots.best * stride;
                assert_eq!(n as usize, m, "occupancy {occ:#x}, groups {avail:#x}, {w:?}, simd {simd}");
                assert_eq!(buf[at..at + m], want[..m], "occupancy {occ:#x}, groups {avail:#x}, {w:?}");
            }
        }
    }
    assert!(widened > 200 && differs > 100, "widening changes choices ({widened}, {differs})");
}

/// The AVX2 counts and the scalar ones give the same counts and the
/// same fitting images in the same order, with and without limits.
#[test]
fn simd_counts_equal_scalar_counts() {
    let (images, ci) = tetris_index();
    if !ci.has_simd() {
        eprintln!("skipped: no AVX2 on this processor, only the scalar counts run");
        return;
    }
    let stride = 4096 + SIMD_PAD;
    let (mut a, mut b) = (vec![0u32; stride], vec![0u32; stride]);
    let mut rng = crate::search::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.next_u64();
    let mut compared = 0;
    for round in 0..400 {
        // Sparse to dense boards, random remaining groups.
        // (Round 0: the empty board, where only the padding of the AVX2
        // lists keeps them from fitting.)
        let occ = if round == 0 { 0 } else { next() & next() & if round % 2 == 0 { next() } else { u64::MAX } };
        let avail = next() & ((1u64 << images.groups.len()) - 1);
        for cell in (0..images.n_cells).filter(|&c| occ >> c & 1 == 0) {
            for limit in [u32::MAX, 1, 2, 5, 17] {
                let n = fits_into::<u64, false, false>(&ci, cell, occ, avail, limit, &mut a);
                let m = fits_into::<u64, false, true>(&ci, cell, occ, avail, limit, &mut b);
                let nc = fits_into::<u64, true, false>(&ci, cell, occ, avail, limit, &mut a);
                let mc = fits_into::<u64, true, true>(&ci, cell, occ, avail, limit, &mut b);
                if limit == u32::MAX {
                    assert_eq!(n, m, "cell {cell}, occupancy {occ:#x}, groups {avail:#x}");
                    assert_eq!(nc, mc);
                    assert_eq!(a[..n as usize], b[..m as usize]);
                    compared += n;
                } else {
                    // Below the limit the counts are exact; at or above
                    // it, both only say "not fewer".
                    for (s, v) in [(n, m), (nc, mc)] {
                        assert_eq!(s < limit, v < limit);
                        if s < limit {
                            assert_eq!(s, v);
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 1000, "the random boards leave fits to compare");
}

/// The recursive walks' candidates ([`node_candidates`], AVX2 counts when
/// the index has them) are those of the references [`crate::poly::stages::hole::mch::candidates`]
/// and [`crate::poly::stages::hole::emch::candidates`]: the same images in the same
/// order, so a probe takes the same branch with the same weight.
#[test]
fn node_candidates_equal_reference() {
    let (images, ci) = tetris_index();
    let t = Tables::<u64>::new(&images);
    let stride = 4096;
    let (mut scratch, mut got, mut want) = (Vec::new(), vec![0u32; stride], vec![0u32; stride]);
    let mut rng = crate::search::Rng::new(0x6a09_e667_f3bc_c908);
    let mut compared = 0;
    for round in 0..600 {
        let (occ, avail) = random_packing(&t, images.groups.len(), &mut rng, round % 11);
        let w = Widen { threshold: 2, levels: 6 };
        for kind in [Kind::Mch, Kind::Emch(Widen::default()), Kind::Emch(w)] {
            let m = match kind {
                Kind::Emch(w) => emch::candidates(&t, &ci, occ, avail as u128, w, &mut want),
                _ => crate::poly::stages::hole::mch::candidates(&t, &ci, occ, avail as u128, &mut want),
            };
            let n = node_candidates(&t, &ci, occ, avail, kind, &mut scratch, &mut got);
            assert_eq!(n, m, "occupancy {occ:#x}, groups {avail:#x}, {kind:?}");
            assert_eq!(got[..n], want[..m], "occupancy {occ:#x}, groups {avail:#x}, {kind:?}");
            compared += n;
        }
    }
    assert!(compared > 1000, "the random boards leave candidates to compare");
}

/// A random partial packing of the Tetris Cube: `pieces` times, the first
/// of up to 200 random images that fits and whose piece is left is placed.
/// Returns the occupancy and the groups left.
pub(in crate::poly::stages::hole) fn random_packing(
    t: &Tables<u64>,
    n_groups: usize,
    rng: &mut crate::search::Rng,
    pieces: usize,
) -> (u64, u64) {
    let (mut occ, mut avail) = (0u64, (1u64 << n_groups) - 1);
    for _ in 0..pieces {
        for _ in 0..200 {
            let k = (rng.next_u64() % t.mask.len() as u64) as usize;
            let g = t.group[k] as usize;
            if avail >> g & 1 != 0 && t.mask[k] & occ == 0 {
                (occ, avail) = (occ | t.mask[k], avail & !(1 << g));
                break;
            }
        }
    }
    (occ, avail)
}
