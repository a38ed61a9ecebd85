//! Knuth's tree-size estimate for the scan backtracker (`--estimate`):
//! random paths through the same candidate tables, in the same cell order
//! and under the same symmetry breaking (one table per corner the pivot may
//! take) as [`Scan::walk`], so that the node estimate is unbiased for the
//! search's node count (one node per placement) and the solution estimate
//! for the boards the walk finds (one per orbit of the board rotations
//! when there is a pivot).
//!
//! The children of a node at cell `p` are the free candidates of the key
//! its west and north neighbours give, as the walk tries them. A probe
//! goes down every table once (the search is their union), so its
//! estimate is the sum of one path per table.

use super::{Scan, Table};
use crate::search::knuth::Tally;
use crate::search::{Estimate, Rng};

impl Scan {
    /// Knuth's estimate from `probes` random probes seeded by `seed`:
    /// nodes as the search counts them, boards the walk finds (before
    /// their images), nodes by cells filled (index `d`: placements that
    /// fill the `d`-th cell); no rate. Reproducible from the seed.
    pub fn estimate(&self, probes: u64, seed: u64) -> Estimate {
        self.estimate_or_less(probes, seed, None)
    }

    /// [`Scan::estimate`], but when `small = Some((first, below))` and the
    /// estimate from the first `first` probes is at most `below`, that
    /// estimate is returned at once (the probes are the first ones of the
    /// full estimate: the same seed gives the same paths). For a cheap
    /// answer on trees that are clearly small, where 2 000 probes of a
    /// 100-cell board can cost more than the walk they estimate.
    pub fn estimate_or_less(&self, probes: u64, seed: u64, small: Option<(u64, f64)>) -> Estimate {
        let n = self.rows * self.cols;
        let mut rng = Rng::new(seed);
        let mut tally = Tally::new(n + 1);
        // Scratch: the east key and south colour shown by each cell (slot
        // n: the grey sentinel), the tiles in use, the free candidates.
        let mut east = vec![0u32; n + 1];
        let mut south = vec![0u32; n + 1];
        let mut used = vec![0u64; self.tiles.div_ceil(64)];
        let mut free: Vec<u32> = Vec::new();
        for done in 0..probes {
            if small.is_some_and(|(first, below)| done == first && tally.estimate().nodes <= below) {
                break;
            }
            let (mut nodes, mut sols) = (0.0, 0.0);
            for table in &self.tables {
                used.fill(0);
                let (x, s) = self.probe(table, &mut rng, &mut tally, (&mut east, &mut south), &mut used, &mut free);
                nodes += x;
                sols += s;
            }
            tally.end_probe(nodes, sols);
        }
        tally.estimate()
    }

    /// One random path through `table` from the empty board: its node and
    /// board estimates, its nodes by depth added to `tally`.
    fn probe(
        &self,
        table: &Table,
        rng: &mut Rng,
        tally: &mut Tally,
        (east, south): (&mut [u32], &mut [u32]),
        used: &mut [u64],
        free: &mut Vec<u32>,
    ) -> (f64, f64) {
        let n = self.rows * self.cols;
        let (mut weight, mut nodes) = (1.0f64, 0.0f64);
        for p in 0..n {
            let info = self.cells[p];
            let k = (info.base + east[info.west as usize] + south[info.north as usize]) as usize;
            free.clear();
            for i in table.start[k]..table.start[k + 1] {
                let t = table.cands[i as usize].tile;
                if used[(t >> 6) as usize] & (1u64 << (t & 63)) == 0 {
                    free.push(i);
                }
            }
            if free.is_empty() {
                return (nodes, 0.0);
            }
            let degree = free.len() as f64;
            nodes += weight * degree;
            tally.at_depth(p + 1, weight * degree);
            weight *= degree;
            let c = table.cands[free[rng.below(free.len() as u64) as usize] as usize];
            used[(c.tile >> 6) as usize] |= 1u64 << (c.tile & 63);
            east[p] = c.east_key;
            south[p] = c.south as u32;
        }
        (nodes, weight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::generate::{generate, GenerateSpec, Style};
    use crate::edgematch::ir::to_problem;
    use crate::edgematch::scan::ScanConfig;
    use crate::search::{Flow, Limits};

    /// The mean over many probes lies within a few standard errors of the
    /// real node count (with and without symmetry breaking, on square and
    /// oblong boards), the nodes by depth add up to it; same seed, same
    /// estimate. (The board estimates: tests/integration/edgematch_estimate.rs.)
    #[test]
    fn estimate_is_unbiased_on_small_generated_puzzles() {
        for (rows, cols, colors, seed) in [(4, 4, 3, 1), (4, 6, 3, 4), (5, 5, 4, 2)] {
            let g = generate(&GenerateSpec { rows, cols, style: Style::Uniform { colors }, seed }).unwrap();
            let problem = to_problem(&g.puzzle);
            for symmetry in [true, false] {
                let mut scan =
                    Scan::with_config(&g.puzzle, &problem, ScanConfig { symmetry, ..ScanConfig::default() }).unwrap();
                let stats = scan.search(&Limits::none(), &mut |_| Flow::Continue);
                let est = scan.estimate(20_000, 3);
                assert_eq!(est.per_depth, scan.estimate(20_000, 3).per_depth);
                let what = format!("{rows}x{cols} symmetry {symmetry}: {est:?} against {} nodes", stats.nodes);
                assert!((est.nodes - stats.nodes as f64).abs() <= 4.0 * est.nodes_stderr, "{what}");
                let by_depth: f64 = est.per_depth.iter().sum();
                assert!((by_depth - est.nodes).abs() <= 1e-9 * est.nodes, "{what}");
            }
        }
    }

    /// `estimate_or_less` stops after its first probes when they estimate
    /// at most the bound (the same estimate as that many probes alone), and
    /// otherwise makes them all (the same as `estimate`).
    #[test]
    fn estimate_or_less_stops_only_on_small_estimates() {
        let g = generate(&GenerateSpec { rows: 5, cols: 5, style: Style::Uniform { colors: 4 }, seed: 2 }).unwrap();
        let scan = Scan::new(&g.puzzle, &to_problem(&g.puzzle)).unwrap();
        let (few, all) = (scan.estimate(50, 7), scan.estimate(400, 7));
        assert_ne!(few.nodes, all.nodes);
        let small = scan.estimate_or_less(400, 7, Some((50, few.nodes)));
        assert_eq!((small.probes, small.nodes), (50, few.nodes));
        let large = scan.estimate_or_less(400, 7, Some((50, few.nodes * 0.5)));
        assert_eq!((large.probes, large.nodes), (400, all.nodes));
    }
}
