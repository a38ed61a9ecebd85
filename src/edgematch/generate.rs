//! Random edge-matching puzzles with a planted solution.
//!
//! Two styles:
//! * [`Style::Uniform`], Benoist & Bourreau's generator ("Fast global
//!   filtering for Eternity II", 2008, section 6): every one of the inner
//!   joins of the board — `2·N·(N−1)` on an N x N board, joins between two
//!   frame cells included — gets a colour drawn uniformly from `1..=K`; the
//!   outer sides are grey.
//! * [`Style::Frame`], the Eternity II / Heule style: joins between two
//!   frame cells (the joins running along the border) draw from `B` frame
//!   colours `1..=B`, every other inner join from `K` inner colours
//!   `B+1..=B+K`, so frame colours never appear on a join that touches an
//!   inner cell.
//!
//! The tiles are then shuffled and each turned a random number of quarter
//! turns; the planted solution records where each tile went and how it must
//! be turned back. Everything is drawn from ChaCha8 seeded with the given
//! seed, through [`SeededRng`]'s own integer sampling, so a seed gives the
//! same puzzle whatever the versions of the `rand` family.

use super::{Board, Color, EdgePuzzle, Placed, Tile, EAST, GREY, NORTH, SOUTH, WEST};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How join colours are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Every inner join draws from colours `1..=colors`.
    Uniform {
        /// Number of colours `K`.
        colors: u16,
    },
    /// Joins along the frame draw from `1..=border_colors`, all other inner
    /// joins from `border_colors+1..=border_colors+inner_colors`.
    Frame {
        /// Number of frame colours `B`.
        border_colors: u16,
        /// Number of inner colours `K`.
        inner_colors: u16,
    },
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateSpec {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Colour scheme.
    pub style: Style,
    /// Seed of the random generator.
    pub seed: u64,
}

/// Largest board side the generator accepts (that of the readers).
pub const MAX_SIDE: usize = crate::frontend::edgematch::MAX_SIDE;
/// Largest number of colours of one kind.
pub const MAX_COLORS: u16 = 2000;

/// A generated puzzle and its planted solution.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle (tiles shuffled and turned).
    pub puzzle: EdgePuzzle,
    /// The planted solution.
    pub solution: Board,
    /// Colour drawn for each inner join, `h` joins (between `(r, c)` and
    /// `(r, c+1)`) row-major first, then `v` joins (between `(r, c)` and
    /// `(r+1, c)`) row-major.
    pub join_colors: Vec<Color>,
}

