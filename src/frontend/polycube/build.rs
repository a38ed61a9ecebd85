//! From a [`Puzzle`] to the exact-cover IR, with geometry and the box
//! symmetries expressed as option permutations.

use super::Puzzle;
use crate::geometry::{BoxSymmetry, Point, Shape, Transform};
use crate::ir::{BuildError, Geometry, PieceInfo, Placement, Problem, ProblemBuilder, Symmetry, STOP_EVERY};
use crate::search::StopCheck;
use std::collections::HashMap;

/// Interchangeable mobile pieces of one shape.
#[derive(Clone, Debug)]
pub struct PieceGroup {
    /// Names of the copies, in definition order.
    pub names: Vec<String>,
    /// The shape of the first copy, normalised.
    pub shape: Shape,
    /// Distinct orientations under the puzzle's rotation group.
    pub orientations: Vec<Shape>,
    /// Number of images (options) of the group.
    pub images: usize,
}

/// A puzzle in IR form plus what `emx info` reports about it.
#[derive(Clone, Debug)]
pub struct Built {
    /// The exact-cover problem (with geometry and symmetries).
    pub problem: Problem,
    /// Piece groups; group `g` is geometry piece `g`.
    pub groups: Vec<PieceGroup>,
    /// Box rotations that map the box and its stationary cells onto itself
    /// (identity included).
    pub rotations: usize,
    /// Same, counting mirror images too.
    pub rotations_and_mirrors: usize,
}

fn cell_name(p: Point, dims: [u32; 3]) -> String {
    if dims[2] == 1 {
        format!("{},{}", p[0], p[1])
    } else {
        format!("{},{},{}", p[0], p[1], p[2])
    }
}

/// The size of the IR [`build`] would make, computed without building it:
/// options (an upper bound: images are counted before stationary cells
/// remove some), entries, box symmetries, and the memory the build peaks
/// at ([`crate::size_cap::IrEstimate::polycube`]).
pub fn estimate(puzzle: &Puzzle) -> crate::size_cap::IrEstimate {
    let dims = puzzle.dims.map(|d| d as i32);
    let group = Transform::group(puzzle.one_side, false);
    let mut seen: std::collections::HashSet<Shape, rustc_hash::FxBuildHasher> = Default::default();
    let (mut options, mut entries, mut cell_lists) = (0u64, 0u64, 0u64);
    for d in puzzle.pieces.iter().filter(|d| !d.stationary) {
        let shape = Shape::new(d.cells.iter().copied());
        let orientations = shape.orientations(&group);
        // The least orientation is `Shape::canonical`.
        if !seen.insert(orientations.iter().min().cloned().unwrap_or_else(|| shape.clone())) {
            continue;
        }
        for orient in orientations {
            let e = orient.extent();
            let images: u64 = (0..3).map(|a| (dims[a] - e[a] + 1).max(0) as u64).product();
            options += images;
            entries += images * (orient.len() as u64 + 1);
            cell_lists += images * crate::size_cap::heap_block(4 * orient.len() as u64);
        }
    }
    let symmetries = BoxSymmetry::of_box(puzzle.dims, &Transform::all()).len() as u64;
    let cells = puzzle.dims.iter().map(|&d| d as u64).product::<u64>();
    crate::size_cap::IrEstimate::polycube(options, entries, symmetries, cells, cell_lists)
}

/// Builds the IR of `puzzle`; `name` names the problem. Identical pieces
/// form one group (counted once per arrangement).
pub fn build(puzzle: &Puzzle, name: &str) -> Result<Built, BuildError> {
    build_grouped(puzzle, name, true)
}

/// [`build`], checking `stop` every few thousand images, options and
/// symmetry lookups: a deadline or a cancellation ends it within a few
/// milliseconds with [`BuildError::Stopped`].
pub fn build_checked(puzzle: &Puzzle, name: &str, stop: &StopCheck) -> Result<Built, BuildError> {
    build_impl(puzzle, name, true, stop)
}

/// Like [`build`]; with `group_identical == false` every piece is its own
/// item, so arrangements differing only by a permutation of identical pieces
/// count separately (for cross-checks).
pub fn build_grouped(puzzle: &Puzzle, name: &str, group_identical: bool) -> Result<Built, BuildError> {
    build_impl(puzzle, name, group_identical, &StopCheck::default())
}

