//! Tree search (Benoist & Bourreau §5): branching on patterns, then on the
//! most urgent ColorPair; conflict-directed backjumping. Shaving and edge
//! filtering live in [`super::frontier`].
//!
//! Backjumping (Prosser's CBJ over levels): a node at level `l` branches on
//! one cell; each child returns an explanation (a set of levels). If it
//! does not contain `l`, the failure does not depend on this node's choice
//! and the node fails at once with the same explanation (a backjump);
//! otherwise it is merged, minus `l`, into the node's conflict set. A node
//! that runs out of candidates fails with its conflict set plus the reason
//! its candidate list was not longer ([`domain_reason`], and the
//! explanations of the values shaving and edge filtering removed). A
//! subtree that held a solution returns every level, so no solution is
//! ever jumped over.

use super::filter::{bits, domain_reason, Core, Mark};
use super::model::NONE;
use super::Heuristic;
use crate::search::{Flow, Limits, StopReason};

mod choose;

/// A branching node: the cell, where its candidates came from, and which
/// candidate is next.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The branching cell ([`NONE`] for a tile branch: the candidates
    /// place one tile on different cells, see `Searcher::cand_cells`).
    cell: u32,
    /// The pair the candidates came from, or [`NONE`] when they came from
    /// the cell's domain (edge filtering), whose reductions are not
    /// explained.
    pair: u32,
    tags: bool,
    cand_start: u32,
    cand_end: u32,
    next: u32,
    mark: Mark,
    /// Length of the forced-placement stack when the frame was pushed:
    /// the entries above it belong to the frame's current candidate.
    forced_base: u32,
}

/// Search counters beyond nodes and solutions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    /// Placements made by branching (search-tree nodes).
    pub nodes: u64,
    pub solutions: u64,
    /// Nodes left before trying all their candidates.
    pub backjumps: u64,
    /// Shaving probes (trial placements).
    pub probes: u64,
    /// Nodes where shaving found a cell with no value left.
    pub shave_fails: u64,
    /// Values shaving removed (failed probes).
    pub shave_removals: u64,
    /// Cells shaving skipped as unchanged (`shave-dirty`).
    pub shave_skips: u64,
    /// Candidates removed by edge filtering.
    pub edge_prunes: u64,
    /// Values removed from their cell after their subtree (refutation).
    pub refutations: u64,
    /// Placements made by singleton propagation (not nodes).
    pub singletons: u64,
    /// Placements made by the completion walker ([`super::bottom`]; not
    /// nodes).
    pub bottom: u64,
    /// Confinements applied (a tile confined to one cell or a cell to one
    /// tile).
    pub confinements: u64,
}

/// What [`Searcher::choose`] decided.
pub(super) enum Choice {
    /// A frame was pushed.
    Branch,
    /// The node fails; the explanation is in `core.conflict`.
    Fail,
    /// Placements were forced at the node's level (`shave-singles`):
    /// the node starts over (a full board, or another choice).
    Again,
}

/// Where a new frame's initial conflict set comes from.
pub(super) enum Reason {
    /// Empty: no candidate was removed before branching.
    None,
    /// The removal reasons of frontier cell `i` (shaving, edge filtering).
    Frontier(usize),
}

/// What [`Searcher::refute_previous`] left.
enum Refuted {
    /// Nothing refuted (first candidate, or the last one is exhausted).
    Continue,
    /// The removal failed or pruned every remaining sibling.
    Exhausted,
    /// Two or more siblings remain: continue with the next, or choose anew.
    Rechoose,
    /// One sibling remains and every other candidate has left the domain
    /// (refuted or pruned): the cell has one value left (a tile branch: the
    /// tile one place), so the sibling is a forced placement, not a
    /// decision.
    Last,
}

enum Step {
    Descend,
    Return,
    Next,
}

pub(super) const POLL_MASK: u64 = 0x3ff;

