//! The geometric model the polycube engines work on, read back from an IR
//! [`Problem`] built by the polycube front-end: the free cells in the
//! engines' cell order, the piece groups with their multiplicities, and the
//! images (one per IR option) as cell lists.
//!
//! An image *is* an option: image `k` carries the IR option id it stands
//! for, so every engine reports solutions as option ids.

pub mod bits;
pub mod image_matrix;
pub mod multiset;
pub mod neighbours;
pub mod rows;
pub mod tables;

use crate::ir::{ItemId, OptionId, Problem};

/// Why a problem cannot be searched by the polycube engines.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ModelError(pub String);

/// A group of interchangeable mobile pieces (one IR item of multiplicity
/// `count`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The piece names of the group, joined (`A` or `A+B`).
    pub name: String,
    /// The names of the copies.
    pub names: Vec<String>,
    /// Cells per piece.
    pub size: u32,
    /// Number of identical copies to place.
    pub count: u32,
    /// The IR item of the group.
    pub item: ItemId,
}

/// The set of images an engine may use, with everything the engines and
/// filters need to know about them.
///
/// Invariants: `cells[k]` is sorted ascending (in bit order) and non-empty;
/// `group[k] < groups.len()`; `option[k]` is the IR option that places the
/// same cells; every bit is `< n_cells`; `coords` and `grid_cell` have
/// `n_cells` entries.
#[derive(Clone, Debug)]
pub struct Images {
    /// Grid extent.
    pub dims: [u32; 3],
    /// Number of free cells (the bits).
    pub n_cells: usize,
    /// Grid coordinates of each bit.
    pub coords: Vec<[i32; 3]>,
    /// Linear grid index (`Geometry::cell`) of each bit.
    pub grid_cell: Vec<u32>,
    /// The piece groups (geometry pieces that are not stationary).
    pub groups: Vec<Group>,
    /// Group of each image.
    pub group: Vec<u16>,
    /// IR option of each image.
    pub option: Vec<OptionId>,
    /// Cells (bits) of each image, ascending.
    pub cells: Vec<Vec<u32>>,
    /// Parity target of the free region: black cells minus white cells.
    pub parity_target: i32,
}

/// The order in which the engines number the free cells (de Bruijn fills
/// the lowest empty bit first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CellOrder {
    /// Shortest axis varies fastest (a 10x6 box is filled column by column
    /// of 6): the frontier stays short. The default.
    #[default]
    ShortAxisFirst,
    /// Busche's order: x fastest, then y, then z.
    Xyz,
    /// By angle about the box's centre axis (parallel to z), counter-clockwise
    /// from `degrees` (0 = +x, 90 = +y), as Busche's angular heuristic
    /// `a@DEG` sweeps: cells at the same angle nearer the axis first, then
    /// by z. de Bruijn then fills a ring (the box in a diamond) around its
    /// circumference instead of row by row across it.
    Angular {
        /// Start of the sweep, in degrees.
        degrees: i32,
    },
}

impl std::fmt::Display for CellOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellOrder::ShortAxisFirst => write!(f, "short"),
            CellOrder::Xyz => write!(f, "xyz"),
            CellOrder::Angular { degrees } => write!(f, "a@{degrees}"),
        }
    }
}

impl CellOrder {
    /// Parses `short`, `xyz` or `a@DEG` (an integer number of degrees).
    pub fn parse(s: &str) -> Result<CellOrder, String> {
        match s {
            "short" => Ok(CellOrder::ShortAxisFirst),
            "xyz" => Ok(CellOrder::Xyz),
            _ => {
                let deg = s.strip_prefix("a@").ok_or_else(|| format!("`{s}`: expected short, xyz or a@DEG"))?;
                let degrees: i32 =
                    deg.parse().map_err(|_| format!("`{s}`: `{deg}` is not a whole number of degrees (a@DEG)"))?;
                Ok(CellOrder::Angular { degrees: degrees.rem_euclid(360) })
            }
        }
    }

    /// The engine bit order of the cells `free` (grid indices) in a box of
    /// extent `dims`, `coords` giving a cell's grid coordinates.
    fn sort(self, free: &mut [u32], dims: [u32; 3], coords: impl Fn(u32) -> [u32; 3]) {
        match self {
            CellOrder::ShortAxisFirst | CellOrder::Xyz => {
                let mut axes = [0usize, 1, 2];
                if self == CellOrder::ShortAxisFirst {
                    axes.sort_by_key(|&a| dims[a]);
                }
                free.sort_by_key(|&c| {
                    let p = coords(c);
                    (p[axes[2]], p[axes[1]], p[axes[0]])
                });
            }
            CellOrder::Angular { degrees } => {
                // Doubled coordinates about the centre keep half-cell
                // centres integral. Cells on one ray usually get the same
                // f64 angle and then go by radius, z and grid index; where
                // rounding tells two of them apart, the order between them
                // is still total and the same on every run.
                let key = |c: u32| {
                    let p = coords(c);
                    let dx = 2.0 * p[0] as f64 - (dims[0] as f64 - 1.0);
                    let dy = 2.0 * p[1] as f64 - (dims[1] as f64 - 1.0);
                    let a = if dx == 0.0 && dy == 0.0 {
                        360.0
                    } else {
                        (dy.atan2(dx).to_degrees() - degrees as f64).rem_euclid(360.0)
                    };
                    (a, dx * dx + dy * dy, p[2], c)
                };
                free.sort_by(|&a, &b| key(a).partial_cmp(&key(b)).expect("finite keys"));
            }
        }
    }
}

