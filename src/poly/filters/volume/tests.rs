//! The splitter against the full fill of [`regions_ok`] (the oracle) on
//! boxes with and without stationary cells and holes, 2-D and 3-D, with
//! image-like and scattered removed cells and several piece-size mixes.

use crate::poly::filters::volume::*;
use crate::poly::model::bits::Wide;
use crate::search::Rng;

/// The face neighbours of the cells of a `dims` box without `gone`.
fn board(dims: [i32; 3], gone: impl Fn([i32; 3]) -> bool) -> Vec<Vec<u32>> {
    let mut coords = Vec::new();
    for z in 0..dims[2] {
        for y in 0..dims[1] {
            for x in 0..dims[0] {
                if !gone([x, y, z]) {
                    coords.push([x, y, z]);
                }
            }
        }
    }
    coords
        .iter()
        .map(|p| {
            let mut v = Vec::new();
            for axis in 0..3 {
                for d in [-1, 1] {
                    let mut q = *p;
                    q[axis] += d;
                    if let Some(b) = coords.iter().position(|c| *c == q) {
                        v.push(b as u32);
                    }
                }
            }
            v
        })
        .collect()
}

fn boards() -> Vec<Vec<Vec<u32>>> {
    vec![
        board([10, 6, 1], |_| false),
        board([8, 8, 1], |p| (3..5).contains(&p[0]) && (3..5).contains(&p[1])),
        // Two separate areas: a wall of stationary cells down the middle.
        board([9, 5, 1], |p| p[0] == 4),
        // Three areas and a hole.
        board([11, 7, 1], |p| p[0] == 3 || p[1] == 4 || (p[0] == 7 && p[1] == 1)),
        board([30, 3, 1], |_| false),
        board([3, 3, 3], |_| false),
        board([5, 4, 4], |p| p == [2, 1, 1] || p == [2, 2, 2]),
        // 3-D, disconnected: the middle layer is stationary.
        board([4, 4, 3], |p| p[2] == 1),
    ]
}

/// A connected set of `n` cells grown from a random cell (an image), or
/// fewer where the component is smaller.
fn blob(rng: &mut Rng, neighbours: &[Vec<u32>], n: usize) -> Vec<u32> {
    let mut cells = vec![rng.below(neighbours.len() as u64) as u32];
    for _ in 0..n * 8 {
        if cells.len() == n {
            break;
        }
        let c = cells[rng.below(cells.len() as u64) as usize] as usize;
        if neighbours[c].is_empty() {
            break;
        }
        let m = neighbours[c][rng.below(neighbours[c].len() as u64) as usize];
        if !cells.contains(&m) {
            cells.push(m);
        }
    }
    cells
}

fn scattered(rng: &mut Rng, n_cells: usize) -> Vec<u32> {
    let density = 1 + rng.below(6);
    (0..n_cells as u32).filter(|_| rng.below(10) < density).collect()
}

/// Region sizes by a plain fill, sorted.
fn fill_sizes(neighbours: &[Vec<u32>], removed: &[u32]) -> Vec<u32> {
    let mut seen = vec![false; neighbours.len()];
    for &c in removed {
        seen[c as usize] = true;
    }
    let mut sizes = Vec::new();
    for s in 0..neighbours.len() {
        if seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![s];
        let mut size = 0;
        while let Some(c) = stack.pop() {
            size += 1;
            for &m in &neighbours[c] {
                if !seen[m as usize] {
                    seen[m as usize] = true;
                    stack.push(m as usize);
                }
            }
        }
        sizes.push(size);
    }
    sizes.sort_unstable();
    sizes
}

fn tables() -> Vec<StateTable> {
    let mixes: [(&[i64], &[usize]); 4] =
        [(&[5], &[12]), (&[4, 5], &[3, 6]), (&[3, 4, 5, 6], &[2, 2, 3, 1]), (&[7], &[5])];
    mixes
        .iter()
        .map(|(sizes, totals)| {
            let classes = (0..sizes.len()).map(|c| Some(c as u16)).collect();
            let offset = sizes.iter().zip(totals.iter()).map(|(s, &t)| s * t as i64).sum();
            StateTable::build(classes, sizes, totals, offset, |v| vec![0, v]).unwrap()
        })
        .collect()
}

