//! The hybrid search: DLX (with an ordering heuristic) while many pieces
//! remain, then the bit-field engines (MCH, EMCH, de Bruijn) as the
//! schedule says, with the parity and volume backtrack triggers and the
//! per-step image filters.
//!
//! The occupancy mask, remaining counts and trigger states are kept up to
//! date in every stage, so when DLX hands over nothing has to be rebuilt:
//! the bit-field engines read the occupancy DLX leaves behind and their
//! static tables (Busche's "morph" of the DLX data into the bit model).
//! Nothing is allocated in the search loop: candidates go to a per-depth
//! slice of one buffer.

use super::bdlx::LiveSource;
use super::bits::Bits;
use super::cover::CoverIndex;
use super::debruijn::{Entry, Frame, RootIndex};
use super::hole_kernel::HoleFrame;
use super::memo::DeadStates;
use super::model::Images;
use super::parity::ParityTable;
use super::sample::Rng;
use super::schedule::{Schedule, Stage};
use super::tables::Tables;
use super::volume::{regions_ok, VolumeTable};
use super::{bdlx, debruijn, emch, mch};

/// Window of de Bruijn's root index (bits after the hole).
const BRUIJN_WINDOW: u32 = 7;
use crate::dlx::{Heuristic, Matrix};
use crate::ir::{Problem, ProblemBuilder};
use crate::search::{Flow, Limits, StopReason};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Constraint settings of a search. Each threshold is the least number of
/// remaining pieces at which the constraint is applied (Busche's table
/// columns); `None` switches it off.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Knobs {
    /// Parity backtrack trigger.
    pub parity_trigger: Option<u32>,
    /// Volume backtrack trigger.
    pub volume_trigger: Option<u32>,
    /// Parity image filter, re-applied at each DLX step.
    pub parity_filter: Option<u32>,
    /// Volume image filter, re-applied at each DLX step.
    pub volume_filter: Option<u32>,
    /// Group placed first, whatever the engine.
    pub force_first: Option<u16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Dlx(usize),
    Mch,
    Emch,
    DeBruijn,
    Bdlx,
}

/// Everything a search reads and never changes, shared by threads.
pub struct Shared<B> {
    /// The images searched (after the one-shot filters).
    pub images: Images,
    /// Bit-field tables of `images`.
    pub tables: Tables<B>,
    pub(super) matrix: Option<Matrix>,
    /// de Bruijn's root lists by window pattern (when a stage uses it).
    pub(super) bruijn: Option<RootIndex<B>>,
    /// The images covering each cell by neighbour occupancy (when an MCH
    /// or EMCH stage runs).
    pub(super) cover: Option<CoverIndex<B>>,
    /// The images by group for bdlx's first live list (when a stage uses it).
    pub(super) live: Option<LiveSource<B>>,
    pub(super) heuristics: Vec<Heuristic>,
    pub(super) keys: Vec<Vec<f64>>,
    pub(super) stage_of: Vec<Kind>,
    pub(super) parity: Option<ParityTable>,
    pub(super) volume: Option<VolumeTable>,
    pub(super) knobs: Knobs,
    pub(super) has_triggers: bool,
    /// Some group has identical copies.
    multi: bool,
    pub(super) stride: usize,
}

/// The exact-cover problem of an image set: cell bits are items
/// `0..n_cells`, group `g` is item `n_cells + g` with its multiplicity;
/// option `k` is image `k`.
pub fn image_problem(images: &Images) -> Problem {
    let mut b = ProblemBuilder::new("images");
    for c in 0..images.n_cells {
        b.primary(format!("c{c}"));
    }
    let groups: Vec<u32> = images.groups.iter().map(|g| b.primary_with_multiplicity(g.name.clone(), g.count)).collect();
    for k in 0..images.len() {
        let g = groups[images.group[k] as usize];
        b.option_items(std::iter::once(g).chain(images.cells[k].iter().copied()));
    }
    b.build(None).expect("image problems are well formed")
}

