//! EXPERIMENT: two walks of one subtree interleaved in one thread (lanes),
//! so that the dependent loads of one lane's counts overlap the other's.

use super::super::bits::Bits;
use super::super::cover::SIMD_PAD;
use super::super::hybrid::{Kind, Stop, Walker, POLL_MASK};
use super::super::schedule::Widen;
use super::choose::{choose_emch, choose_mch, Slots};
use super::HoleFrame;
use crate::search::{Flow, StopReason};

/// One lane: a depth-first walk of part of the subtree.
struct Lane<B> {
    occ: B,
    avail: u64,
    n_left: u32,
    d: usize,
    base: usize,
    f: HoleFrame,
    done: bool,
    buf: Vec<u32>,
    frames: Vec<HoleFrame>,
    path: Vec<u32>,
    nodes: u64,
}

impl<B: Bits> Walker<'_, B> {
    /// Whether the lanes can run here: every stage below is a hole stage.
    pub(super) fn lanes_apply(&self) -> bool {
        static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *ON.get_or_init(|| std::env::var_os("EMX_LANES").is_some())
            && (1..self.n_left).all(|n| matches!(self.s.stage_of[n as usize], Kind::Mch | Kind::Emch(_)))
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(super) unsafe fn hole_lanes_avx2<const WIDE: bool>(
        &mut self,
        visit: &mut super::super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        self.hole_lanes::<true, WIDE>(visit)
    }

    /// The two-lane loop (no triggers, one piece per group).
    #[inline(always)]
    pub(super) fn hole_lanes<const SIMD: bool, const WIDE: bool>(
        &mut self,
        visit: &mut super::super::hybrid::Visit<'_>,
    ) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        let ci = s.cover.as_ref().expect("MCH and EMCH stages have a cover index");
        let stride = s.stride + SIMD_PAD;
        let masks = &t.mask[..];
        let group_of = &t.group[..];
        let base0 = self.depth;
        let levels = base0 + self.n_left as usize;
        let (root_occ, root_avail, root_left) = (self.occ, self.avail as u64, self.n_left);
        let new_lane = || Lane {
            occ: root_occ,
            avail: root_avail,
            n_left: root_left,
            d: base0,
            base: base0,
            f: HoleFrame::default(),
            done: false,
            buf: vec![0u32; 2 * stride * levels],
            frames: vec![HoleFrame::default(); levels],
            path: {
                let mut p = vec![0u32; levels.max(self.path.len())];
                p[..base0].copy_from_slice(&self.path[..base0]);
                p
            },
            nodes: 0,
        };
        let (mut la, mut lb) = (new_lane(), new_lane());
        let single = std::env::var("EMX_LANES").as_deref() == Ok("1");
        macro_rules! get {
            ($v:expr, $i:expr) => {{
                let i = $i;
                debug_assert!(i < $v.len());
                unsafe { *$v.get_unchecked(i) }
            }};
        }
        macro_rules! choose {
            ($l:expr) => {{
                let l = &mut $l;
                let at = 2 * stride * l.d;
                let mut slots = Slots { buf: unsafe { l.buf.get_unchecked_mut(at..at + 2 * stride) }, stride, best: 0 };
                let n = match get!(s.stage_of, l.n_left as usize) {
                    Kind::Emch(_) => {
                        let widen_of = || match s.stage_of[l.n_left as usize] {
                            Kind::Emch(w) if WIDE => w,
                            _ => Widen::default(),
                        };
                        choose_emch::<B, SIMD>(t, ci, l.occ, l.avail, widen_of, &mut slots)
                    }
                    _ => choose_mch::<B, SIMD>(t, ci, l.occ, l.avail, &mut slots),
                };
                let next = (at + slots.best * stride) as u32;
                l.f = HoleFrame { next, end: next + n };
            }};
        }
        // The root's candidates, split between the lanes.
        choose!(la);
        {
            let (a, b) = (&mut la, &mut lb);
            let n = a.f.end - a.f.next;
            let mid = if single { a.f.end } else { a.f.next + n / 2 };
            let at = 2 * stride * base0;
            b.buf[at..at + (a.f.end - mid) as usize].copy_from_slice(&a.buf[mid as usize..a.f.end as usize]);
            b.f = HoleFrame { next: at as u32, end: (at as u32) + (a.f.end - mid) };
            a.f.end = mid;
        }
        let mut solutions = 0u64;
        let mut polled_at = 0u64;
        let mut stopped = false;
        // One node of lane `$i`: the next placement (backtracking as
        // needed), then the choice at the new node.
        macro_rules! step {
            ($l:ident) => {{
                let l = &mut $l;
                let mut descended = false;
                loop {
                    if l.f.next == l.f.end {
                        if l.d == l.base {
                            l.done = true;
                            break;
                        }
                        l.d -= 1;
                        l.f = get!(l.frames, l.d);
                        let k = get!(l.path, l.d) as usize;
                        let g = get!(group_of, k) as usize;
                        l.occ = l.occ.andnot(get!(masks, k));
                        l.n_left += 1;
                        l.avail |= 1 << g;
                        continue;
                    }
                    let k = get!(l.buf, l.f.next as usize) as usize;
                    l.f.next += 1;
                    let g = get!(group_of, k) as usize;
                    l.occ = l.occ.or(get!(masks, k));
                    l.avail ^= 1 << g;
                    l.n_left -= 1;
                    l.nodes += 1;
                    debug_assert!(l.d < l.path.len());
                    unsafe { *l.path.get_unchecked_mut(l.d) = k as u32 };
                    if l.n_left == 0 {
                        solutions += 1;
                        if visit(&l.path[..=l.d]) == Flow::Stop {
                            stopped = true;
                        }
                        l.occ = l.occ.andnot(get!(masks, k));
                        l.n_left += 1;
                        l.avail |= 1 << g;
                        continue;
                    }
                    debug_assert!(l.d < l.frames.len());
                    unsafe { *l.frames.get_unchecked_mut(l.d) = l.f };
                    l.d += 1;
                    descended = true;
                    break;
                }
                if descended {
                    choose!($l);
                }
            }};
        }
        loop {
            if !la.done {
                step!(la);
            }
            if !lb.done {
                step!(lb);
            }
            if la.done | lb.done {
                if la.done && !lb.done && !single {
                    steal(&mut la, &mut lb, masks, group_of, root_occ, root_avail, root_left, base0, stride);
                }
                if lb.done && !la.done && !single {
                    steal(&mut lb, &mut la, masks, group_of, root_occ, root_avail, root_left, base0, stride);
                }
            }
            if stopped {
                return self.lanes_end(&[la, lb], solutions, Err(Stop::Limit(StopReason::Visitor)));
            }
            if la.done && lb.done {
                break;
            }
            let total = self.nodes + la.nodes + lb.nodes;
            if total - polled_at > POLL_MASK {
                polled_at = total;
                let keep = self.nodes;
                self.nodes = total & !POLL_MASK;
                let r = self.tick();
                self.nodes = keep;
                if let Err(stop) = r {
                    return self.lanes_end(&[la, lb], solutions, Err(stop));
                }
            }
        }
        self.lanes_end(&[la, lb], solutions, Ok(()))
    }

    fn lanes_end(&mut self, lanes: &[Lane<B>; 2], solutions: u64, r: Result<(), Stop>) -> Result<(), Stop> {
        self.nodes += lanes[0].nodes + lanes[1].nodes;
        self.solutions += solutions;
        r
    }
}

