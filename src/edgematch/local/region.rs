//! Exact re-solving of part of the board with emx's own exact engine (DLX):
//! the region optimisation (RO) and border optimisation (BO) neighbourhoods
//! of Salassa et al., and the relaxed fill behind the CP-relaxed start.
//!
//! A *fill problem* asks to place tiles in a set of open cells so that every
//! join between two placed tiles, and between a placed tile and a fixed
//! neighbour outside the open cells, matches. It is built as exact cover
//! with colours: open cells primary; tiles primary when they must all be
//! used, secondary (at most once) otherwise; one coloured secondary item
//! per join between two open cells; one option per (tile, cell, rotation)
//! that fits the border and matches the fixed neighbours. When no perfect
//! fill exists, `holes = k` adds a primary item `holes` of multiplicity `k`
//! and one option per open cell that covers the cell and `holes`: exactly
//! `k` cells stay empty. Increasing `k` from 0, the first fill found has the
//! fewest holes (the max-clique reading of Salassa et al.); the tiles left
//! over then go to the holes by assignment.

use super::assign::max_assignment;
use super::model::{Model, NONE};
use super::state::{Change, State};
use crate::dlx::Dlx;
use crate::edgematch::Color;
use crate::ir::{Entry, Problem, ProblemBuilder, NO_COLOR};
use crate::search::{Flow, Limits};

/// A placement in a fill: `(cell, tile, rotation)`.
pub type Fill = (u32, u32, u8);

/// A fill problem and how to read its options back.
pub struct FillProblem {
    /// The exact-cover form.
    pub problem: Problem,
    /// `(cell, tile, rotation)` of each option, `None` for a hole option.
    pub decode: Vec<Option<Fill>>,
}

/// Builds a fill problem. `fixed(cell)` gives the colours of a cell that is
/// not open (`None`: empty, no constraint); `tiles` are the candidate
/// tiles; `all_tiles` makes every one of them mandatory (needs as many tiles
/// as open cells and `holes == 0`); options are added in an order shuffled
/// by `rng`, which changes which fill DLX finds first.
pub fn build_fill(
    model: &Model,
    fixed: &dyn Fn(u32) -> Option<[Color; 4]>,
    open: &[u32],
    tiles: &[u32],
    all_tiles: bool,
    holes: u32,
    rng: &mut crate::search::Rng,
) -> FillProblem {
    let n = model.n();
    let mut b = ProblemBuilder::new("fill");
    let mut cell_item = vec![u32::MAX; n];
    for &c in open {
        cell_item[c as usize] = b.primary(format!("c{c}"));
    }
    let tile_item: Vec<u32> = tiles
        .iter()
        .map(|&t| if all_tiles { b.primary(format!("t{t}")) } else { b.secondary(format!("t{t}")) })
        .collect();
    // join_item[cell][side] for joins between two open cells.
    let mut join_item = vec![[u32::MAX; 4]; n];
    for &c in open {
        for s in [1usize, 2] {
            let o = model.nbr[c as usize][s];
            if o != NONE && cell_item[o as usize] != u32::MAX {
                let j = b.secondary(format!("j{c}_{s}"));
                join_item[c as usize][s] = j;
                join_item[o as usize][s ^ 2] = j;
            }
        }
    }
    let n_colors = model.colors.iter().flatten().map(|&c| c as usize + 1).max().unwrap_or(1);
    let colour: Vec<u32> = (0..n_colors).map(|k| b.color(&k.to_string())).collect();
    let hole_item = (holes > 0).then(|| b.primary_with_multiplicity("holes", holes));
    let mut options: Vec<(Vec<Entry>, Option<Fill>)> = Vec::new();
    let fixed_colours: Vec<Option<[Color; 4]>> =
        (0..n as u32).map(|c| if cell_item[c as usize] == u32::MAX { fixed(c) } else { None }).collect();
    for (k, &t) in tiles.iter().enumerate() {
        for &c in open {
            let mut seen: [Option<[Color; 4]>; 4] = [None; 4];
            'rot: for r in model.rotations(t, c) {
                let col = model.color(t, r);
                if seen.contains(&Some(col)) {
                    continue;
                }
                seen[r as usize] = Some(col);
                let mut entries = vec![
                    Entry { item: cell_item[c as usize], color: NO_COLOR },
                    Entry { item: tile_item[k], color: NO_COLOR },
                ];
                for s in 0..4 {
                    let o = model.nbr[c as usize][s];
                    if o == NONE {
                        continue;
                    }
                    let j = join_item[c as usize][s];
                    if j != u32::MAX {
                        entries.push(Entry { item: j, color: colour[col[s] as usize] });
                    } else if let Some(fc) = fixed_colours[o as usize] {
                        if fc[s ^ 2] != col[s] {
                            continue 'rot;
                        }
                    }
                }
                options.push((entries, Some((c, t, r))));
            }
        }
    }
    if let Some(h) = hole_item {
        for &c in open {
            options.push((
                vec![Entry { item: cell_item[c as usize], color: NO_COLOR }, Entry { item: h, color: NO_COLOR }],
                None,
            ));
        }
    }
    rng.shuffle(&mut options);
    let mut decode = Vec::with_capacity(options.len());
    for (entries, d) in options {
        b.option(entries);
        decode.push(d);
    }
    let problem = b.build(None).expect("fill problem is well formed");
    FillProblem { problem, decode }
}

