//! The walk below a subtree's root over the subtree's own image set: one
//! bit row per cell, a hole's fit count one AND and one population count
//! per 512 bits, the same holes, ties and image order as the hole kernel.

use super::{set_range, Frame, Root, Set, Universe, WORDS};
use crate::poly::filters::volume::regions_ok;
use crate::poly::model::bits::Bits;
use crate::poly::walk::{Stop, Walker, POLL_MASK};
use crate::search::{Flow, StopReason};

impl<B: Bits> Walker<'_, B> {
    /// Searches the subtree below `root` over its own image set; `Ok(false)`
    /// (nothing searched) when the set exceeds [`CAPACITY`].
    ///
    /// # Safety
    /// `u` came from [`Universe::new`] for these tables (so the processor
    /// has its parts); `path` holds `root.depth + root.n_left` entries.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vpopcntdq,avx512bitalg,gfni"
    )]
    pub(in crate::poly::stages::hole) unsafe fn universe_search<const TRIG: bool>(
        &mut self,
        u: &mut Universe,
        root: Root,
        nodes: &mut u64,
        path: &mut [u32],
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<bool, Stop> {
        if !u.build(root.occ, root.avail) {
            return Ok(false);
        }
        match (u.n <= 512, u.max_cells <= 6) {
            (true, true) => self.universe_walk::<TRIG, 8, 6>(u, root, nodes, path, visit),
            (true, false) => self.universe_walk::<TRIG, 8, 8>(u, root, nodes, path, visit),
            (false, true) => self.universe_walk::<TRIG, 16, 6>(u, root, nodes, path, visit),
            (false, false) => self.universe_walk::<TRIG, 16, 8>(u, root, nodes, path, visit),
        }
        .map(|()| true)
    }

    /// The search of [`Walker::universe_search`] once the set is built:
    /// sets of `W` words, pieces of at most `P` cells.
    #[inline(always)]
    unsafe fn universe_walk<const TRIG: bool, const W: usize, const P: usize>(
        &mut self,
        u: &mut Universe,
        root: Root,
        nodes: &mut u64,
        path: &mut [u32],
        visit: &mut crate::poly::walk::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        let parity = s.parity.as_ref();
        let volume = s.volume.as_ref();
        let pmin = if parity.is_some() { s.knobs.parity_trigger } else { None };
        let vmin = if volume.is_some() { s.knobs.volume_trigger } else { None };
        let image_parity: &[i32] = parity.map_or(&[], |p| &p.image_parity);
        let (pbits, poffset, pwidth, pwords) = parity.map_or((&[][..], 0, 0, 0), |p| p.table.parts());
        let levels = root.n_left as usize + 1;
        if u.frames.len() < levels {
            u.frames.resize(levels, Frame { live: [0; WORDS], cand: [0; WORDS], words: 0 });
        }
        assert!(path.len() >= root.depth + root.n_left as usize);
        let (mut occ, mut n_left) = (root.occ, root.n_left);
        let (mut pstate, mut prem, mut vstate) = root.triggers;
        let mut pdelta = [0usize; 64];
        let mut vdelta = [0usize; 64];
        for g in 0..t.n_groups {
            pdelta[g] = parity.map_or(0, |p| p.table.delta(g));
            vdelta[g] = volume.map_or(0, |v| v.table.delta(g));
        }
        let mut all = [0u64; WORDS];
        set_range(&mut all, 0, u.n);
        let mut placed = [0u32; 64];
        let u = &*u;
        let frames = u.frames.as_ptr() as *mut Frame;
        let (ids, masks, rows) = (&u.ids[..], &u.masks[..], &u.rows[..]);
        let group_of = &t.group[..];
        macro_rules! get {
            ($v:expr, $i:expr) => {{
                let i = $i;
                debug_assert!(i < $v.len());
                *$v.get_unchecked(i)
            }};
        }
        {
            let (c, n) = u.choose::<B, W>(t, &all, occ, get!(s.stages.kinds(), n_left as usize));
            if n == 0 {
                return Ok(());
            }
            set_frame::<W>(&mut *frames, &all, &rows[c]);
        }
        let mut nd = *nodes;
        let mut d = 0usize;
        // Takes set image `j` (image `k` of group `g`) off the board.
        macro_rules! unplace {
            ($j:expr, $k:expr, $g:expr) => {{
                let (j, k, g) = ($j, $k, $g);
                occ ^= get!(masks, j);
                n_left += 1;
                if parity.is_some() {
                    pstate += get!(pdelta, g);
                    prem += get!(image_parity, k) as i64;
                }
                vstate += get!(vdelta, g);
            }};
        }
        let result: Result<(), Stop> = 'search: loop {
            let f = &mut *frames.add(d);
            if f.words == 0 {
                if d == 0 {
                    break 'search Ok(());
                }
                d -= 1;
                let j = placed[d] as usize;
                let k = get!(ids, j) as usize;
                unplace!(j, k, get!(group_of, k) as usize);
                continue;
            }
            let w = f.words.trailing_zeros() as usize;
            let bits = *f.cand.get_unchecked(w);
            let j = w * 64 + bits.trailing_zeros() as usize;
            let rest = bits & (bits - 1);
            *f.cand.get_unchecked_mut(w) = rest;
            if rest == 0 {
                f.words &= f.words - 1;
            }
            let k = get!(ids, j) as usize;
            let g = get!(group_of, k) as usize;
            occ |= get!(masks, j);
            n_left -= 1;
            nd += 1;
            if parity.is_some() {
                pstate -= get!(pdelta, g);
                prem -= get!(image_parity, k) as i64;
            }
            vstate -= get!(vdelta, g);
            *path.get_unchecked_mut(root.depth + d) = k as u32;
            let mut descend = true;
            if n_left == 0 {
                self.solutions += 1;
                if visit(&path[..=root.depth + d]) == Flow::Stop {
                    self.nodes = nd;
                    break 'search Err(Stop::Limit(StopReason::Visitor));
                }
                descend = false;
            } else if TRIG {
                if let Some(min) = pmin {
                    let v = (prem + poffset) as usize;
                    descend =
                        n_left < min || (v < pwidth && get!(pbits, pstate * pwords + v / 64) >> (v % 64) & 1 != 0);
                }
                if let (true, Some(min), Some(v)) = (descend, vmin, volume) {
                    if n_left >= min {
                        let free = B::from_words(!occ, 0).and(t.padding.not());
                        descend = regions_ok(free, free.count(), &t.neighbours, &v.table, vstate);
                    }
                }
            }
            if nd & POLL_MASK == 0 {
                self.nodes = nd;
                if let Err(stop) = self.tick() {
                    break 'search Err(stop);
                }
            }
            if descend {
                let live = u.without::<W, P>(&f.live, j, g);
                let (c, n) = u.choose::<B, W>(t, &live, occ, get!(s.stages.kinds(), n_left as usize));
                if n > 0 {
                    placed[d] = j as u32;
                    d += 1;
                    set_frame::<W>(&mut *frames.add(d), &live, rows.get_unchecked(c));
                    continue;
                }
            }
            unplace!(j, k, g);
        };
        *nodes = nd;
        result
    }
}

/// A depth's frame: images `live`, candidates those of them in `row`.
#[inline(always)]
fn set_frame<const W: usize>(f: &mut Frame, live: &Set, row: &Set) {
    f.live[..W].copy_from_slice(&live[..W]);
    let mut words = 0;
    for w in 0..W {
        f.cand[w] = live[w] & row[w];
        words |= ((f.cand[w] != 0) as u32) << w;
    }
    f.words = words;
}
