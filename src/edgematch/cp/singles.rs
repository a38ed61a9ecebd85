//! Singleton propagation (component `singletons`, with edge filtering):
//! an empty cell whose domain holds one option, or an available tile with
//! one place left, can only be completed one way, so it is placed by
//! propagation, at the level of the decision that forced it, instead of
//! being branched on as a one-candidate search node.
//!
//! The placements are logical consequences of the state, so the search
//! explores the same subtrees; what changes is that a forced placement is
//! no longer a node (`nodes` counts decisions: branchings with two or more
//! candidates) and is counted in `singletons` instead, and that every
//! choice is made on the state after all forced placements (the cells a
//! single value forces no longer hide the next real choice).
//!
//! Undo: each forced placement is pushed with the trail mark taken before
//! it, on a stack that the search unwinds (trail, then board, most recent
//! first: a reserved tile's unassignment reads its reservation) before it
//! undoes the decision that forced them.

use super::filter::Mark;
use super::model::NONE;
use super::search::Searcher;

/// A forced placement: the trail mark taken before it and its cell.
pub(crate) type Forced = (Mark, u32);

impl Searcher {
    /// Whether singleton propagation runs (it needs the cell domains).
    #[inline]
    pub(super) fn singletons_on(&self) -> bool {
        self.core.cfg.singletons && self.core.doms.is_some()
    }

    /// The next forced placement `(cell, tile, rotation)`: an empty cell
    /// with one option (first in reading order), else an available tile
    /// with one place.
    fn next_single(&mut self) -> Option<(usize, u32, u8)> {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref()?;
        if st.n_empty == 0 {
            return None;
        }
        let cell = (0..m.n_cells).find(|&c| doms.size[c] == 1 && st.tile_at[c] == NONE);
        if let Some(c) = cell {
            doms.options(c, &mut self.scratch);
            let (t, r) = self.scratch[0];
            return Some((c, t, r));
        }
        let t = doms.scarcest_tile(st, 2)?;
        doms.places(st, t, &mut self.scratch_cells, &mut self.scratch);
        let (c, (t, r)) = (self.scratch_cells[0], self.scratch[0]);
        self.scratch_cells.clear();
        Some((c as usize, t, r))
    }

    /// Places every forced value at `level`, filtering after each, onto
    /// `stack`. `false` when a filtering fails (the explanation is in
    /// `core.conflict`, as after a decision).
    pub(super) fn place_singles(&mut self, level: u32, stack: &mut Vec<Forced>) -> bool {
        self.place_singles_from(level, stack, false)
    }

    /// [`Searcher::place_singles`]; with `shared`, every forced placement
    /// shares the copy-on-write epoch of the latest mark (the decision's
    /// frame), else the first takes a mark of its own and the others share
    /// it. A cell changed by several placements of the batch (and, with
    /// `shared`, by the decision) is saved once, before the first; undoing
    /// to the mark of one forced placement then leaves such cells changed,
    /// which is exact because the batch is always unwound as a whole (and,
    /// with `shared`, followed by the undo of the decision to its frame's
    /// mark).
    fn place_singles_from(&mut self, level: u32, stack: &mut Vec<Forced>, shared: bool) -> bool {
        let mut first = !shared;
        loop {
            if let Some((c, t, r)) = self.next_single() {
                let mark = if first { self.core.mark() } else { self.core.mark_shared() };
                first = false;
                stack.push((mark, c as u32));
                self.core.st.assign(&self.core.m, c, t as usize, r, level);
                self.counters.singletons += 1;
                if !self.core.filter(c as u32) {
                    return false;
                }
                continue;
            }
            if !self.core.cfg.confined {
                return true;
            }
            match self.confine() {
                Some(true) => continue,
                Some(false) => {
                    if self.core.explain {
                        // Domain reductions are not explained.
                        let top = self.core.st.level_at.iter().copied().max().unwrap_or(0);
                        super::filter::bits::set_upto(&mut self.core.conflict, top);
                    }
                    return false;
                }
                None => return true,
            }
        }
    }

