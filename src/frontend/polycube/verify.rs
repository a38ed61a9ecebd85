//! Puzzle-level check of a solution, from the definition alone: the placed
//! cell sets tile the free part of the box, and they are, as a multiset,
//! congruent to the mobile pieces under the allowed rotations.

use super::Puzzle;
use crate::geometry::{Point, Shape, Transform};
use crate::ir::{verify, Problem, Solution};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Why a set of placed pieces does not solve a puzzle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct PuzzleError(pub String);

/// A puzzle-level verifier prepared once per puzzle (the orientations of
/// every mobile piece precomputed), so that checking many solutions is
/// cheap. It reads the definition only, never the IR.
#[derive(Clone, Debug)]
pub struct Verifier {
    dims: [i32; 3],
    stationary: Vec<Vec<Point>>,
    /// Every allowed orientation of every mobile piece shape, normalised
    /// (the cells of its [`Shape`]), mapped to the class of congruent
    /// pieces.
    class_of: HashMap<Vec<Point>, usize, FxBuildHasher>,
    /// Number of mobile pieces per class.
    wanted: Vec<i64>,
    /// Size, per axis, of the window a normalised placed shape must fit in
    /// to match a piece: the largest extent of any allowed orientation,
    /// capped by the box.
    window: [i32; 3],
    /// When `window` holds at most 128 cells: every allowed orientation
    /// that fits the window, as the bit set of its cells (`x + wx * (y +
    /// wy * z)`), mapped to its class. Same map as `class_of`, with keys
    /// that need neither sorting nor a heap-allocated comparison.
    class_of_mask: Option<HashMap<u128, usize, FxBuildHasher>>,
    /// Cells covered by the stationary pieces, one bit per box cell, when
    /// they are inside the box and disjoint (else every check takes the
    /// full path, which reports the fault).
    stationary_mask: Option<(Vec<u64>, usize)>,
    /// What this verifier found out about each placement of the problem
    /// it was first asked about, filled in as solutions use them (see
    /// [`PlacementMemo`]).
    memo: OnceLock<PlacementMemo>,
    /// The coordinates of box cell `x + dx * (y + dy * z)`, for each cell
    /// of the box (the geometry's numbering when its dimensions are the
    /// box's: no divisions per cell).
    box_cells: Vec<Point>,
}

/// The puzzle-level facts about each placement (option) of one problem,
/// computed by the verifier from the placement's cells the first time a
/// solution uses it: then a solution is checked with one bit set and one
/// count per piece class, without normalising shapes again.
///
/// Invariant: `entries[o]`, once set, describes the cells `cells` of
/// option `o` under geometry dimensions `dims`: `None` if they leave the
/// box or match no piece, else their box-cell indices and piece class.
/// Each use compares the option's current cells and `dims` with the
/// recorded ones, so a different problem never reads a wrong entry.
#[derive(Clone, Debug)]
struct PlacementMemo {
    dims: [u32; 3],
    entries: Vec<OnceLock<Option<PlacementFacts>>>,
}

/// Geometry cells of a placement kept in [`PlacementFacts`] without an
/// allocation of their own.
const INLINE_CELLS: usize = 8;

/// See [`PlacementMemo`].
#[derive(Clone, Debug)]
struct PlacementFacts {
    /// The geometry cells the facts were computed from: the first `n_cells`
    /// of `inline` when there are at most [`INLINE_CELLS`], else `spilled`.
    inline: [u32; INLINE_CELLS],
    n_cells: usize,
    spilled: Box<[u32]>,
    /// Their indices `x + dx * (y + dy * z)` in the box, when `bits` is
    /// `None` (else empty).
    keys: Box<[u32]>,
    /// The same indices as a bit set, when the box has at most 128 cells
    /// and the indices are distinct: a solution is then checked with one
    /// AND and one OR per placement.
    bits: Option<u128>,
    /// The class of congruent pieces they form.
    class: usize,
}

