//! The de Bruijn loop for the common case, with no call in its hot path:
//! no triggers, no copies or excluded rows, a flat box in rows, no piece of
//! one cell (so the single-cell check applies). The search itself runs in
//! [`run`], which returns to [`Walker::debruijn_lean`] on every rare event
//! (a solution, the hand-over to the next stage, the poll, the end) and is
//! re-entered where it left off: its registers hold only the search state,
//! never what a call or a visitor needs.
//!
//! Why a second loop: in the general loop ([`Walker::debruijn_kernel`]) a
//! large part of each placement's instructions is per-node bookkeeping
//! and register spills around its calls. Here the frame is three words and
//! a flag (no solution count: the flag is cleared along the path when a
//! solution is found), the group of an entry comes with the entry, the
//! pieces left are read off the frame pointer, and the cache's hit count
//! is kept in memory, so a placement costs markedly fewer instructions
//! (docs/tried/poly.md, "de Bruijn's loop": the iterative loop with no
//! call in its hot path).
//!
//! [`run_avx2`] is the same loop compiled for AVX2, chosen at run time when
//! the index has its [`Soa`]: a node's candidates are the set bits of its
//! list's fit bits, computed 4 entries per instruction at the node's start
//! ([`fit_bits`]), so the walk has no branch per entry, per run or per
//! group, and mispredicts far less. The list is the key's whole list,
//! found by one dense word per key ([`Soa::keys`]: no load of `groups` and
//! `gstart` on the way), and on boxes of at most 64 cells the same pass
//! makes the single-cell check of every fitting entry
//! ([`fit_alive_bits`]): only live placements are walked, the dead ones
//! are counted as nodes at the node's start, and the cache slots of the
//! live children are prefetched there. The same pass also rejects a
//! placement that encloses a new two-cell pocket when every piece has at
//! least three cells (fewer nodes), and the cells already isolated or in
//! pockets are found once at the kernel's root. The halo and pocket test
//! runs only on the fitting entries, gathered 4 to a vector, after a
//! fit-only pass over the list: most entries do not fit, so testing only
//! the fitting ones saves more than the second pass costs. Each of these
//! steps is a row of docs/tried/poly.md, "de Bruijn's loop".
//!
//! A third copy, `run_avx512` (`lean/kernel.rs`, passes in
//! `lean/pass512.rs`), runs at the AVX-512 level ([`crate::cpu`]), with
//! the same nodes and solutions. Layout: the driver here, the loop in
//! `lean/kernel.rs`, the per-node passes in `lean/pass.rs` and
//! `lean/pass512.rs`.

use crate::poly::model::bits::Bits;
use crate::poly::model::rows::Rows;
use crate::poly::stages::debruijn::memo::{Kernel, PairTable};
use crate::poly::stages::debruijn::{Entry, LeanFrame, RootIndex};
use crate::poly::walk::{Stop, Visit, Walker, POLL_MASK};
use crate::search::{Flow, StopReason};

mod kernel;
mod pass;
mod pass512;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

#[cfg(target_arch = "x86_64")]
use kernel::run_avx2;
#[cfg(target_arch = "x86_64")]
use kernel::run_avx512;
use kernel::{run, Consts, Event, Resume, State, TAGS};

