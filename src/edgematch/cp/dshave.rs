//! Shaving over cell domains (component `shaving`, with edge filtering):
//! every value of each empty cell with `2..=shave_limit` values is probed
//! (assign, edge-filtering fixpoint, undo) and removed when it fails.
//!
//! Skipping a probe only prunes less, so the policies here choose which
//! probes run without changing any count (none is as fast as no shaving:
//! docs/tried/cp.md, "Branching and search"):
//! * `shave-dirty=R`: a cell whose probes all succeeded at this node or an
//!   ancestor is skipped while a signature of its neighbourhood (its own
//!   domain size for `R = 1`, with its neighbours for 2, within two steps
//!   for 3) is unchanged;
//! * `shave-yield=P`: a level whose recent probes removed fewer than `P`
//!   values per 100 is shaved at one node in 16 only;
//! * `shave-branch`: only the cell chosen for branching is probed, and the
//!   choice is made again after removals.
//!
//! `shave-singles` (in [`super::dsearch`]) places the singletons that
//! shaving leaves instead of branching on them.

use super::filter::bits;
use super::model::NONE;
use super::search::{Choice, Searcher};

/// No signature recorded (probe the cell).
pub(super) const NO_SIG: u64 = u64::MAX;

impl Searcher {
    /// Signature of the neighbourhood of `c` within `radius` steps: the
    /// domain sizes of its empty cells, a placement counting `1 << 20`.
    /// A signature is compared only below the node that recorded it, where
    /// domains only shrink and cells only fill, so an equal radius-0
    /// signature is an unchanged domain; with a radius, sizes are hashed
    /// and a collision only skips a probe.
    fn shave_sig(&self, c: usize, radius: u32) -> u64 {
        let (m, st) = (&self.core.m, &self.core.st);
        let doms = self.core.doms.as_ref().expect("domain mode");
        let one = |x: u32| -> u64 {
            if st.tile_at[x as usize] != NONE {
                1 << 20
            } else {
                doms.size[x as usize] as u64
            }
        };
        let mut sig = one(c as u32);
        if radius == 0 {
            return sig;
        }
        for &n in &m.nbr[c] {
            if n == NONE {
                continue;
            }
            sig = sig.wrapping_mul(31).wrapping_add(one(n));
            if radius >= 2 {
                for &n2 in &m.nbr[n as usize] {
                    if n2 != NONE && n2 as usize != c {
                        sig = sig.wrapping_mul(31).wrapping_add(one(n2));
                    }
                }
            }
        }
        sig
    }

    /// `shave-dirty`: whether the probes of `c` all succeeded at this node
    /// or an ancestor and its neighbourhood has not changed since.
    fn unchanged_since_probed(&self, c: usize, level: u32, radius: u32) -> bool {
        let (sig, at, id) = self.shave_sigs[c];
        sig != NO_SIG && at <= level && self.shave_path[at as usize] == id && sig == self.shave_sig(c, radius)
    }

    /// Probes every value of each domain with at most `shave_limit`
    /// values (and at least two), removing those that fail. `false` when a
    /// removal wipes a domain out (the node fails; `conflict` is set).
    pub(super) fn shave_domains(&mut self) -> bool {
        let level = self.next_level();
        let cfg = &self.core.cfg;
        if cfg.shave_depth != 0 && level as usize > cfg.shave_depth {
            return true;
        }
        let limit = cfg.shave_limit as u32;
        let near = cfg.shave_near;
        let dirty = cfg.shave_dirty;
        if dirty != 0 {
            if self.shave_sigs.len() != self.core.m.n_cells {
                self.shave_sigs = vec![(NO_SIG, 0, 0); self.core.m.n_cells];
            }
            // The node's identity: placements made so far (grows between
            // any two nodes, and at a node that forced placements).
            let id = self.counters.nodes + self.counters.singletons;
            if self.shave_path.len() <= level as usize {
                self.shave_path.resize(level as usize + 1, u64::MAX);
            }
            self.shave_path[level as usize] = id;
        }
        let want = cfg.shave_yield;
        if want != 0 {
            if self.shave_stats.len() <= level as usize {
                self.shave_stats.resize(level as usize + 1, [0; 3]);
            }
            let [probes, removals, visits] = &mut self.shave_stats[level as usize];
            *visits += 1;
            // Below the wanted yield (removals per 100 probes) at this
            // level, shave one node in 16 only, to keep measuring it.
            if *probes >= 256 && *removals * 100 < want as u64 * *probes && *visits % 16 != 0 {
                return true;
            }
        }
        let (probes0, removals0) = (self.counters.probes, self.counters.shave_removals);
        let ok = self.shave_pass(level, limit, near, dirty);
        if want != 0 {
            let s = &mut self.shave_stats[level as usize];
            s[0] += self.counters.probes - probes0;
            s[1] += self.counters.shave_removals - removals0;
            if s[0] > 1 << 14 {
                s[0] /= 2;
                s[1] /= 2;
            }
        }
        ok
    }

