//! The completion walker in a fixed sweep (`bottom-order=row|col|sweep`):
//! the empty cells at hand-over in scan's order
//! (rows along the shorter side) or across it (columns), or (`sweep`)
//! the one of those four sweeps, forwards or backwards, that meets the
//! cells cp filled earliest, so that every
//! cell placed has its two back sides (west and north in scan's frame)
//! filled, by cp or by the walker, as in a scan backtracker.
//!
//! A cell's candidates come from a list keyed by the colours of up to two
//! known sides (the walker-placed neighbours first, then the ones cp
//! filled or the border), filtered by a bit test in the cell's cp domain
//! at hand-over and by the tile being free: no word ANDs, no allocation
//! per step. A walker-placed neighbour beyond the two keyed sides (only
//! in sweeps that leave holes) is checked colour by colour.

use super::bottom::{Ctx, Walker};
use super::config::BottomOrder;
use super::filter::Core;
use super::model::{NONE, SLOT_SIDES, UNKNOWN};
use crate::edgematch::Color;

/// Lists of options keyed by known side colours (one per engine).
#[derive(Clone, Default)]
pub(crate) struct Lists {
    n_colors: usize,
    /// Options (`4 * tile + rotation`) grouped by bucket.
    opts: Vec<u32>,
    /// `start[b]..start[b + 1]`: bucket `b` in `opts`. Buckets: slot `q`
    /// (two sides) `q * C * C + ka * C + kb`; then one side `s`:
    /// `6 * C * C + s * C + k`; then every option.
    start: Vec<u32>,
    /// Colours of every option, `[N, E, S, W]`.
    colors: Vec<[Color; 4]>,
}

impl Lists {
    fn build(core: &Core) -> Lists {
        let m = &core.m;
        let nc = m.n_colors;
        let nt = m.rot_colors.len();
        let one = 6 * nc * nc;
        let all = one + 4 * nc;
        let mut count = vec![0u32; all + 2];
        let colors: Vec<[Color; 4]> = (0..4 * nt).map(|o| m.rot_colors[o / 4][o % 4]).collect();
        let buckets = |k: &[Color; 4], f: &mut dyn FnMut(usize)| {
            for (q, &(a, b)) in SLOT_SIDES.iter().enumerate() {
                f(q * nc * nc + k[a] as usize * nc + k[b] as usize);
            }
            for (s, &x) in k.iter().enumerate() {
                f(one + s * nc + x as usize);
            }
            f(all);
        };
        for k in &colors {
            buckets(k, &mut |b| count[b + 1] += 1);
        }
        for b in 0..all + 1 {
            count[b + 1] += count[b];
        }
        let start = count.clone();
        let mut opts = vec![0u32; count[all + 1] as usize];
        for (o, k) in colors.iter().enumerate() {
            buckets(k, &mut |b| {
                opts[count[b] as usize] = o as u32;
                count[b] += 1;
            });
        }
        Lists { n_colors: nc, opts, start, colors }
    }
}

/// How a walker cell finds its candidate list.
#[derive(Clone, Copy, Default)]
pub(crate) struct Key {
    /// Bucket of the colours 0 of the sources below.
    base: u32,
    /// Up to two sources: (`4 * walker index + side` of that cell facing
    /// this one in `Sweep::pc`, multiplier). Unused sources point at the
    /// zero colours after the last cell, with multiplier 0.
    src: [(u32, u32); 2],
    /// Extra walker-placed neighbours checked per candidate: range in
    /// `Sweep::extra`.
    extra: (u32, u32),
}

/// The sweep walker's per-walk tables.
#[derive(Clone, Default)]
pub(crate) struct Sweep {
    lists: Lists,
    keys: Vec<Key>,
    /// (walker index, its side facing this cell, this cell's side).
    extra: Vec<(u32, u8, u8)>,
    /// Tile used by the walker.
    used: Vec<bool>,
    /// Per depth: the list position and end, and the option placed.
    fr: Vec<Frame>,
    /// Per depth: the colours of the option placed, `[N, E, S, W]`; then
    /// zeros (the unused key sources).
    pc: Vec<Color>,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    pos: u32,
    end: u32,
    o: u32,
}