/// Search state layered on the [`Core`].
#[derive(Clone)]
pub(crate) struct Searcher {
    pub core: Core,
    frames: Vec<Frame>,
    /// Conflict set of each frame, `w` words each.
    confs: Vec<u64>,
    cands: Vec<(u32, u8)>,
    /// The cell of each candidate (a tile branch places one tile on
    /// several cells; a cell branch repeats its cell).
    cand_cells: Vec<u32>,
    /// Cells of the candidates in `scratch` when they differ (a tile
    /// branch); empty for a cell branch.
    pub(super) scratch_cells: Vec<u32>,
    /// Candidates of one cell, before they become a frame's.
    pub(super) scratch: Vec<(u32, u8)>,
    pub counters: Counters,
    pub(super) fr: super::frontier::Frontier,
    /// Failure weights of the cells (`heuristic=dom-wdeg`): 1 plus the
    /// number of placements on the cell or a neighbour that failed.
    pub(super) weight: Vec<u32>,
    /// Parallel runs ([`super::parallel`]): the split (collect the nodes
    /// at a depth instead of searching below them), the frames a worker's
    /// search never returns into (its replayed path), and the counters
    /// shared by the workers.
    pub(super) split: super::parallel::Split,
    /// Forced placements of singleton propagation ([`super::singles`]),
    /// innermost last.
    pub(super) forced: Vec<super::singles::Forced>,
    /// `shave-dirty`: per cell, the neighbourhood signature recorded after
    /// probes that removed nothing ([`super::dshave`]).
    pub(super) shave_sigs: Vec<(u64, u32, u64)>,
    /// `shave-dirty`: the identity of the node shaved at each level of the
    /// current path.
    pub(super) shave_path: Vec<u64>,
    /// `shave-yield`: per level, probes, removals (both halved now and
    /// then) and nodes seen.
    pub(super) shave_stats: Vec<[u64; 3]>,
    /// The completion walker's tables (`bottom=E`).
    pub(super) walker: super::bottom::Walker,
}

impl Searcher {
    pub fn new(core: Core) -> Searcher {
        let fr = super::frontier::Frontier::new(core.m.n_cells);
        Searcher {
            frames: Vec::new(),
            confs: Vec::new(),
            cands: Vec::new(),
            cand_cells: Vec::new(),
            scratch_cells: Vec::new(),
            scratch: Vec::new(),
            counters: Counters::default(),
            fr,
            weight: vec![1; core.m.n_cells],
            split: Default::default(),
            forced: Vec::new(),
            shave_sigs: Vec::new(),
            shave_path: Vec::new(),
            shave_stats: Vec::new(),
            walker: Default::default(),
            core,
        }
    }

    /// Level the next branching placement gets.
    #[inline]
    pub(super) fn next_level(&self) -> u32 {
        self.frames.len() as u32 + 1
    }

    /// Enumerates the solutions below the current state (clues placed,
    /// root filtered), calling `visit` at each full board.
    pub fn run(&mut self, limits: &Limits, visit: &mut dyn FnMut(&Core) -> Flow) -> Option<StopReason> {
        self.clear_frames();
        self.weight.fill(1);
        self.search(limits, visit)
    }