/// The cells removed in trial `trial`: scattered cells every third trial,
/// else a connected blob of one to eight cells.
fn trial_cells(rng: &mut Rng, neighbours: &[Vec<u32>], trial: usize) -> Vec<u32> {
    if trial % 3 == 2 {
        scattered(rng, neighbours.len())
    } else {
        let size = 1 + rng.below(8) as usize;
        blob(rng, neighbours, size)
    }
}

#[test]
fn splitter_matches_the_full_fill() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let tables = tables();
    let states: Vec<usize> = [13usize, 4 * 7, 3 * 3 * 4 * 2, 6].to_vec();
    let mut splits = 0;
    for neighbours in boards() {
        let n = neighbours.len();
        let nb_bits: Vec<Wide<16>> =
            neighbours.iter().map(|ns| ns.iter().fold(Wide::default(), |m, &b| m.or(Wide::bit(b as usize)))).collect();
        let mut splitter = Splitter::new(&neighbours);
        for trial in 0..1500 {
            let removed = trial_cells(&mut rng, &neighbours, trial);
            let mut got = splitter.region_sizes(&removed).to_vec();
            got.sort_unstable();
            let want = fill_sizes(&neighbours, &removed);
            assert_eq!(got, want, "board of {n} cells, removed {removed:?}");
            splits += usize::from(want.len() > 1);
            let free = removed.iter().fold(Wide::<16>::below(n), |m, &c| m.andnot(Wide::bit(c as usize)));
            for (table, &n_states) in tables.iter().zip(&states) {
                let state = rng.below(n_states as u64) as usize;
                let oracle = regions_ok(free, free.count(), &nb_bits, table, state);
                assert_eq!(splitter.ok(&removed, table, state), oracle, "board of {n} cells, removed {removed:?}");
            }
        }
    }
    // The trials do split regions (the test is not vacuous).
    assert!(splits > 1000, "{splits} splits");
}

/// The fill by shifts of [`regions_ok_rows`] against the fill by neighbour
/// lists of [`regions_ok`], on the boards that are rows (flat boxes whose
/// rows are whole: the 10x6, the 9x5 with a wall and the 30x3 here), in
/// 128-bit masks and, when the board fits, 64-bit ones.
#[test]
fn rows_fill_matches_the_full_fill() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let tables = tables();
    let states: Vec<usize> = [13usize, 4 * 7, 3 * 3 * 4 * 2, 6].to_vec();
    let (mut boards_with_rows, mut rejected) = (0, 0);
    for neighbours in boards() {
        let n = neighbours.len();
        let Some(rows128) = Rows::<u128>::of(&neighbours) else {
            continue;
        };
        // The 64-bit layout exists exactly when the cells fit in 64 bits.
        let rows64 = Rows::<u64>::of(&neighbours);
        assert_eq!(rows64.is_some(), n <= 64, "{n} cells");
        boards_with_rows += 1;
        let nb64: Vec<u64> = if n <= 64 {
            neighbours.iter().map(|ns| ns.iter().fold(0, |m, &b| m | 1 << b)).collect()
        } else {
            Vec::new()
        };
        let nb128: Vec<u128> = neighbours.iter().map(|ns| ns.iter().fold(0, |m, &b| m | 1 << b)).collect();
        for trial in 0..1500 {
            let removed = trial_cells(&mut rng, &neighbours, trial);
            let free = removed.iter().fold(u128::below(n), |m, &c| m.andnot(u128::bit(c as usize)));
            for (table, &n_states) in tables.iter().zip(&states) {
                let state = rng.below(n_states as u64) as usize;
                let oracle = regions_ok(free, free.count(), &nb128, table, state);
                assert_eq!(
                    regions_ok_rows(free, free.count(), &rows128, table, state),
                    oracle,
                    "{n} cells {removed:?}"
                );
                if let Some(rows64) = &rows64 {
                    let free = free as u64;
                    assert_eq!(regions_ok(free, free.count(), &nb64, table, state), oracle);
                    assert_eq!(regions_ok_rows(free, free.count(), rows64, table, state), oracle);
                }
                rejected += usize::from(!oracle);
            }
        }
    }
    assert_eq!(boards_with_rows, 3, "the 10x6, the 9x5 with a wall and the 30x3");
    assert!(rejected > 1000, "{rejected} rejections");
}