/// The empty cells of `core` in the sweep of `order` into `wk.cells`.
pub(super) fn order_cells(wk: &mut Walker, core: &Core, order: BottomOrder) {
    let m = &core.m;
    let so = &m.scan_order;
    // Scan's first row: the cells before the first one that is not a
    // neighbour of its predecessor.
    let width = (1..so.len()).find(|&i| !m.nbr[so[i] as usize].contains(&so[i - 1])).unwrap_or(so.len());
    // Scan's order read by columns.
    let by_cols = || (0..width).flat_map(move |x| so.iter().skip(x).step_by(width).copied());
    let empty = |c: &u32| core.st.tile_at[*c as usize] == NONE;
    wk.cells.clear();
    match order {
        BottomOrder::Col => wk.cells.extend(by_cols().filter(empty)),
        BottomOrder::Sweep => {
            // Of the four sweeps (rows or columns, forwards or backwards),
            // the one that meets the cells cp filled earliest.
            let n = so.len();
            let score = |cells: &mut dyn Iterator<Item = u32>| -> (usize, usize) {
                let (mut fwd, mut bwd) = (0, 0);
                for (i, c) in cells.enumerate() {
                    if !empty(&c) {
                        fwd += n - i;
                        bwd += i + 1;
                    }
                }
                (fwd, bwd)
            };
            let (rf, rb) = score(&mut so.iter().copied());
            let (cf, cb) = score(&mut by_cols());
            let best = rf.max(rb).max(cf).max(cb);
            if best == rf {
                wk.cells.extend(so.iter().copied().filter(empty));
            } else if best == rb {
                wk.cells.extend(so.iter().rev().copied().filter(empty));
            } else if best == cf {
                wk.cells.extend(by_cols().filter(empty));
            } else {
                let mut cells: Vec<u32> = by_cols().filter(empty).collect();
                cells.reverse();
                wk.cells.extend(cells);
            }
        }
        _ => wk.cells.extend(so.iter().copied().filter(empty)),
    }
}

/// Builds the keys of the cells in `wk.cells` (whose `index` is set).
fn build_keys(wk: &mut Walker, core: &Core) {
    let m = &core.m;
    let sw = &mut wk.sweep;
    if sw.lists.start.is_empty() {
        sw.lists = Lists::build(core);
    }
    let nc = sw.lists.n_colors as u32;
    let n = wk.cells.len();
    sw.keys.clear();
    sw.extra.clear();
    for (i, &c) in wk.cells.iter().enumerate() {
        let c = c as usize;
        // Known sides: walker-placed earlier neighbours, then fixed ones.
        let mut walker_sides = Vec::new();
        let mut fixed_sides = Vec::new();
        for s in 0..4 {
            let k = core.st.known[c][s];
            if k != UNKNOWN {
                fixed_sides.push((s, NONE, k));
            } else {
                let nb = m.nbr[c][s];
                let j = if nb == NONE { NONE } else { wk.index[nb as usize] };
                if j != NONE && (j as usize) < i {
                    walker_sides.push((s, j, 0));
                }
            }
        }
        let mut keyed: Vec<(usize, u32, Color)> = walker_sides.iter().chain(&fixed_sides).copied().take(2).collect();
        let lo = sw.extra.len() as u32;
        for &(s, j, _) in walker_sides.iter().skip(2) {
            sw.extra.push((j, ((s + 2) & 3) as u8, s as u8));
        }
        let extra = (lo, sw.extra.len() as u32);
        keyed.sort_by_key(|x| x.0);
        let mut key = Key { extra, ..Key::default() };
        let srcs: Vec<((usize, u32, Color), u32)> = match keyed.len() {
            2 => {
                let q = SLOT_SIDES.iter().position(|&(a, b)| a == keyed[0].0 && b == keyed[1].0);
                let q = q.unwrap_or_else(|| {
                    keyed.swap(0, 1);
                    SLOT_SIDES.iter().position(|&(a, b)| a == keyed[0].0 && b == keyed[1].0).expect("a slot")
                });
                key.base = q as u32 * nc * nc;
                vec![(keyed[0], nc), (keyed[1], 1)]
            }
            1 => {
                key.base = 6 * nc * nc + keyed[0].0 as u32 * nc;
                vec![(keyed[0], 1)]
            }
            _ => {
                key.base = 6 * nc * nc + 4 * nc;
                vec![]
            }
        };
        key.src = [(4 * n as u32, 0); 2];
        for (x, &((s, j, k), mul)) in srcs.iter().enumerate() {
            if j == NONE {
                key.base += k as u32 * mul;
            } else {
                key.src[x] = (4 * j + ((s + 2) & 3) as u32, mul);
            }
        }
        sw.keys.push(key);
    }
    sw.used.clear();
    sw.used.resize(m.rot_colors.len(), false);
    sw.fr.clear();
    sw.fr.resize(n, Frame::default());
    sw.pc.clear();
    sw.pc.resize(4 * (n + 1), 0);
}