impl Images {
    /// Reads the images of a polycube problem (one with geometry whose
    /// items are the free cells in z, y, x order followed by the piece
    /// groups, as [`crate::frontend::polycube::build`] makes them).
    pub fn from_problem(problem: &Problem, order: CellOrder) -> Result<Images, ModelError> {
        let geo = geometry(problem)?;
        let volume = geo.volume();
        let (free, item_of_cell) = free_cells(geo);
        let n_cells = free.len();
        // Engine bit order.
        let dims = geo.dims;
        let mut by_order: Vec<u32> = free.clone();
        order.sort(&mut by_order, dims, |c| geo.coords(c));
        let mut bit_of_cell = vec![u32::MAX; volume];
        for (b, &c) in by_order.iter().enumerate() {
            bit_of_cell[c as usize] = b as u32;
        }
        let coords: Vec<[i32; 3]> = by_order.iter().map(|&c| geo.coords(c).map(|v| v as i32)).collect();

        let n_pieces = geo.pieces.iter().filter(|p| !p.stationary).count();
        let mut groups: Vec<Option<Group>> = vec![None; geo.pieces.len()];
        let mut group = Vec::with_capacity(problem.n_options());
        let mut option = Vec::with_capacity(problem.n_options());
        let mut cells = Vec::with_capacity(problem.n_options());
        for (o, p) in geo.placements.iter().enumerate() {
            let item = piece_item(problem, n_cells, &item_of_cell, o)?;
            let g = p.piece as usize;
            match &groups[g] {
                Some(gr) if gr.item != item => return Err(bad(o, "two items for one piece")),
                Some(_) => {}
                None => {
                    let names = geo.pieces[g].names.clone();
                    groups[g] = Some(Group {
                        name: names.join("+"),
                        names,
                        size: p.cells.len() as u32,
                        count: problem.multiplicity(item),
                        item,
                    })
                }
            }
            let mut bits: Vec<u32> = p.cells.iter().map(|&c| bit_of_cell[c as usize]).collect();
            bits.sort_unstable();
            group.push(g as u16);
            option.push(o as OptionId);
            cells.push(bits);
        }
        // Geometry pieces are mobile groups first, then stationary pieces.
        let groups: Vec<Group> = groups.into_iter().take(n_pieces).collect::<Option<Vec<_>>>().ok_or_else(no_image)?;
        check_group_count(groups.len())?;
        let parity_target = coords.iter().map(|p| color(*p)).sum();
        Ok(Images { dims, n_cells, coords, grid_cell: by_order, groups, group, option, cells, parity_target })
    }

    /// What [`Images::from_problem`] checks, without building the images:
    /// the number of free cells when it would succeed (with either cell
    /// order), its error otherwise. `auto` asks this to decide whether the
    /// polycube engines take a problem.
    pub fn check(problem: &Problem) -> Result<usize, ModelError> {
        let geo = geometry(problem)?;
        let (free, item_of_cell) = free_cells(geo);
        let n_cells = free.len();
        let mut items: Vec<Option<ItemId>> = vec![None; geo.pieces.len()];
        for (o, p) in geo.placements.iter().enumerate() {
            let item = piece_item(problem, n_cells, &item_of_cell, o)?;
            match items[p.piece as usize] {
                Some(i) if i != item => return Err(bad(o, "two items for one piece")),
                Some(_) => {}
                None => items[p.piece as usize] = Some(item),
            }
        }
        let n_pieces = geo.pieces.iter().filter(|p| !p.stationary).count();
        if items.iter().take(n_pieces).any(Option::is_none) {
            return Err(no_image());
        }
        check_group_count(n_pieces.min(items.len()))?;
        Ok(n_cells)
    }

    /// Number of images.
    pub fn len(&self) -> usize {
        self.option.len()
    }

    /// Whether there are no images.
    pub fn is_empty(&self) -> bool {
        self.option.is_empty()
    }

    /// Number of pieces to place (copies counted).
    pub fn n_pieces(&self) -> u32 {
        self.groups.iter().map(|g| g.count).sum()
    }

