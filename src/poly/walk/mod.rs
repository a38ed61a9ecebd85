//! The walk of a polycube search: the state every stage places pieces on
//! ([`Walker`]), what the stages read and never change ([`Shared`]), and
//! how a walk explores the tree ([`Walk`]). The schedule's stages
//! ([`crate::poly::stages`]) take turns on one walker: DLX (with an
//! ordering heuristic) while many pieces remain, then the bit-field
//! engines (MCH, EMCH, de Bruijn), with the parity and volume backtrack
//! triggers and the per-step image filters. `node.rs` picks the stage at
//! each node, `restart.rs` readies a walker for its next run.
//!
//! The occupancy mask, remaining counts and trigger states are kept up to
//! date in every stage, so when DLX hands over nothing has to be rebuilt:
//! the bit-field engines read the occupancy DLX leaves behind and their
//! static tables (Busche's "morph" of the DLX data into the bit model).
//! Nothing is allocated in the search loop: candidates go to a per-depth
//! slice of one buffer.

use crate::poly::filters::parity::ParityTable;
use crate::poly::filters::volume::{regions_ok, VolumeTable};
use crate::poly::model::bits::Bits;
use crate::poly::model::tables::Tables;
use crate::poly::model::Images;
use crate::poly::plan::schedule::Schedule;
pub(in crate::poly) use crate::poly::plan::stages::{At, BitStage, StagePlan};
use crate::poly::stages::bdlx::BdlxScratch;
use crate::poly::stages::debruijn::memo::DeadStates;
use crate::poly::stages::debruijn::{DebruijnScratch, Frame, LeanFrame};
use crate::poly::stages::dlx::DlxScratch;
use crate::poly::stages::hole::{self as hole_kernel, emch, mch, HoleScratch};
use crate::poly::stages::{bdlx, debruijn};

mod node;
mod restart;
pub use crate::poly::model::image_matrix::{image_matrix, image_problem};

use crate::dlx::Matrix;
use crate::search::{Flow, Limits, Rng, StopReason};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
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
    /// Pieces constrained under images of the first
    /// ([`crate::poly::filters::redundancy::Nested`]), applied by the DLX stage at the
    /// depth after their prefix.
    pub nested: Vec<NestedImages>,
}

/// [`crate::poly::filters::redundancy::Nested`] in image indices: when the images
/// `prefix` were placed at depths `0..prefix.len()`, depth `prefix.len()`
/// branches on group `group` with the images `dropped` (sorted) hidden.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NestedImages {
    /// The images placed before, in placement order (the constrained
    /// piece's kept image first).
    pub prefix: Vec<u32>,
    /// The group constrained there.
    pub group: u16,
    /// Its images dropped under `prefix`, sorted.
    pub dropped: Vec<u32>,
}

/// Everything a search reads and never changes, shared by threads.
///
/// Invariant: `tables`, `stages`, `parity` and `volume` are built from
/// `images` (a table is present when a knob that needs it is set);
/// `stride` is at least the most images covering one cell and the most
/// images of one group, so any node's candidates fit in one slice of
/// `Walker::cand`; `has_triggers` is whether a backtrack trigger is set,
/// `multi` whether some group has copies.
pub struct Shared<B> {
    /// The images searched (after the one-shot filters).
    pub images: Images,
    /// Bit-field tables of `images`.
    pub tables: Tables<B>,
    /// The stage at each number of pieces left, with its index.
    pub(in crate::poly) stages: StagePlan<B>,
    pub(in crate::poly) parity: Option<ParityTable>,
    pub(in crate::poly) volume: Option<VolumeTable>,
    pub(in crate::poly) knobs: Knobs,
    pub(in crate::poly) has_triggers: bool,
    /// Some group has identical copies.
    multi: bool,
    pub(in crate::poly) stride: usize,
}