/// Lane `x` (done) takes the upper half of the shallowest untried
/// candidates of lane `y`; `x` stays done when `y` has none.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn steal<B: Bits>(
    x: &mut Lane<B>,
    y: &mut Lane<B>,
    masks: &[B],
    group_of: &[u16],
    root_occ: B,
    root_avail: u64,
    root_left: u32,
    base0: usize,
    stride: usize,
) {
    for s in y.base..=y.d {
        let fr = if s == y.d { y.f } else { y.frames[s] };
        let rem = fr.end - fr.next;
        if rem == 0 {
            continue;
        }
        let take = rem.div_ceil(2);
        let from = fr.end - take;
        let at = 2 * stride * s;
        x.buf[at..at + take as usize].copy_from_slice(&y.buf[from as usize..fr.end as usize]);
        if s == y.d {
            y.f.end = from;
        } else {
            y.frames[s].end = from;
        }
        let (mut occ, mut avail) = (root_occ, root_avail);
        for j in base0..s {
            let k = y.path[j] as usize;
            occ = occ.or(masks[k]);
            avail ^= 1 << group_of[k];
            x.path[j] = k as u32;
        }
        x.occ = occ;
        x.avail = avail;
        x.n_left = root_left - (s - base0) as u32;
        x.base = s;
        x.d = s;
        x.f = HoleFrame { next: at as u32, end: at as u32 + take };
        x.done = false;
        return;
    }
}
