//! The de Bruijn loop for every case the lean loop does not take
//! (backtrack triggers, identical pieces, rows excluded by a DLX branch,
//! boxes that are not rows): iterative and allocation-free, with the cache
//! of dead states where the state is the occupancy and the groups left.

use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::Kind;
use crate::poly::stages::debruijn::{cold_path, Frame, RootIndex, MEMO_MIN};
use crate::poly::walk::{take_group, Stop, Walker};
use crate::search::{Flow, StopReason};

impl<B: Bits> Walker<'_, B> {
    /// de Bruijn's algorithm from this node down to the leaves or to the
    /// next stage of the schedule, every branch searched. Needs at most 64
    /// piece groups and a [`RootIndex`]. `TRIG`: backtrack triggers are on;
    /// `MULTI`: some group has copies (counts instead of one bit per group)
    /// or a DLX branch above excluded images (`lo`).
    ///
    /// The last piece is placed by looking the empty cells up among the
    /// images instead of scanning the hole's lists.
    pub(in crate::poly) fn debruijn_kernel<const TRIG: bool, const MULTI: bool>(
        &mut self,
        idx: &RootIndex<B>,
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        if let Some(rows) = Self::lean_rows(idx).filter(|_| !TRIG && !MULTI) {
            return self.debruijn_lean(idx, rows, visit);
        }
        // Dead states are cached only when the state is (occupancy,
        // available groups): no copies, no excluded rows.
        if !MULTI && !self.debruijn.dead.off {
            self.debruijn_loop::<TRIG, MULTI, true>(idx, visit)
        } else {
            self.debruijn_loop::<TRIG, MULTI, false>(idx, visit)
        }
    }

    /// [`Self::debruijn_kernel`], `MEMO`: with the cache of dead states.
    fn debruijn_loop<const TRIG: bool, const MULTI: bool, const MEMO: bool>(
        &mut self,
        idx: &RootIndex<B>,
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let entries = &idx.entries[..];
        let gstart = &idx.gstart[..];
        let groups = &idx.groups[..];
        let g1 = idx.n_groups + 1;
        let group_of = &s.tables.group[..];
        let halo = &idx.halo[..];
        let rows = idx.rows;
        // Copies of the index's scalars: locals stay put across the calls
        // in the loop, fields behind `idx` are read again after each.
        let (width, prune_single) = (idx.width, idx.prune_single);
        // The kernel runs while de Bruijn is the stage; `handover` is the
        // remaining-piece count at which the next stage takes over (0: none).
        let handover = (1..self.n_left).rev().find(|&n| s.stages.kinds()[n as usize] != Kind::DeBruijn).unwrap_or(0);
        let base = self.depth;
        let mut d = base;
        let mut occ = self.occ;
        let mut avail = self.avail as u64;
        let (mut left, lo) = if MULTI { self.group_arrays() } else { ([0; 64], [0; 64]) };
        let mut n_left = self.n_left;
        let mut nodes = self.nodes;
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        let mut frames = std::mem::take(&mut self.debruijn.frames);
        let mut dead = std::mem::take(&mut self.debruijn.dead);
        debug_assert!(frames.len() > base + n_left as usize);
        // SAFETY (all unchecked accesses below): `kg + g + 1 < gstart.len()`
        // for a key `kg / g1 < groups.len()` and a group `g < n_groups`;
        // `cur < end <= entries.len()` by the index invariant; depths stay
        // below `base + n_left <= frames.len()`.
        let (mut kg, mut gs, mut g, mut cur, mut end);
        // The path of placements below `base` is in `frames` (entry
        // `cur - 1` of each depth); `self.path` is filled for reports.
        let fill_path = |path: &mut [u32], frames: &[Frame], to: usize| {
            for (dd, f) in frames.iter().enumerate().take(to).skip(base) {
                path[dd] = unsafe { entries.get_unchecked(f.cur as usize - 1) }.img;
            }
        };
        let result: Result<(), Stop> = 'search: loop {
            // A node with pieces left.
            if n_left == 1 {
                // The empty cells must be exactly an image of the last piece.
                if let Some(k) = idx.last.find(&occ.not()) {
                    let gk = group_of[k as usize] as usize;
                    let ok = if MULTI { left[gk] > 0 && k >= lo[gk] } else { avail >> gk & 1 != 0 };
                    if ok {
                        cold_path();
                        nodes += 1;
                        self.solutions += 1;
                        fill_path(&mut self.path, &frames, d);
                        self.path[d] = k;
                        if visit(&self.path[..=d]) == Flow::Stop {
                            break 'search Err(Stop::Limit(StopReason::Visitor));
                        }
                    }
                }
                (gs, kg, g, cur, end) = (0, 0, 0, 0, 0);
            } else {
                let hole = occ.not().lowest().expect("free cells remain while pieces do");
                let key = (hole << width) | occ.window_after(hole, width) as usize;
                gs = avail & unsafe { *groups.get_unchecked(key) };
                kg = key * g1;
                (g, cur, end) = (0, 0, 0);
            }
            loop {
                loop {
                    while cur < end {
                        let e = unsafe { entries.get_unchecked(cur) };
                        cur += 1;
                        if (MULTI && e.img < lo[g as usize]) || !e.mask.disjoint(&occ) {
                            continue;
                        }
                        let gu = g as usize;
                        occ = occ.or(e.mask);
                        take_group::<MULTI>(&mut left, &mut avail, gu);
                        n_left -= 1;
                        nodes += 1;
                        if prune_single && n_left > 1 {
                            let free = occ.not();
                            let h = unsafe { *halo.get_unchecked(e.img as usize) }.and(free);
                            let dead = if let Some(rows) = &rows {
                                !h.andnot(rows.with_free_neighbour(free)).is_zero()
                            } else {
                                let mut h = h;
                                let mut dead = false;
                                while let Some(c) = h.pop_lowest() {
                                    if s.tables.neighbours[c].and(free).is_zero() {
                                        dead = true;
                                        break;
                                    }
                                }
                                dead
                            };
                            if dead {
                                occ = occ.andnot(e.mask);
                                n_left += 1;
                                if MULTI {
                                    left[gu] += 1;
                                }
                                avail |= 1 << g;
                                continue;
                            }
                        }
                        if MEMO && n_left >= MEMO_MIN && dead.contains(&occ, avail) {
                            occ = occ.andnot(e.mask);
                            n_left += 1;
                            avail |= 1 << g;
                            continue;
                        }
                        let f = Frame { gs, kg: kg as u32, g, cur: cur as u32, sols: self.solutions };
                        unsafe { *frames.get_unchecked_mut(d) = f };
                        // The common case first: an inner node, no triggers,
                        // no hand-over, no poll.
                        if !TRIG && n_left != 0 && n_left != handover && nodes & crate::poly::walk::POLL_MASK != 0 {
                            d += 1;
                            continue 'search;
                        }
                        let mut descend = true;
                        if n_left == 0 {
                            cold_path();
                            self.solutions += 1;
                            fill_path(&mut self.path, &frames, d + 1);
                            if visit(&self.path[..=d]) == Flow::Stop {
                                break 'search Err(Stop::Limit(StopReason::Visitor));
                            }
                            descend = false;
                        } else if TRIG || n_left == handover {
                            if !TRIG {
                                cold_path();
                            }
                            // The parity and volume states are kept only when
                            // triggers read them (bit-field stages use no filters).
                            self.sync(occ, avail, &left, n_left, d + 1, nodes);
                            if TRIG {
                                self.constraints_place(e.img);
                                descend = self.triggers_ok();
                            }
                            if descend && n_left == handover {
                                fill_path(&mut self.path, &frames, d + 1);
                                // A later de Bruijn stage uses the depths
                                // below ours of the same stack.
                                self.debruijn.frames = std::mem::take(&mut frames);
                                self.debruijn.dead = std::mem::take(&mut dead);
                                let r = self.node(visit);
                                frames = std::mem::take(&mut self.debruijn.frames);
                                dead = std::mem::take(&mut self.debruijn.dead);
                                nodes = self.nodes;
                                descend = false;
                                if r.is_err() {
                                    break 'search r;
                                }
                            }
                            if TRIG && !descend {
                                self.constraints_unplace(e.img);
                            }
                        }
                        if nodes & crate::poly::walk::POLL_MASK == 0 {
                            cold_path();
                            self.nodes = nodes;
                            if MEMO {
                                dead.review(nodes);
                            }
                            if let Err(stop) = self.tick() {
                                break 'search Err(stop);
                            }
                        }
                        if descend {
                            d += 1;
                            continue 'search;
                        }
                        // Undo a leaf placement.
                        occ = occ.andnot(e.mask);
                        n_left += 1;
                        if MULTI {
                            left[gu] += 1;
                        }
                        avail |= 1 << g;
                    }
                    if gs == 0 {
                        break;
                    }
                    g = gs.trailing_zeros();
                    gs &= gs - 1;
                    unsafe {
                        cur = *gstart.get_unchecked(kg + g as usize) as usize;
                        end = *gstart.get_unchecked(kg + g as usize + 1) as usize;
                    }
                }
                // This node is done: back to the parent's list.
                if d == base {
                    cold_path();
                    break 'search Ok(());
                }
                d -= 1;
                let f = unsafe { *frames.get_unchecked(d) };
                if MEMO && n_left >= MEMO_MIN && self.solutions == f.sols {
                    dead.insert(occ, avail);
                }
                (gs, kg, g, cur) = (f.gs, f.kg as usize, f.g, f.cur as usize);
                end = unsafe { *gstart.get_unchecked(kg + g as usize + 1) } as usize;
                let e = unsafe { entries.get_unchecked(cur - 1) };
                occ = occ.andnot(e.mask);
                n_left += 1;
                if MULTI {
                    left[g as usize] += 1;
                }
                avail |= 1 << g;
                if TRIG {
                    self.constraints_unplace(e.img);
                }
            }
        };
        // On an early stop the walker is abandoned (a stopped search is
        // over): only the counters matter. On completion the state is as on
        // entry.
        self.debruijn.frames = frames;
        self.debruijn.dead = dead;
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(occ == occ_entry && n_left == n_left_entry && d == base);
            self.sync(occ, avail, &left, n_left, base, nodes);
        }
        self.nodes = nodes;
        self.depth = base;
        result
    }
}
