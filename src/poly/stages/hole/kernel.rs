//! The iterative search loop of the MCH and EMCH stages (when every branch
//! is searched): an explicit stack instead of recursion, the search state
//! (occupancy, remaining pieces, parity and volume states) in locals, the
//! triggers inlined, and the fit counts of the holes written out as they
//! are counted, so the chosen hole's images need no second pass.
//!
//! Each depth owns two candidate slots: a hole is counted into the slot
//! that does not hold the best list so far, and the slots swap roles when
//! it wins. A count stops early once it reaches the best so far (the list
//! is then incomplete, but it lost). The holes chosen, their tie-breaking
//! and so the nodes are exactly those of [`crate::poly::stages::hole::mch::candidates`] and
//! [`crate::poly::stages::hole::emch::candidates`].
//!
//! The counts and the choice of a hole are in `choose.rs`, the AVX2 counts
//! in `simd.rs`; this file holds the loop.

use crate::poly::filters::volume::regions_ok;
use crate::poly::model::bits::Bits;
use crate::poly::plan::schedule::{Kind, Widen};
use crate::poly::stages::hole::choose::{choose_emch, choose_mch, Slots};
use crate::poly::stages::hole::cover::{CoverIndex, SIMD_PAD};
#[cfg(target_arch = "x86_64")]
use crate::poly::stages::hole::universe;
use crate::poly::stages::hole::HoleFrame;
use crate::poly::walk::{take_group, Stop, Walker, POLL_MASK};
use crate::search::{Flow, StopReason};