    /// The search loop of [`Searcher::run`], below the frames already on
    /// the stack (none, or a worker's replayed path).
    pub(super) fn search(&mut self, limits: &Limits, visit: &mut dyn FnMut(&Core) -> Flow) -> Option<StopReason> {
        let refute = self.core.cfg.refutation && self.core.doms.is_some();
        let rechoose = refute && self.core.cfg.rechoose;
        let wdeg = matches!(self.core.cfg.heuristic, Heuristic::DomWdeg | Heuristic::DomainThenWdeg);
        let w = self.core.w;
        let singles = self.singletons_on();
        let bottom = if self.core.doms.is_some() { self.core.cfg.bottom.cells(self.core.m.n_cells) } else { 0 };
        let forced_root = self.forced.len();
        let mut step = Step::Descend;
        if singles && !self.force_singles(self.frames.len() as u32) {
            step = Step::Return;
        }
        loop {
            match step {
                Step::Descend => {
                    if self.core.st.n_empty == 0 {
                        self.counters.solutions += 1;
                        if visit(&self.core) == Flow::Stop {
                            return Some(StopReason::Visitor);
                        }
                        if limits.max_solutions.is_some_and(|m| self.counters.solutions >= m) {
                            return Some(StopReason::SolutionLimit);
                        }
                        if self.core.explain {
                            bits::set_upto(&mut self.core.conflict, self.frames.len() as u32);
                        }
                        step = Step::Return;
                    } else if self.split.collect_depth == Some(self.frames.len()) {
                        // A task for a worker: its subtree may hold
                        // solutions, so nothing backjumps over it.
                        self.split
                            .tasks
                            .push(self.frames.iter().map(|f| self.candidate(f.next as usize - 1)).collect());
                        if self.core.explain {
                            bits::set_upto(&mut self.core.conflict, self.frames.len() as u32);
                        }
                        step = Step::Return;
                    } else if self.core.st.n_empty <= bottom {
                        if let Some(stop) = self.walk_bottom(limits, visit) {
                            return Some(stop);
                        }
                        // Like a task: the subtree may have held solutions.
                        if self.core.explain {
                            bits::set_upto(&mut self.core.conflict, self.frames.len() as u32);
                        }
                        step = Step::Return;
                    } else {
                        step = match self.choose() {
                            Choice::Branch => Step::Next,
                            Choice::Fail => Step::Return,
                            Choice::Again => Step::Descend,
                        };
                    }
                }
                Step::Return => {
                    // The child of the top frame returns with `conflict`.
                    if self.frames.len() == self.split.base {
                        self.unwind_singles(forced_root);
                        return None;
                    }
                    let f = self.frames.last().copied()?;
                    let level = self.frames.len() as u32;
                    self.unwind_singles(f.forced_base as usize);
                    self.core.undo_to(f.mark);
                    let cell = self.cand_cells[f.next as usize - 1];
                    self.core.st.unassign(&self.core.m, cell as usize);
                    if !self.core.explain {
                        step = Step::Next;
                    } else if bits::test(&self.core.conflict, level) {
                        bits::unset(&mut self.core.conflict, level);
                        let at = (level as usize - 1) * w;
                        bits::or(&mut self.confs[at..at + w], &self.core.conflict);
                        step = Step::Next;
                    } else {
                        self.counters.backjumps += 1;
                        self.pop_frame();
                    }
                }
                Step::Next => {
                    let level = self.frames.len() as u32;
                    let mut exhausted = false;
                    let mut forced = false;
                    if refute {
                        match self.refute_previous(rechoose) {
                            Refuted::Continue => {}
                            Refuted::Exhausted => exhausted = true,
                            // Forced like a singleton, when singleton
                            // propagation runs (without it a one-value
                            // cell is a decision too).
                            Refuted::Last if !rechoose => forced = singles,
                            Refuted::Rechoose | Refuted::Last => {
                                if rechoose {
                                    // The same level chooses anew on the
                                    // reduced domains; the frame's
                                    // exclusions stay until the parent
                                    // undoes them.
                                    self.pop_frame();
                                    step = Step::Descend;
                                    continue;
                                }
                            }
                        }
                    }
                    let f = self.frames.last_mut().expect("a frame to extend");
                    if exhausted || f.next == f.cand_end {
                        let f = *f;
                        if self.core.explain {
                            let at = (level as usize - 1) * w;
                            let mut c = std::mem::take(&mut self.core.conflict);
                            if f.pair == NONE {
                                // Candidates from a filtered domain: the
                                // reductions are not explained.
                                bits::set_upto(&mut c, level - 1);
                            } else {
                                c.copy_from_slice(&self.confs[at..at + w]);
                                domain_reason(&self.core, f.cell as usize, f.pair, f.tags, &mut c);
                            }
                            self.core.conflict = c;
                        }
                        self.pop_frame();
                        step = Step::Return;
                        continue;
                    }
                    let (t, r) = self.cands[f.next as usize];
                    let cell = self.cand_cells[f.next as usize];
                    f.next += 1;
                    if forced {
                        // The last value left by refutation: a singleton
                        // of the state, placed as singleton propagation
                        // would place it (same subtree, same level).
                        self.counters.singletons += 1;
                    } else {
                        self.counters.nodes += 1;
                    }
                    if !forced && self.counters.nodes & POLL_MASK == 0 {
                        if let Some(stop) = self.poll(limits, POLL_MASK + 1) {
                            return Some(stop);
                        }
                    }
                    self.core.st.assign(&self.core.m, cell as usize, t as usize, r, level);
                    step = if self.core.filter(cell) && (!singles || self.force_singles_shared(level)) {
                        Step::Descend
                    } else {
                        if wdeg {
                            self.bump_weights(cell as usize);
                        }
                        Step::Return
                    };
                }
            }
        }
    }

