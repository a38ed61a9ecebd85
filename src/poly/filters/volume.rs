//! Volume constraints (Busche, "Volume Constraint Violations"): every
//! isolated region of empty cells must be fillable by some of the remaining
//! pieces, so its volume must be a sum of remaining piece sizes.
//! [`VolumeTable`] precomputes the achievable volumes per multiset of
//! remaining pieces (grouped by size); [`regions_ok`] flood-fills the empty
//! cells and checks each region.

use crate::poly::model::bits::Bits;
use crate::poly::model::multiset::{StateTable, TooLarge};
use crate::poly::model::rows::Rows;
use crate::poly::model::Images;

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
    regions_ok_by(free, total, table, state, |mut region, rest| {
        let mut frontier = region;
        loop {
            let mut grow = B::default();
            let mut f = frontier;
            while let Some(b) = f.pop_lowest() {
                grow = grow.or(neighbours[b]);
            }
            grow = grow.and(rest).andnot(region);
            if grow.is_zero() {
                return region;
            }
            region = region.or(grow);
            frontier = grow;
        }
    })
}

/// [`regions_ok`] on a box whose cells are rows ([`Rows`]): each region
/// grows by shifts of the whole set, one layer per step, instead of one
/// neighbour list per cell.
pub(crate) fn regions_ok_rows<B: Bits>(free: B, total: u32, rows: &Rows<B>, table: &StateTable, state: usize) -> bool {
    regions_ok_by(free, total, table, state, |mut region, rest| loop {
        let grown = rows.around(region).and(rest).or(region);
        if grown == region {
            return region;
        }
        region = grown;
    })
}

