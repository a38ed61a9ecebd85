//! The empty cells by their number of empty face neighbours, for all cells
//! at once: EMCH fills one of the cells with the fewest, and MCH counts
//! fits at the cells with few empty neighbours first, so its early exit
//! starts from a small bound.
//!
//! When the cells form a full box (no stationary piece, so a neighbour
//! along an axis is always the same distance away in the cell order), the
//! counts come from bit-sliced additions of the empty set shifted along
//! each axis: a few dozen word operations for the whole board. Otherwise
//! each cell's neighbours are counted one by one.

use crate::poly::model::bits::Bits;
use crate::poly::model::Images;

/// How to count empty neighbours.
///
/// Invariant (`Shifts`): for every direction `(s, has)` of `up` (of
/// `down`), a cell `c` in `has` has its neighbour at `c + s` (at `c - s`),
/// and the cells not in `has` have no neighbour that way. Unused entries
/// have an empty `has` (and shift 0), so they add nothing.
#[derive(Clone, Debug)]
pub enum NeighbourCounter<B> {
    /// A full box: one shift per direction, three up and three down.
    Shifts {
        /// Directions whose neighbour is `s` bits up.
        up: [(u32, B); 3],
        /// Directions whose neighbour is `s` bits down.
        down: [(u32, B); 3],
    },
    /// Anything else: the neighbour set of each cell.
    PerCell(Vec<B>),
}

impl<B: Bits> NeighbourCounter<B> {
    /// The counter for `images`' cells (`neighbours[c]`: the face
    /// neighbours of cell `c` as a set).
    pub fn new(images: &Images, neighbours: &[B]) -> Self {
        let n = images.n_cells;
        let at: std::collections::HashMap<[i32; 3], usize> =
            images.coords.iter().enumerate().map(|(i, p)| (*p, i)).collect();
        let mut dirs = Vec::new();
        let mut regular = true;
        'axes: for axis in 0..3 {
            for d in [1i32, -1] {
                let mut stride: Option<usize> = None;
                let mut has = B::default();
                for (c, p) in images.coords.iter().enumerate() {
                    let mut q = *p;
                    q[axis] += d;
                    let Some(&b) = at.get(&q) else { continue };
                    let dist = b.abs_diff(c);
                    if (b > c) != (d > 0) || stride.is_some_and(|s| s != dist) || dist >= B::CAPACITY {
                        regular = false;
                        break 'axes;
                    }
                    stride = Some(dist);
                    has = has.or(B::bit(c));
                }
                if let Some(s) = stride {
                    dirs.push((s as u32, d > 0, has));
                }
            }
        }
        if regular && n > 0 {
            let mut up = [(0, B::default()); 3];
            let mut down = [(0, B::default()); 3];
            let (mut nu, mut nd) = (0, 0);
            for (s, is_up, has) in dirs {
                if is_up {
                    up[nu] = (s, has);
                    nu += 1;
                } else {
                    down[nd] = (s, has);
                    nd += 1;
                }
            }
            NeighbourCounter::Shifts { up, down }
        } else {
            NeighbourCounter::PerCell(neighbours.to_vec())
        }
    }

    /// `levels[k]`: the cells of `free` with exactly `k` neighbours in
    /// `free`, for `k` in `0..7` (cells of `free` only).
    #[inline(always)]
    pub fn levels(&self, free: B) -> [B; 7] {
        let mut out = [B::default(); 7];
        match self {
            NeighbourCounter::Shifts { up, down } => {
                let (b0, b1, b2) = sliced_counts(up, down, free);
                let sel = |b: B, on: bool| if on { b } else { b.not() };
                for (k, o) in out.iter_mut().enumerate() {
                    *o = free.and(sel(b0, k & 1 != 0)).and(sel(b1, k & 2 != 0)).and(sel(b2, k & 4 != 0));
                }
            }
            NeighbourCounter::PerCell(nb) => {
                let mut rest = free;
                while let Some(c) = rest.pop_lowest() {
                    let k = (nb[c].and(free).count() as usize).min(6);
                    out[k] = out[k].or(B::bit(c));
                }
            }
        }
        out
    }

    /// [`NeighbourCounter::fewest`] with no branch on the counts: every
    /// level is formed and the lowest non-empty one kept by conditional
    /// moves. Where the lowest level varies from node to node (the set
    /// search's), the branches of `fewest` mispredict more than forming
    /// every level costs; in the AVX2 kernel, where the level is steadier,
    /// the branches win (measured: docs/tried/poly.md, "MCH and EMCH", the
    /// lowest neighbour level found without branches).
    #[inline(always)]
    pub fn fewest_flat(&self, free: B) -> B {
        match self {
            NeighbourCounter::Shifts { up, down } => {
                let (b0, b1, b2) = sliced_counts(up, down, free);
                let mut out = B::default();
                // Counts 7 down to 0, the last non-empty one kept.
                for part in [free.and(b2), free.andnot(b2)] {
                    let (even, odd) = (part.andnot(b0), part.and(b0));
                    for x in [odd.and(b1), even.and(b1), odd.andnot(b1), even.andnot(b1)] {
                        if !x.is_zero() {
                            out = x;
                        }
                    }
                }
                out
            }
            NeighbourCounter::PerCell(_) => self.fewest(free),
        }
    }

    /// The cells of `free` with the fewest neighbours in `free` (empty
    /// when `free` is).
    #[inline(always)]
    pub fn fewest(&self, free: B) -> B {
        match self {
            NeighbourCounter::Shifts { up, down } => {
                let (b0, b1, b2) = sliced_counts(up, down, free);
                // Counts 0..3, then 4..7.
                let low = free.andnot(b2);
                let high = free.and(b2);
                for part in [low, high] {
                    if part.is_zero() {
                        continue;
                    }
                    let even = part.andnot(b0);
                    for x in [even.andnot(b1), part.and(b0).andnot(b1), even.and(b1), part.and(b0).and(b1)] {
                        if !x.is_zero() {
                            return x;
                        }
                    }
                }
                B::default()
            }
            NeighbourCounter::PerCell(_) => self.levels(free).into_iter().find(|l| !l.is_zero()).unwrap_or_default(),
        }
    }
}

