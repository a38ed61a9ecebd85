//! Start boards: random, scan-row greedy ("initialization with knowledge"
//! of Muñoz et al.), and the CP-relaxed start of Schaus & Deville.

use super::model::{Model, NONE};
use super::region::{build_fill, fill_holes, solve_fill};
use super::state::State;

/// How the first board of a search is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// Tiles shuffled within their class, random fitting rotations.
    Random,
    /// Scan-row greedy: each cell gets the first tile (of a shuffled list)
    /// matching its placed neighbours, or stays empty; the empty cells are
    /// filled last, by assignment.
    Scan,
    /// CP-relaxed: a set of non-adjacent cells is left out, the rest is
    /// solved exactly (every join matched) by DLX, and the left-out cells
    /// are filled optimally by assignment.
    Cp,
    /// The best board of a tree search with breaks
    /// ([`breaks`](super::breaks)) run for a share of the budget.
    Breaks,
}

impl Start {
    /// Names accepted by `--start`.
    pub const NAMES: &'static [&'static str] = &["random", "scan", "cp", "breaks"];

    /// Parses a `--start` name.
    pub fn from_name(name: &str) -> Option<Start> {
        match name {
            "random" => Some(Start::Random),
            "scan" => Some(Start::Scan),
            "cp" => Some(Start::Cp),
            "breaks" => Some(Start::Breaks),
            _ => None,
        }
    }
}

/// Clues in place, every other cell empty.
fn clues_only(model: &Model) -> Vec<Option<(u32, u8)>> {
    model.clue.clone()
}

fn state_of(model: &Model, placed: &[Option<(u32, u8)>]) -> State {
    let tile = placed.iter().map(|p| p.expect("full board").0).collect();
    let rot = placed.iter().map(|p| p.expect("full board").1).collect();
    State::from_parts(model, tile, rot)
}

/// A random valid board.
pub fn random(model: &Model, rng: &mut crate::search::Rng) -> State {
    let mut placed = clues_only(model);
    for (cells, tiles) in model.movable.iter().zip(&model.group_tiles) {
        let mut tiles = tiles.clone();
        rng.shuffle(&mut tiles);
        for (&c, &t) in cells.iter().zip(&tiles) {
            let rots: Vec<u8> = model.rotations(t, c).collect();
            placed[c as usize] = Some((t, rots[rng.usize(0..rots.len())]));
        }
    }
    state_of(model, &placed)
}

/// Scan-row greedy ("initialization with knowledge", Muñoz et al.,
/// Algorithm 3): cells in row order; each takes the first tile of a
/// shuffled list that fits and matches every placed neighbour, or is left
/// empty; the empty cells are filled at the end by assignment.
pub fn scan(model: &Model, rng: &mut crate::search::Rng) -> State {
    let mut placed = clues_only(model);
    let mut lists: Vec<Vec<u32>> = model.group_tiles.clone();
    lists.iter_mut().for_each(|l| rng.shuffle(l));
    let mut holes = Vec::new();
    for cell in 0..model.n() as u32 {
        if placed[cell as usize].is_some() {
            continue;
        }
        let g = model.group(cell);
        let first_rot = rng.u8(0..4);
        let found = lists[g].iter().enumerate().find_map(|(i, &t)| {
            (0..4u8)
                .map(|k| (first_rot + k) & 3)
                .find(|&r| model.fits(t, r, cell) && matches_placed(model, &placed, cell, t, r))
                .map(|r| (i, t, r))
        });
        match found {
            Some((i, t, r)) => {
                lists[g].remove(i);
                placed[cell as usize] = Some((t, r));
            }
            None => holes.push(cell),
        }
    }
    let left: Vec<u32> = lists.into_iter().flatten().collect();
    fill_holes(model, &mut placed, &holes, &left);
    state_of(model, &placed)
}

fn matches_placed(model: &Model, placed: &[Option<(u32, u8)>], cell: u32, t: u32, r: u8) -> bool {
    let col = model.color(t, r);
    (0..4).all(|s| {
        let o = model.nbr[cell as usize][s];
        o == NONE || placed[o as usize].is_none_or(|(ot, or)| model.color(ot, or)[s ^ 2] == col[s])
    })
}

