//! Volume constraints (Busche, "Volume Constraint Violations"): every
//! isolated region of empty cells must be fillable by some of the remaining
//! pieces, so its volume must be a sum of remaining piece sizes.
//! [`VolumeTable`] precomputes the achievable volumes per multiset of
//! remaining pieces (grouped by size); [`regions_ok`] flood-fills the empty
//! cells and checks each region.

use super::bits::Bits;
use super::model::Images;
use super::multiset::{StateTable, TooLarge};

/// Achievable volumes per remaining-piece state.
#[derive(Clone, Debug)]
pub struct VolumeTable {
    /// The state table (classes = distinct piece sizes).
    pub table: StateTable,
}

impl VolumeTable {
    /// Builds the table for the groups of `images`.
    pub fn new(images: &Images) -> Result<VolumeTable, TooLarge> {
        let mut sizes: Vec<i64> = images.groups.iter().map(|g| g.size as i64).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let class_of_group: Vec<Option<u16>> =
            images.groups.iter().map(|g| sizes.iter().position(|&s| s == g.size as i64).map(|c| c as u16)).collect();
        let mut totals = vec![0usize; sizes.len()];
        for (g, c) in class_of_group.iter().enumerate() {
            totals[c.expect("every size has a class") as usize] += images.groups[g].count as usize;
        }
        let offset = images.groups.iter().map(|g| (g.size * g.count) as i64).sum::<i64>().max(1);
        let table = StateTable::build(class_of_group, &sizes, &totals, offset, |v| vec![0, v])?;
        Ok(VolumeTable { table })
    }
}

/// Checks every connected region of `free` (face adjacency through
/// `neighbours`) against the achievable volumes of `state`. `total` is the
/// number of free cells: a region holding all of them is always fine.
pub fn regions_ok<B: Bits>(free: B, total: u32, neighbours: &[B], table: &StateTable, state: usize) -> bool {
    let mut rest = free;
    while let Some(seed) = rest.lowest() {
        let mut region = B::bit(seed);
        let mut frontier = region;
        loop {
            let mut grow = B::default();
            let mut f = frontier;
            while let Some(b) = f.pop_lowest() {
                grow = grow.or(neighbours[b]);
            }
            grow = grow.and(rest).andnot(region);
            if grow.is_zero() {
                break;
            }
            region = region.or(grow);
            frontier = grow;
        }
        let size = region.count();
        if size == total {
            return true;
        }
        if !table.achievable(state, size as i64) {
            return false;
        }
        rest = rest.andnot(region);
    }
    true
}
