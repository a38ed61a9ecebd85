//! The set search's choices against the MCH and EMCH references.

use crate::poly::stages::hole::cover::tests::tetris_index;
use crate::poly::stages::hole::universe::*;
use crate::poly::stages::hole::{emch, mch};

/// The images of `set` as ids, in bit order.
fn ids_of(u: &Universe, set: &Set) -> Vec<u32> {
    (0..u.n).filter(|&j| set[j / 64] >> (j % 64) & 1 != 0).map(|j| u.ids[j]).collect()
}

/// [`Universe::choose`] under `live` at `occ`, as ids.
fn chosen(u: &Universe, t: &Tables<u64>, live: &Set, occ: u64, kind: Kind) -> Vec<u32> {
    let (c, n) =
        if u.n <= 512 { u.choose::<u64, 8>(t, live, occ, kind) } else { u.choose::<u64, 16>(t, live, occ, kind) };
    if n == 0 {
        return Vec::new();
    }
    let mut cand = *live;
    for (x, r) in cand.iter_mut().zip(&u.rows[c]) {
        *x &= r;
    }
    assert_eq!(n as usize, ids_of(u, &cand).len());
    ids_of(u, &cand)
}

/// On random Tetris Cube packings with at most 8 pieces left, the set
/// search chooses the hole of the MCH and EMCH references (plain and
/// widened) with the same images in the same order, at the root and
/// after a placement (so its tree is the hole kernel's).
#[test]
fn choices_equal_the_references() {
    if !crate::cpu::avx512() {
        eprintln!("skipped: the SIMD level is {} (the set search needs avx512)", crate::cpu::level());
        return;
    }
    let (images, ci) = tetris_index();
    let t = Tables::<u64>::new(&images);
    let Some(mut u) = Universe::new(&t) else {
        eprintln!("skipped: the tables do not apply to the Tetris Cube");
        return;
    };
    let kinds = [
        Kind::Mch,
        Kind::Emch(Widen::default()),
        Kind::Emch(Widen { threshold: 2, levels: 1 }),
        Kind::Emch(Widen { threshold: 6, levels: 1 }),
        Kind::Emch(Widen { threshold: 1, levels: 6 }),
    ];
    let mut want = vec![0u32; 4096];
    let mut rng = crate::search::Rng::new(0x0bad_cafe_1234_5678);
    let (mut built, mut children, mut wide) = (0, 0, 0);
    for round in 0..5000 {
        let placed = 4 + round % 8;
        let (occ, avail) = crate::poly::stages::hole::tests::random_packing(&t, images.groups.len(), &mut rng, placed);
        // SAFETY: the processor has the parts (checked above).
        if avail.count_ones() > SWITCH || !unsafe { u.build(occ, avail) } {
            continue;
        }
        built += 1;
        wide += (u.n > 512) as u32;
        let mut all = [0u64; WORDS];
        set_range(&mut all, 0, u.n);
        for kind in kinds {
            let reference = |occ: u64, avail: u64, want: &mut [u32]| match kind {
                Kind::Emch(w) => emch::candidates(&t, &ci, occ, avail as u128, w, want),
                _ => mch::candidates(&t, &ci, occ, avail as u128, want),
            };
            let m = reference(occ, avail, &mut want);
            assert_eq!(chosen(&u, &t, &all, occ, kind), want[..m], "{occ:#x} {avail:#x} {kind:?}");
            // A child: the first fitting image of the root's choice.
            let Some(&k) = want[..m].first() else { continue };
            let j = (0..u.n).find(|&j| u.ids[j] == k).unwrap();
            let g = t.group[k as usize] as usize;
            let live = if u.n <= 512 { u.without::<8, 6>(&all, j, g) } else { u.without::<16, 6>(&all, j, g) };
            let (cocc, cavail) = (occ | t.mask[k as usize], avail & !(1 << g));
            let m = reference(cocc, cavail, &mut want);
            assert_eq!(chosen(&u, &t, &live, cocc, kind), want[..m], "{cocc:#x} {cavail:#x} {kind:?}");
            children += 1;
        }
    }
    assert!(built > 1000 && children > 2000 && wide > 5, "{built} sets, {children} children, {wide} wide");
}