/// What the CP-relaxed start did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CpReport {
    /// Cells left out of the exact solve in the successful try (0 if none).
    pub relaxed: usize,
    /// DLX nodes over all tries.
    pub nodes: u64,
    /// Whether a relaxed solve succeeded (otherwise the scan start was used).
    pub solved: bool,
}

/// The CP-relaxed start (Schaus & Deville, section 5): leave `relax`
/// random non-adjacent movable cells out, solve the rest exactly with DLX
/// (every join between placed tiles matched), then fill the left-out cells
/// optimally by assignment. A try that exceeds `max_nodes` is repeated with
/// half again as many cells left out, up to `tries` times; if every try
/// fails, the scan-row start is used.
pub fn cp_relaxed(
    model: &Model,
    relax: usize,
    max_nodes: u64,
    tries: usize,
    rng: &mut crate::search::Rng,
) -> (State, CpReport) {
    let mut relax = relax;
    let mut report = CpReport { relaxed: 0, nodes: 0, solved: false };
    for _ in 0..tries.max(1) {
        let mut cells: Vec<u32> = model.movable.iter().flatten().copied().collect();
        rng.shuffle(&mut cells);
        let mut relaxed: Vec<u32> = Vec::new();
        let mut is_relaxed = vec![false; model.n()];
        for &c in &cells {
            if relaxed.len() >= relax {
                break;
            }
            if !model.nbr[c as usize].iter().any(|&o| o != NONE && is_relaxed[o as usize]) {
                relaxed.push(c);
                is_relaxed[c as usize] = true;
            }
        }
        let open: Vec<u32> = cells.iter().copied().filter(|&c| !is_relaxed[c as usize]).collect();
        let tiles: Vec<u32> = model.group_tiles.iter().flatten().copied().collect();
        let clue_colours = |c: u32| model.clue[c as usize].map(|(t, r)| model.color(t, r));
        let fill = build_fill(model, &clue_colours, &open, &tiles, false, 0, rng);
        let (found, nodes) = solve_fill(&fill, max_nodes);
        report.nodes += nodes;
        if let Some(found) = found {
            let mut placed = clues_only(model);
            let mut used = vec![false; model.n()];
            for (c, t, r) in found {
                placed[c as usize] = Some((t, r));
                used[t as usize] = true;
            }
            let left: Vec<u32> = tiles.iter().copied().filter(|&t| !used[t as usize]).collect();
            fill_holes(model, &mut placed, &relaxed, &left);
            report.relaxed = relaxed.len();
            report.solved = true;
            return (state_of(model, &placed), report);
        }
        relax += relax.div_ceil(2).max(1);
    }
    (scan(model, rng), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::local::tests::meta;

    #[test]
    fn starts_are_valid_boards() {
        for name in ["brendan_set2/pieces_05x05.txt", "brendan_set2/pieces_10x07.txt"] {
            let p = meta(name);
            let model = Model::new(&p).unwrap();
            let mut rng = crate::search::Rng::new(5);
            let r = random(&model, &mut rng);
            r.valid(&model).unwrap();
            let s = scan(&model, &mut rng);
            s.valid(&model).unwrap();
            s.to_board(&model).check(&p).unwrap();
            let (c, rep) = cp_relaxed(&model, 4, 100_000, 3, &mut rng);
            c.valid(&model).unwrap();
            assert!(rep.solved, "{name}: {rep:?}");
        }
    }

    #[test]
    fn scan_beats_random_on_average() {
        let p = meta("brendan_set2/pieces_10x10.txt");
        let model = Model::new(&p).unwrap();
        let mut rng = crate::search::Rng::new(1);
        let (mut a, mut b) = (0, 0);
        for _ in 0..10 {
            a += random(&model, &mut rng).score;
            b += scan(&model, &mut rng).score;
        }
        assert!(b > a, "scan {b} random {a}");
    }
}