impl<B: Bits> Shared<B> {
    /// Prepares a search of `images` under `schedule`.
    pub fn new(images: Images, schedule: &Schedule, knobs: Knobs) -> Result<Self, String> {
        let tables = Tables::<B>::new(&images);
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
        let stride = tables.max_cover_per_cell.max(per_group).max(1);
        let has_triggers = knobs.parity_trigger.is_some() || knobs.volume_trigger.is_some();
        let multi = images.groups.iter().any(|g| g.count > 1);
        let stages = StagePlan::new(&images, &tables, schedule, multi);
        Ok(Shared { images, tables, stages, parity, volume, knobs, has_triggers, multi, stride })
    }

    /// An empty de Bruijn dead-state cache for this puzzle: its clones
    /// share its table when it is the one-word kind ([`DeadStates`]). Never
    /// to be shared with a search of another puzzle.
    pub(in crate::poly) fn dead_states(&self) -> DeadStates<B> {
        self.stages.root_index().map_or_else(DeadStates::default, |idx| {
            DeadStates::new(self.images.n_cells, self.images.groups.len(), idx.width())
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
            lo: vec![0; self.images.groups.len()],
            lo_mask: 0,
            probe_memo: HashMap::default(),
            cell_branch_above: 0,
            nodes: 0,
            solutions: 0,
            count_from: 0,
            walk,
            poll: Poll { limits, shared_nodes: None, abort: None, polled: 0 },
            dlx: DlxScratch { m: self.stages.matrix().cloned().unwrap_or_else(Matrix::empty), hidden: Vec::new() },
            bdlx: BdlxScratch::default(),
            debruijn: DebruijnScratch {
                frames: vec![Frame::default(); n_left as usize + 1],
                lean_frames: vec![LeanFrame::default(); n_left as usize + 1],
                lean_tags: Vec::new(),
                dead: self.dead_states(),
            },
            hole: HoleScratch::default(),
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

pub(in crate::poly) const POLL_MASK: u64 = 0x3ff;

/// The mutable state of one search (one per thread): the walk's own core
/// (the placements, the occupancy and the pieces left, the constraint
/// states, counters and polling), the exploration mode, and the scratch of
/// each stage, which only that stage reads and writes.
///
/// Invariant: `path[..depth]` are the images placed, their union with the
/// padding is `occ`, `left[g]` copies of group `g` are unplaced (`avail`:
/// the groups with copies left, `n_left` their sum); `pstate`, `prem` and
/// `vstate` are the parity and volume states of those counts (`pstate`
/// and `vstate` 0 when the plan has no such table, `prem` then the box's
/// parity target throughout); `lo[g]` is the least image group `g` may still
/// use (`lo_mask`: the groups where it is above 0). A run that returns
/// `Ok` leaves all of it as it found it.
pub struct Walker<'s, B> {
    pub(in crate::poly) s: &'s Shared<B>,
    pub(in crate::poly) occ: B,
    pub(in crate::poly) left: Vec<u32>,
    pub(in crate::poly) avail: u128,
    pub(in crate::poly) n_left: u32,
    pub(in crate::poly) pstate: usize,
    pub(in crate::poly) prem: i64,
    pub(in crate::poly) vstate: usize,
    /// Images placed, `path[..depth]`.
    pub(in crate::poly) path: Vec<u32>,
    /// Sibling index of each placement (for split searches).
    pub(in crate::poly) branch: Vec<u32>,
    pub(in crate::poly) depth: usize,
    /// The candidates of the generic walk's nodes, one slice of
    /// `Shared::stride` per depth.
    pub(in crate::poly) cand: Vec<u32>,
    /// Least image id group `g` may still use: a DLX branch on a group
    /// with copies left excludes the rows before the one it takes, and the
    /// bit-field engines below must respect that (or the same set of
    /// placements is found once per order of the copies).
    pub(in crate::poly) lo: Vec<u32>,
    /// Groups with `lo[g] > 0`.
    pub(in crate::poly) lo_mask: u128,
    /// The candidates of the states probes met above [`PROBE_MEMO_DEPTH`]
    /// (filled only by `Walk::Probe`; a state's candidates do not depend
    /// on the path to it).
    pub(in crate::poly) probe_memo: HashMap<ProbeKey<B>, Vec<u32>, FxBuildHasher>,
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
    /// The limits, and what a parallel search shares for them.
    pub poll: Poll<'s>,
    /// The DLX stages' matrix and hidden rows.
    pub(in crate::poly) dlx: DlxScratch,
    /// The bdlx stage's live lists.
    pub(in crate::poly) bdlx: BdlxScratch<B>,
    /// The de Bruijn stage's stacks and cache of dead states.
    pub(in crate::poly) debruijn: DebruijnScratch<B>,
    /// The hole stages' stack, candidate slots and set search.
    pub(in crate::poly) hole: HoleScratch,
}

/// What a walker checks its limits against.
///
/// Invariant: `polled` is the node count at the last check (a check runs
/// once per [`POLL_MASK`] + 1 nodes).
pub struct Poll<'s> {
    pub(in crate::poly) limits: &'s Limits,
    /// Node counter shared by the threads of a parallel search.
    pub shared_nodes: Option<&'s AtomicU64>,
    /// Set when any thread stops; every thread polls it.
    pub abort: Option<&'s AtomicBool>,
    pub(in crate::poly) polled: u64,
}

/// Probes keep the candidates of the nodes above this depth
/// ([`Walker::probe_memo`]): the states there are few and their counts,
/// with many pieces left, the most expensive of a probe.
pub(in crate::poly) const PROBE_MEMO_DEPTH: usize = 4;

/// A node's state as far as its candidates go: the occupancy, the groups
/// left and how many pieces are left (which picks the stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::poly) struct ProbeKey<B> {
    pub(in crate::poly) occ: B,
    pub(in crate::poly) avail: u128,
    pub(in crate::poly) n_left: u32,
}

impl<B: Bits> std::hash::Hash for ProbeKey<B> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.occ.hash64());
        h.write_u128(self.avail);
        h.write_u32(self.n_left);
    }
}