/// `x[i]` without the bounds check in release builds; `i` is in bounds
/// by construction (the walker's tables are built together).
macro_rules! at {
    ($x:expr, $i:expr) => {{
        let i = $i;
        debug_assert!(i < $x.len());
        // SAFETY: in bounds, see above (checked in debug builds).
        unsafe { *$x.get_unchecked(i) }
    }};
}

/// `x[i] = v` without the bounds check in release builds (as [`at!`]).
macro_rules! set {
    ($x:expr, $i:expr, $v:expr) => {{
        let (i, v) = ($i, $v);
        debug_assert!(i < $x.len());
        // SAFETY: in bounds, see [`at!`] (checked in debug builds).
        unsafe { *$x.get_unchecked_mut(i) = v }
    }};
}

pub(super) fn walk_sweep(wk: &mut Walker, core: &mut Core, ctx: &mut Ctx) {
    build_keys(wk, core);
    let n = wk.cells.len();
    if n == 0 {
        return;
    }
    let w = wk.w;
    let mut sw = std::mem::take(&mut wk.sweep);
    let Sweep { lists, keys, extra, used, fr, pc } = &mut sw;
    let (opts, start, colors) = (&lists.opts[..], &lists.start[..], &lists.colors[..]);
    let cc = &wk.cc[..];
    // The bounds the unchecked accesses rely on, checked once.
    assert!(opts.iter().all(|&o| (o as usize) < colors.len() && (o as usize / 64) < w));
    assert!(used.len() * 4 == colors.len() && keys.len() == n && fr.len() == n && cc.len() >= n * w);
    assert!(keys.iter().all(|k| k.src.iter().all(|&(i, _)| (i as usize) < pc.len())));
    assert!(extra.iter().all(|&(j, _, _)| (j as usize) < n) && start.len() >= 2);
    // Every list lies inside `opts`: `pos < end <= opts.len()`.
    assert!(start.windows(2).all(|p| p[0] <= p[1]) && start.last().is_some_and(|&e| e as usize <= opts.len()));
    let nb = start.len() - 1;
    assert!(keys.iter().all(|k| {
        let top = k.src.iter().map(|&(_, mul)| (lists.n_colors - 1) * mul as usize).sum::<usize>();
        k.base as usize + top < nb
    }));
    // Opens the list of depth `d`.
    let open = |d: usize, pc: &[Color], fr: &mut [Frame]| {
        let key = at!(keys, d);
        let [(ia, ma), (ib, mb)] = key.src;
        let b = (key.base + at!(pc, ia as usize) as u32 * ma + at!(pc, ib as usize) as u32 * mb) as usize;
        set!(fr, d, Frame { pos: at!(start, b), end: at!(start, b + 1), o: 0 });
    };
    open(0, pc, fr);
    let mut d = 0;
    'walk: loop {
        let Frame { mut pos, end, .. } = at!(fr, d);
        let (lo, hi) = at!(keys, d).extra;
        let dom = d * w;
        let found = loop {
            if pos == end {
                // Back up.
                if d == 0 {
                    break 'walk;
                }
                d -= 1;
                set!(used, at!(fr, d).o as usize / 4, false);
                continue 'walk;
            }
            let o = at!(opts, pos as usize);
            pos += 1;
            if at!(cc, dom + o as usize / 64) >> (o % 64) & 1 != 0
                && !at!(used, o as usize / 4)
                && (lo == hi
                    || extra[lo as usize..hi as usize]
                        .iter()
                        .all(|&(j, sj, s)| pc[4 * j as usize + sj as usize] == colors[o as usize][s as usize]))
            {
                break o;
            }
        };
        set!(fr, d, Frame { pos, end, o: found });
        if !ctx.count() {
            break;
        }
        if d + 1 == n {
            for (i, f) in fr.iter().enumerate() {
                wk.placed[i] = (f.o / 4, (f.o % 4) as u8);
            }
            if !ctx.solution(wk, core) {
                break;
            }
            continue;
        }
        set!(used, found as usize / 4, true);
        let k = at!(colors, found as usize);
        for (s, &x) in k.iter().enumerate() {
            set!(pc, 4 * d + s, x);
        }
        d += 1;
        open(d, pc, fr);
    }
    wk.sweep = sw;
}