impl<B: Bits> Walker<'_, B> {
    /// The box's rows when [`Self::debruijn_lean`] applies to `idx`
    /// (given no triggers and no copies or excluded rows).
    pub(in crate::poly::stages::debruijn) fn lean_rows(idx: &RootIndex<B>) -> Option<Rows<B>> {
        idx.rows.filter(|_| idx.prune_single && idx.n_groups <= 64)
    }

    /// [`Self::debruijn_kernel`] for no triggers, one copy per group, no
    /// excluded rows, a box in rows and no piece of one cell: the rare
    /// events handled here, the search in [`run`].
    pub(in crate::poly::stages::debruijn) fn debruijn_lean(
        &mut self,
        idx: &RootIndex<B>,
        rows: Rows<B>,
        visit: &mut Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let handover = (1..self.n_left)
            .rev()
            .find(|&n| s.stages.kinds()[n as usize] != crate::poly::plan::schedule::Kind::DeBruijn)
            .unwrap_or(0);
        let k = Consts {
            entries: &idx.entries,
            gstart: &idx.gstart,
            groups: &idx.groups,
            halo: &idx.halo,
            group_of: &s.tables.group,
            last: &idx.last,
            rows,
            width: idx.width,
            g1: idx.n_groups + 1,
            handover,
            base: self.depth,
            soa: idx.simd.as_ref(),
            pair: idx.prune_pair && B::CAPACITY <= 64,
        };
        let base = self.depth;
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        let mut st = State {
            occ: self.occ,
            avail: self.avail as u64,
            n_left: self.n_left,
            nodes: self.nodes,
            d: base,
            hits: 0,
            scan: (0, 0),
            iso: (0, 0),
            tags: std::mem::take(&mut self.debruijn.lean_tags),
        };
        let want = self.debruijn.lean_frames.len() * TAGS;
        if st.tags.len() < want {
            st.tags.resize(want, 0);
        }
        let mut frames = std::mem::take(&mut self.debruijn.lean_frames);
        let mut dead = std::mem::take(&mut self.debruijn.dead);
        debug_assert!(frames.len() > base + self.n_left as usize);
        let fill_path = |path: &mut [u32], frames: &[LeanFrame], to: usize| {
            for (dd, f) in frames.iter().enumerate().take(to).skip(base) {
                path[dd] = match k.soa {
                    Some(soa) => soa.img[f.at - 1],
                    // SAFETY: `at` is past an entry of `k.entries` (the frame's placement).
                    None => unsafe { &*(f.at as *const Entry<B>).sub(1) }.img,
                };
            }
        };
        // A solution under the placements of depths `base..to`: their
        // subtrees are not dead.
        let soil = |frames: &mut [LeanFrame], to: usize| {
            for f in &mut frames[base..to] {
                f.clean = false;
            }
        };
        let mut resume = Resume::Start;
        let result: Result<(), Stop> = loop {
            let (st, fr) = (&mut st, &mut frames[..]);
            // The copy of the loop: AVX-512 or AVX2 with the index's `Soa`
            // (built only when the processor has AVX2 and the bit
            // instructions, `cpu::avx2`; its `avx512` only at the AVX-512
            // level, `cpu::avx512`), else the scalar one.
            macro_rules! go {
                ($t:expr, $memo:literal) => {
                    match k.soa {
                        // SAFETY: as above.
                        #[cfg(target_arch = "x86_64")]
                        Some(soa) if soa.avx512 => unsafe { run_avx512::<B, _, $memo>(&k, st, fr, $t, resume) },
                        // SAFETY: as above.
                        #[cfg(target_arch = "x86_64")]
                        Some(_) => unsafe { run_avx2::<B, _, $memo>(&k, st, fr, $t, resume) },
                        _ => run::<B, _, $memo>(&k, st, fr, $t, resume),
                    }
                };
            }
            let event = if dead.off {
                go!(&mut PairTable::none(), false)
            } else {
                match dead.table() {
                    Kernel::Pairs(mut t) => go!(&mut t, true),
                    Kernel::Words(mut t) => go!(&mut t, true),
                }
            };
            let d = st.d;
            match event {
                Event::Done => break Ok(()),
                Event::Last(img) => {
                    self.solutions += 1;
                    fill_path(&mut self.path, &frames, d);
                    self.path[d] = img;
                    soil(&mut frames, d);
                    if visit(&self.path[..=d]) == Flow::Stop {
                        break Err(Stop::Limit(StopReason::Visitor));
                    }
                    resume = Resume::Finish;
                    continue;
                }
                Event::Handover => {
                    fill_path(&mut self.path, &frames, d + 1);
                    self.sync(st.occ, st.avail, &[0; 64], st.n_left - 1, d + 1, st.nodes);
                    let before = self.solutions;
                    self.debruijn.lean_frames = std::mem::take(&mut frames);
                    self.debruijn.lean_tags = std::mem::take(&mut st.tags);
                    self.debruijn.dead = std::mem::take(&mut dead);
                    let r = self.node(visit);
                    frames = std::mem::take(&mut self.debruijn.lean_frames);
                    st.tags = std::mem::take(&mut self.debruijn.lean_tags);
                    dead = std::mem::take(&mut self.debruijn.dead);
                    st.nodes = self.nodes;
                    if self.solutions != before {
                        soil(&mut frames, d + 1);
                    }
                    if r.is_err() {
                        break r;
                    }
                    resume = Resume::Undo;
                }
                Event::Poll => resume = Resume::Start,
                Event::PollScan => resume = Resume::Scan,
            }
            // The poll, after a placement (`Handover`, `Poll`) or at the
            // multiple of the interval that a node's dead placements
            // passed (`PollScan`: the walker's count is that multiple
            // while it polls, as its `tick` wants).
            let poll_at = match event {
                Event::PollScan => Some(st.nodes & !POLL_MASK),
                _ => (st.nodes & POLL_MASK == 0).then_some(st.nodes),
            };
            if let Some(at) = poll_at {
                self.nodes = at;
                dead.add_hits(std::mem::take(&mut st.hits));
                dead.review(st.nodes);
                if let Err(stop) = self.tick() {
                    break Err(stop);
                }
            }
            if event == Event::Poll {
                st.d = d + 1;
                st.n_left -= 1;
            }
        };
        self.debruijn.lean_frames = frames;
        self.debruijn.lean_tags = std::mem::take(&mut st.tags);
        dead.add_hits(st.hits);
        self.debruijn.dead = dead;
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(st.occ == occ_entry && st.n_left == n_left_entry && st.d == base);
            self.sync(st.occ, st.avail, &[0; 64], st.n_left, base, st.nodes);
        }
        self.nodes = st.nodes;
        self.depth = base;
        result
    }
}
