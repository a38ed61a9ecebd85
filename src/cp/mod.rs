//! The native CP engine for edge matching (`--backend cp`), after Benoist &
//! Bourreau, "Fast global filtering for eternity II" (2008).
//!
//! The model keeps the board and, for every clockwise colour sequence pair
//! and every opposite pair, a *ColorPair*: the available tiles showing the
//! pair (Offer) and the empty cells whose known sides require it (Demand),
//! as sparse sets with O(1) insertion and removal ([`state`]). There are no
//! per-cell domains. After each placement the rules of [`filter`] run
//! (contradiction, instantiation, preemption, shared-edge bound, border
//! cycles); the search ([`search`]) branches on constrained patterns, then
//! on the most urgent ColorPair, backjumps on conflict explanations, and
//! shaves small candidate lists with edge-colour filtering ([`frontier`]).
//!
//! Every component can be switched off ([`CpConfig`], `--cp`), for
//! ablation. Solutions are reported as option ids of
//! [`edgematch::ir::to_problem`](crate::edgematch::ir::to_problem)'s IR: a
//! tile's rotations that look the same in a cell are one option, and the
//! engine only ever tries one of them, so no board is reported twice.

mod config;
mod domains;
mod dsearch;
mod filter;
mod frontier;
mod model;
mod search;
mod state;
#[cfg(test)]
mod tests;

pub use config::{CpConfig, CpConfigError, Heuristic, COMPONENTS};

use crate::edgematch::{Color, EdgePuzzle};
use crate::ir::{OptionId, Problem};
use crate::search::{Engine, Flow, Limits, SearchStats};
use filter::Core;
use model::{Model, NONE};
use search::{Counters, Searcher};
use std::collections::HashMap;
use std::time::Instant;

/// The CP engine for one edge-matching puzzle.
pub struct CpEngine {
    searcher: Searcher,
    clues: Vec<(usize, usize, u8)>,
    options: HashMap<(u32, u32, [Color; 4]), OptionId>,
    last: Counters,
    last_preempted: u64,
}

impl CpEngine {
    /// Builds the engine for `puzzle`, whose IR is `problem` (from
    /// [`to_problem`](crate::edgematch::ir::to_problem), with geometry).
    pub fn new(puzzle: &EdgePuzzle, problem: &Problem, config: CpConfig) -> CpEngine {
        let geo = problem.geometry.as_ref().expect("edge-matching IR has geometry");
        let options = geo
            .placements
            .iter()
            .enumerate()
            .map(|(o, p)| {
                let colours = puzzle.tiles[p.piece as usize].rotated(p.orientation as u8);
                ((p.piece, p.cells[0], colours), o as OptionId)
            })
            .collect();
        let clues = puzzle.clues.iter().map(|c| (puzzle.cell(c.row, c.col), c.tile, c.rotation)).collect();
        let core = Core::new(Model::new(puzzle), config);
        CpEngine { searcher: Searcher::new(core), clues, options, last: Counters::default(), last_preempted: 0 }
    }

    /// The configuration.
    pub fn config(&self) -> &CpConfig {
        &self.searcher.core.cfg
    }

    /// Places the clues at level 0 and filters the root. `false` when the
    /// puzzle has no solution.
    fn root(&mut self) -> bool {
        let core = &mut self.searcher.core;
        for &(cell, tile, rot) in &self.clues {
            if core.st.cell_of[tile] != NONE || core.st.tile_at[cell] != NONE || !core.st.fits(&core.m, cell, tile, rot as usize)
            {
                return false;
            }
            core.st.assign(&core.m, cell, tile, rot, 0);
        }
        core.filter(NONE)
    }
}

impl Engine for CpEngine {
    fn describe(&self) -> String {
        format!("cp {}", self.searcher.core.cfg)
    }

    fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&[OptionId]) -> Flow) -> SearchStats {
        let start = Instant::now();
        self.searcher.core.reset();
        self.searcher.core.preempted = 0;
        self.searcher.counters = Counters::default();
        let mut stopped = None;
        if self.root() {
            let options = &self.options;
            let mut ids = Vec::new();
            stopped = self.searcher.run(limits, &mut |core: &Core| {
                ids.clear();
                for c in 0..core.m.n_cells {
                    let t = core.st.tile_at[c];
                    let key = (t, c as u32, core.st.colors_at[c]);
                    ids.push(*options.get(&key).expect("every fitting placement is an IR option"));
                }
                visit(&ids)
            });
        }
        let c = self.searcher.counters.clone();
        self.last_preempted = self.searcher.core.preempted;
        self.last = c.clone();
        SearchStats {
            solutions: c.solutions,
            nodes: c.nodes,
            updates: c.nodes + c.probes,
            elapsed: start.elapsed(),
            stopped,
        }
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("backjumps", self.last.backjumps),
            ("shaving_probes", self.last.probes),
            ("shaving_failures", self.last.shave_fails),
            ("edge_prunes", self.last.edge_prunes),
            ("preempted_tiles", self.last_preempted),
        ]
    }
}
