//! A DLX stage's node ([`Walker::dlx_node`]): the ordering heuristic's choice,
//! branching on an item (a cell, or a piece group with copies), and the
//! per-step parity and volume image filters. The occupancy and constraint
//! states are kept by [`Walker::place`] as in the bit-field stages, so the
//! hand-over to them costs nothing.

use crate::poly::filters::volume::regions_ok;
use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::Kind;
use crate::poly::plan::stages::DlxStage;
use crate::poly::stages::dlx::min_fit_cell;
use crate::poly::walk::{Stop, Visit, Walk, Walker};

impl<B: Bits> Walker<'_, B> {
    pub(in crate::poly) fn dlx_node(&mut self, stage: &DlxStage, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let depth = self.depth;
        let mark = self.dlx.hidden.len();
        if depth > 0 {
            self.apply_filters();
        }
        let n_cells = self.s.images.n_cells as u32;
        let m = &self.dlx.m;
        #[cfg(debug_assertions)]
        if self.nodes.is_multiple_of(61) {
            if let Err(e) = m.check_invariants() {
                panic!("DLX matrix corrupt at depth {depth}: {e}");
            }
        }
        let nested = match depth {
            0 => None,
            _ => self.s.knobs.nested.iter().find(|n| n.prefix[..] == self.path[..depth]),
        };
        let mut chosen = match (depth, self.s.knobs.force_first, nested) {
            (0, Some(g), _) => Some(n_cells + g as u32 + 1),
            (_, _, Some(n)) => {
                // A piece constrained under the images placed so far (their
                // stabiliser is not trivial): its dropped images hidden, its
                // column taken.
                let h = n_cells + n.group as u32 + 1;
                let m = &mut self.dlx.m;
                let mut x = m.down(h);
                while x != h {
                    let next = m.down(x);
                    if n.dropped.binary_search(&m.option_of(x)).is_ok() {
                        m.hide_row(x);
                        self.dlx.hidden.push(x);
                    }
                    x = next;
                }
                Some(h)
            }
            _ => stage.heuristic.choose(m, &stage.keys),
        };
        let m = &self.dlx.m;
        if depth < self.cell_branch_above && chosen.is_some_and(|i| i > n_cells && m.bound(i) > 1) {
            chosen = min_fit_cell(m, n_cells);
        }
        let result = match chosen {
            Some(i) if m.feasible(i) && m.len(i) > 0 => {
                if m.bound(i) == 1 {
                    self.dlx_once(i, visit)
                } else {
                    self.dlx_multiple(i, visit)
                }
            }
            _ => Ok(()),
        };
        let m = &mut self.dlx.m;
        while self.dlx.hidden.len() > mark {
            let x = self.dlx.hidden.pop().expect("non-empty");
            m.unhide_row(x);
        }
        result
    }

    /// Collects the rows of column `i` into this depth's candidate slice,
    /// ordered as the walk wants them.
    pub(in crate::poly) fn collect_rows(&mut self, i: u32) -> (usize, usize) {
        let base = self.depth * self.s.stride;
        let m = &self.dlx.m;
        let mut n = 0;
        let mut x = m.down(i);
        while x != i {
            self.cand[base + n] = x;
            n += 1;
            x = m.down(x);
        }
        if let Walk::Sample { rng, .. } = &mut self.walk {
            rng.shuffle(&mut self.cand[base..base + n]);
        }
        (base, n)
    }

    /// Which of `n` children to try at this depth.
    pub(in crate::poly) fn children(&mut self, n: usize) -> std::ops::Range<usize> {
        let depth = self.depth;
        match &mut self.walk {
            Walk::Guided(guide) => match guide.get(depth) {
                Some(&j) => (j as usize).min(n)..(j as usize + 1).min(n),
                None => 0..n,
            },
            Walk::Probe { rng, weight, nodes, per_depth, .. } => {
                let j = rng.below(n as u64) as usize;
                *weight *= n as f64;
                *nodes += *weight;
                per_depth[depth] += *weight;
                j..j + 1
            }
            _ => 0..n,
        }
    }

    fn dlx_once(&mut self, i: u32, visit: &mut Visit<'_>) -> Result<(), Stop> {
        // Below this node only bit-field stages run (they read the
        // occupancy, never the matrix): the matrix need not follow. This
        // matters for Knuth probes, which would otherwise pay a full
        // cover and uncover of the root choice per probe.
        let follow = self.s.stages.kinds()[..self.n_left as usize].iter().any(|k| matches!(k, Kind::Dlx(_)));
        if follow {
            self.dlx.m.commit_primary(i);
        }
        let (base, n) = self.collect_rows(i);
        let range = self.children(n);
        let mut result = Ok(());
        for j in range {
            let x = self.cand[base + j];
            let m = &mut self.dlx.m;
            if follow {
                m.commit_row_except(x);
            }
            let k = m.option_of(x);
            self.place(k);
            self.branch[self.depth - 1] = j as u32;
            result = self.node(visit);
            self.unplace(k);
            if follow {
                self.dlx.m.uncommit_row_except(x);
            }
            if result.is_err() {
                break;
            }
            if let Err(e) = self.trial_over() {
                result = Err(e);
                break;
            }
        }
        if follow {
            self.dlx.m.uncommit_primary(i);
        }
        result
    }

    /// Branch on an item needed `b > 1` more times (identical pieces): the
    /// `j`-th child takes row `j` with rows `0..j` excluded, so each set of
    /// rows is reached once.
    fn dlx_multiple(&mut self, i: u32, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let (base, n) = self.collect_rows(i);
        let m = &self.dlx.m;
        let g = (i - self.s.images.n_cells as u32 - 1) as usize;
        debug_assert!(
            self.cand[base..base + n].windows(2).all(|w| m.option_of(w[0]) < m.option_of(w[1])),
            "a group's rows are linked in image order"
        );
        let theta = (m.len(i) + 1 - m.bound(i)) as usize;
        let range = self.children(theta.min(n));
        let mut result = Ok(());
        let mut excluded = 0;
        let (lo, lo_mask) = (self.lo[g], self.lo_mask);
        for j in 0..range.end {
            let x = self.cand[base + j];
            let m = &mut self.dlx.m;
            if !m.feasible(i) {
                break;
            }
            if j >= range.start {
                m.select_row(x);
                let k = m.option_of(x);
                // Rows 0..j are excluded below; the column lists rows in
                // image order, so for the bit-field engines that is "no
                // image of `g` before `k`" (`k` itself is placed).
                self.lo[g] = k + 1;
                self.lo_mask |= 1 << g;
                self.place(k);
                self.branch[self.depth - 1] = j as u32;
                result = self.node(visit);
                self.unplace(k);
                (self.lo[g], self.lo_mask) = (lo, lo_mask);
                self.dlx.m.unselect_row(x);
                if result.is_err() {
                    break;
                }
                if let Err(e) = self.trial_over() {
                    result = Err(e);
                    break;
                }
            }
            self.dlx.m.hide_row(x);
            excluded += 1;
        }
        let m = &mut self.dlx.m;
        for j in (0..excluded).rev() {
            m.unhide_row(self.cand[base + j]);
        }
        result
    }

    /// The per-step parity and volume image filters: hides the rows that
    /// would violate a constraint (undone by `dlx_node`).
    fn apply_filters(&mut self) {
        let k = &self.s.knobs;
        let n_left = self.n_left;
        let pf = k.parity_filter.is_some_and(|t| n_left >= t);
        let vf = k.volume_filter.is_some_and(|t| n_left >= t);
        if !pf && !vf {
            return;
        }
        let n_cells = self.s.images.n_cells as u32;
        let t = &self.s.tables;
        let m = &mut self.dlx.m;
        for g in 0..self.left.len() {
            if self.left[g] == 0 {
                continue;
            }
            let h = n_cells + g as u32 + 1;
            let mut x = m.down(h);
            while x != h {
                let next = m.down(x);
                let img = m.option_of(x) as usize;
                let mut bad = false;
                if pf {
                    let p = self.s.parity.as_ref().expect("parity table");
                    bad = !p.table.achievable(self.pstate - p.table.delta(g), self.prem - p.image_parity[img] as i64);
                }
                if vf && !bad {
                    let v = self.s.volume.as_ref().expect("volume table");
                    let free = self.occ.or(t.mask[img]).not();
                    bad = !regions_ok(free, free.count(), &t.neighbours, &v.table, self.vstate - v.table.delta(g));
                }
                if bad {
                    m.hide_row(x);
                    self.dlx.hidden.push(x);
                }
                x = next;
            }
        }
    }
}
