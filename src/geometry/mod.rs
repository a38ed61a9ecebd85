//! Integer geometry of polycubes: points, the rotation groups (24 proper
//! rotations in 3-D, 48 with mirrors; 4 / 8 in the plane), shapes normalised
//! up to translation, their distinct orientations, and the symmetries of a
//! box.

/// A lattice point `(x, y, z)`.
pub type Point = [i32; 3];

/// A linear map of the lattice given by a signed permutation matrix: axis
/// `k` of the result is `sign[k] * p[perm[k]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Transform {
    perm: [usize; 3],
    sign: [i32; 3],
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform { perm: [0, 1, 2], sign: [1, 1, 1] };

    /// Applies the map to a point.
    pub fn apply(&self, p: Point) -> Point {
        [self.sign[0] * p[self.perm[0]], self.sign[1] * p[self.perm[1]], self.sign[2] * p[self.perm[2]]]
    }

    /// Determinant: +1 for rotations, -1 for reflections.
    pub fn det(&self) -> i32 {
        let parity = {
            let p = self.perm;
            let inversions = (p[0] > p[1]) as i32 + (p[0] > p[2]) as i32 + (p[1] > p[2]) as i32;
            if inversions % 2 == 0 {
                1
            } else {
                -1
            }
        };
        parity * self.sign[0] * self.sign[1] * self.sign[2]
    }

    /// Whether the map is a proper rotation.
    pub fn is_rotation(&self) -> bool {
        self.det() == 1
    }

    /// Whether the map keeps the z axis fixed (`z -> z`), i.e. acts in the
    /// x-y plane only.
    pub fn is_planar(&self) -> bool {
        self.perm[2] == 2 && self.sign[2] == 1
    }

    /// All 48 signed permutation matrices, identity first, in a fixed order.
    pub fn all() -> Vec<Transform> {
        const PERMS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let mut out = Vec::with_capacity(48);
        for perm in PERMS {
            for s in 0..8 {
                let sign = [1 - 2 * (s & 1), 1 - (s & 2), 1 - ((s & 4) >> 1)];
                out.push(Transform { perm, sign });
            }
        }
        out
    }

    /// The allowed orientation group of a puzzle: the 24 rotations in space,
    /// or the 4 rotations in the plane for one-sided puzzles; with
    /// `mirror`, the corresponding reflections are added (48 or 8).
    pub fn group(one_side: bool, mirror: bool) -> Vec<Transform> {
        Transform::all()
            .into_iter()
            .filter(|t| mirror || t.is_rotation())
            .filter(|t| !one_side || t.is_planar())
            .collect()
    }
}

/// A set of cells normalised so that the minimum coordinate on each axis is 0
/// and the cells are sorted. Two shapes are translates iff they are equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape(Vec<Point>);

impl Shape {
    /// Normalises any set of points (duplicates are kept; callers reject them).
    pub fn new(points: impl IntoIterator<Item = Point>) -> Shape {
        let mut v: Vec<Point> = points.into_iter().collect();
        normalise(&mut v);
        Shape(v)
    }

