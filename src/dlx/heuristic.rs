//! Ordering heuristics for DLX: which item (column) to branch on.
//!
//! * `min-fit` (`f`): Knuth's rule, the item with the fewest remaining
//!   options (counting multiplicities: `len + 1 - bound` branches).
//! * `x`, `y`, `z` / `X`, `Y`, `Z` (Busche's scan heuristics): an item with
//!   no option left, else one with exactly one, else the *hole* with the
//!   least (upper case: greatest) coordinate on that axis, ties broken by
//!   fewest options.
//! * `R`: like the scan heuristics, with the hole farthest from the centre
//!   of the box.
//! * `a@DEG` (angular): the hole met first by a counter-clockwise sweep in
//!   the x-y plane around the centre starting at `DEG` degrees.
//!
//! Geometric heuristics need a key per item (its position); items without
//! one (pieces) are chosen only by the "no option / one option" rules.

use super::Matrix;
use std::fmt;

/// A column-ordering rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Heuristic {
    /// Fewest remaining options.
    MinFit,
    /// Least (or greatest) coordinate on `axis` (0 = x).
    Axis {
        /// 0, 1, 2 for x, y, z.
        axis: usize,
        /// Greatest first (`X`, `Y`, `Z`).
        descending: bool,
    },
    /// Farthest from the centre.
    Radial,
    /// Counter-clockwise sweep from `degrees`.
    Angular {
        /// Start angle, degrees counter-clockwise from the +x axis.
        degrees: f64,
    },
}

impl Heuristic {
    /// Parses a heuristic name (`min-fit`, `f`, `x`..`Z`, `R`, `a@DEG`).
    pub fn parse(s: &str) -> Result<Heuristic, String> {
        Ok(match s {
            "min-fit" | "f" => Heuristic::MinFit,
            "x" | "y" | "z" => Heuristic::Axis { axis: (s.as_bytes()[0] - b'x') as usize, descending: false },
            "X" | "Y" | "Z" => Heuristic::Axis { axis: (s.as_bytes()[0] - b'X') as usize, descending: true },
            "R" => Heuristic::Radial,
            _ => match s.strip_prefix("a@") {
                Some(deg) => {
                    let degrees: f64 = deg.parse().map_err(|_| format!("`{deg}` is not an angle in degrees"))?;
                    if !degrees.is_finite() {
                        return Err(format!("`{deg}` is not an angle in degrees"));
                    }
                    Heuristic::Angular { degrees }
                }
                None => {
                    return Err(format!("unknown heuristic `{s}`: expected min-fit (f), x, y, z, X, Y, Z, R or a@DEG"))
                }
            },
        })
    }

    /// The sort key of a hole at `p` in a box of extent `dims` (smaller is
    /// chosen first); `None` for min-fit, which needs no key.
    pub fn key(&self, p: [f64; 3], dims: [u32; 3]) -> Option<f64> {
        let centre = dims.map(|d| (d as f64 - 1.0) / 2.0);
        match self {
            Heuristic::MinFit => None,
            Heuristic::Axis { axis, descending } => Some(if *descending { -p[*axis] } else { p[*axis] }),
            Heuristic::Radial => {
                let d2: f64 = (0..3).map(|k| (p[k] - centre[k]).powi(2)).sum();
                Some(-d2)
            }
            Heuristic::Angular { degrees } => {
                let (dx, dy) = (p[0] - centre[0], p[1] - centre[1]);
                if dx == 0.0 && dy == 0.0 {
                    return Some(360.0);
                }
                let a = dy.atan2(dx).to_degrees();
                Some((a - degrees).rem_euclid(360.0))
            }
        }
    }

    /// Chooses the item header to branch on: `keys[h]` is the key of header
    /// `h` (`f64::INFINITY` for items without a position). Returns `None`
    /// when no primary item is active.
    pub fn choose(&self, m: &Matrix, keys: &[f64]) -> Option<u32> {
        if *self == Heuristic::MinFit {
            return m.choose_min_fit();
        }
        let mut one = None;
        let mut best: Option<(f64, i64, u32)> = None;
        let mut any = None;
        for i in m.active_items() {
            any.get_or_insert(i);
            let theta = m.len(i) as i64 + 1 - m.bound(i) as i64;
            if theta <= 0 {
                return Some(i);
            }
            if theta == 1 && one.is_none() {
                one = Some(i);
            }
            let k = keys[i as usize];
            let better = match best {
                None => true,
                Some((bk, bt, _)) => (k, theta) < (bk, bt),
            };
            if k.is_finite() && better {
                best = Some((k, theta, i));
            }
        }
        one.or(best.map(|b| b.2)).or_else(|| any.and_then(|_| m.choose_min_fit()))
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Heuristic::MinFit => f.write_str("min-fit"),
            Heuristic::Axis { axis, descending } => {
                let c = if *descending { b'X' } else { b'x' } + *axis as u8;
                write!(f, "{}", c as char)
            }
            Heuristic::Radial => f.write_str("R"),
            Heuristic::Angular { degrees } => write!(f, "a@{degrees}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display_round_trip() {
        for s in ["min-fit", "x", "y", "z", "X", "Y", "Z", "R", "a@160", "a@-45.5"] {
            assert_eq!(Heuristic::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Heuristic::parse("f").unwrap(), Heuristic::MinFit);
        assert!(Heuristic::parse("w").is_err());
        assert!(Heuristic::parse("a@").is_err());
    }

    #[test]
    fn keys_order_holes() {
        let dims = [10, 6, 1];
        let x = Heuristic::parse("x").unwrap();
        assert!(x.key([0.0, 3.0, 0.0], dims) < x.key([1.0, 0.0, 0.0], dims));
        let r = Heuristic::Radial;
        assert!(r.key([0.0, 0.0, 0.0], dims) < r.key([4.0, 2.0, 0.0], dims));
        let a = Heuristic::Angular { degrees: 90.0 };
        // Straight up from the centre comes first, then counter-clockwise (left).
        let up = a.key([4.5, 5.0, 0.0], dims).unwrap();
        let left = a.key([0.0, 2.5, 0.0], dims).unwrap();
        let right = a.key([9.0, 2.5, 0.0], dims).unwrap();
        assert!(up < left && left < right);
    }
}
