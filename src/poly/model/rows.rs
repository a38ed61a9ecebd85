//! The cells of a flat box as rows: neighbour tests on whole occupancy
//! words by shifts, for the de Bruijn kernels' dead-cell checks and the
//! volume trigger's region split.

use crate::poly::model::bits::Bits;

/// A flat box whose cell `c` has exactly the neighbours `c + 1` (if `c`
/// is in `right`), `c - 1` (if in `left`), `c + width` and `c - width`
/// (when those are cells): the free cells with a free neighbour are then
/// `(free >> 1 & right) | (free << 1 & left) | free >> width | free <<
/// width`, the free set having no bit past the last cell.
#[derive(Clone, Copy, Debug)]
pub struct Rows<B> {
    pub(in crate::poly) right: B,
    pub(in crate::poly) left: B,
    pub(in crate::poly) width: u32,
}

impl<B: Bits> Rows<B> {
    /// The row layout of the cells with neighbour lists `nb`, if they have one.
    /// `None` too when the cells do not fit in `B`.
    pub(in crate::poly) fn of(nb: &[Vec<u32>]) -> Option<Self> {
        let n = nb.len();
        if n > B::CAPACITY {
            return None;
        }
        let width = nb
            .iter()
            .enumerate()
            .flat_map(|(c, bs)| bs.iter().map(move |&b| b as usize).filter(move |&b| b > c + 1).map(move |b| b - c))
            .min()?;
        let (mut right, mut left) = (B::default(), B::default());
        for (c, bs) in nb.iter().enumerate() {
            if bs.contains(&(c as u32 + 1)) {
                right = right.or(B::bit(c));
            }
            if c > 0 && bs.contains(&(c as u32 - 1)) {
                left = left.or(B::bit(c));
            }
        }
        for (c, bs) in nb.iter().enumerate() {
            let mut want: Vec<usize> = Vec::new();
            if right.test(c) {
                want.push(c + 1);
            }
            if left.test(c) {
                want.push(c - 1);
            }
            if c + width < n {
                want.push(c + width);
            }
            if c >= width {
                want.push(c - width);
            }
            let mut have: Vec<usize> = bs.iter().map(|&b| b as usize).collect();
            want.sort_unstable();
            have.sort_unstable();
            if want != have {
                return None;
            }
        }
        Some(Rows { right, left, width: width as u32 })
    }

    /// The cells next to a member of `set` (members included when they
    /// are next to one another).
    #[inline(always)]
    pub(in crate::poly) fn around(&self, set: B) -> B {
        set.and(self.right).shl(1).or(set.and(self.left).shr(1)).or(set.shl(self.width)).or(set.shr(self.width))
    }

    /// The members of `free` with a member of `free` next to them.
    #[inline(always)]
    pub(in crate::poly) fn with_free_neighbour(&self, free: B) -> B {
        free.shr(1).and(self.right).or(free.shl(1).and(self.left)).or(free.shr(self.width)).or(free.shl(self.width))
    }
}