fn build_impl(puzzle: &Puzzle, name: &str, group_identical: bool, stop: &StopCheck) -> Result<Built, BuildError> {
    let stopped = BuildError::Stopped;
    let dims = puzzle.dims;
    let [dx, dy, dz] = dims.map(|d| d as i32);
    let index = |p: Point| (p[0] + dx * (p[1] + dy * p[2])) as u32;
    let volume = (dx * dy * dz) as usize;
    let group = Transform::group(puzzle.one_side, false);

    let mut blocked = vec![false; volume];
    for d in puzzle.pieces.iter().filter(|d| d.stationary) {
        for &c in &d.cells {
            blocked[index(c) as usize] = true;
        }
    }

    let mut b = ProblemBuilder::new(name);
    let mut cell_item = vec![u32::MAX; volume];
    for z in 0..dz {
        for y in 0..dy {
            for x in 0..dx {
                let c = index([x, y, z]) as usize;
                if !blocked[c] {
                    cell_item[c] = b.primary(cell_name([x, y, z], dims));
                }
            }
        }
    }

    // Group identical shapes (up to the allowed rotations).
    let mut groups: Vec<PieceGroup> = Vec::new();
    let mut by_canon: HashMap<Shape, usize, rustc_hash::FxBuildHasher> = HashMap::default();
    for d in puzzle.pieces.iter().filter(|d| !d.stationary) {
        let shape = Shape::new(d.cells.iter().copied());
        // The canonical form is the least orientation (`Shape::canonical`
        // over the distinct images of the group's transforms): one pass.
        let orientations = shape.orientations(&group);
        let canon = orientations.iter().min().cloned().unwrap_or_else(|| shape.clone());
        debug_assert!(canon == shape.canonical(&group));
        match by_canon.get(&canon).filter(|_| group_identical) {
            Some(&g) => groups[g].names.push(d.name.clone()),
            None => {
                by_canon.insert(canon, groups.len());
                groups.push(PieceGroup { names: vec![d.name.clone()], shape, orientations, images: 0 });
            }
        }
    }

    // At most one image per orientation and position: room for them all.
    let (mut n_images, mut n_entries) = (0usize, 0usize);
    for o in groups.iter().flat_map(|g| &g.orientations) {
        let e = o.extent();
        let at = (0..3).map(|a| (dims[a] as i32 - e[a] + 1).max(0) as usize).product::<usize>();
        n_images += at;
        n_entries += at * (o.cells().len() + 1);
    }
    b.reserve(n_images, n_entries);
    let mut placements = Vec::with_capacity(n_images);
    for (g, grp) in groups.iter_mut().enumerate() {
        let item = if grp.names.len() == 1 {
            b.primary(grp.names[0].clone())
        } else {
            b.primary_with_multiplicity(grp.names.join("+"), grp.names.len() as u32)
        };
        for (o, orient) in grp.orientations.iter().enumerate() {
            let e = orient.extent();
            for z in 0..=dz - e[2] {
                // One check per layer of positions: at most a box face of
                // images between two checks.
                stop.check().map_err(stopped)?;
                for y in 0..=dy - e[1] {
                    for x in 0..=dx - e[0] {
                        let mut cells: Vec<u32> =
                            orient.cells().iter().map(|p| index([p[0] + x, p[1] + y, p[2] + z])).collect();
                        if cells.iter().any(|&c| blocked[c as usize]) {
                            continue;
                        }
                        cells.sort_unstable();
                        b.option_items(std::iter::once(item).chain(cells.iter().map(|&c| cell_item[c as usize])));
                        placements.push(Placement { piece: g as u32, cells, orientation: o as u32 });
                        grp.images += 1;
                    }
                }
            }
        }
    }

    let mut pieces: Vec<PieceInfo> =
        groups.iter().map(|g| PieceInfo { names: g.names.clone(), stationary: false }).collect();
    let mut fixed = Vec::new();
    for d in puzzle.pieces.iter().filter(|d| d.stationary) {
        let mut cells: Vec<u32> = d.cells.iter().map(|&c| index(c)).collect();
        cells.sort_unstable();
        fixed.push(Placement { piece: pieces.len() as u32, cells, orientation: 0 });
        pieces.push(PieceInfo { names: vec![d.name.clone()], stationary: true });
    }
    let geometry = Geometry { dims, pieces, placements, fixed };
    let mut problem = b.build_checked(Some(geometry), stop)?;
    let (symmetries, rotations, rotations_and_mirrors) = box_symmetries(puzzle, &problem, &groups, &blocked, stop)?;
    problem.symmetries = symmetries;
    Ok(Built { problem, groups, rotations, rotations_and_mirrors })
}