impl Verifier {
    /// Prepares the checks of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> Verifier {
        let group = Transform::group(puzzle.one_side, false);
        let mut class_of: HashMap<Vec<Point>, usize, FxBuildHasher> = HashMap::default();
        let mut wanted: Vec<i64> = Vec::new();
        for d in puzzle.pieces.iter().filter(|d| !d.stationary) {
            let shape = Shape::new(d.cells.iter().copied());
            match class_of.get(shape.cells()) {
                Some(&c) => wanted[c] += 1,
                None => {
                    let c = wanted.len();
                    wanted.push(1);
                    for o in shape.orientations(&group) {
                        class_of.insert(o.cells().to_vec(), c);
                    }
                }
            }
        }
        let dims = puzzle.dims.map(|d| d as i32);
        let mut window = [1i32; 3];
        for cells in class_of.keys() {
            for p in cells {
                for k in 0..3 {
                    window[k] = window[k].max(p[k] + 1);
                }
            }
        }
        for k in 0..3 {
            window[k] = window[k].min(dims[k].max(1));
        }
        let class_of_mask = (window.iter().product::<i32>() <= 128).then(|| {
            class_of
                .iter()
                .filter_map(|(cells, &c)| {
                    let fits = cells.iter().all(|p| (0..3).all(|k| p[k] < window[k]));
                    fits.then(|| (cells.iter().fold(0u128, |m, p| m | 1 << window_index(window, *p)), c))
                })
                .collect()
        });
        let stationary: Vec<Vec<Point>> =
            puzzle.pieces.iter().filter(|d| d.stationary).map(|d| d.cells.clone()).collect();
        let volume = dims.iter().product::<i32>().max(0) as usize;
        let mut mask = vec![0u64; volume.div_ceil(64)];
        let mut n_stationary = 0;
        let stationary_mask = stationary
            .iter()
            .flatten()
            .all(|&c| {
                n_stationary += 1;
                box_index(dims, c).is_some_and(|k| {
                    let fresh = mask[k / 64] & 1 << (k % 64) == 0;
                    mask[k / 64] |= 1 << (k % 64);
                    fresh
                })
            })
            .then_some((mask, n_stationary));
        let box_cells =
            (0..dims[2]).flat_map(|z| (0..dims[1]).flat_map(move |y| (0..dims[0]).map(move |x| [x, y, z]))).collect();
        Verifier {
            dims,
            stationary,
            class_of,
            wanted,
            window,
            class_of_mask,
            stationary_mask,
            memo: OnceLock::new(),
            box_cells,
        }
    }

    /// The facts of a placement with geometry cells `cells` at `coords`.
    fn facts(&self, cells: &[u32], coords: impl Iterator<Item = Point>) -> Option<PlacementFacts> {
        // The points on the stack for the usual piece sizes (this runs once
        // per placement a solution uses).
        let (mut stack, mut heap) = ([[0i32; 3]; 16], Vec::new());
        let mut n = 0;
        for p in coords {
            if n < stack.len() {
                stack[n] = p;
            } else {
                if heap.is_empty() {
                    heap.extend_from_slice(&stack);
                }
                heap.push(p);
            }
            n += 1;
        }
        let points: &mut [Point] = if n <= stack.len() { &mut stack[..n] } else { &mut heap };
        let mut bits = Some(0u128);
        for &p in points.iter() {
            let k = box_index(self.dims, p)?;
            bits = bits.filter(|b| k < 128 && b & 1 << k == 0).map(|b| b | 1 << k);
        }
        let min = points.iter().fold([i32::MAX; 3], |m, p| [m[0].min(p[0]), m[1].min(p[1]), m[2].min(p[2])]);
        // Keys only where the bit set does not serve (boxes of more than
        // 128 cells).
        let volume = self.dims.iter().product::<i32>() as usize;
        let bits = bits.filter(|_| volume <= 128);
        let keys: Box<[u32]> = match bits {
            Some(_) => Box::default(),
            None => points.iter().map(|&p| box_index(self.dims, p).map(|k| k as u32)).collect::<Option<_>>()?,
        };
        let class = self.class(points, min)?;
        let (mut inline, mut spilled) = ([0; INLINE_CELLS], Box::default());
        match inline.get_mut(..cells.len()) {
            Some(to) => to.copy_from_slice(cells),
            None => spilled = cells.into(),
        }
        Some(PlacementFacts { inline, n_cells: cells.len(), spilled, keys, bits, class })
    }

    /// The check of [`Self::verify_solution`] by the placement memo: `true`
    /// when the solution tiles the box with the right pieces, `false` when
    /// the memo cannot tell (a fault, or a placement it cannot vouch for).
    fn check_by_memo(&self, geo: &crate::ir::Geometry, options: &[u32]) -> bool {
        let Some((stationary, n_stationary)) = &self.stationary_mask else { return false };
        let memo = self.memo.get_or_init(|| PlacementMemo {
            dims: geo.dims,
            entries: (0..geo.placements.len()).map(|_| OnceLock::new()).collect(),
        });
        if memo.dims != geo.dims {
            return false;
        }
        let volume = self.dims.iter().product::<i32>() as usize;
        // The geometry numbers cells as the box does when it has the box's
        // dimensions: then the coordinates come from `box_cells`.
        let same_dims = geo.dims == self.dims.map(|d| d as u32);
        let facts_of = |o: u32| -> Option<&PlacementFacts> {
            let (slot, placement) = (memo.entries.get(o as usize)?, geo.placements.get(o as usize)?);
            let facts = match slot.get() {
                Some(facts) => facts,
                None => slot.get_or_init(|| {
                    let coords = placement.cells.iter().map(|&c| match self.box_cells.get(c as usize) {
                        Some(&p) if same_dims => p,
                        _ => geo.coords(c).map(|v| v as i32),
                    });
                    self.facts(&placement.cells, coords)
                }),
            };
            // Element by element: cells are a handful of ids, a `memcmp`
            // call costs more than the comparison.
            let f = facts.as_ref()?;
            let cells = if f.n_cells <= INLINE_CELLS { &f.inline[..f.n_cells] } else { &f.spilled[..] };
            let same = cells.len() == placement.cells.len() && cells.iter().zip(&placement.cells).all(|(a, b)| a == b);
            same.then_some(f)
        };
        let (mut left_stack, mut left_heap) = ([0i64; 16], Vec::new());
        let left = working_copy(&self.wanted, &mut left_stack, &mut left_heap);
        if volume <= 128 {
            // One bit set of the whole box.
            let mut covered =
                stationary.iter().take(2).enumerate().fold(0u128, |m, (i, &w)| m | (w as u128) << (64 * i));
            for &o in options {
                let Some(f) = facts_of(o) else { return false };
                let Some(bits) = f.bits else { return false };
                if left[f.class] == 0 || covered & bits != 0 {
                    return false;
                }
                left[f.class] -= 1;
                covered |= bits;
            }
            let full = if volume == 128 { u128::MAX } else { (1u128 << volume) - 1 };
            return covered == full;
        }
        // Working copies on the stack for the usual sizes: this runs once
        // per solution found.
        let (mut covered_stack, mut covered_heap) = ([0u64; 16], Vec::new());
        let covered = working_copy(stationary, &mut covered_stack, &mut covered_heap);
        let mut n_covered = *n_stationary;
        for &o in options {
            let Some(f) = facts_of(o) else { return false };
            if left[f.class] == 0 {
                return false;
            }
            left[f.class] -= 1;
            for &k in f.keys.iter() {
                let (word, bit) = (k as usize / 64, 1u64 << (k % 64));
                if covered[word] & bit != 0 {
                    return false;
                }
                covered[word] |= bit;
            }
            n_covered += f.keys.len();
        }
        n_covered == volume
    }

    /// The class of the piece whose cells, normalised, are `cells` (least
    /// coordinate `min` on each axis), if any: by the bit-set map when there
    /// is one, else by sorting the normalised cells (which it overwrites).
    fn class(&self, cells: &mut [Point], min: Point) -> Option<usize> {
        if let Some(by_mask) = &self.class_of_mask {
            let mut mask = 0u128;
            for p in cells.iter() {
                let q = [p[0] - min[0], p[1] - min[1], p[2] - min[2]];
                if (0..3).any(|k| q[k] >= self.window[k]) {
                    return None;
                }
                mask |= 1 << window_index(self.window, q);
            }
            // Distinct cells (checked by the caller) make distinct bits, so
            // the bit set has as many cells as the shape.
            return by_mask.get(&mask).copied();
        }
        // Normalised as `Shape::new` does: least coordinate 0 on each
        // axis, cells sorted.
        for p in cells.iter_mut() {
            for k in 0..3 {
                p[k] -= min[k];
            }
        }
        cells.sort_unstable();
        self.class_of.get(&cells[..]).copied()
    }

    /// Checks that `placed` (one cell list per mobile piece) tiles the free
    /// part of the box with pieces congruent, as a multiset, to the mobile
    /// pieces.
    pub fn verify_cells(&self, placed: &[Vec<Point>]) -> Result<(), PuzzleError> {
        self.check(placed.len(), |i, out| out.extend_from_slice(&placed[i]))
    }

    /// [`Self::verify_cells`] for `n` placed pieces, piece `i`'s cells
    /// appended to a buffer by `cells_of(i, buffer)`: one allocation for
    /// all pieces, shapes normalised in place.
    fn check(&self, n: usize, mut cells_of: impl FnMut(usize, &mut Vec<Point>)) -> Result<(), PuzzleError> {
        let [dx, dy, dz] = self.dims;
        let volume = (dx * dy * dz) as usize;
        let mut covered = vec![0u64; volume.div_ceil(64)];
        let mut n_covered = 0;
        let mut all: Vec<Point> = Vec::with_capacity(volume);
        let mut start = Vec::with_capacity(n + 1);
        for i in 0..n {
            start.push(all.len());
            cells_of(i, &mut all);
        }
        start.push(all.len());
        for cells in self.stationary.iter().map(|c| &c[..]).chain(start.windows(2).map(|w| &all[w[0]..w[1]])) {
            for &c in cells {
                if !(0..dx).contains(&c[0]) || !(0..dy).contains(&c[1]) || !(0..dz).contains(&c[2]) {
                    return Err(PuzzleError(format!("cell {c:?} is outside the box")));
                }
                let k = (c[0] + dx * (c[1] + dy * c[2])) as usize;
                let bit = 1u64 << (k % 64);
                if covered[k / 64] & bit != 0 {
                    return Err(PuzzleError(format!("cell {c:?} is covered twice")));
                }
                covered[k / 64] |= bit;
                n_covered += 1;
            }
        }
        if n_covered != volume {
            return Err(PuzzleError(format!("{n_covered} of {volume} cells are covered")));
        }
        let mut left = self.wanted.clone();
        for w in start.windows(2) {
            let cells = &mut all[w[0]..w[1]];
            let min = cells.iter().fold([i32::MAX; 3], |m, p| [m[0].min(p[0]), m[1].min(p[1]), m[2].min(p[2])]);
            let placed: Vec<Point> = match self.class(cells, min) {
                Some(c) if left[c] > 0 => {
                    left[c] -= 1;
                    continue;
                }
                _ if self.class_of_mask.is_some() => cells.to_vec(),
                _ => cells.iter().map(|p| [p[0] + min[0], p[1] + min[1], p[2] + min[2]]).collect(),
            };
            return Err(PuzzleError(format!("placed cells {placed:?} match no unused piece")));
        }
        Ok(())
    }

    /// Checks `solution` both as an exact cover of `problem` and, through
    /// the problem's geometry, as a solution of the puzzle.
    pub fn verify_solution(&self, problem: &Problem, solution: &Solution) -> Result<(), PuzzleError> {
        verify(problem, solution).map_err(|e| PuzzleError(e.to_string()))?;
        let geo = problem.geometry.as_ref().ok_or_else(|| PuzzleError("problem has no geometry".into()))?;
        if self.check_by_memo(geo, &solution.options) {
            return Ok(());
        }
        // The full check, which also says what is wrong.
        self.check(solution.options.len(), |i, out| {
            let cells = &geo.placements[solution.options[i] as usize].cells;
            out.extend(cells.iter().map(|&c| geo.coords(c).map(|v| v as i32)));
        })
    }
}

