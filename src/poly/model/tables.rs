//! Image tables for the bit-field engines, laid out for the search loops:
//! per cell, per piece group, the masks of the images whose root (least
//! cell in bit order) is the cell (de Bruijn), each list contiguous and next
//! to its image ids. (MCH and EMCH read the images covering a cell from
//! their own [`crate::poly::stages::hole::cover::CoverIndex`]; only the longest such list is
//! kept here, to size the candidate buffers.)

use crate::poly::model::bits::Bits;
use crate::poly::model::neighbours::NeighbourCounter;
use crate::poly::model::Images;

/// A per-cell, per-group family of image lists in one flat array.
///
/// Invariant: the images of cell `c`, group `g` are
/// `mask[start[c*G+g]..start[c*G+g+1]]` (with ids in `img` at the same
/// positions); `groups[c]` has bit `g` set iff that list is non-empty.
#[derive(Clone, Debug)]
pub struct CellLists<B> {
    n_groups: usize,
    start: Vec<u32>,
    /// Image masks.
    pub mask: Vec<B>,
    /// Image ids, parallel to `mask`.
    pub img: Vec<u32>,
    /// Groups with at least one image per cell.
    pub groups: Vec<u128>,
}

impl<B: Bits> CellLists<B> {
    fn build(n_groups: usize, mut lists: Vec<Vec<u32>>, images: &Images, masks: &[B]) -> Self {
        let n_cells = lists.len();
        let total: usize = lists.iter().map(Vec::len).sum();
        let mut start = Vec::with_capacity(n_cells * n_groups + 1);
        let mut mask = Vec::with_capacity(total);
        let mut img = Vec::with_capacity(total);
        let mut groups = vec![0u128; n_cells];
        start.push(0);
        for (here, gm) in lists.iter_mut().zip(groups.iter_mut()) {
            here.sort_by_key(|&k| (images.group[k as usize], k));
            // Sorted by group: one pass, a run per group.
            let mut i = 0;
            for g in 0..n_groups {
                while let Some(&k) = here.get(i).filter(|&&k| images.group[k as usize] as usize == g) {
                    mask.push(masks[k as usize]);
                    img.push(k);
                    *gm |= 1u128 << g;
                    i += 1;
                }
                start.push(img.len() as u32);
            }
        }
        CellLists { n_groups, start, mask, img, groups }
    }

    /// The range of cell `c`, group `g` in `mask` / `img`.
    #[inline]
    pub fn range(&self, c: usize, g: usize) -> std::ops::Range<usize> {
        let k = c * self.n_groups + g;
        self.start[k] as usize..self.start[k + 1] as usize
    }
}

/// Everything the bit-field engines read, for one image set.
///
/// Invariant: `mask[k]` has exactly the bits of `images.cells[k]`;
/// `padding` has every bit `>= n_cells` set (the occupancy starts there).
#[derive(Clone, Debug)]
pub struct Tables<B> {
    /// Number of free cells.
    pub n_cells: usize,
    /// Number of piece groups.
    pub n_groups: usize,
    /// Bits that are not cells (always "occupied").
    pub padding: B,
    /// Mask of each image.
    pub mask: Vec<B>,
    /// Group of each image.
    pub group: Vec<u16>,
    /// The most images covering one cell (all groups).
    pub max_cover_per_cell: usize,
    /// Images rooted at each cell.
    pub root: CellLists<B>,
    /// Face neighbours of each cell.
    pub neighbours: Vec<B>,
    /// Counts empty neighbours of all cells at once.
    pub counter: NeighbourCounter<B>,
    /// Images of each group.
    pub by_group: Vec<Vec<u32>>,
}

impl<B: Bits> Tables<B> {
    /// Builds the tables; `images.n_cells` must not exceed `B::CAPACITY`.
    pub fn new(images: &Images) -> Self {
        assert!(images.n_cells <= B::CAPACITY);
        let n_cells = images.n_cells;
        let n_groups = images.groups.len();
        let mask: Vec<B> =
            images.cells.iter().map(|cs| cs.iter().fold(B::default(), |m, &b| m.or(B::bit(b as usize)))).collect();
        // Lists sized by a counting pass (no regrowth).
        let (mut n_covering, mut n_rooted) = (vec![0usize; n_cells], vec![0usize; n_cells]);
        for cs in &images.cells {
            for &b in cs {
                n_covering[b as usize] += 1;
            }
            n_rooted[cs[0] as usize] += 1;
        }
        let max_cover_per_cell = n_covering.iter().copied().max().unwrap_or(0);
        let mut rooted: Vec<Vec<u32>> = n_rooted.iter().map(|&n| Vec::with_capacity(n)).collect();
        for (k, cs) in images.cells.iter().enumerate() {
            rooted[cs[0] as usize].push(k as u32);
        }
        let root = CellLists::build(n_groups, rooted, images, &mask);
        let neighbours: Vec<B> = images
            .neighbours()
            .iter()
            .map(|ns| ns.iter().fold(B::default(), |m, &b| m.or(B::bit(b as usize))))
            .collect();
        let counter = NeighbourCounter::new(images, &neighbours);
        let mut by_group = vec![Vec::new(); n_groups];
        for (k, &g) in images.group.iter().enumerate() {
            by_group[g as usize].push(k as u32);
        }
        Tables {
            n_cells,
            n_groups,
            padding: B::below(n_cells).not(),
            mask,
            group: images.group.clone(),
            max_cover_per_cell,
            root,
            neighbours,
            counter,
            by_group,
        }
    }
}