/// The box symmetries (rotations, then mirror images) that map the stationary
/// cells and the set of images onto themselves, as option permutations.
/// Returns them without the identity, and the group sizes with it.
///
/// "Rotation" means a rotation of the box in space, also for one-sided
/// puzzles: turning a flat box over maps a one-sided piece onto its mirror
/// image, which is a symmetry of the problem when that image is in the set
/// (Busche counts the one-sided 30x3 pentominoes this way: 46, not 92).
fn box_symmetries(
    puzzle: &Puzzle,
    problem: &Problem,
    groups: &[PieceGroup],
    blocked: &[bool],
    stop: &StopCheck,
) -> Result<(Vec<Symmetry>, usize, usize), BuildError> {
    let geo = problem.geometry.as_ref().expect("built with geometry");
    // Placements are found by their cell sets: in a box of at most 128
    // cells by the bit set of the cells (no sorting, one word to hash and
    // compare), else by the sorted cell list.
    let small = blocked.len() <= 128;
    // Generic, not through `dyn Iterator`: one call per placement and
    // symmetry, a handful of cells each.
    fn mask_of(cells: impl Iterator<Item = u32>) -> u128 {
        cells.fold(0u128, |m, c| m | 1u128 << c)
    }
    let option_by_mask: HashMap<u128, u32, rustc_hash::FxBuildHasher> = match small {
        true => geo.placements.iter().enumerate().map(|(o, p)| (mask_of(p.cells.iter().copied()), o as u32)).collect(),
        false => HashMap::default(),
    };
    let option_by_cells: HashMap<&[u32], u32, rustc_hash::FxBuildHasher> = match small {
        true => HashMap::default(),
        false => geo.placements.iter().enumerate().map(|(o, p)| (p.cells.as_slice(), o as u32)).collect(),
    };
    let all = Transform::all();
    let mut out = Vec::new();
    let (mut rotations, mut with_mirrors) = (0, 0);
    // The symmetries found so far as (cell map, option map), the identity
    // first. Whether a symmetry maps the problem onto itself, and how it
    // maps the options, depend on its cell map only; when that map is the
    // composition of two found ones, it is a symmetry (placements go to
    // placements of as many copies through both) and its option map is the
    // composition too: an option's image is the option with the image cell
    // set, the last one in option order if several share it (as the
    // lookups below give). So only the symmetries outside the group the
    // found ones generate are looked up option by option; every other one
    // costs one composition of option maps.
    //
    // `found[0]` is the identity's cell map and `found[k]` that of
    // `out[k - 1]`, whose option map is only kept there (one copy of each
    // map: they are most of the IR of a large cube).
    let mut found: Vec<Vec<u32>> = Vec::new();
    let option_of = |out: &[Symmetry], k: usize, o: u32| if k == 0 { o } else { out[k - 1].option_map[o as usize] };
    'sym: for s in BoxSymmetry::of_box(puzzle.dims, &all) {
        if s.transform == Transform::IDENTITY {
            // Maps everything onto itself; counted, not listed.
            with_mirrors += 1;
            rotations += 1;
            continue;
        }
        // The image of every cell, once per symmetry (not once per
        // placement cell).
        let cell_map: Vec<u32> = (0..blocked.len() as u32)
            .map(|c| {
                let [x, y, z] = geo.coords(c).map(|v| v as i32);
                geo.cell(s.apply([x, y, z]).map(|v| v as u32))
            })
            .collect();
        if found.is_empty() {
            found.push((0..blocked.len() as u32).collect());
        }
        stop.check().map_err(BuildError::Stopped)?;
        let composed = found.iter().enumerate().find_map(|(ka, a)| {
            found.iter().position(|b| cell_map.iter().zip(b).all(|(&c, &bc)| a[bc as usize] == c)).map(|kb| {
                (0..geo.placements.len() as u32)
                    .map(|o| option_of(&out, ka, option_of(&out, kb, o)))
                    .collect::<Vec<u32>>()
            })
        });
        let option_map = match composed {
            Some(option_map) => option_map,
            None => {
                let map_cell = |c: u32| cell_map[c as usize];
                if (0..blocked.len() as u32).any(|c| blocked[c as usize] && !blocked[map_cell(c) as usize]) {
                    continue;
                }
                let mut option_map = Vec::with_capacity(geo.placements.len());
                let mut image = Vec::new();
                for (k, p) in geo.placements.iter().enumerate() {
                    if k % STOP_EVERY == 0 {
                        stop.check().map_err(BuildError::Stopped)?;
                    }
                    let found = if small {
                        option_by_mask.get(&mask_of(p.cells.iter().map(|&c| map_cell(c))))
                    } else {
                        image.clear();
                        image.extend(p.cells.iter().map(|&c| map_cell(c)));
                        image.sort_unstable();
                        option_by_cells.get(image.as_slice())
                    };
                    match found {
                        Some(&o)
                            if groups[geo.placements[o as usize].piece as usize].names.len()
                                == groups[p.piece as usize].names.len() =>
                        {
                            option_map.push(o)
                        }
                        _ => continue 'sym,
                    }
                }
                option_map
            }
        };
        let reflection = !s.transform.is_rotation();
        with_mirrors += 1;
        if !reflection {
            rotations += 1;
        }
        found.push(cell_map);
        out.push(Symmetry { name: format!("{:?}", s.transform), reflection, option_map });
    }
    Ok((out, rotations, with_mirrors))
}
