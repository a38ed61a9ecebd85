//! The AVX2 and AVX-512 fit bits against the definition, entry by entry,
//! and whole searches of the lean loop's AVX2 and AVX-512 copies against
//! each other.

use crate::poly::stages::debruijn::lean::pass::{fit_alive_bits, fit_bits, pair_cells, Halo};
use crate::poly::stages::debruijn::lean::pass512::{fit_alive_bits512, fit_bits512};

/// `unsafe fn NAME(ARGS) -> RET` calling `INNER(ARGS)`, compiled with the
/// target features `FEATURES`, as the kernel's own copies (`run_avx2`,
/// `run_avx512`) compile the passes they inline. Safety: as `INNER`'s, and
/// the processor has `FEATURES`.
macro_rules! compiled_for {
    ($features:literal, $name:ident = $inner:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty) => {
        #[doc = concat!("[`", stringify!($inner), "`] compiled for `", $features, "`.")]
        ///
        /// # Safety
        #[doc = concat!("As [`", stringify!($inner), "`], and the processor has those features.")]
        #[target_feature(enable = $features)]
        #[allow(clippy::too_many_arguments)]
        unsafe fn $name($($arg: $ty),*) -> $ret {
            $inner($($arg),*)
        }
    };
}

compiled_for!("avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni", fit_bits_avx512 = fit_bits512(
    lo: *const u64, hi: *const u64, grp: *const u8, n: usize, occ_lo: u64, occ_hi: u64, avail: u64, two: bool,
) -> u64);
compiled_for!("avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni", fit_alive_bits_avx512 = fit_alive_bits512(
    lo: *const u64, grp: *const u8, n: usize, occ: u64, avail: u64, halo: Halo,
) -> (u64, u64));
compiled_for!("avx2,bmi1,bmi2,popcnt,lzcnt", fit_bits_avx2 = fit_bits(
    lo: *const u64, hi: *const u64, grp: *const u8, n: usize, occ_lo: u64, occ_hi: u64, avail: u64, two: bool,
) -> u64);

/// Whether the AVX-512 passes are tested here (said on stderr when not:
/// the processor lacks them).
fn avx512_tested() -> bool {
    let on = crate::cpu::detected() >= crate::cpu::Level::Avx512;
    if !on {
        eprintln!("AVX-512 passes skipped: not on this processor (the AVX2 ones tested)");
    }
    on
}

#[test]
fn fit_bits_equal_the_entrywise_test() {
    if crate::cpu::detected() < crate::cpu::Level::Avx2 {
        eprintln!("skipped: no AVX2 on this processor");
        return;
    }
    let mut rng = crate::search::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.next_u64();
    const LEN: usize = 200;
    const PAD: usize = crate::poly::stages::debruijn::SOA_PAD;
    // Sparse masks (about 8 cells), so that both outcomes are common.
    let lo: Vec<u64> = (0..LEN + PAD).map(|i| if i < LEN { next() & next() & next() } else { 0 }).collect();
    let hi: Vec<u64> = (0..LEN + PAD).map(|i| if i < LEN { next() & next() & next() } else { 0 }).collect();
    let grp: Vec<u8> = (0..LEN + PAD).map(|i| if i < LEN { (next() % 64) as u8 } else { 0 }).collect();
    let (mut fits, mut misses) = (0u32, 0u32);
    let wide = avx512_tested();
    for round in 0..4000 {
        let n = (next() % 65) as usize;
        let from = (next() as usize) % (LEN - n + 1);
        let (occ_lo, occ_hi) = (next() & next(), next() & next());
        let avail = if round % 3 == 0 { u64::MAX } else { next() | next() };
        let two = round % 2 == 1;
        let want = (0..n).fold(0u64, |bits, i| {
            let j = from + i;
            let ok = lo[j] & occ_lo == 0 && (!two || hi[j] & occ_hi == 0) && avail >> grp[j] & 1 != 0;
            bits | u64::from(ok) << i
        });
        // SAFETY: AVX2 checked above; `from + n <= LEN`, and the arrays
        // have `PAD` words after `LEN`.
        let got = unsafe {
            fit_bits_avx2(lo[from..].as_ptr(), hi[from..].as_ptr(), grp[from..].as_ptr(), n, occ_lo, occ_hi, avail, two)
        };
        assert_eq!(got, want, "round {round}: {n} entries from {from}");
        if wide {
            // SAFETY: AVX-512 checked; the arrays have `PAD` (64) words
            // and bytes after `LEN`.
            let got = unsafe {
                fit_bits_avx512(
                    lo[from..].as_ptr(),
                    hi[from..].as_ptr(),
                    grp[from..].as_ptr(),
                    n,
                    occ_lo,
                    occ_hi,
                    avail,
                    two,
                )
            };
            assert_eq!(got, want, "AVX-512, round {round}: {n} entries from {from}");
        }
        fits += want.count_ones();
        misses += n as u32 - want.count_ones();
    }
    assert!(fits > 5_000 && misses > 5_000, "both outcomes tested ({fits}, {misses})");
}