impl<B: Bits> Shared<B> {
    /// Prepares a search of `images` under `schedule`.
    pub fn new(images: Images, schedule: &Schedule, knobs: Knobs) -> Result<Self, String> {
        let tables = Tables::<B>::new(&images);
        let n_pieces = images.n_pieces();
        let mut heuristics: Vec<Heuristic> = Vec::new();
        let mut stage_of = Vec::with_capacity(n_pieces as usize + 1);
        for n in 0..=n_pieces {
            stage_of.push(match schedule.stage_for(n.max(1)) {
                Stage::Dlx(h) => {
                    let idx = heuristics.iter().position(|x| x == h).unwrap_or_else(|| {
                        heuristics.push(h.clone());
                        heuristics.len() - 1
                    });
                    Kind::Dlx(idx)
                }
                Stage::Mch => Kind::Mch,
                Stage::Emch => Kind::Emch,
                Stage::DeBruijn => Kind::DeBruijn,
                Stage::Bdlx => Kind::Bdlx,
            });
        }
        let uses_dlx = stage_of.iter().any(|k| matches!(k, Kind::Dlx(_)));
        let matrix = uses_dlx.then(|| Matrix::new(&image_problem(&images)));
        let n_headers = images.n_cells + images.groups.len() + 1;
        let keys = heuristics
            .iter()
            .map(|h| {
                (0..n_headers)
                    .map(|hd| {
                        if hd == 0 || hd > images.n_cells {
                            return f64::INFINITY;
                        }
                        h.key(images.coords[hd - 1].map(|v| v as f64), images.dims).unwrap_or(f64::INFINITY)
                    })
                    .collect()
            })
            .collect();
        let parity = if knobs.parity_trigger.is_some() || knobs.parity_filter.is_some() {
            Some(ParityTable::new(&images).map_err(|e| format!("parity constraints unavailable: {e}"))?)
        } else {
            None
        };
        let volume = if knobs.volume_trigger.is_some() || knobs.volume_filter.is_some() {
            Some(VolumeTable::new(&images).map_err(|e| format!("volume constraints unavailable: {e}"))?)
        } else {
            None
        };
        let per_group = images.images_per_group().into_iter().max().unwrap_or(0);
        let stride = tables.cover.max_per_cell.max(per_group).max(1);
        let has_triggers = knobs.parity_trigger.is_some() || knobs.volume_trigger.is_some();
        let bruijn = (stage_of.contains(&Kind::DeBruijn) && images.groups.len() <= 64)
            .then(|| RootIndex::new(&images, &tables.mask, BRUIJN_WINDOW));
        let cover = (stage_of.contains(&Kind::Mch) || stage_of.contains(&Kind::Emch))
            .then(|| CoverIndex::new(&images, &tables.mask));
        let multi = images.groups.iter().any(|g| g.count > 1);
        let live = stage_of.contains(&Kind::Bdlx).then(|| LiveSource::new(&images, &tables));
        Ok(Shared {
            images,
            tables,
            matrix,
            bruijn,
            cover,
            live,
            heuristics,
            keys,
            stage_of,
            parity,
            volume,
            knobs,
            has_triggers,
            multi,
            stride,
        })
    }

    /// A walker at the root.
    pub fn walker<'s>(&'s self, limits: &'s Limits, walk: Walk) -> Walker<'s, B> {
        let left: Vec<u32> = self.images.groups.iter().map(|g| g.count).collect();
        let avail = left.iter().enumerate().filter(|(_, &n)| n > 0).fold(0u128, |a, (g, _)| a | 1 << g);
        let n_left: u32 = left.iter().sum();
        let pstate = self.parity.as_ref().map_or(0, |p| p.table.state_of(&left));
        let vstate = self.volume.as_ref().map_or(0, |v| v.table.state_of(&left));
        Walker {
            s: self,
            m: self.matrix.clone(),
            occ: self.tables.padding,
            left,
            avail,
            n_left,
            pstate,
            prem: self.images.parity_target as i64,
            vstate,
            path: vec![0; n_left as usize + 1],
            branch: vec![0; n_left as usize + 1],
            depth: 0,
            cand: vec![0; self.stride * (n_left as usize + 1)],
            hidden: Vec::new(),
            lo: vec![0; self.images.groups.len()],
            frames: vec![Frame::default(); n_left as usize + 1],
            hole_frames: Vec::new(),
            hole_buf: Vec::new(),
            dead: DeadStates::default(),
            lbuf: Vec::new(),
            lseg: Vec::new(),
            lbuf_used: 0,
            lo_mask: 0,
            cell_branch_above: 0,
            nodes: 0,
            solutions: 0,
            count_from: 0,
            walk,
            limits,
            shared_nodes: None,
            abort: None,
            polled: 0,
        }
    }

    /// Number of pieces to place.
    pub fn n_pieces(&self) -> u32 {
        self.images.n_pieces()
    }
}