/// Searches a fill problem for its first solution within `max_nodes`;
/// returns the placements (holes left out) and the nodes used, or `None`
/// when there is no fill or the node limit stopped the search.
pub fn solve_fill(fill: &FillProblem, max_nodes: u64) -> (Option<Vec<Fill>>, u64) {
    let mut found = None;
    let limits = Limits { max_nodes: Some(max_nodes), max_solutions: Some(1), ..Limits::default() };
    let stats = Dlx::new(&fill.problem).search(&limits, |s| {
        found = Some(s.iter().filter_map(|&o| fill.decode[o as usize]).collect());
        Flow::Stop
    });
    (found, stats.nodes)
}

/// Puts `tiles` into the empty `holes` of a partial board (`placed`), one
/// assignment per class, each tile in its best rotation against the filled
/// neighbours (joins between two holes are not counted: the result is
/// optimal when no two holes are adjacent).
pub fn fill_holes(model: &Model, placed: &mut [Option<(u32, u8)>], holes: &[u32], tiles: &[u32]) {
    for g in 0..model.movable.len() {
        let hs: Vec<u32> = holes.iter().copied().filter(|&c| model.group(c) == g).collect();
        let ts: Vec<u32> = tiles
            .iter()
            .copied()
            .filter(|&t| model.group_of_class[model.tile_class[t as usize] as usize] == g)
            .collect();
        assert_eq!(hs.len(), ts.len(), "holes and left-over tiles of one class");
        let m = hs.len();
        let mut weights = vec![0i64; m * m];
        let mut rots = vec![0u8; m * m];
        for (i, &t) in ts.iter().enumerate() {
            for (j, &h) in hs.iter().enumerate() {
                let mut best = (-1i64, 0u8);
                for r in model.rotations(t, h) {
                    let col = model.color(t, r);
                    let f = (0..4)
                        .filter(|&s| {
                            let o = model.nbr[h as usize][s];
                            o != NONE && placed[o as usize].is_some_and(|(ot, or)| model.color(ot, or)[s ^ 2] == col[s])
                        })
                        .count() as i64;
                    if f > best.0 {
                        best = (f, r);
                    }
                }
                weights[i * m + j] = best.0;
                rots[i * m + j] = best.1;
            }
        }
        for (i, j) in max_assignment(m, weights).into_iter().enumerate() {
            placed[hs[j] as usize] = Some((ts[i], rots[i * m + j]));
        }
    }
}

/// Limits of one region re-solve.
#[derive(Clone, Copy, Debug)]
pub struct ResolveLimits {
    /// Largest number of holes tried.
    pub max_holes: u32,
    /// DLX nodes allowed for each number of holes.
    pub nodes_per_try: u64,
}

/// Re-solves the movable cells `open` (with their own tiles) exactly: the
/// fewest-holes perfect fill, holes then filled by assignment. The result
/// replaces the current tiles when it scores at least as well (a sideways
/// move keeps the search moving on plateaus). Returns the score change, or
/// `None` when nothing was found or the result was worse.
pub fn resolve(
    model: &Model,
    state: &mut State,
    open: &[u32],
    limits: ResolveLimits,
    rng: &mut crate::search::Rng,
    nodes: &mut u64,
) -> Option<i32> {
    resolve_with(model, state, open, limits, rng, nodes, false)
}