compiled_for!("avx2,bmi1,bmi2,popcnt,lzcnt", fit_alive_bits_avx2 = fit_alive_bits(
    lo: *const u64, grp: *const u8, n: usize, occ: u64, avail: u64, halo: Halo,
) -> (u64, u64));

#[test]
fn fit_alive_bits_equal_the_halo_test() {
    use crate::poly::model::bits::Bits;
    use crate::poly::model::rows::Rows;
    if crate::cpu::detected() < crate::cpu::Level::Avx2 {
        eprintln!("skipped: no AVX2 on this processor");
        return;
    }
    let mut rng = crate::search::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.next_u64();
    // Boxes of `w` rows of `h` cells (cell `c`'s neighbours `c +- 1` in
    // its row, `c +- w`), the bits past the last cell occupied.
    let (mut alive_n, mut dead_n) = (0u32, 0u32);
    // Rounds with no fitting entry, and with more than 8 (the pass tests
    // the fitting ones 4 at a time).
    let (mut none_fit, mut many_fit) = (0u32, 0u32);
    let wide = avx512_tested();
    for (h, rows) in [(6usize, 10usize), (5, 12), (4, 15), (3, 20), (8, 8)] {
        let cells = h * rows;
        let nb: Vec<Vec<u32>> = (0..cells)
            .map(|c| {
                let mut v = Vec::new();
                if c % h + 1 < h {
                    v.push(c as u32 + 1);
                }
                if c % h > 0 {
                    v.push(c as u32 - 1);
                }
                if c + h < cells {
                    v.push((c + h) as u32);
                }
                if c >= h {
                    v.push((c - h) as u32);
                }
                v
            })
            .collect();
        let r = Rows::<u64>::of(&nb).expect("a box in rows");
        let past = if cells == 64 { 0 } else { !0u64 << cells };
        const LEN: usize = 100;
        const PAD: usize = crate::poly::stages::debruijn::SOA_PAD;
        // Pieces of 2 to 5 cells in a row or column, anywhere.
        let lo: Vec<u64> = (0..LEN + PAD)
            .map(|i| {
                if i >= LEN {
                    return 0;
                }
                let (len, c) = (2 + next() % 4, next() as usize % cells);
                let step = if next() % 2 == 0 { 1 } else { h };
                (0..len as usize).map(|j| c + j * step).filter(|&d| d < cells).fold(0, |m, d| m | 1 << d)
            })
            .collect();
        let grp: Vec<u8> = (0..LEN + PAD).map(|i| if i < LEN { (next() % 12) as u8 } else { 0 }).collect();
        for round in 0..2000 {
            let n = (next() % 65).min(LEN as u64) as usize;
            let from = (next() as usize) % (LEN - n + 1);
            let occ = (next() & next() & !past) | past;
            let avail = if round % 3 == 0 { u64::MAX } else { next() | next() };
            let free = !occ;
            let iso = free.andnot(r.with_free_neighbour(free));
            // Two-cell pockets by the neighbour lists: free cells with one
            // free neighbour, which has only them.
            let pockets = |f: u64| {
                let only = |c: usize| {
                    let mut it = nb[c].iter().filter(|&&b| f >> b & 1 != 0);
                    match (it.next(), it.next()) {
                        (Some(&b), None) => Some(b as usize),
                        _ => None,
                    }
                };
                (0..cells)
                    .filter(|&c| f >> c & 1 != 0 && only(c).and_then(only) == Some(c))
                    .fold(0u64, |a, c| a | 1 << c)
            };
            let pair = round % 2 == 1;
            let iso2 = if pair { pockets(free) } else { !0 };
            let mut want = (0u64, 0u64);
            for i in 0..n {
                let (m, g) = (lo[from + i], grp[from + i]);
                if m & occ != 0 || avail >> g & 1 == 0 {
                    continue;
                }
                want.0 |= 1 << i;
                // The halo test of the scalar loop.
                let halo =
                    (0..cells).filter(|&c| m >> c & 1 != 0).flat_map(|c| nb[c].iter()).fold(0u64, |a, &b| a | 1 << b)
                        & !m;
                let after = !(occ | m);
                let new_pocket = pair && pockets(after) & !pockets(free) != 0;
                if (halo & after).andnot(r.with_free_neighbour(after)) == 0 && !new_pocket {
                    want.1 |= 1 << i;
                    alive_n += 1;
                } else {
                    dead_n += 1;
                }
            }
            // SAFETY: AVX2 checked above; `from + n <= LEN`, the arrays
            // have `PAD` words after `LEN`.
            let got = unsafe {
                fit_alive_bits_avx2(
                    lo[from..].as_ptr(),
                    grp[from..].as_ptr(),
                    n,
                    occ,
                    avail,
                    Halo { right: r.right, left: r.left, w: r.width, iso, iso2 },
                )
            };
            if pair {
                assert_eq!(pockets(free), pair_cells(free, r.right, r.left, r.width), "{rows}x{h}: pockets");
            }
            assert_eq!(got, want, "{rows}x{h}, round {round}: {n} entries from {from}");
            if wide {
                let halo = Halo { right: r.right, left: r.left, w: r.width, iso, iso2 };
                // SAFETY: AVX-512 checked; as above.
                let got =
                    unsafe { fit_alive_bits_avx512(lo[from..].as_ptr(), grp[from..].as_ptr(), n, occ, avail, halo) };
                assert_eq!(got, want, "AVX-512, {rows}x{h}, round {round}: {n} entries from {from}");
            }
            none_fit += u32::from(want.0 == 0);
            many_fit += u32::from(want.0.count_ones() > 8);
        }
    }
    assert!(alive_n > 1_000 && dead_n > 1_000, "both outcomes tested ({alive_n}, {dead_n})");
    assert!(none_fit > 100 && many_fit > 100, "short and long fit lists tested ({none_fit}, {many_fit})");
}