    /// Hands the state (at its fixpoint, at most `bottom` empty cells) to
    /// the completion walker, which enumerates every completion.
    fn walk_bottom(&mut self, limits: &Limits, visit: &mut dyn FnMut(&Core) -> Flow) -> Option<StopReason> {
        let level = self.next_level();
        let before = (self.counters.solutions, self.counters.bottom);
        let (split, nodes) = (&self.split, self.counters.nodes);
        // A node limit counts the walker's placements too.
        let mut poll = |limits: &Limits, placed: u64| match &split.share {
            None => limits.poll(nodes + placed),
            Some(share) => share.poll(limits, super::bottom::WALK_POLL + 1),
        };
        let out = super::bottom::walk(&mut self.walker, &mut self.core, level, limits, before, &mut poll, visit);
        self.counters.bottom += out.placements;
        self.counters.solutions += out.solutions;
        out.stopped
    }

    /// Refutation (2-way branching): the previous candidate of the top
    /// frame, whose subtree is exhausted, leaves its cell's domain and the
    /// removal propagates; the frame's mark moves past the removal so the
    /// next siblings keep it. Candidates the removal pruned are skipped.
    ///
    /// Before the last listed sibling (without `rechoose`) nothing is
    /// removed: every other candidate's subtree is exhausted or pruned, so
    /// the sibling is forced ([`Refuted::Last`]), and placing it subsumes
    /// the removal (the cell is filled, or the tile leaves every other
    /// cell), so propagating the removal first would only repeat work.
    fn refute_previous(&mut self, rechoose: bool) -> Refuted {
        let f = *self.frames.last().expect("a frame to extend");
        if f.next == f.cand_start || f.next == f.cand_end {
            return Refuted::Continue;
        }
        if !rechoose && f.next + 1 == f.cand_end {
            let i = f.next as usize;
            let doms = self.core.doms.as_ref().expect("domain mode");
            return if doms.contains(self.cand_cells[i] as usize, self.cands[i].0 as usize, self.cands[i].1) {
                Refuted::Last
            } else {
                Refuted::Exhausted
            };
        }
        let prev = f.next as usize - 1;
        let (t, r) = self.cands[prev];
        let cell = self.cand_cells[prev] as usize;
        self.counters.refutations += 1;
        let core = &mut self.core;
        let doms = core.doms.as_mut().expect("domain mode");
        if !doms.exclude(&core.m, &core.st, cell, t as usize, r) {
            return Refuted::Exhausted;
        }
        let mark = core.mark();
        let doms = core.doms.as_ref().expect("domain mode");
        let top = self.frames.last_mut().expect("a frame to extend");
        top.mark = mark;
        while top.next < top.cand_end {
            let (t, r) = self.cands[top.next as usize];
            if doms.contains(self.cand_cells[top.next as usize] as usize, t as usize, r) {
                break;
            }
            top.next += 1;
        }
        if top.next == top.cand_end {
            return Refuted::Exhausted;
        }
        let rest = top.next as usize + 1..top.cand_end as usize;
        if rest
            .into_iter()
            .any(|i| doms.contains(self.cand_cells[i] as usize, self.cands[i].0 as usize, self.cands[i].1))
        {
            Refuted::Rechoose
        } else {
            Refuted::Last
        }
    }

    /// `heuristic=dom-wdeg`: a placement on `cell` failed; the cell and its
    /// neighbours gain weight.
    fn bump_weights(&mut self, cell: usize) {
        self.weight[cell] += 1;
        for s in 0..4 {
            let n = self.core.m.nbr[cell][s];
            if n != NONE {
                self.weight[n as usize] += 1;
            }
        }
    }

    /// The candidate range of the top frame (for [`Searcher::estimate`]).
    pub(super) fn top_candidates(&self) -> (usize, usize) {
        let f = self.frames.last().expect("a frame");
        (f.cand_start as usize, f.cand_end as usize)
    }

    /// Candidate `i`: cell, tile, rotation.
    pub(super) fn candidate(&self, i: usize) -> (u32, u32, u8) {
        (self.cand_cells[i], self.cands[i].0, self.cands[i].1)
    }

    /// Frames on the stack (the level of their latest placement).
    pub(super) fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// Drops every frame (after an estimate's probe).
    pub(super) fn clear_frames(&mut self) {
        self.frames.clear();
        self.forced.clear();
        self.cands.clear();
        self.cand_cells.clear();
        self.confs.clear();
    }

