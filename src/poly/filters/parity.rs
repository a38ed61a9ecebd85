//! Parity constraints (Busche, "Parity Constraint Violations"): colour the
//! cells like a 3-D checkerboard; an image's parity is its black cells minus
//! its white cells, `±m` for a piece of magnitude `m`. The pieces still to
//! place must be able to sum to the parity of the cells still empty.
//! [`ParityTable`] precomputes, for every multiset of remaining pieces
//! (grouped by magnitude), the achievable parities, so the check after a
//! placement is one table lookup.

use crate::poly::model::multiset::{StateTable, TooLarge};
use crate::poly::model::Images;

/// Achievable parities per remaining-piece state.
///
/// Invariant: `image_parity[k]` is image `k`'s parity (black minus white
/// cells); the images of a group share one magnitude, and the groups of
/// each non-zero magnitude form one class of `table`.
#[derive(Clone, Debug)]
pub struct ParityTable {
    /// The state table (classes = distinct non-zero magnitudes).
    pub table: StateTable,
    /// Parity of each image.
    pub image_parity: Vec<i32>,
}

impl ParityTable {
    /// Builds the table for `images` (all images of a group share one
    /// magnitude).
    pub fn new(images: &Images) -> Result<ParityTable, TooLarge> {
        let image_parity: Vec<i32> = (0..images.len()).map(|k| images.parity(k)).collect();
        let mut magnitude = vec![0i64; images.groups.len()];
        for (k, &g) in images.group.iter().enumerate() {
            magnitude[g as usize] = image_parity[k].unsigned_abs() as i64;
        }
        let mut values: Vec<i64> = magnitude.iter().copied().filter(|&m| m > 0).collect();
        values.sort_unstable();
        values.dedup();
        let class_of_group: Vec<Option<u16>> =
            magnitude.iter().map(|m| values.iter().position(|v| v == m).map(|c| c as u16)).collect();
        let mut totals = vec![0usize; values.len()];
        for (g, c) in class_of_group.iter().enumerate() {
            if let Some(c) = c {
                totals[*c as usize] += images.groups[g].count as usize;
            }
        }
        let offset: i64 = values.iter().zip(&totals).map(|(v, t)| v * *t as i64).sum::<i64>().max(1);
        let table = StateTable::build(class_of_group, &values, &totals, offset, |v| vec![-v, v])?;
        Ok(ParityTable { table, image_parity })
    }

    /// Whether the pieces of the whole puzzle can reach the target at all.
    pub fn solvable(&self, images: &Images) -> bool {
        let left: Vec<u32> = images.groups.iter().map(|g| g.count).collect();
        self.table.achievable(self.table.state_of(&left), images.parity_target as i64)
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::polycube;
    use crate::poly::filters::parity::*;

    #[test]
    fn hexominoes_cannot_fill_a_rectangle() {
        // Busche: 11 of the 35 hexominoes have parity 2, so no rectangle.
        // A smaller case: two L-trominoes... use T tetrominoes (parity 2):
        // one T cannot fill a 2x2 square (parity 0), and the table says so.
        let text = "D:xDim=4:yDim=2:zDim=1\nL\nT T T .\n. T . .\n~L\nL\n. . . U\n. U U U\n~L\n~D\n";
        let puzzle = polycube::parse(text, "t").unwrap().remove(0);
        let built = polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, Default::default()).unwrap();
        let p = ParityTable::new(&images).unwrap();
        // T has magnitude 2, the L tetromino 0: parity 0 needs T at 0: impossible.
        assert!(!p.solvable(&images));
    }
}