    /// One shaving pass in reading order over the cells with
    /// `2..=limit` values (see [`Searcher::shave_domains`]).
    fn shave_pass(&mut self, level: u32, limit: u32, near: bool, dirty: u32) -> bool {
        let mut values = std::mem::take(&mut self.scratch);
        for c in 0..self.core.m.n_cells {
            if self.core.st.tile_at[c] != NONE {
                continue;
            }
            let size = self.core.doms.as_ref().expect("domain mode").size[c];
            if size < 2 || size > limit || (near && !self.next_to_latest(c, level - 1)) {
                continue;
            }
            if dirty != 0 && self.unchanged_since_probed(c, level, dirty - 1) {
                self.counters.shave_skips += 1;
                continue;
            }
            let removed = self.counters.shave_removals;
            if !self.probe_domain(c, level, &mut values) {
                self.scratch = values;
                return false;
            }
            if dirty != 0 {
                self.shave_sigs[c] = if self.counters.shave_removals == removed {
                    (self.shave_sig(c, dirty - 1), level, self.shave_path[level as usize])
                } else {
                    (NO_SIG, 0, 0)
                };
            }
        }
        self.scratch = values;
        true
    }

    /// `shave-branch`: probes the values of the cell chosen for branching
    /// (at most `shave_limit`), then of the cell chosen after removals,
    /// until a chosen cell keeps all its values. `None`: nothing removed;
    /// `Some(Branch)`: values removed, choose again; `Some(Fail)`;
    /// `Some(Again)`: singletons were placed.
    pub(super) fn shave_branch_cell(&mut self, mut cell: u32) -> Option<Choice> {
        let level = self.next_level();
        let limit = self.core.cfg.shave_limit as u32;
        let mut values = std::mem::take(&mut self.scratch);
        let start = self.counters.shave_removals;
        let mut out = None;
        loop {
            let size = self.core.doms.as_ref().expect("domain mode").size[cell as usize];
            if size < 2 || size > limit {
                break;
            }
            let removed = self.counters.shave_removals;
            if !self.probe_domain(cell as usize, level, &mut values) {
                out = Some(Choice::Fail);
                break;
            }
            if self.counters.shave_removals == removed {
                break;
            }
            if self.singletons_on() {
                out = self.force_shaved_singles();
                if out.is_some() {
                    break;
                }
            }
            cell = self.pick_cell_with_domains();
        }
        self.scratch = values;
        if out.is_none() && self.counters.shave_removals != start {
            out = Some(Choice::Branch);
        }
        out
    }

    /// After shaving removed values at this node: places the singletons
    /// they left by propagation at the node's level rather than branching
    /// on them. `Some(Fail)`, `Some(Again)` (placements made: the node
    /// starts over) or `None` (nothing was forced).
    pub(super) fn force_shaved_singles(&mut self) -> Option<Choice> {
        let placed = self.forced.len();
        if !self.force_singles(self.next_level() - 1) {
            return Some(Choice::Fail);
        }
        (self.forced.len() != placed).then_some(Choice::Again)
    }

    /// Probes every value of empty cell `c`, removing those that fail;
    /// `false` when a removal wipes a domain out.
    fn probe_domain(&mut self, c: usize, level: u32, values: &mut Vec<(u32, u8)>) -> bool {
        self.core.doms.as_ref().expect("domain mode").options(c, values);
        for &(t, r) in values.iter() {
            if !self.core.doms.as_ref().expect("domain mode").contains(c, t as usize, r) {
                // Removed by an earlier removal's propagation.
                continue;
            }
            let mark = self.core.mark();
            self.core.st.assign(&self.core.m, c, t as usize, r, level);
            let ok = self.core.filter(c as u32);
            self.counters.probes += 1;
            self.core.undo_to(mark);
            self.core.st.unassign(&self.core.m, c);
            if !ok {
                self.counters.shave_removals += 1;
                let core = &mut self.core;
                let doms = core.doms.as_mut().expect("domain mode");
                if !doms.exclude(&core.m, &core.st, c, t as usize, r) {
                    self.counters.shave_fails += 1;
                    if core.explain {
                        bits::set_upto(&mut core.conflict, level - 1);
                    }
                    return false;
                }
            }
        }
        true
    }
}
