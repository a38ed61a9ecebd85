//! The walker's node: which stage runs at the current number of pieces
//! left (DLX, MCH/EMCH through the hole kernel, de Bruijn), the fast path
//! for the bit-field engines, and the sampling trial's end.

use crate::poly::walk::*;

impl<B: Bits> Walker<'_, B> {
    pub(in crate::poly) fn node(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        self.tick()?;
        if self.n_left == 0 {
            self.solutions += 1;
            if let Walk::Probe { weight, solutions, .. } = &mut self.walk {
                *solutions += *weight;
            }
            return match visit(&self.path[..self.depth]) {
                Flow::Continue => Ok(()),
                Flow::Stop => Err(Stop::Limit(StopReason::Visitor)),
            };
        }
        if !self.triggers_ok() {
            return Ok(());
        }
        if let Walk::Collect { depth, out } = &mut self.walk {
            if self.depth == *depth {
                out.push(Task { branch: self.branch[..self.depth].to_vec(), images: self.path[..self.depth].to_vec() });
                return Ok(());
            }
        }
        match self.s.stages.at(self.n_left) {
            At::Dlx(stage) => self.dlx_node(stage, visit),
            At::Bits(stage) => {
                let plain = match &self.walk {
                    Walk::All => true,
                    Walk::Guided(g) => self.depth >= g.len(),
                    // Below the trial's dive every branch is searched and
                    // their order changes nothing, so the subtree runs on
                    // the tight loops; the trial ends at its root's parent.
                    Walk::Sample { stop_left, .. } => self.n_left < *stop_left,
                    _ => false,
                };
                if plain && !(self.depth == 0 && self.s.knobs.force_first.is_some()) {
                    self.fast(stage, visit)
                } else {
                    self.bit_node(stage, visit)
                }
            }
        }
    }

    /// The bit-field engines when every branch is searched: the tight loop
    /// (no walk modes, no sibling bookkeeping; de Bruijn iterates its image
    /// lists directly instead of gathering candidates). Entered at a node
    /// with pieces left and triggers checked; stays below in bit-field
    /// stages (the schedule never returns to DLX).
    fn fast(&mut self, stage: &BitStage<B>, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        let occ = self.occ;
        let small = s.images.groups.len() <= 64;
        let multi = s.multi || self.lo_mask & self.avail != 0;
        match stage {
            BitStage::DeBruijn(Some(idx)) => {
                return match (s.has_triggers, multi) {
                    (false, false) => self.debruijn_kernel::<false, false>(idx, visit),
                    (false, true) => self.debruijn_kernel::<false, true>(idx, visit),
                    (true, false) => self.debruijn_kernel::<true, false>(idx, visit),
                    (true, true) => self.debruijn_kernel::<true, true>(idx, visit),
                };
            }
            BitStage::Mch(ci) | BitStage::Emch(_, ci) if small => {
                return match (s.has_triggers, multi) {
                    (false, false) => self.hole_kernel::<false, false>(ci, visit),
                    (false, true) => self.hole_kernel::<false, true>(ci, visit),
                    (true, false) => self.hole_kernel::<true, false>(ci, visit),
                    (true, true) => self.hole_kernel::<true, true>(ci, visit),
                };
            }
            BitStage::Bdlx(live) if small => {
                return if s.has_triggers {
                    self.bdlx_kernel::<true>(live, visit)
                } else {
                    self.bdlx_kernel::<false>(live, visit)
                };
            }
            BitStage::DeBruijn(None) => {
                let excluded = self.lo_mask & self.avail != 0;
                let Some(hole) = occ.not().lowest() else { return Ok(()) };
                let mut gs = self.avail & t.root.groups[hole];
                while gs != 0 {
                    let g = gs.trailing_zeros() as usize;
                    gs &= gs - 1;
                    for idx in t.root.range(hole, g) {
                        if t.root.mask[idx].disjoint(&occ) && !(excluded && t.root.img[idx] < self.lo[g]) {
                            let k = t.root.img[idx];
                            self.place(k);
                            let r = self.fast_child(visit);
                            self.unplace(k);
                            r?;
                        }
                    }
                }
                return Ok(());
            }
            _ => {}
        }
        let base = self.depth * s.stride;
        let out = &mut self.cand[base..base + s.stride];
        let n = match stage {
            BitStage::Mch(ci) => mch::candidates(t, ci, occ, self.avail, out),
            BitStage::Emch(w, ci) => emch::candidates(t, ci, occ, self.avail, *w, out),
            BitStage::Bdlx(_) => bdlx::candidates(t, occ, &self.left, self.avail, &self.lo, out),
            BitStage::DeBruijn(_) => debruijn::candidates(t, occ, self.avail, out),
        };
        let n = if self.lo_mask & self.avail != 0 { self.drop_excluded(base, n) } else { n };
        for j in 0..n {
            let k = self.cand[base + j];
            self.place(k);
            let r = self.fast_child(visit);
            self.unplace(k);
            r?;
        }
        Ok(())
    }

    #[inline(always)]
    fn fast_child(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        self.tick()?;
        if self.n_left == 0 {
            self.solutions += 1;
            return match visit(&self.path[..self.depth]) {
                Flow::Continue => Ok(()),
                Flow::Stop => Err(Stop::Limit(StopReason::Visitor)),
            };
        }
        if self.s.has_triggers && !self.triggers_ok() {
            return Ok(());
        }
        self.fast(self.s.stages.bits_at(self.n_left), visit)
    }

    fn bit_node(&mut self, stage: &BitStage<B>, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let depth = self.depth;
        let stride = self.s.stride;
        let base = depth * stride;
        let t = &self.s.tables;
        let (occ, avail) = (self.occ, self.avail);
        // A probe at a shallow depth meets the same few states again and
        // again (the piece choice's many probes of a 3-D puzzle pass
        // through few distinct states at depth 1): their candidates come
        // from the memo, so the probe takes the same branch for a fraction
        // of the counting.
        let memo = matches!(self.walk, Walk::Probe { .. })
            && depth < PROBE_MEMO_DEPTH
            && !(depth == 0 && self.s.knobs.force_first.is_some())
            && self.lo_mask & avail == 0;
        let key = ProbeKey { occ, avail, n_left: self.n_left };
        if let Some(list) = memo.then(|| self.probe_memo.get(&key)).flatten() {
            self.cand[base..base + list.len()].copy_from_slice(list);
            let n = list.len();
            return self.branch_over(base, n, visit);
        }
        let out = &mut self.cand[base..base + stride];
        let n = match (depth, self.s.knobs.force_first) {
            (0, Some(g)) => {
                let mut n = 0;
                for &k in &t.by_group[g as usize] {
                    if t.mask[k as usize].disjoint(&occ) {
                        out[n] = k;
                        n += 1;
                    }
                }
                n
            }
            _ => match stage {
                BitStage::Mch(ci) | BitStage::Emch(_, ci) if self.s.images.groups.len() <= 64 => {
                    let mut scratch = std::mem::take(&mut self.hole.probe_buf);
                    let n = hole_kernel::node_candidates(t, ci, occ, avail as u64, stage.kind(), &mut scratch, out);
                    self.hole.probe_buf = scratch;
                    n
                }
                BitStage::Mch(ci) => mch::candidates(t, ci, occ, avail, out),
                BitStage::Emch(w, ci) => emch::candidates(t, ci, occ, avail, *w, out),
                BitStage::DeBruijn(_) => debruijn::candidates(t, occ, avail, out),
                BitStage::Bdlx(_) => bdlx::candidates(t, occ, &self.left, avail, &self.lo, out),
            },
        };
        let n = if self.lo_mask & avail != 0 { self.drop_excluded(base, n) } else { n };
        if memo {
            self.probe_memo.insert(key, self.cand[base..base + n].to_vec());
        }
        self.branch_over(base, n, visit)
    }

    /// Tries the candidates at `base..base + n` as the walk asks.
    fn branch_over(&mut self, base: usize, n: usize, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let depth = self.depth;
        if n == 0 {
            return Ok(());
        }
        match &mut self.walk {
            Walk::All | Walk::Collect { .. } => self.try_range(base, 0..n, visit),
            Walk::Guided(guide) => match guide.get(depth) {
                Some(&j) if (j as usize) < n => self.try_range(base, j as usize..j as usize + 1, visit),
                Some(_) => Ok(()),
                None => self.try_range(base, 0..n, visit),
            },
            Walk::Sample { rng, .. } => {
                rng.shuffle(&mut self.cand[base..base + n]);
                self.try_range(base, 0..n, visit)
            }
            Walk::Probe { rng, weight, nodes, per_depth, .. } => {
                let j = rng.below(n as u64) as usize;
                *weight *= n as f64;
                *nodes += *weight;
                per_depth[depth] += *weight;
                self.try_range(base, j..j + 1, visit)
            }
        }
    }

    /// Removes from the candidates at `base..base + n` the images a DLX
    /// branch on identical pieces excluded; returns how many are left.
    fn drop_excluded(&mut self, base: usize, n: usize) -> usize {
        let group = &self.s.tables.group;
        let mut kept = 0;
        for j in 0..n {
            let k = self.cand[base + j];
            if k >= self.lo[group[k as usize] as usize] {
                self.cand[base + kept] = k;
                kept += 1;
            }
        }
        kept
    }

    #[inline]
    fn try_range(&mut self, base: usize, range: std::ops::Range<usize>, visit: &mut Visit<'_>) -> Result<(), Stop> {
        for j in range {
            let k = self.cand[base + j];
            self.place(k);
            self.branch[self.depth - 1] = j as u32;
            let r = self.node(visit);
            self.unplace(k);
            r?;
            self.trial_over()?;
        }
        Ok(())
    }

    #[inline]
    pub(in crate::poly) fn trial_over(&self) -> Result<(), Stop> {
        match self.walk {
            Walk::Sample { stop_left, .. } if self.n_left == stop_left => Err(Stop::TrialEnd),
            _ => Ok(()),
        }
    }
}