/// The lean loop's AVX-512 copy makes the same search as its AVX2 copy:
/// the same nodes, and the same solutions in the same order, on one-word
/// boxes (with the pocket check) and a two-word box, without limits and
/// under node and solution limits; on two threads the same solutions.
/// Which copy runs is the index's choice (`Soa::avx512`), set here.
#[test]
fn avx512_and_avx2_copies_search_alike() {
    use crate::poly::model::bits::Bits;
    use crate::poly::model::{CellOrder, Images};
    use crate::poly::plan::schedule::Schedule;
    use crate::poly::walk::{Knobs, Shared};
    use crate::poly::Runner;
    use crate::search::{Flow, Limits};
    if crate::cpu::detected() < crate::cpu::Level::Avx2 || !avx512_tested() {
        eprintln!("skipped: the AVX2 or AVX-512 copy is not on this processor");
        return;
    }
    fn shared<B: Bits>(file: &str, schedule: &str) -> Shared<B> {
        let text = std::fs::read_to_string(format!("instances/polycube/{file}")).unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, "t").unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, CellOrder::default()).unwrap();
        Shared::new(images, &Schedule::parse(schedule).unwrap(), Knobs::default()).unwrap()
    }
    type Run = (u64, u64, Vec<Vec<u32>>);
    /// The search with the given copy; the solution limit as the engine
    /// applies it (its visitor stops the search).
    fn run<B: Bits>(s: &mut Shared<B>, avx512: bool, limits: &Limits, threads: usize) -> Run {
        s.stages.set_lean_avx512(avx512);
        let mut sols = Vec::new();
        let out = s.search(limits, threads, &mut |p| {
            sols.push(p.to_vec());
            match limits.max_solutions {
                Some(n) if sols.len() as u64 >= n => Flow::Stop,
                _ => Flow::Continue,
            }
        });
        (out.nodes, out.solutions, sols)
    }
    fn compare<B: Bits>(file: &str, schedule: &str) -> u64 {
        let mut s = shared::<B>(file, schedule);
        let all = Limits::none();
        let want = run(&mut s, false, &all, 1);
        assert!(want.1 > 7 && want.0 > 10_000, "{file}: a search with solutions ({} nodes)", want.0);
        // A node limit polled part-way (every 4096 nodes) and a solution limit.
        let nodes = Limits { max_nodes: Some(want.0 / 3), ..Limits::default() };
        let first = Limits::solutions(7);
        assert_eq!(run(&mut s, true, &all, 1), want, "{file}: whole search");
        for limits in [nodes, first] {
            let a = run(&mut s, false, &limits, 1);
            assert!(a.0 > 0 && a.0 < want.0, "{file}: the limit stops the search ({} of {} nodes)", a.0, want.0);
            assert_eq!(
                run(&mut s, true, &limits, 1),
                a,
                "{file}: limits {:?}",
                (limits.max_nodes, limits.max_solutions)
            );
        }
        // Two threads: the nodes depend on the workers' timing (their
        // caches), the solutions do not.
        let sorted = |mut r: Run| {
            r.2.sort();
            (r.1, r.2)
        };
        let mut single = want.2.clone();
        single.sort();
        assert_eq!(sorted(run(&mut s, true, &all, 2)), (want.1, single), "{file}: two threads");
        want.0
    }
    let mut searched = 0;
    searched += compare::<u64>("pentominoes_10x6_def.txt", "dlx:min-fit,debruijn@11");
    searched += compare::<u64>("pentominoes_12x5_def.txt", "dlx:min-fit,debruijn@11");
    searched += compare::<u64>("pentominoes_20x3_def.txt", "debruijn");
    searched += compare::<u128>("pentominoes_onesided_30x3_def.txt", "dlx:min-fit,debruijn@17");
    eprintln!("AVX-512 and AVX2 copies compared over {searched} nodes");
}