/// [`resolve`], keeping the result even when it lowers the score when
/// `allow_worse` (a perturbation: the region destroyed and rebuilt).
pub fn resolve_with(
    model: &Model,
    state: &mut State,
    open: &[u32],
    limits: ResolveLimits,
    rng: &mut crate::search::Rng,
    nodes: &mut u64,
    allow_worse: bool,
) -> Option<i32> {
    if open.is_empty() {
        return None;
    }
    let mut is_open = vec![false; model.n()];
    open.iter().for_each(|&c| is_open[c as usize] = true);
    let tiles: Vec<u32> = open.iter().map(|&c| state.tile[c as usize]).collect();
    let fixed = |c: u32| (!is_open[c as usize]).then(|| state.colors[c as usize]);
    for k in 0..=limits.max_holes.min(open.len() as u32) {
        let fill = build_fill(model, &fixed, open, &tiles, k == 0, k, rng);
        let (found, used) = solve_fill(&fill, limits.nodes_per_try);
        *nodes += used;
        let Some(found) = found else { continue };
        let mut placed: Vec<Option<(u32, u8)>> = (0..model.n() as u32)
            .map(|c| (!is_open[c as usize]).then(|| (state.tile[c as usize], state.rot[c as usize])))
            .collect();
        let mut used_tile = vec![false; model.n()];
        for &(c, t, r) in &found {
            placed[c as usize] = Some((t, r));
            used_tile[t as usize] = true;
        }
        let holes: Vec<u32> = open.iter().copied().filter(|&c| placed[c as usize].is_none()).collect();
        let left: Vec<u32> = tiles.iter().copied().filter(|&t| !used_tile[t as usize]).collect();
        fill_holes(model, &mut placed, &holes, &left);
        let changes: Vec<Change> = open
            .iter()
            .map(|&c| {
                let (t, r) = placed[c as usize].expect("filled");
                Change { cell: c, tile: t, rot: r }
            })
            .collect();
        let undo: Vec<Change> = open
            .iter()
            .map(|&c| Change { cell: c, tile: state.tile[c as usize], rot: state.rot[c as usize] })
            .collect();
        let delta = state.apply(model, &changes);
        if delta < 0 && !allow_worse {
            state.apply(model, &undo);
            return None;
        }
        return Some(delta);
    }
    None
}

/// The movable cells of a `h x w` rectangle with top-left corner `(r0, c0)`.
pub fn rectangle(model: &Model, r0: usize, c0: usize, h: usize, w: usize) -> Vec<u32> {
    let mut cells = Vec::with_capacity(h * w);
    for r in r0..(r0 + h).min(model.rows) {
        for c in c0..(c0 + w).min(model.cols) {
            let cell = (r * model.cols + c) as u32;
            if !model.is_clued(cell) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// The movable cells of the board's border (every cell with a border side).
pub fn border_cells(model: &Model) -> Vec<u32> {
    (0..model.n() as u32).filter(|&c| model.border_mask[c as usize] != 0 && !model.is_clued(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::construct;
    use crate::edgematch::local::tests::meta;

    #[test]
    fn region_resolve_never_lowers_the_score() {
        let p = meta("brendan_set2/pieces_07x07.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(11);
        let mut state = construct::scan(&model, &mut rng);
        let limits = ResolveLimits { max_holes: 6, nodes_per_try: 20_000 };
        let mut nodes = 0;
        for _ in 0..20 {
            let before = state.score;
            let (r0, c0) = (rng.usize(0..5), rng.usize(0..5));
            let cells = rectangle(&model, r0, c0, 3, 3);
            if let Some(d) = resolve(&model, &mut state, &cells, limits, &mut rng, &mut nodes) {
                assert!(d >= 0);
                assert_eq!(state.score as i32, before as i32 + d);
            } else {
                assert_eq!(state.score, before);
            }
            state.valid(&model).unwrap();
        }
        let before = state.score;
        let border = border_cells(&model);
        let r = resolve(&model, &mut state, &border, limits, &mut rng, &mut nodes);
        assert!(state.score >= before, "{r:?}");
        state.valid(&model).unwrap();
    }
}
