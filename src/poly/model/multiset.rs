//! States of "which pieces remain", grouped into classes that matter to a
//! constraint (parity magnitude, volume), as a mixed-radix index so that a
//! placement moves the state in O(1) and a table lookup answers "can the
//! remaining pieces achieve this value?" (Busche's parity-state objects).

/// A table of achievable values per multiset state.
///
/// Invariant: state `s = sum(left[c] * radix[c])` where `left[c] <=
/// total[c]`; `bits[s * words .. (s+1) * words]` is the set of achievable
/// values, value `v` stored at bit `v + offset`.
#[derive(Clone, Debug)]
pub struct StateTable {
    /// Class of each group (`None`: the group does not affect the value).
    pub class_of_group: Vec<Option<u16>>,
    /// Radix of each class.
    pub radix: Vec<usize>,
    offset: i64,
    width: usize,
    words: usize,
    bits: Vec<u64>,
}

/// A table would be too large (the constraint is then not offered).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the state table would need {0} entries")]
pub struct TooLarge(pub u128);

impl StateTable {
    /// Builds the table. `class_value[c]` is the value of one piece of class
    /// `c`, `class_total[c]` how many such pieces there are; `steps(v)`
    /// lists the value changes one piece of value `v` may contribute
    /// (`[-v, v]` for parity, `[0, v]` for volume); values range over
    /// `-offset..=offset`.
    pub fn build(
        class_of_group: Vec<Option<u16>>,
        class_value: &[i64],
        class_total: &[usize],
        offset: i64,
        steps: impl Fn(i64) -> Vec<i64>,
    ) -> Result<StateTable, TooLarge> {
        let mut radix = Vec::with_capacity(class_total.len());
        let mut states: u128 = 1;
        for &t in class_total {
            radix.push(states as usize);
            states *= t as u128 + 1;
        }
        let width = (2 * offset + 1) as usize;
        let words = width.div_ceil(64);
        let total_words = states * words as u128;
        if total_words > 1 << 24 {
            return Err(TooLarge(states));
        }
        let states = states as usize;
        let mut bits = vec![0u64; states * words];
        // State 0 (nothing left) achieves exactly 0.
        bits[(offset as usize) / 64] |= 1 << (offset as usize % 64);
        // States in increasing index order: each state extends a smaller one
        // (one fewer piece of its lowest non-empty class).
        for s in 1..states {
            let mut rest = s;
            let mut class = 0;
            for c in (0..radix.len()).rev() {
                if rest / radix[c] % (class_total[c] + 1) > 0 {
                    class = c;
                }
                rest %= radix[c];
            }
            let prev = s - radix[class];
            let (lo, hi) = bits.split_at_mut(s * words);
            let src = &lo[prev * words..(prev + 1) * words];
            let dst = &mut hi[..words];
            for step in steps(class_value[class]) {
                for v in 0..width as i64 {
                    let u = v + step;
                    if (0..width as i64).contains(&u) && src[v as usize / 64] >> (v % 64) & 1 != 0 {
                        dst[u as usize / 64] |= 1 << (u % 64);
                    }
                }
            }
        }
        Ok(StateTable { class_of_group, radix, offset, width, words, bits })
    }

    /// Whether `value` is achievable in `state`.
    #[inline]
    pub fn achievable(&self, state: usize, value: i64) -> bool {
        let v = value + self.offset;
        if v < 0 || v as usize >= self.width {
            return false;
        }
        let v = v as usize;
        self.bits[state * self.words + v / 64] >> (v % 64) & 1 != 0
    }

    /// The table's parts for an inlined [`StateTable::achievable`]: `bits`,
    /// `offset`, `width` and `words` (value `v` is achievable in state `s`
    /// iff `0 <= v + offset < width` and bit `(v + offset) % 64` of
    /// `bits[s * words + (v + offset) / 64]` is set).
    #[inline]
    pub fn parts(&self) -> (&[u64], i64, usize, usize) {
        (&self.bits, self.offset, self.width, self.words)
    }

    /// How the state index changes when one piece of group `g` is placed
    /// (subtract) or removed (add).
    #[inline]
    pub fn delta(&self, g: usize) -> usize {
        match self.class_of_group[g] {
            Some(c) => self.radix[c as usize],
            None => 0,
        }
    }

    /// The state of the given remaining counts per group.
    pub fn state_of(&self, left: &[u32]) -> usize {
        left.iter().enumerate().map(|(g, &n)| self.delta(g) * n as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::model::multiset::*;

    #[test]
    fn parity_sums() {
        // Two pieces of magnitude 2, one of magnitude 1.
        let t = StateTable::build(vec![Some(0), Some(1)], &[2, 1], &[2, 1], 5, |v| vec![-v, v]).unwrap();
        let all = t.state_of(&[2, 1]);
        for (v, ok) in [(5, true), (3, true), (1, true), (-1, true), (0, false), (2, false), (7, false)] {
            assert_eq!(t.achievable(all, v), ok, "{v}");
        }
        let one_big = t.state_of(&[1, 0]);
        assert!(t.achievable(one_big, -2) && !t.achievable(one_big, 0));
        assert!(t.achievable(0, 0) && !t.achievable(0, 1));
    }

    #[test]
    fn volume_sums() {
        // Sizes 5 and 6, one of each and two 5s.
        let t = StateTable::build(vec![Some(0), Some(1)], &[5, 6], &[2, 1], 16, |v| vec![0, v]).unwrap();
        let s = t.state_of(&[2, 1]);
        for (v, ok) in [(0, true), (5, true), (6, true), (10, true), (11, true), (16, true), (7, false), (15, false)] {
            assert_eq!(t.achievable(s, v), ok, "{v}");
        }
    }
}