/// A mutable copy of `init`: in `stack` when it fits, else in `heap`.
fn working_copy<'a, T: Copy, const N: usize>(init: &[T], stack: &'a mut [T; N], heap: &'a mut Vec<T>) -> &'a mut [T] {
    if init.len() <= N {
        let copy = &mut stack[..init.len()];
        copy.copy_from_slice(init);
        copy
    } else {
        heap.extend_from_slice(init);
        heap
    }
}

/// Index of `c` in a box of size `dims`, if inside.
fn box_index(dims: [i32; 3], c: Point) -> Option<usize> {
    let inside = (0..3).all(|k| (0..dims[k]).contains(&c[k]));
    inside.then(|| (c[0] + dims[0] * (c[1] + dims[1] * c[2])) as usize)
}

/// Bit index of normalised cell `p` in a window of size `w`.
fn window_index(w: [i32; 3], p: Point) -> i32 {
    p[0] + w[0] * (p[1] + w[1] * p[2])
}

/// Checks that `placed` (one cell list per mobile piece) solves `puzzle`.
pub fn verify_cells(puzzle: &Puzzle, placed: &[Vec<Point>]) -> Result<(), PuzzleError> {
    Verifier::new(puzzle).verify_cells(placed)
}

/// Checks `solution` both as an exact cover of `problem` and, through the
/// problem's geometry, as a solution of `puzzle`.
pub fn verify_solution(puzzle: &Puzzle, problem: &Problem, solution: &Solution) -> Result<(), PuzzleError> {
    Verifier::new(puzzle).verify_solution(problem, solution)
}