    /// Confinement (component `confined`): a tile whose places all lie in
    /// one cell (several rotations) must go there, so that cell loses its
    /// other tiles' options; a cell whose options all belong to one tile
    /// takes that tile, which leaves every other cell. Applies the first
    /// confinement found: `Some(true)` when it removed options, `Some(false)`
    /// when the removal failed, `None` when there is none.
    fn confine(&mut self) -> Option<bool> {
        let n_tiles = self.core.m.rot_colors.len();
        for t in 0..n_tiles {
            let doms = self.core.doms.as_ref()?;
            let st = &self.core.st;
            let k = doms.tile_places(t);
            if st.cell_of[t] != NONE || !(2..=4).contains(&k) {
                continue;
            }
            doms.places(st, t, &mut self.scratch_cells, &mut self.scratch);
            let c = self.scratch_cells[0] as usize;
            if self.scratch_cells.iter().any(|&x| x as usize != c) || doms.size[c] == k {
                // `scratch_cells` non-empty would make the next cell
                // branch a tile branch (`push_frame`).
                self.scratch_cells.clear();
                continue;
            }
            doms.options(c, &mut self.scratch);
            self.scratch_cells.clear();
            return Some(self.exclude_all(c, |tile| tile as usize != t));
        }
        for c in 0..self.core.m.n_cells {
            let doms = self.core.doms.as_ref()?;
            let st = &self.core.st;
            let size = doms.size[c];
            if st.tile_at[c] != NONE || !(2..=4).contains(&size) {
                continue;
            }
            doms.options(c, &mut self.scratch);
            let t = self.scratch[0].0 as usize;
            if self.scratch.iter().any(|&(x, _)| x as usize != t) || doms.tile_places(t) == size {
                continue;
            }
            doms.places(st, t, &mut self.scratch_cells, &mut self.scratch);
            let mut ok = true;
            let core = &mut self.core;
            let doms = core.doms.as_mut().expect("domain mode");
            for (&x, &(t, r)) in self.scratch_cells.iter().zip(&self.scratch) {
                if x as usize != c && ok {
                    ok = doms.exclude(&core.m, &core.st, x as usize, t as usize, r);
                }
            }
            self.scratch_cells.clear();
            self.counters.confinements += 1;
            return Some(ok);
        }
        None
    }

    /// Removes from cell `c` the options in `scratch` whose tile `drop`
    /// selects, propagating each removal.
    fn exclude_all(&mut self, c: usize, drop: impl Fn(u32) -> bool) -> bool {
        self.counters.confinements += 1;
        let core = &mut self.core;
        let doms = core.doms.as_mut().expect("domain mode");
        for &(t, r) in &self.scratch {
            if drop(t) && !doms.exclude(&core.m, &core.st, c, t as usize, r) {
                return false;
            }
        }
        true
    }

    /// [`Searcher::place_singles`] on the search's own stack.
    pub(super) fn force_singles(&mut self, level: u32) -> bool {
        let mut stack = std::mem::take(&mut self.forced);
        let ok = self.place_singles(level, &mut stack);
        self.forced = stack;
        ok
    }

    /// [`Searcher::force_singles`] right after a decision of the search,
    /// sharing the epoch of its frame's mark (see
    /// [`Searcher::place_singles_from`]): the search unwinds these forced
    /// placements and then undoes the decision to that mark.
    pub(super) fn force_singles_shared(&mut self, level: u32) -> bool {
        let mut stack = std::mem::take(&mut self.forced);
        let ok = self.place_singles_from(level, &mut stack, true);
        self.forced = stack;
        ok
    }

    /// Undoes the forced placements above `base` on the search's stack.
    pub(super) fn unwind_singles(&mut self, base: usize) {
        while self.forced.len() > base {
            let (mark, c) = self.forced.pop().expect("a forced placement");
            self.core.undo_to(mark);
            self.core.st.unassign(&self.core.m, c as usize);
        }
    }
}