/// Why a specification cannot be generated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum GenerateError {
    /// Board too small or too large.
    #[error("board {rows}x{cols}: each side must be from 2 to {MAX_SIDE}")]
    Size {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// Zero or too many colours.
    #[error("{what} must be from 1 to {MAX_COLORS}, got {got}")]
    Colors {
        /// Which count.
        what: &'static str,
        /// The value given.
        got: u16,
    },
    /// Frame style on a board without inner cells.
    #[error("frame colours need a board with inner cells (at least 3x3); use the uniform style for {rows}x{cols}")]
    NoInner {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
}

/// ChaCha8 with a fixed seed layout and emx's own uniform sampling, so the
/// stream of numbers for a seed never changes.
pub struct SeededRng(ChaCha8Rng);

impl SeededRng {
    /// The generator for `seed`: the 32-byte ChaCha key is the seed in
    /// little-endian order followed by zeros.
    pub fn new(seed: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        SeededRng(ChaCha8Rng::from_seed(key))
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection (no modulo bias).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.0.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Shuffles `v` (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

impl GenerateSpec {
    /// Checks the specification.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let (rows, cols) = (self.rows, self.cols);
        if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
            return Err(GenerateError::Size { rows, cols });
        }
        let check = |what, got: u16| {
            if (1..=MAX_COLORS).contains(&got) {
                Ok(())
            } else {
                Err(GenerateError::Colors { what, got })
            }
        };
        match self.style {
            Style::Uniform { colors } => check("--colors", colors),
            Style::Frame { border_colors, inner_colors } => {
                check("--border-colors", border_colors)?;
                check("--colors", inner_colors)?;
                if rows < 3 || cols < 3 {
                    return Err(GenerateError::NoInner { rows, cols });
                }
                Ok(())
            }
        }
    }

    /// A short description, used as the puzzle name and in file headers.
    pub fn describe(&self) -> String {
        match self.style {
            Style::Uniform { colors } => {
                format!("uniform {}x{} colors={} seed={}", self.rows, self.cols, colors, self.seed)
            }
            Style::Frame { border_colors, inner_colors } => format!(
                "frame {}x{} border-colors={} colors={} seed={}",
                self.rows, self.cols, border_colors, inner_colors, self.seed
            ),
        }
    }
}

/// Generates the puzzle of `spec`.
pub fn generate(spec: &GenerateSpec) -> Result<Generated, GenerateError> {
    spec.validate()?;
    let (rows, cols) = (spec.rows, spec.cols);
    let mut rng = SeededRng::new(spec.seed);
    let on_frame = |r: usize, c: usize| r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
    let mut draw = |frame_join: bool| -> Color {
        match spec.style {
            Style::Uniform { colors } => 1 + rng.below(colors as u64) as Color,
            Style::Frame { border_colors, inner_colors } => {
                if frame_join {
                    1 + rng.below(border_colors as u64) as Color
                } else {
                    1 + border_colors + rng.below(inner_colors as u64) as Color
                }
            }
        }
    };
    // Placed colours of each cell, grey on the outside.
    let mut placed = vec![[GREY; 4]; rows * cols];
    let mut join_colors = Vec::with_capacity(rows * (cols - 1) + cols * (rows - 1));
    for r in 0..rows {
        for c in 0..cols - 1 {
            // A horizontal join runs along the frame when both cells are on
            // the top or bottom row.
            let k = draw(r == 0 || r + 1 == rows);
            placed[r * cols + c][EAST] = k;
            placed[r * cols + c + 1][WEST] = k;
            join_colors.push(k);
        }
    }
    for r in 0..rows - 1 {
        for c in 0..cols {
            let k = draw(c == 0 || c + 1 == cols);
            placed[r * cols + c][SOUTH] = k;
            placed[(r + 1) * cols + c][NORTH] = k;
            join_colors.push(k);
        }
    }
    debug_assert!((0..rows * cols).all(|i| on_frame(i / cols, i % cols) || placed[i].iter().all(|&k| k != GREY)));
    // Shuffle: order[k] is the cell whose tile becomes tile k.
    let mut order: Vec<usize> = (0..rows * cols).collect();
    rng.shuffle(&mut order);
    let mut tiles = Vec::with_capacity(rows * cols);
    let mut solution = Board::empty(rows, cols);
    for (k, &cell) in order.iter().enumerate() {
        let turn = rng.below(4) as u8;
        // Stored turned back by `turn`, so rotation `turn` restores it.
        let stored = Tile(placed[cell]).rotated((4 - turn) & 3);
        tiles.push(Tile(stored));
        solution.cells[cell] = Some(Placed { tile: k as u32, rotation: turn });
    }
    let puzzle = EdgePuzzle { name: spec.describe(), rows, cols, tiles, clues: vec![] };
    Ok(Generated { puzzle, solution, join_colors })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(rows: usize, cols: usize, style: Style, seed: u64) -> GenerateSpec {
        GenerateSpec { rows, cols, style, seed }
    }

    #[test]
    fn planted_solution_is_a_solution() {
        for (r, c) in [(2, 2), (3, 5), (6, 6), (7, 4)] {
            for seed in 0..5 {
                let g = generate(&spec(r, c, Style::Uniform { colors: 4 }, seed)).unwrap();
                g.puzzle.validate().unwrap();
                g.solution.check_solution(&g.puzzle).unwrap();
                let g = generate(&spec(r.max(3), c.max(3), Style::Frame { border_colors: 2, inner_colors: 5 }, seed))
                    .unwrap();
                g.solution.check_solution(&g.puzzle).unwrap();
            }
        }
    }

    #[test]
    fn seeds_reproduce_and_differ() {
        let s = spec(5, 5, Style::Uniform { colors: 6 }, 42);
        assert_eq!(generate(&s).unwrap().puzzle, generate(&s).unwrap().puzzle);
        let t = GenerateSpec { seed: 43, ..s };
        assert_ne!(generate(&s).unwrap().puzzle.tiles, generate(&t).unwrap().puzzle.tiles);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = SeededRng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (850..1150).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
    }

    /// Colour counts over the tiles' sides, index = colour.
    fn side_counts(p: &EdgePuzzle) -> Vec<usize> {
        let mut n = vec![0; p.n_colors()];
        for t in &p.tiles {
            for k in t.0 {
                n[k as usize] += 1;
            }
        }
        n
    }

    #[test]
    fn uniform_colours_are_as_drawn() {
        let g = generate(&spec(12, 9, Style::Uniform { colors: 7 }, 3)).unwrap();
        let p = &g.puzzle;
        assert_eq!(g.join_colors.len(), p.n_joins());
        let sides = side_counts(p);
        // Grey on every outer side, each join colour shown on two sides.
        assert_eq!(sides[0], 2 * (12 + 9));
        let mut drawn = [0; 8];
        for &k in &g.join_colors {
            drawn[k as usize] += 1;
        }
        for k in 1..=7 {
            assert_eq!(sides[k], 2 * drawn[k], "colour {k}");
            // 201 joins over 7 colours: each expected ~29 times.
            assert!((12..=50).contains(&drawn[k]), "colour {k} drawn {} times", drawn[k]);
        }
        assert_eq!(sides.len(), 8, "no colour beyond K");
    }

    #[test]
    fn frame_colours_stay_on_the_frame() {
        let (b, k) = (3u16, 6u16);
        let g = generate(&spec(8, 10, Style::Frame { border_colors: b, inner_colors: k }, 9)).unwrap();
        let p = &g.puzzle;
        let board = &g.solution;
        let mut seen = vec![false; (b + k + 1) as usize];
        for cell in 0..p.n_cells() {
            let shown = board.colours(p, cell).unwrap();
            for (side, &colour) in shown.iter().enumerate() {
                seen[colour as usize] = true;
                let Some(other) = p.neighbour(cell, side) else {
                    assert_eq!(colour, GREY);
                    continue;
                };
                let both_on_frame = p.border_sides(cell).iter().any(|&x| x) && p.border_sides(other).iter().any(|&x| x);
                if both_on_frame {
                    assert!((1..=b).contains(&colour), "frame join shows {colour}");
                } else {
                    assert!((b + 1..=b + k).contains(&colour), "inner join shows {colour}");
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every colour appears: {seen:?}");
        // Frame joins: 2*(rows-1) + 2*(cols-1).
        let frame = g.join_colors.iter().filter(|&&c| c <= b).count();
        assert_eq!(frame, 2 * 7 + 2 * 9);
    }

    #[test]
    fn dlx_finds_the_planted_solution() {
        use crate::edgematch::ir::{board_of, to_problem};
        use crate::search::{Flow, Limits};
        for (style, seed) in
            [(Style::Uniform { colors: 5 }, 1), (Style::Frame { border_colors: 2, inner_colors: 4 }, 2)]
        {
            let g = generate(&spec(4, 5, style, seed)).unwrap();
            let problem = to_problem(&g.puzzle);
            let mut found = false;
            let stats = crate::dlx::Dlx::new(&problem).search(&Limits::none(), |s| {
                let b = board_of(&g.puzzle, &problem, s);
                b.check_solution(&g.puzzle).unwrap();
                // Same tile showing the same colours in every cell (a
                // symmetric tile may be listed in another rotation).
                found |= (0..b.cells.len()).all(|i| {
                    b.cells[i].map(|x| x.tile) == g.solution.cells[i].map(|x| x.tile)
                        && b.colours(&g.puzzle, i) == g.solution.colours(&g.puzzle, i)
                });
                Flow::Continue
            });
            assert!(stats.solutions >= 1 && found, "{style:?}: {} solutions, planted found: {found}", stats.solutions);
        }
    }

    /// The same seed must give the same puzzle on every platform and
    /// version: a change here breaks published seeds.
    #[test]
    fn seed_stream_is_stable() {
        let g = generate(&spec(3, 3, Style::Uniform { colors: 4 }, 2024)).unwrap();
        let text: Vec<String> = g.puzzle.tiles.iter().map(|t| format!("{:?}", t.0)).collect();
        let board = crate::render::text::board(&g.solution);
        let expected = "[0, 1, 3, 4]\n[1, 0, 1, 1]\n[0, 0, 4, 3]\n[1, 0, 0, 1]\n[3, 2, 1, 3]\n[0, 1, 1, 0]\n[3, 4, 0, 3]\n[1, 0, 1, 2]\n[1, 0, 0, 4]\n6/0 2/3 9/3\n8/2 5/2 7/3\n4/1 1/2 3/1\n";
        assert_eq!(format!("{}\n{board}", text.join("\n")), expected);
    }

    #[test]
    fn bad_specs_are_refused() {
        assert!(generate(&spec(1, 5, Style::Uniform { colors: 3 }, 0)).is_err());
        assert!(generate(&spec(4, 4, Style::Uniform { colors: 0 }, 0)).is_err());
        assert!(generate(&spec(2, 5, Style::Frame { border_colors: 1, inner_colors: 1 }, 0)).is_err());
    }
}