    /// Replays a worker's path (the decisions of a task, in order) from
    /// the filtered root: one frame per decision with that single
    /// candidate, so levels and undo marks are as in a normal search, and
    /// [`Searcher::search`] then never returns into them. `false` if a
    /// placement fails its filtering (the subtree holds no solution).
    pub(super) fn replay(&mut self, path: &[(u32, u32, u8)]) -> bool {
        self.clear_frames();
        self.split.base = path.len();
        let tags = self.core.use_tags();
        let singles = self.singletons_on();
        if singles && !self.force_singles(0) {
            return false;
        }
        for &(cell, t, r) in path {
            let st = &self.core.st;
            if st.tile_at[cell as usize] != NONE || st.cell_of[t as usize] != NONE {
                // Not reachable when the replay forces what the collect
                // pass forced; a forced placement is implied, so a
                // decision contradicting one has no solution below it.
                if st.tile_at[cell as usize] == t && st.rot_at[cell as usize] == r {
                    continue;
                }
                return false;
            }
            self.scratch.clear();
            self.scratch.push((t, r));
            self.scratch_cells.clear();
            self.push_frame(cell, NONE, tags, Reason::None);
            let level = self.frames.len() as u32;
            self.frames.last_mut().expect("the frame just pushed").next += 1;
            self.core.st.assign(&self.core.m, cell as usize, t as usize, r, level);
            if !self.core.filter(cell) || (singles && !self.force_singles(level)) {
                return false;
            }
        }
        true
    }

    fn pop_frame(&mut self) {
        let f = self.frames.pop().expect("frame");
        self.cands.truncate(f.cand_start as usize);
        self.cand_cells.truncate(f.cand_start as usize);
        self.confs.truncate(self.frames.len() * self.core.w);
    }

    /// Pushes a frame for `cell` with the candidates in `scratch` (taken
    /// from pair `pair`) and initial conflict set `reason` (the
    /// explanations of candidates removed before branching).
    pub(super) fn push_frame(&mut self, cell: u32, pair: u32, tags: bool, reason: Reason) {
        let start = self.cands.len() as u32;
        self.cands.extend_from_slice(&self.scratch);
        if self.scratch_cells.is_empty() {
            self.cand_cells.resize(self.cands.len(), cell);
        } else {
            debug_assert_eq!(self.scratch_cells.len(), self.scratch.len());
            self.cand_cells.extend_from_slice(&self.scratch_cells);
            self.scratch_cells.clear();
        }
        self.frames.push(Frame {
            cell,
            pair,
            tags,
            cand_start: start,
            cand_end: self.cands.len() as u32,
            next: start,
            mark: self.core.mark(),
            forced_base: self.forced.len() as u32,
        });
        let w = self.core.w;
        match reason {
            Reason::Frontier(i) if self.core.explain => {
                self.confs.extend_from_slice(&self.fr.reason[i * w..(i + 1) * w])
            }
            _ => self.confs.resize(self.frames.len() * w, 0),
        }
    }

    /// The pair whose offer gives `cell`'s candidates: the demanded pair of
    /// the cell with the fewest available tiles.
    pub(super) fn best_pair(&self, cell: usize) -> u32 {
        let st = &self.core.st;
        let mut best = NONE;
        for slot in 0..6 {
            let p = st.slot_pair[cell][slot];
            if p != NONE && (best == NONE || st.off_len[p as usize] < st.off_len[best as usize]) {
                best = p;
            }
        }
        best
    }

    /// Candidates of empty `cell` into `scratch`: the available tiles of its
    /// best pair (not reserved by another pair when `tags`), in each
    /// distinct rotation that fits. Returns the pair.
    pub(super) fn candidates(&mut self, cell: usize, tags: bool) -> u32 {
        self.scratch.clear();
        let p = self.best_pair(cell);
        let (m, st) = (&self.core.m, &self.core.st);
        if p == NONE {
            // Fewer than two known sides (possible only with patterns off
            // and clues): every available tile.
            for t in 0..m.rot_colors.len() {
                if st.cell_of[t] == NONE {
                    for i in 0..m.n_rots[t] as usize {
                        let r = m.rots[t][i];
                        if st.fits(m, cell, t, r as usize) {
                            self.scratch.push((t as u32, r));
                        }
                    }
                }
            }
            return p;
        }
        for &mem in st.offer(m, p) {
            let t = m.mem_tile[mem as usize] as usize;
            if tags && st.pre[t] != NONE && st.pre[t] != p {
                continue;
            }
            for i in 0..m.n_rots[t] as usize {
                let r = m.rots[t][i];
                if st.fits(m, cell, t, r as usize) {
                    self.scratch.push((t as u32, r));
                }
            }
        }
        p
    }
}