/// The check of [`regions_ok`], with `fill(seed, rest)` returning the
/// region of `rest` that holds the one-cell set `seed`.
#[inline(always)]
fn regions_ok_by<B: Bits>(free: B, total: u32, table: &StateTable, state: usize, fill: impl Fn(B, B) -> B) -> bool {
    let mut rest = free;
    while let Some(seed) = rest.lowest() {
        let region = fill(B::bit(seed), rest);
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

/// The regions left when a few cells are removed from a fixed set of free
/// cells, without flood-filling the whole set: a component that loses cells
/// splits into regions that each touch a removed cell, so the regions grow
/// from the removed cells' free neighbours together, one breadth-first layer
/// per step (regions that meet merge), and the growth stops as soon as at
/// most one region is still open. That region's size is what the component
/// lost minus the closed regions, so the cost follows the small pockets, not
/// the board. Components that lose no cell keep their size.
///
/// Invariant: `comp`/`comp_size` describe the components of all cells
/// under `nb_start`/`nb`; `stamp[c] == generation` marks the cells seen by
/// the current query (`label[c]` is then [`BLOCKED`] or a region label).
#[derive(Clone, Debug)]
pub struct Splitter {
    nb_start: Vec<u32>,
    nb: Vec<u32>,
    comp: Vec<u32>,
    comp_size: Vec<u32>,
    stamp: Vec<u32>,
    label: Vec<u32>,
    generation: u32,
    parent: Vec<u32>,
    size: Vec<u32>,
    open_at: Vec<u32>,
    cur: Vec<u32>,
    next: Vec<u32>,
    sizes: Vec<u32>,
    touched: Vec<u32>,
}

const BLOCKED: u32 = u32::MAX;

/// The root of label `l` (path halving).
fn find(parent: &mut [u32], mut l: u32) -> u32 {
    while parent[l as usize] != l {
        let p = parent[l as usize];
        parent[l as usize] = parent[p as usize];
        l = p;
    }
    l
}

impl Splitter {
    /// The splitter of the cells `0..neighbours.len()` with the given face
    /// neighbours (symmetric).
    pub fn new(neighbours: &[Vec<u32>]) -> Splitter {
        let n = neighbours.len();
        let mut nb_start = Vec::with_capacity(n + 1);
        let mut nb = Vec::new();
        nb_start.push(0);
        for ns in neighbours {
            nb.extend_from_slice(ns);
            nb_start.push(nb.len() as u32);
        }
        let mut comp = vec![u32::MAX; n];
        let mut comp_size = Vec::new();
        let mut stack = Vec::new();
        for s in 0..n {
            if comp[s] != u32::MAX {
                continue;
            }
            let id = comp_size.len() as u32;
            comp[s] = id;
            stack.push(s as u32);
            let mut size = 0;
            while let Some(c) = stack.pop() {
                size += 1;
                for &m in &nb[nb_start[c as usize] as usize..nb_start[c as usize + 1] as usize] {
                    if comp[m as usize] == u32::MAX {
                        comp[m as usize] = id;
                        stack.push(m);
                    }
                }
            }
            comp_size.push(size);
        }
        Splitter {
            nb_start,
            nb,
            comp,
            comp_size,
            stamp: vec![0; n],
            label: vec![0; n],
            generation: 0,
            parent: Vec::new(),
            size: Vec::new(),
            open_at: Vec::new(),
            cur: Vec::new(),
            next: Vec::new(),
            sizes: Vec::new(),
            touched: Vec::new(),
        }
    }

    /// The sizes of the regions of all cells but `removed` (distinct
    /// cells), in no particular order.
    pub fn region_sizes(&mut self, removed: &[u32]) -> &[u32] {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        // Locals, so that the loops below keep them in registers.
        let Splitter {
            nb_start,
            nb,
            comp,
            comp_size,
            stamp,
            label,
            parent,
            size,
            open_at,
            cur,
            next,
            sizes,
            touched,
            ..
        } = self;
        let (nb_start, nb) = (&nb_start[..], &nb[..]);
        sizes.clear();
        touched.clear();
        for &c in removed {
            stamp[c as usize] = generation;
            label[c as usize] = BLOCKED;
            let k = comp[c as usize];
            if !touched.contains(&k) {
                touched.push(k);
            }
        }
        let mut left: u32 = touched.iter().map(|&k| comp_size[k as usize]).sum::<u32>() - removed.len() as u32;
        for (k, &s) in comp_size.iter().enumerate() {
            if !touched.contains(&(k as u32)) {
                sizes.push(s);
            }
        }
        parent.clear();
        size.clear();
        open_at.clear();
        cur.clear();
        for &c in removed {
            for &m in &nb[nb_start[c as usize] as usize..nb_start[c as usize + 1] as usize] {
                let m = m as usize;
                if stamp[m] != generation {
                    let l = parent.len() as u32;
                    stamp[m] = generation;
                    label[m] = l;
                    parent.push(l);
                    size.push(1);
                    open_at.push(0);
                    cur.push(m as u32);
                }
            }
        }
        let mut open = parent.len();
        let mut layer = 0;
        while open >= 2 {
            layer += 1;
            next.clear();
            for &c in cur.iter() {
                let c = c as usize;
                let mut r = find(parent, label[c]);
                for &m in &nb[nb_start[c] as usize..nb_start[c + 1] as usize] {
                    let m = m as usize;
                    if stamp[m] != generation {
                        stamp[m] = generation;
                        label[m] = r;
                        size[r as usize] += 1;
                        next.push(m as u32);
                    } else if label[m] != BLOCKED {
                        let q = find(parent, label[m]);
                        if q != r {
                            let (lo, hi) = (r.min(q), r.max(q));
                            parent[hi as usize] = lo;
                            size[lo as usize] += size[hi as usize];
                            r = lo;
                        }
                    }
                }
            }
            // The roots with cells in the next layer stay open; the others
            // are whole regions (every neighbour of theirs has been seen).
            open = 0;
            for &c in next.iter() {
                let r = find(parent, label[c as usize]) as usize;
                if open_at[r] != layer {
                    open_at[r] = layer;
                    open += 1;
                }
            }
            for l in 0..parent.len() {
                if parent[l] == l as u32 && open_at[l] == layer - 1 {
                    // Open after the previous layer, closed now.
                    open_at[l] = BLOCKED;
                    sizes.push(size[l]);
                    left -= size[l];
                }
            }
            std::mem::swap(cur, next);
        }
        if left > 0 {
            sizes.push(left);
        }
        &self.sizes
    }

    /// [`regions_ok`] for all cells but `removed`.
    pub fn ok(&mut self, removed: &[u32], table: &StateTable, state: usize) -> bool {
        let sizes = self.region_sizes(removed);
        sizes.len() <= 1 || sizes.iter().all(|&s| table.achievable(state, s as i64))
    }
}

#[cfg(test)]
mod tests;