    /// The images for which `keep` holds, in the same order, as a copy: the
    /// oracle of [`Self::into_kept`] in the tests (the set-up moves).
    #[cfg(test)]
    pub fn retain(&self, keep: impl Fn(usize) -> bool) -> Images {
        let ks: Vec<usize> = (0..self.len()).filter(|&k| keep(k)).collect();
        Images {
            group: ks.iter().map(|&k| self.group[k]).collect(),
            option: ks.iter().map(|&k| self.option[k]).collect(),
            cells: ks.iter().map(|&k| self.cells[k].clone()).collect(),
            ..self.clone_header()
        }
    }

    /// The images `k` with `keep[k]`, in the same order, taken from an
    /// owned set: the kept cell lists move instead of being copied.
    pub fn into_kept(mut self, keep: &[bool]) -> Images {
        assert_eq!(keep.len(), self.len(), "one flag per image");
        let mut flags = keep.iter();
        self.group.retain(|_| *flags.next().expect("one flag per image"));
        let mut flags = keep.iter();
        self.option.retain(|_| *flags.next().expect("one flag per image"));
        let mut flags = keep.iter();
        self.cells.retain(|_| *flags.next().expect("one flag per image"));
        self
    }

    #[cfg(test)]
    fn clone_header(&self) -> Images {
        Images {
            dims: self.dims,
            n_cells: self.n_cells,
            coords: self.coords.clone(),
            grid_cell: self.grid_cell.clone(),
            groups: self.groups.clone(),
            group: Vec::new(),
            option: Vec::new(),
            cells: Vec::new(),
            parity_target: self.parity_target,
        }
    }

    /// Parity of image `k`: black cells minus white cells.
    pub fn parity(&self, k: usize) -> i32 {
        self.cells[k].iter().map(|&b| color(self.coords[b as usize])).sum()
    }

    /// The face neighbours of each bit.
    pub fn neighbours(&self) -> Vec<Vec<u32>> {
        let mut at = std::collections::HashMap::new();
        for (b, p) in self.coords.iter().enumerate() {
            at.insert(*p, b as u32);
        }
        self.coords
            .iter()
            .map(|p| {
                let mut v = Vec::new();
                for axis in 0..3 {
                    for d in [-1, 1] {
                        let mut q = *p;
                        q[axis] += d;
                        if let Some(&b) = at.get(&q) {
                            v.push(b);
                        }
                    }
                }
                v
            })
            .collect()
    }

    /// Images per group.
    pub fn images_per_group(&self) -> Vec<usize> {
        let mut n = vec![0; self.groups.len()];
        for &g in &self.group {
            n[g as usize] += 1;
        }
        n
    }
}

/// The geometry of a polycube problem.
fn geometry(problem: &Problem) -> Result<&crate::ir::Geometry, ModelError> {
    problem
        .geometry
        .as_ref()
        .ok_or_else(|| ModelError("the problem carries no geometry (not a polycube puzzle)".into()))
}

/// The free grid cells in grid order, and the item of each grid cell (its
/// rank among the free cells; `u32::MAX` when blocked).
fn free_cells(geo: &crate::ir::Geometry) -> (Vec<u32>, Vec<u32>) {
    let volume = geo.volume();
    let mut item_of_cell = vec![0u32; volume];
    for p in &geo.fixed {
        for &c in &p.cells {
            item_of_cell[c as usize] = u32::MAX;
        }
    }
    let mut free = Vec::with_capacity(volume);
    for (c, item) in item_of_cell.iter_mut().enumerate() {
        if *item != u32::MAX {
            *item = free.len() as u32;
            free.push(c as u32);
        }
    }
    (free, item_of_cell)
}

fn bad(o: usize, why: &str) -> ModelError {
    ModelError(format!("option {o} does not look like a polycube image: {why}"))
}

fn no_image() -> ModelError {
    ModelError("a mobile piece has no image (the front-end rejects such puzzles)".into())
}

fn check_group_count(n: usize) -> Result<(), ModelError> {
    if n > 128 {
        return Err(ModelError(format!(
            "{n} piece groups: the bit-field engines handle at most 128 (use --backend dlx)"
        )));
    }
    Ok(())
}