pub(in crate::poly) type Visit<'v> = dyn FnMut(&[u32]) -> Flow + 'v;

/// The iterative kernels' bookkeeping when an image of group `g` is
/// placed: one copy fewer left (`MULTI`: groups with several copies), and
/// the group leaves `avail` when none is left.
#[inline(always)]
pub(in crate::poly) fn take_group<const MULTI: bool>(left: &mut [u32; 64], avail: &mut u64, g: usize) {
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
    pub(in crate::poly) fn group_arrays(&self) -> ([u32; 64], [u32; 64]) {
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

    pub(in crate::poly) fn tick(&mut self) -> Result<(), Stop> {
        if self.nodes & POLL_MASK != 0 || self.nodes == self.poll.polled {
            return Ok(());
        }
        self.poll.polled = self.nodes;
        let total = match self.poll.shared_nodes {
            Some(a) => a.fetch_add(POLL_MASK + 1, Ordering::Relaxed) + POLL_MASK + 1,
            None => self.nodes,
        };
        if let Some(flag) = self.poll.abort {
            if flag.load(Ordering::Relaxed) {
                return Err(Stop::Limit(StopReason::Interrupted));
            }
        }
        match self.poll.limits.poll(total) {
            Some(r) => Err(Stop::Limit(r)),
            None => Ok(()),
        }
    }

    #[inline(always)]
    pub(in crate::poly) fn place(&mut self, k: u32) {
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
    pub(in crate::poly) fn unplace(&mut self, k: u32) {
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
    pub(in crate::poly) fn sync(
        &mut self,
        occ: B,
        avail: u64,
        left: &[u32; 64],
        n_left: u32,
        depth: usize,
        nodes: u64,
    ) {
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
    pub(in crate::poly) fn constraints_place(&mut self, k: u32) {
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
    pub(in crate::poly) fn constraints_unplace(&mut self, k: u32) {
        let g = self.s.tables.group[k as usize] as usize;
        if let Some(p) = &self.s.parity {
            self.pstate += p.table.delta(g);
            self.prem += p.image_parity[k as usize] as i64;
        }
        if let Some(v) = &self.s.volume {
            self.vstate += v.table.delta(g);
        }
    }

    pub(in crate::poly) fn triggers_ok(&self) -> bool {
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
}