/// How a walker explores the tree.
#[derive(Debug)]
pub enum Walk {
    /// Every branch.
    All,
    /// Only the branch `guide[d]` (sibling index) at depth `d <
    /// guide.len()`, everything below (a subproblem of a split search).
    Guided(Vec<u32>),
    /// Record the sibling-index path of every node at depth `depth` instead
    /// of searching below it (the tasks of a split search).
    Collect {
        /// Split depth.
        depth: usize,
        /// Collected tasks.
        out: Vec<Task>,
    },
    /// Busche's Monte-Carlo trial: children in random order; the trial ends
    /// the first time a piece is removed leaving `stop_left` pieces.
    Sample {
        /// Random source.
        rng: Rng,
        /// Remaining-piece count that ends the trial.
        stop_left: u32,
    },
    /// Knuth's estimator: one random path, accumulating the products of
    /// branching degrees.
    Probe {
        /// Random source.
        rng: Rng,
        /// Product of the degrees so far.
        weight: f64,
        /// Estimated nodes (placements).
        nodes: f64,
        /// Estimated solutions.
        solutions: f64,
        /// Estimated placements per depth.
        per_depth: Vec<f64>,
    },
}

/// A node of a split search: the path to it as sibling indices (for a
/// [`Walk::Guided`] walker) and as image ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// Sibling index chosen at each depth.
    pub branch: Vec<u32>,
    /// Image placed at each depth.
    pub images: Vec<u32>,
}

/// Why a walk stopped early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A limit or the visitor.
    Limit(StopReason),
    /// A Monte-Carlo trial is over.
    TrialEnd,
}

pub(super) const POLL_MASK: u64 = 0x3ff;

/// The mutable state of one search (one per thread).
pub struct Walker<'s, B> {
    pub(super) s: &'s Shared<B>,
    pub(super) m: Option<Matrix>,
    pub(super) occ: B,
    pub(super) left: Vec<u32>,
    pub(super) avail: u128,
    pub(super) n_left: u32,
    pub(super) pstate: usize,
    pub(super) prem: i64,
    pub(super) vstate: usize,
    /// Images placed, `path[..depth]`.
    pub(super) path: Vec<u32>,
    /// Sibling index of each placement (for split searches).
    pub(super) branch: Vec<u32>,
    pub(super) depth: usize,
    pub(super) cand: Vec<u32>,
    pub(super) hidden: Vec<u32>,
    /// Least image id group `g` may still use: a DLX branch on a group
    /// with copies left excludes the rows before the one it takes, and the
    /// bit-field engines below must respect that (or the same set of
    /// placements is found once per order of the copies).
    pub(super) lo: Vec<u32>,
    /// Groups with `lo[g] > 0`.
    pub(super) lo_mask: u128,
    /// The de Bruijn kernel's stack.
    pub(super) frames: Vec<Frame>,
    /// The MCH / EMCH kernel's stack and candidate slots.
    pub(super) hole_frames: Vec<HoleFrame>,
    pub(super) hole_buf: Vec<u32>,
    /// The de Bruijn kernel's cache of dead states.
    pub(super) dead: DeadStates<B>,
    /// bdlx's live lists, one after the other along the current path.
    pub(super) lbuf: Vec<Entry<B>>,
    /// bdlx's segments: at `depth * (groups + 1) + g`, where group `g`'s
    /// live images start in `lbuf` (the last entry ends the list).
    pub(super) lseg: Vec<u32>,
    /// The part of `lbuf` in use by enclosing bdlx stages.
    pub(super) lbuf_used: usize,
    /// Above this depth DLX never branches on a group with copies left (a
    /// split into files cannot express the excluded rows).
    pub cell_branch_above: usize,
    /// Placements made at depth `>= count_from`.
    pub nodes: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Placements at smaller depths are not counted (a split search counts
    /// the shared prefix once).
    pub count_from: usize,
    /// The exploration mode (holds the results of `Collect` / `Probe`).
    pub walk: Walk,
    limits: &'s Limits,
    /// Node counter shared by the threads of a parallel search.
    pub shared_nodes: Option<&'s AtomicU64>,
    /// Set when any thread stops; every thread polls it.
    pub abort: Option<&'s AtomicBool>,
    polled: u64,
}

pub(super) type Visit<'v> = dyn FnMut(&[u32]) -> Flow + 'v;

/// The iterative kernels' bookkeeping when an image of group `g` is
/// placed: one copy fewer left (`MULTI`: groups with several copies), and
/// the group leaves `avail` when none is left.
#[inline(always)]
pub(super) fn take_group<const MULTI: bool>(left: &mut [u32; 64], avail: &mut u64, g: usize) {
    if MULTI {
        left[g] -= 1;
        if left[g] == 0 {
            *avail &= !(1 << g);
        }
    } else {
        *avail ^= 1 << g;
    }
}