/// The piece item of option `o` (placement `o` of the geometry), checked to
/// look like a polycube image: a mobile piece, its cell items exactly the
/// placement's cells (in order) and one piece item.
fn piece_item(problem: &Problem, n_cells: usize, item_of_cell: &[u32], o: usize) -> Result<ItemId, ModelError> {
    let geo = geometry(problem)?;
    let p = &geo.placements[o];
    let entries = problem.option(o as OptionId);
    let g = p.piece as usize;
    if g >= geo.pieces.len() || geo.pieces[g].stationary {
        return Err(bad(o, "it places a stationary or unknown piece"));
    }
    if entries.len() != p.cells.len() + 1 {
        return Err(bad(o, "it does not cover its cells and one piece item"));
    }
    // One pass (called twice per image during set-up): the piece items
    // counted, the cell items compared in order; the piece item's error
    // comes first, as with two separate passes.
    let (mut item, mut pieces, mut cells_match) = (0, 0u32, true);
    let mut cells = p.cells.iter();
    for e in entries {
        if e.item as usize >= n_cells {
            item = e.item;
            pieces += 1;
        } else {
            cells_match = cells_match && cells.next().is_some_and(|&c| item_of_cell[c as usize] == e.item);
        }
    }
    if pieces != 1 {
        return Err(bad(o, "it does not name exactly one piece item"));
    }
    if !cells_match || cells.next().is_some() {
        return Err(bad(o, "its cell items do not match its placement"));
    }
    Ok(item)
}

/// +1 on black cells (`x + y + z` even), -1 on white ones.
pub fn color(p: [i32; 3]) -> i32 {
    if (p[0] + p[1] + p[2]).rem_euclid(2) == 0 {
        1
    } else {
        -1
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::polycube;
    use crate::poly::model::*;

    /// The set-up moves kept images out of the full set; it must keep what
    /// the copying filter keeps, in the same order, header included.
    #[test]
    fn into_kept_equals_retain() {
        let text = std::fs::read_to_string("instances/polycube/pentominoes_10x6_def.txt").unwrap();
        let puzzle = polycube::parse(&text, "t").unwrap().remove(0);
        let built = polycube::build(&puzzle, "t").unwrap();
        let images = Images::from_problem(&built.problem, Default::default()).unwrap();
        let mut rng = crate::search::Rng::new(0x2545_f491_4f6c_dd1d);
        for _ in 0..4 {
            let keep: Vec<bool> = (0..images.len()).map(|_| !rng.next_u64().is_multiple_of(3)).collect();
            let copied = images.retain(|k| keep[k]);
            let moved = images.clone().into_kept(&keep);
            assert!(moved.len() < images.len() && moved.len() == keep.iter().filter(|&&f| f).count());
            assert_eq!((&moved.group, &moved.option, &moved.cells), (&copied.group, &copied.option, &copied.cells));
            assert_eq!(
                (moved.dims, moved.n_cells, moved.parity_target),
                (copied.dims, copied.n_cells, copied.parity_target)
            );
            assert_eq!((&moved.coords, &moved.grid_cell), (&copied.coords, &copied.grid_cell));
            assert_eq!(moved.groups.len(), copied.groups.len());
        }
    }

    #[test]
    fn cell_orders_parse() {
        assert_eq!(CellOrder::parse("short"), Ok(CellOrder::ShortAxisFirst));
        assert_eq!(CellOrder::parse("xyz"), Ok(CellOrder::Xyz));
        assert_eq!(CellOrder::parse("a@160"), Ok(CellOrder::Angular { degrees: 160 }));
        assert_eq!(CellOrder::parse("a@-90"), Ok(CellOrder::Angular { degrees: 270 }));
        for bad in ["", "zyx", "a@", "a@1.5", "a@x", "160"] {
            let e = CellOrder::parse(bad).unwrap_err();
            assert!(e.contains(&format!("`{bad}`")), "{bad}: {e}");
        }
    }

    /// On a 3x3 square the angular order from 0 degrees runs counter-clockwise
    /// from the cell right of the centre (+x), the centre cell last; from 90
    /// it starts above the centre (+y).
    #[test]
    fn angular_order_sweeps_counter_clockwise() {
        let at = |x: u32, y: u32| y * 3 + x;
        let coords = |c: u32| [c % 3, c / 3, 0];
        let mut cells: Vec<u32> = (0..9).collect();
        CellOrder::Angular { degrees: 0 }.sort(&mut cells, [3, 3, 1], coords);
        let want = [at(2, 1), at(2, 2), at(1, 2), at(0, 2), at(0, 1), at(0, 0), at(1, 0), at(2, 0), at(1, 1)];
        assert_eq!(cells, want);
        CellOrder::Angular { degrees: 90 }.sort(&mut cells, [3, 3, 1], coords);
        assert_eq!(&cells[..3], &[at(1, 2), at(0, 2), at(0, 1)]);
        assert_eq!(cells[8], at(1, 1));
        // Same angle: nearer the axis first.
        let coords = |c: u32| [c, 0, 0];
        let mut row: Vec<u32> = (0..5).collect();
        CellOrder::Angular { degrees: 0 }.sort(&mut row, [5, 1, 1], coords);
        assert_eq!(row, [3, 4, 1, 0, 2]);
    }
}