impl<B: Bits> Walker<'_, B> {
    /// The MCH / EMCH loop, entered at a node with pieces left, triggers
    /// checked and an MCH or EMCH stage; hands over to [`Walker::node`] when
    /// the schedule reaches another engine. Groups must be at most 64.
    /// `MULTI`: some group has copies (or rows excluded by a DLX branch),
    /// so remaining counts are kept per group.
    pub(in crate::poly) fn hole_kernel<const TRIG: bool, const MULTI: bool>(
        &mut self,
        ci: &CoverIndex<B>,
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        #[cfg(target_arch = "x86_64")]
        if ci.has_simd() {
            let wide = self.s.stages.kinds().iter().any(|k| matches!(k, Kind::Emch(w) if w.levels > 0));
            // SAFETY: the index has its AVX2 arrays only when the processor
            // has AVX2.
            return unsafe {
                if wide {
                    self.hole_loop_avx2::<TRIG, MULTI, true>(ci, visit)
                } else {
                    self.hole_loop_avx2::<TRIG, MULTI, false>(ci, visit)
                }
            };
        }
        self.hole_loop::<TRIG, MULTI, false, true>(ci, visit)
    }

    /// [`Walker::hole_loop`] compiled for AVX2 (and the bit instructions
    /// that come with it), with the AVX2 counts. `WIDE`: some EMCH stage
    /// is widened (a copy without the widening keeps plain EMCH's count
    /// loop free of the widening's registers and tests, as tight as if
    /// there were no widening).
    ///
    /// # Safety
    /// The processor has AVX2, BMI1, BMI2, POPCNT and LZCNT, and the cover
    /// index has its AVX2 arrays.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    unsafe fn hole_loop_avx2<const TRIG: bool, const MULTI: bool, const WIDE: bool>(
        &mut self,
        ci: &CoverIndex<B>,
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        self.hole_loop::<TRIG, MULTI, true, WIDE>(ci, visit)
    }

    /// The loop itself; `SIMD`: count with AVX2 (only from
    /// [`Walker::hole_loop_avx2`]); without `WIDE`, every EMCH stage is
    /// plain.
    #[inline(always)]
    fn hole_loop<const TRIG: bool, const MULTI: bool, const SIMD: bool, const WIDE: bool>(
        &mut self,
        ci: &CoverIndex<B>,
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        // Room for a block of 4 written at the end of a list.
        let stride = s.stride + SIMD_PAD;
        let masks = &t.mask[..];
        let group_of = &t.group[..];
        let is_hole_stage = |n: u32| matches!(s.stages.kinds()[n as usize], Kind::Mch | Kind::Emch(_));
        let handover = (1..self.n_left).rev().find(|&n| !is_hole_stage(n)).unwrap_or(0);
        let parity = s.parity.as_ref();
        let volume = s.volume.as_ref();
        let pmin = if parity.is_some() { s.knobs.parity_trigger } else { None };
        let vmin = if volume.is_some() { s.knobs.volume_trigger } else { None };
        let base = self.depth;
        // Depths `base..base + n_left` (absolute, so that a kernel entered
        // again below a hand-over uses the depths past ours).
        let levels = base + self.n_left as usize;
        let mut buf = std::mem::take(&mut self.hole.buf);
        if buf.len() < 2 * stride * levels {
            buf.resize(2 * stride * levels, 0);
        }
        let mut frames = std::mem::take(&mut self.hole.frames);
        if frames.len() < levels {
            frames.resize(levels, HoleFrame::default());
        }
        assert!(buf.len() <= u32::MAX as usize, "candidate offsets fit in 32 bits");
        let mut occ = self.occ;
        let mut avail = self.avail as u64;
        let (mut left, lo) = if MULTI { self.group_arrays() } else { ([0; 64], [0; 64]) };
        let mut n_left = self.n_left;
        let mut nodes = self.nodes;
        let (mut pstate, mut prem, mut vstate) = (self.pstate, self.prem, self.vstate);
        // The trigger tables' state changes per group, read once here
        // (zero without the table).
        let mut pdelta = [0usize; 64];
        let mut vdelta = [0usize; 64];
        for g in 0..t.n_groups.min(64) {
            pdelta[g] = parity.map_or(0, |p| p.table.delta(g));
            vdelta[g] = volume.map_or(0, |v| v.table.delta(g));
        }
        let image_parity: &[i32] = parity.map_or(&[], |p| &p.image_parity);
        // The parity table in locals (the lookup runs at every node).
        let (pbits, poffset, pwidth, pwords) = parity.map_or((&[][..], 0, 0, 0), |p| p.table.parts());
        let mut path = std::mem::take(&mut self.path);
        // The unchecked reads below rely on these: image ids (from the cover
        // lists and the path) index `masks`, `group_of` and `image_parity`;
        // groups are below 64; depths below `levels`; candidate offsets
        // below `buf.len()` (a frame's `end` is its slot's start plus a
        // count of at most `stride`).
        assert!(t.n_groups <= 64 && group_of.len() == masks.len());
        assert!(image_parity.is_empty() || image_parity.len() == masks.len());
        assert!(path.len() >= levels && frames.len() >= levels && s.stages.kinds().len() > n_left as usize);
        // Reads `$v[$i]` without a bounds check (see the asserts above).
        macro_rules! get {
            ($v:expr, $i:expr) => {{
                let i = $i;
                debug_assert!(i < $v.len());
                // SAFETY: in bounds by the asserts above and the loop's invariants.
                unsafe { *$v.get_unchecked(i) }
            }};
        }
        #[cfg(debug_assertions)]
        let (occ_entry, n_left_entry) = (self.occ, self.n_left);
        // Depth `d` uses `frames[d]` (while it has a child) and the two slots at `buf[2 * stride * d..]`.
        // Takes image `k` of group `g` off the board (the inverse of the
        // placement below).
        macro_rules! unplace {
            ($k:expr, $g:expr) => {{
                let (k, g) = ($k, $g);
                occ = occ.andnot(get!(masks, k));
                n_left += 1;
                if MULTI {
                    left[g] += 1;
                }
                avail |= 1 << g;
                if parity.is_some() {
                    pstate += get!(pdelta, g);
                    prem += get!(image_parity, k) as i64;
                }
                vstate += get!(vdelta, g);
            }};
        }
        // The subtrees below `bottom` pieces left (or fewer, where a set
        // exceeded `universe::CAPACITY` above) are searched over their
        // own image sets (`universe`) where every stage down there is MCH
        // or EMCH and groups have no copies (and `Universe::new` says
        // the processor and the pieces allow it).
        #[cfg(target_arch = "x86_64")]
        let bottom = {
            let n = universe::SWITCH;
            let fits = !MULTI && n < n_left && (1..=n).all(is_hole_stage);
            if fits && self.hole.universe.is_none() {
                self.hole.universe = Some(universe::Universe::new(t));
            }
            // (0: never, a placement that descends leaves a piece.)
            if fits && matches!(self.hole.universe, Some(Some(_))) {
                n
            } else {
                0
            }
        };
        let mut d = base;
        // The frame of depth `d`, kept here while `d` is the deepest depth;
        // `frames[d]` holds it only while a child is searched.
        let mut f: HoleFrame;
        let result: Result<(), Stop> = 'search: loop {
            // A node with pieces left in an MCH or EMCH stage.
            {
                let at = 2 * stride * d;
                let mut slots = Slots { buf: &mut buf[at..at + 2 * stride], stride, best: 0 };
                let n = match get!(s.stages.kinds(), n_left as usize) {
                    Kind::Emch(_) => {
                        let widen_of = || match get!(s.stages.kinds(), n_left as usize) {
                            Kind::Emch(w) if WIDE => w,
                            _ => Widen::default(),
                        };
                        choose_emch::<B, SIMD>(t, ci, occ, avail, widen_of, &mut slots)
                    }
                    _ => choose_mch::<B, SIMD>(t, ci, occ, avail, &mut slots),
                };
                let next = (at + slots.best * stride) as u32;
                f = HoleFrame { next, end: next + n };
            }
            loop {
                if f.next == f.end {
                    // This node is done: undo the parent's placement.
                    if d == base {
                        break 'search Ok(());
                    }
                    d -= 1;
                    f = get!(frames, d);
                    let k = get!(path, d) as usize;
                    unplace!(k, get!(group_of, k) as usize);
                    continue;
                }
                let k = get!(buf, f.next as usize) as usize;
                f.next += 1;
                let g = get!(group_of, k) as usize;
                if MULTI && (k as u32) < lo[g] {
                    continue;
                }
                // Place image `k`.
                occ = occ.or(get!(masks, k));
                take_group::<MULTI>(&mut left, &mut avail, g);
                n_left -= 1;
                nodes += 1;
                if parity.is_some() {
                    pstate -= get!(pdelta, g);
                    prem -= get!(image_parity, k) as i64;
                }
                vstate -= get!(vdelta, g);
                debug_assert!(d < path.len());
                // SAFETY: `d < levels <= path.len()`.
                unsafe { *path.get_unchecked_mut(d) = k as u32 };
                let mut descend = true;
                if n_left == 0 {
                    self.solutions += 1;
                    if visit(&path[..=d]) == Flow::Stop {
                        self.nodes = nodes;
                        break 'search Err(Stop::Limit(StopReason::Visitor));
                    }
                    descend = false;
                } else {
                    if TRIG {
                        if let Some(min) = pmin {
                            // `p.table.achievable(pstate, prem)`, inlined.
                            let v = (prem + poffset) as usize;
                            descend = n_left < min
                                || (v < pwidth && get!(pbits, pstate * pwords + v / 64) >> (v % 64) & 1 != 0);
                        }
                        if let (true, Some(min), Some(v)) = (descend, vmin, volume) {
                            if n_left >= min {
                                let free = occ.not();
                                descend = regions_ok(free, free.count(), &t.neighbours, &v.table, vstate);
                            }
                        }
                    }
                    #[cfg(target_arch = "x86_64")]
                    if descend && n_left <= bottom {
                        let mut u = self.hole.universe.take().flatten().expect("the set search is ready");
                        let root = universe::Root {
                            occ: occ.low64(),
                            avail,
                            n_left,
                            depth: d + 1,
                            triggers: (pstate, prem, vstate),
                        };
                        // SAFETY: `u` is `Universe::new`'s, and the path
                        // holds `levels` entries.
                        let r = unsafe { self.universe_search::<TRIG>(&mut u, root, &mut nodes, &mut path, visit) };
                        self.hole.universe = Some(Some(u));
                        match r {
                            Ok(searched) => descend = !searched,
                            Err(e) => break 'search Err(e),
                        }
                    }
                    if descend && n_left == handover {
                        self.path = std::mem::take(&mut path);
                        self.store::<MULTI>(occ, avail, &left, n_left, d + 1, nodes, (pstate, prem, vstate));
                        self.hole.buf = std::mem::take(&mut buf);
                        self.hole.frames = std::mem::take(&mut frames);
                        let r = self.node(visit);
                        buf = std::mem::take(&mut self.hole.buf);
                        frames = std::mem::take(&mut self.hole.frames);
                        path = std::mem::take(&mut self.path);
                        nodes = self.nodes;
                        descend = false;
                        if r.is_err() {
                            break 'search r;
                        }
                    }
                }
                if nodes & POLL_MASK == 0 {
                    self.nodes = nodes;
                    if let Err(stop) = self.tick() {
                        break 'search Err(stop);
                    }
                }
                if descend {
                    debug_assert!(d < frames.len());
                    // SAFETY: `d < levels <= frames.len()`.
                    unsafe { *frames.get_unchecked_mut(d) = f };
                    d += 1;
                    continue 'search;
                }
                // Undo a leaf placement.
                unplace!(k, g);
            }
        };
        self.path = path;
        self.hole.buf = buf;
        self.hole.frames = frames;
        // On an early stop the walker is abandoned (a stopped search is
        // over): only the counters matter. On completion the state is as on
        // entry.
        if result.is_ok() {
            #[cfg(debug_assertions)]
            assert!(occ == occ_entry && n_left == n_left_entry && d == base);
            self.store::<MULTI>(occ, avail, &left, n_left, base, nodes, (pstate, prem, vstate));
        }
        self.nodes = nodes;
        self.depth = base;
        result
    }

    /// Writes the loop's local state back to the walker.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store<const MULTI: bool>(
        &mut self,
        occ: B,
        avail: u64,
        left: &[u32; 64],
        n_left: u32,
        depth: usize,
        nodes: u64,
        (pstate, prem, vstate): (usize, i64, usize),
    ) {
        self.occ = occ;
        self.avail = avail as u128;
        // Without copies every group has one piece: its bit says it.
        for (g, l) in self.left.iter_mut().enumerate() {
            *l = if MULTI { left[g] } else { (avail >> g & 1) as u32 };
        }
        self.n_left = n_left;
        self.depth = depth;
        self.nodes = nodes;
        (self.pstate, self.prem, self.vstate) = (pstate, prem, vstate);
    }
}