impl<B: Bits> Walker<'_, B> {
    /// `left` and `lo` copied into fixed arrays, for the iterative
    /// kernels' locals (at most 64 groups: `avail` is a `u64`).
    #[inline]
    pub(super) fn group_arrays(&self) -> ([u32; 64], [u32; 64]) {
        let (mut left, mut lo) = ([0; 64], [0; 64]);
        for (g, (&n, &l)) in self.left.iter().zip(&self.lo).enumerate() {
            left[g] = n;
            lo[g] = l;
        }
        (left, lo)
    }

    /// Searches from the current state, reporting each solution as the
    /// image ids of the path.
    pub fn run(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        self.node(visit)
    }

    pub(super) fn tick(&mut self) -> Result<(), Stop> {
        if self.nodes & POLL_MASK != 0 || self.nodes == self.polled {
            return Ok(());
        }
        self.polled = self.nodes;
        let total = match self.shared_nodes {
            Some(a) => a.fetch_add(POLL_MASK + 1, Ordering::Relaxed) + POLL_MASK + 1,
            None => self.nodes,
        };
        if let Some(flag) = self.abort {
            if flag.load(Ordering::Relaxed) {
                return Err(Stop::Limit(StopReason::Interrupted));
            }
        }
        match self.limits.poll(total) {
            Some(r) => Err(Stop::Limit(r)),
            None => Ok(()),
        }
    }

    #[inline(always)]
    pub(super) fn place(&mut self, k: u32) {
        let t = &self.s.tables;
        let ku = k as usize;
        let g = t.group[ku] as usize;
        self.occ = self.occ.or(t.mask[ku]);
        self.left[g] -= 1;
        if self.left[g] == 0 {
            self.avail &= !(1u128 << g);
        }
        self.n_left -= 1;
        if let Some(p) = &self.s.parity {
            self.pstate -= p.table.delta(g);
            self.prem -= p.image_parity[ku] as i64;
        }
        if let Some(v) = &self.s.volume {
            self.vstate -= v.table.delta(g);
        }
        if self.depth >= self.count_from {
            self.nodes += 1;
        }
        self.path[self.depth] = k;
        self.depth += 1;
    }

    #[inline(always)]
    pub(super) fn unplace(&mut self, k: u32) {
        let t = &self.s.tables;
        let ku = k as usize;
        let g = t.group[ku] as usize;
        self.depth -= 1;
        self.occ = self.occ.andnot(t.mask[ku]);
        self.left[g] += 1;
        self.avail |= 1u128 << g;
        self.n_left += 1;
        if let Some(p) = &self.s.parity {
            self.pstate += p.table.delta(g);
            self.prem += p.image_parity[ku] as i64;
        }
        if let Some(v) = &self.s.volume {
            self.vstate += v.table.delta(g);
        }
    }

    /// Stores the state of a search loop that keeps it in locals (`left`
    /// only read when some group has copies; otherwise `avail` says it).
    #[inline]
    pub(super) fn sync(&mut self, occ: B, avail: u64, left: &[u32; 64], n_left: u32, depth: usize, nodes: u64) {
        self.occ = occ;
        self.avail = avail as u128;
        let multi = self.s.multi || self.lo_mask != 0;
        for (g, l) in self.left.iter_mut().enumerate() {
            *l = if multi { left[g] } else { (avail >> g & 1) as u32 };
        }
        self.n_left = n_left;
        self.depth = depth;
        self.nodes = nodes;
    }

    /// The parity and volume state after placing image `k` (the rest of
    /// the state is kept by the caller).
    #[inline]
    pub(super) fn constraints_place(&mut self, k: u32) {
        let g = self.s.tables.group[k as usize] as usize;
        if let Some(p) = &self.s.parity {
            self.pstate -= p.table.delta(g);
            self.prem -= p.image_parity[k as usize] as i64;
        }
        if let Some(v) = &self.s.volume {
            self.vstate -= v.table.delta(g);
        }
    }

    /// Inverse of [`Walker::constraints_place`].
    #[inline]
    pub(super) fn constraints_unplace(&mut self, k: u32) {
        let g = self.s.tables.group[k as usize] as usize;
        if let Some(p) = &self.s.parity {
            self.pstate += p.table.delta(g);
            self.prem += p.image_parity[k as usize] as i64;
        }
        if let Some(v) = &self.s.volume {
            self.vstate += v.table.delta(g);
        }
    }

    pub(super) fn triggers_ok(&self) -> bool {
        let k = &self.s.knobs;
        if let (Some(min), Some(p)) = (k.parity_trigger, &self.s.parity) {
            if self.n_left >= min && !p.table.achievable(self.pstate, self.prem) {
                return false;
            }
        }
        if let (Some(min), Some(v)) = (k.volume_trigger, &self.s.volume) {
            if self.n_left >= min {
                let free = self.occ.not();
                if !regions_ok(free, free.count(), &self.s.tables.neighbours, &v.table, self.vstate) {
                    return false;
                }
            }
        }
        true
    }

    pub(super) fn node(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
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
        match self.s.stage_of[self.n_left as usize] {
            Kind::Dlx(h) => self.dlx_node(h, visit),
            kind => {
                let plain = match &self.walk {
                    Walk::All => true,
                    Walk::Guided(g) => self.depth >= g.len(),
                    _ => false,
                };
                if plain && !(self.depth == 0 && self.s.knobs.force_first.is_some()) {
                    self.fast(visit)
                } else {
                    self.bit_node(kind, visit)
                }
            }
        }
    }

    /// The bit-field engines when every branch is searched: the tight loop
    /// (no walk modes, no sibling bookkeeping; de Bruijn iterates its image
    /// lists directly instead of gathering candidates). Entered at a node
    /// with pieces left and triggers checked; stays below in bit-field
    /// stages (the schedule never returns to DLX).
    fn fast(&mut self, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let s = self.s;
        let t = &s.tables;
        let occ = self.occ;
        let kind = s.stage_of[self.n_left as usize];
        if kind == Kind::DeBruijn && s.bruijn.is_some() {
            let multi = s.multi || self.lo_mask & self.avail != 0;
            return match (s.has_triggers, multi) {
                (false, false) => self.debruijn_kernel::<false, false>(visit),
                (false, true) => self.debruijn_kernel::<false, true>(visit),
                (true, false) => self.debruijn_kernel::<true, false>(visit),
                (true, true) => self.debruijn_kernel::<true, true>(visit),
            };
        }
        if matches!(kind, Kind::Mch | Kind::Emch) && s.images.groups.len() <= 64 {
            let multi = s.multi || self.lo_mask & self.avail != 0;
            return match (s.has_triggers, multi) {
                (false, false) => self.hole_kernel::<false, false>(visit),
                (false, true) => self.hole_kernel::<false, true>(visit),
                (true, false) => self.hole_kernel::<true, false>(visit),
                (true, true) => self.hole_kernel::<true, true>(visit),
            };
        }
        if kind == Kind::Bdlx && s.images.groups.len() <= 64 {
            return if s.has_triggers { self.bdlx_kernel::<true>(visit) } else { self.bdlx_kernel::<false>(visit) };
        }
        if kind == Kind::DeBruijn {
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
        let base = self.depth * s.stride;
        let out = &mut self.cand[base..base + s.stride];
        let n = match kind {
            Kind::Mch => mch::candidates(t, s.cover.as_ref().expect("MCH has a cover index"), occ, self.avail, out),
            Kind::Emch => emch::candidates(t, s.cover.as_ref().expect("EMCH has a cover index"), occ, self.avail, out),
            Kind::Bdlx => bdlx::candidates(t, occ, &self.left, self.avail, &self.lo, out),
            _ => unreachable!("DLX and de Bruijn are handled above"),
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
        self.fast(visit)
    }

    fn bit_node(&mut self, kind: Kind, visit: &mut Visit<'_>) -> Result<(), Stop> {
        let depth = self.depth;
        let stride = self.s.stride;
        let base = depth * stride;
        let t = &self.s.tables;
        let (occ, avail) = (self.occ, self.avail);
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
            _ => match kind {
                Kind::DeBruijn => debruijn::candidates(t, occ, avail, out),
                Kind::Mch => mch::candidates(t, self.s.cover.as_ref().expect("MCH has a cover index"), occ, avail, out),
                Kind::Emch => {
                    emch::candidates(t, self.s.cover.as_ref().expect("EMCH has a cover index"), occ, avail, out)
                }
                Kind::Bdlx => bdlx::candidates(t, occ, &self.left, avail, &self.lo, out),
                Kind::Dlx(_) => unreachable!("DLX nodes go through dlx_node"),
            },
        };
        let n = if self.lo_mask & avail != 0 { self.drop_excluded(base, n) } else { n };
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
    pub(super) fn trial_over(&self) -> Result<(), Stop> {
        match self.walk {
            Walk::Sample { stop_left, .. } if self.n_left == stop_left => Err(Stop::TrialEnd),
            _ => Ok(()),
        }
    }
}