/// Per-cell counts of `free` neighbours as three bit planes `(b0, b1, b2)`
/// (a cell's count is `b0 + 2 b1 + 4 b2`), by bit-sliced additions of
/// `free` shifted along each direction.
#[inline(always)]
fn sliced_counts<B: Bits>(up: &[(u32, B); 3], down: &[(u32, B); 3], free: B) -> (B, B, B) {
    let (mut b0, mut b1, mut b2) = (B::default(), B::default(), B::default());
    // Unrolled (six directions, a full adder each): the loop's control
    // cost as much as the additions.
    let mut add = |x: B| {
        let c0 = b0.and(x);
        b0 = b0.xor(x);
        let c1 = b1.and(c0);
        b1 = b1.xor(c0);
        b2 = b2.or(c1);
    };
    add(free.shr(up[0].0).and(up[0].1));
    add(free.shr(up[1].0).and(up[1].1));
    add(free.shr(up[2].0).and(up[2].1));
    add(free.shl(down[0].0).and(down[0].1));
    add(free.shl(down[1].0).and(down[1].1));
    add(free.shl(down[2].0).and(down[2].1));
    (b0, b1, b2)
}

#[cfg(test)]
mod tests {
    use crate::frontend::polycube;
    use crate::poly::model::neighbours::*;

    fn check(text: &str) {
        let puzzle = polycube::parse(text, "t").unwrap().remove(0);
        let built = polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, Default::default()).unwrap();
        let nb: Vec<u128> = images.neighbours().iter().map(|ns| ns.iter().fold(0u128, |m, &b| m | 1 << b)).collect();
        let fast = NeighbourCounter::<u128>::new(&images, &nb);
        assert!(matches!(fast, NeighbourCounter::Shifts { .. }), "a full box counts by shifts");
        let slow = NeighbourCounter::PerCell(nb.clone());
        let n = images.n_cells;
        let mut rng = crate::search::Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let x = rng.next_u64();
            let free = (x as u128 | (x.rotate_left(17) as u128) << 64) & ((1u128 << n) - 1);
            assert_eq!(fast.levels(free), slow.levels(free));
            assert_eq!(fast.fewest(free), slow.fewest(free));
            assert_eq!(fast.fewest_flat(free), slow.fewest(free));
        }
    }

    #[test]
    fn shifts_agree_with_per_cell_counts() {
        check(&std::fs::read_to_string("instances/polycube/somacube_def.txt").unwrap());
        check(&std::fs::read_to_string("instances/polycube/pentominoes_10x6_def.txt").unwrap());
    }
}