    /// The cells, sorted, with minimum 0 on each axis.
    pub fn cells(&self) -> &[Point] {
        &self.0
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the shape has no cells.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Extent `max + 1` on each axis.
    pub fn extent(&self) -> [i32; 3] {
        let mut e = [0; 3];
        for p in &self.0 {
            for k in 0..3 {
                e[k] = e[k].max(p[k] + 1);
            }
        }
        e
    }

    /// The shape transformed by `t`, normalised.
    pub fn transformed(&self, t: &Transform) -> Shape {
        Shape::new(self.0.iter().map(|&p| t.apply(p)))
    }

    /// The distinct orientations under `group`, in the group's order of
    /// first appearance.
    pub fn orientations(&self, group: &[Transform]) -> Vec<Shape> {
        // Each image is made in one scratch buffer and copied out only when
        // new (the set-up asks this of every piece several times).
        // A fingerprint per orientation found rules out most comparisons.
        let mut out: Vec<Shape> = Vec::with_capacity(group.len());
        let mut prints: Vec<u64> = Vec::with_capacity(group.len());
        let mut scratch: Vec<Point> = Vec::with_capacity(self.0.len());
        for t in group {
            scratch.clear();
            scratch.extend(self.0.iter().map(|&p| t.apply(p)));
            normalise(&mut scratch);
            let print = scratch.iter().fold(0u64, |h, p| {
                let packed = (p[0] as u32 as u64) | (p[1] as u32 as u64) << 21 | (p[2] as u32 as u64) << 42;
                (h ^ packed).wrapping_mul(0x0100_0000_01b3)
            });
            if !prints.iter().zip(&out).any(|(&q, s)| q == print && s.0 == scratch) {
                prints.push(print);
                out.push(Shape(scratch.clone()));
            }
        }
        out
    }

    /// A representative of the shape's class under `group` (the least
    /// orientation), so two pieces are congruent iff their canonical forms
    /// are equal.
    pub fn canonical(&self, group: &[Transform]) -> Shape {
        group.iter().map(|t| self.transformed(t)).min().unwrap_or_else(|| self.clone())
    }
}

/// Moves `v` to minimum 0 on each axis and sorts it ([`Shape::new`]).
fn normalise(v: &mut [Point]) {
    if let Some(first) = v.first().copied() {
        let mut min = first;
        for p in v.iter() {
            for k in 0..3 {
                min[k] = min[k].min(p[k]);
            }
        }
        for p in v.iter_mut() {
            for k in 0..3 {
                p[k] -= min[k];
            }
        }
    }
    v.sort_unstable();
}

/// A symmetry of a box: `p -> t(p) + offset`, mapping the box onto itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoxSymmetry {
    /// The linear part.
    pub transform: Transform,
    offset: Point,
}

impl BoxSymmetry {
    /// Applies the symmetry to a point of the box.
    pub fn apply(&self, p: Point) -> Point {
        let q = self.transform.apply(p);
        [q[0] + self.offset[0], q[1] + self.offset[1], q[2] + self.offset[2]]
    }

    /// The members of `group` that map the box `dims` onto itself (identity
    /// first when it is in `group`).
    pub fn of_box(dims: [u32; 3], group: &[Transform]) -> Vec<BoxSymmetry> {
        let d = dims.map(|v| v as i32);
        group
            .iter()
            .filter(|t| (0..3).all(|k| d[t.perm[k]] == d[k]))
            .map(|&t| {
                let mut offset = [0; 3];
                for k in 0..3 {
                    if t.sign[k] < 0 {
                        offset[k] = d[k] - 1;
                    }
                }
                BoxSymmetry { transform: t, offset }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_sizes() {
        assert_eq!(Transform::all().len(), 48);
        assert_eq!(Transform::group(false, false).len(), 24);
        assert_eq!(Transform::group(false, true).len(), 48);
        assert_eq!(Transform::group(true, false).len(), 4);
        assert_eq!(Transform::group(true, true).len(), 8);
        assert_eq!(Transform::all()[0], Transform::IDENTITY);
    }

    #[test]
    fn orientation_counts_of_known_pieces() {
        let rot = Transform::group(false, false);
        let rot2 = Transform::group(true, false);
        let f = Shape::new([[1, 0, 0], [1, 1, 0], [1, 2, 0], [0, 1, 0], [2, 2, 0]]);
        let x = Shape::new([[1, 0, 0], [0, 1, 0], [1, 1, 0], [2, 1, 0], [1, 2, 0]]);
        let i = Shape::new((0..5).map(|k| [k, 0, 0]));
        // Flat pieces in space: F has 8 planar orientations but 24 in 3-D
        // (it can lie in three planes); X 3 planes x 1; I 3 directions.
        assert_eq!(f.orientations(&rot).len(), 24);
        assert_eq!(x.orientations(&rot).len(), 3);
        assert_eq!(i.orientations(&rot).len(), 3);
        assert_eq!(f.orientations(&rot2).len(), 4);
        assert_eq!(i.orientations(&rot2).len(), 2);
    }

    #[test]
    fn box_symmetries() {
        let rot = Transform::group(false, false);
        assert_eq!(BoxSymmetry::of_box([3, 3, 3], &rot).len(), 24);
        assert_eq!(BoxSymmetry::of_box([10, 6, 1], &rot).len(), 4);
        assert_eq!(BoxSymmetry::of_box([4, 4, 2], &rot).len(), 8);
        for s in BoxSymmetry::of_box([4, 3, 2], &Transform::all()) {
            for p in [[0, 0, 0], [3, 2, 1], [1, 2, 0]] {
                let q = s.apply(p);
                assert!((0..4).contains(&q[0]) && (0..3).contains(&q[1]) && (0..2).contains(&q[2]));
            }
        }
    }
}
