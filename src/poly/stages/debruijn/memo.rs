//! A cache of dead de Bruijn states: (occupancy, remaining pieces) pairs
//! whose subtree holds no solution.
//!
//! In de Bruijn's order every cell before the hole is full, so the state
//! of a node is its occupancy and the set of pieces left, and the same
//! state is reached again whenever other pieces have filled the same cells
//! (near the bottom of a flat pentomino box, a large share of the nodes
//! are states met before). The subtree under a state depends on nothing
//! else (no copies, no rows excluded by a DLX branch above; triggers and
//! later stages read only the state), so a state whose subtree gave no
//! solution can be cut when met again. Solutions are never cached: a state
//! that led to one is searched again, and every solution is still found by
//! the search and verified by the solve loop.
//!
//! The same holds in every task and thread of a run (the tasks are
//! subtrees of one search of one puzzle, and the state is still the whole
//! input below it), so where a state packs into one word ([`Pack`]) the
//! workers of a run share one table of one-word slots, where a slot cannot
//! tear: a racing write replaces a whole entry, and what one worker finds
//! dead the others cut too. Otherwise each worker keeps its own table of
//! two-word slots.

use crate::poly::model::bits::Bits;
use slots::Slots;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

mod slots;

/// Bytes the cache may take, about twice the L2 cache of a core. A larger
/// table keeps more dead states and so cuts more nodes, but beyond this
/// size the misses past L2 and the first touch of its pages cost more
/// than the nodes it saves; a smaller one loses more nodes than its misses
/// save. The size was measured, not derived: docs/tried/poly.md, "de
/// Bruijn's loop", the dead-state cache and its size. Where a state packs into
/// one word ([`Pack`]), the budget holds twice the states of the two-word
/// layout, or more.
const BUDGET: usize = 2 << 20;
/// Nodes (placements) per window of the hit-rate check.
const WINDOW: u64 = 1 << 16;
/// The cache switches itself off after a window with fewer than one hit
/// in this many nodes. (Counted in nodes, which the search counts anyway,
/// rather than in look-ups, to keep the count out of the look-up; there
/// are fewer look-ups than nodes, so per look-up the bar is higher than
/// one hit in 64.)
const MIN_HIT_RATE: u64 = 64;

/// Fewest occupancy bits after the hole, in key windows of the root
/// index, that a one-word slot must hold to be used (else two words).
const MIN_WINDOWS: u32 = 2;

/// A direct-mapped, lossy set of dead states.
///
/// Invariant: every non-empty slot holds a state (occupancy, available
/// groups) whose subtree was searched to the end and held no solution, at
/// its slot (a hash of the state masked to the table size); a new state
/// overwrites the slot's old one. Two layouts, chosen per puzzle
/// ([`DeadStates::new`]):
/// - one word per state ([`Pack`]: exact, no fingerprint), the table
///   shared by every clone of the cache (the threads of a run): a slot is
///   one `AtomicU64` read and written with `Relaxed` loads and stores, so
///   racing writers overwrite each other whole (a lost entry, never a torn
///   one); key 0 is the empty slot;
/// - two words `(occupancy, groups)` when the packing leaves too short a
///   window; an empty slot has occupancy 0. Cloned, the table is copied.
///
/// Sharing is sound because a state's subtree is the same in every task
/// and thread of a run: the state is the whole input of the search below
/// it (no copies, no excluded rows, which the caller checks), and a
/// walker's cache is never used for another puzzle. The table is made at
/// the first insertion (searches that never cache pay nothing) and then
/// belongs to every clone.
///
/// The hit-rate check (`hits`, `off`) is per clone: each worker switches
/// itself off.
#[derive(Clone, Debug, Default)]
pub struct DeadStates<B> {
    table: Table<B>,
    /// The walker's node count at the last review, nodes in the current
    /// window and hits since it began.
    last: u64,
    seen: u64,
    hits: u64,
    /// The cache gave too few hits and is no longer used.
    pub off: bool,
}

#[derive(Clone, Debug)]
enum Table<B> {
    Pairs(Slots<(B, u64)>),
    Words(Pack<B>, Arc<OnceLock<Slots<AtomicU64>>>),
}

impl<B> Default for Table<B> {
    fn default() -> Self {
        Table::Pairs(Slots::default())
    }
}

/// How a state packs into one word, exactly: from bit 0, the hole `h` (the
/// first free cell) in `pos` bits, the occupancy of cells `h + 1 ..= h +
/// window`, then the available groups. The cells before the hole are full
/// (it is the first free one) and those from `n_cells` on are the constant
/// padding, so the key gives back the state when no cell after `h +
/// window` is occupied; other states have no key (0) and are neither
/// cached nor looked up. In de Bruijn's order the occupied cells after the
/// hole belong to pieces placed at earlier holes, so few states fall out
/// (a stage above may place a piece far ahead). Cached states have pieces
/// left, hence a group bit: their keys are never 0.
#[derive(Clone, Copy, Debug)]
pub(in crate::poly) struct Pack<B> {
    /// The bits from `n_cells` on (set in every occupancy).
    padding: B,
    pos: u32,
    window: u32,
    /// Bits of the key that select a slot (from the top of the hash).
    shift: u32,
}

/// Slots of the one-word table.
const WORDS: usize = BUDGET / 8;

impl<B: Bits> Pack<B> {
    /// The packing for `n_cells` cells (at most `B::CAPACITY`) and
    /// `n_groups` groups, or `None` if fewer than `min_window` cells fit
    /// after the hole.
    pub(in crate::poly) fn new(n_cells: usize, n_groups: usize, min_window: u32) -> Option<Self> {
        if n_cells < 2 || n_cells > B::CAPACITY || n_groups > 64 {
            return None;
        }
        let pos = (n_cells - 1).ilog2() + 1;
        let window = 64u32.checked_sub(pos + n_groups as u32)?;
        (window >= min_window.max(1)).then(|| Pack {
            padding: B::below(n_cells).not(),
            pos,
            window,
            shift: 64 - WORDS.ilog2(),
        })
    }

    /// The key of a state, 0 if it has none (`avail` must be below
    /// `1 << n_groups`).
    #[inline(always)]
    pub(in crate::poly) fn key(&self, occ: &B, avail: u64) -> u64 {
        let Some(h) = occ.not().lowest() else { return 0 };
        let x = occ.andnot(self.padding).shr(h as u32);
        if !x.shr(self.window + 1).is_zero() {
            return 0;
        }
        debug_assert!(avail >> (64 - self.pos - self.window) == 0);
        h as u64 | (x.low64() >> 1) << self.pos | avail << (self.pos + self.window)
    }

    /// The slot of a key.
    #[inline(always)]
    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }
}

/// The table as the kernels probe it inline ([`DeadStates::table`]).
///
/// A state's look-ups go through its *tag* ([`Probe::tag`]), computed once
/// and then reused for the prefetch, the look-up and the insertion of the
/// same state (the kernel keeps it: see `debruijn::lean`). A tag is only
/// meaningful for the state it was computed from, with the same table.
pub(in crate::poly) trait Probe<B> {
    /// The tag of a state: what [`Self::prefetch`], [`Self::find`] and
    /// [`Self::put`] are given for it.
    fn tag(&self, occ: &B, avail: u64) -> u64;
    /// Whether the state, of tag `tag`, is in the table.
    fn find(&self, tag: u64, occ: &B, avail: u64) -> bool;
    /// Records a dead state of tag `tag`.
    fn put(&mut self, tag: u64, occ: &B, avail: u64);
    /// Fetches the slot of tag `tag` into the cache.
    fn prefetch(&self, tag: u64);
}

/// The two-word table: `mask + 1` slots (none: `mask` 0, never probed).
pub(in crate::poly) struct PairTable<'a, B> {
    slots: &'a mut [(B, u64)],
    mask: usize,
}

impl<B> PairTable<'_, B> {
    /// A table that is never probed (a kernel without the cache).
    pub(in crate::poly) fn none() -> Self {
        PairTable { slots: &mut [], mask: 0 }
    }
}

#[inline(always)]
fn prefetch<T>(p: *const T) {
    // SAFETY: a prefetch reads nothing and faults on no address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Tags are slot indices (the state itself is compared and stored).
impl<B: Bits> Probe<B> for PairTable<'_, B> {
    #[inline(always)]
    fn tag(&self, occ: &B, avail: u64) -> u64 {
        slot_of(self.mask, occ, avail) as u64
    }
    #[inline(always)]
    fn find(&self, tag: u64, occ: &B, avail: u64) -> bool {
        debug_assert_eq!(tag, self.tag(occ, avail));
        // SAFETY: the slot is masked to the table size (the tag is
        // `slot_of`'s).
        let (o, a) = unsafe { self.slots.get_unchecked(tag as usize & self.mask) };
        *a == avail && o == occ
    }
    #[inline(always)]
    fn put(&mut self, tag: u64, occ: &B, avail: u64) {
        debug_assert_eq!(tag, self.tag(occ, avail));
        // SAFETY: as in `find`.
        unsafe { *self.slots.get_unchecked_mut(tag as usize & self.mask) = (*occ, avail) };
    }
    #[inline(always)]
    fn prefetch(&self, tag: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(tag as usize & self.mask));
    }
}

/// The slot of a state in a two-word table of `mask + 1` slots.
#[inline(always)]
fn slot_of<B: Bits>(mask: usize, occ: &B, avail: u64) -> usize {
    let h = (occ.hash64() ^ avail.wrapping_mul(0xff51_afd7_ed55_8ccd)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> 32) as usize & mask
}

/// The one-word table, [`WORDS`] slots.
pub(in crate::poly) struct WordTable<'a, B> {
    slots: &'a [AtomicU64],
    pack: Pack<B>,
}

/// Tags are the keys of [`Pack`] (0: a state that is not cached).
impl<B: Bits> Probe<B> for WordTable<'_, B> {
    #[inline(always)]
    fn tag(&self, occ: &B, avail: u64) -> u64 {
        self.pack.key(occ, avail)
    }
    #[inline(always)]
    fn find(&self, key: u64, occ: &B, avail: u64) -> bool {
        debug_assert_eq!(key, self.tag(occ, avail));
        // SAFETY: the slot is below `WORDS` (the top bits of the hash).
        key != 0 && unsafe { self.slots.get_unchecked(self.pack.slot(key)) }.load(Relaxed) == key
    }
    #[inline(always)]
    fn put(&mut self, key: u64, occ: &B, avail: u64) {
        debug_assert_eq!(key, self.tag(occ, avail));
        if key != 0 {
            // SAFETY: as in `find`.
            unsafe { self.slots.get_unchecked(self.pack.slot(key)) }.store(key, Relaxed);
        }
    }
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        prefetch(self.slots.as_ptr().wrapping_add(self.pack.slot(key)));
    }
}

/// The table in the layout of the puzzle ([`DeadStates::table`]).
pub(in crate::poly) enum Kernel<'a, B> {
    Pairs(PairTable<'a, B>),
    Words(WordTable<'a, B>),
}

impl<B: Bits> DeadStates<B> {
    /// An empty cache for a puzzle of `n_cells` cells (the occupancy's
    /// bits from `n_cells` on always set) and `n_groups` groups whose root
    /// index has key windows of `width` cells: one word per state when at
    /// least [`MIN_WINDOWS`] windows fit after the hole ([`Pack`]), else two.
    pub fn new(n_cells: usize, n_groups: usize, width: u32) -> Self {
        let table = match Pack::new(n_cells, n_groups, MIN_WINDOWS * width) {
            Some(p) => Table::Words(p, Arc::default()),
            None => Table::Pairs(Slots::default()),
        };
        DeadStates { table, ..Self::default() }
    }

    /// Whether the state is known to be dead.
    #[inline(always)]
    pub fn contains(&mut self, occ: &B, avail: u64) -> bool {
        if self.off {
            return false;
        }
        let found = match &mut self.table {
            Table::Pairs(s) if s.is_empty() => false,
            Table::Words(_, w) if w.get().is_none() => false,
            _ => match self.table() {
                Kernel::Pairs(t) => t.find(t.tag(occ, avail), occ, avail),
                Kernel::Words(t) => t.find(t.tag(occ, avail), occ, avail),
            },
        };
        self.hits += u64::from(found);
        found
    }

    /// Closes the hit-rate window once a window of nodes has passed since
    /// it began: switches the cache off after too few hits. Called every
    /// so many nodes (the search's poll), not on every look-up.
    ///
    /// `nodes` is the walker's count. A cache carried to the walker of the
    /// next task (threads) sees the count start again: the window then
    /// counts from 0 on (a wrapped difference would close the window at
    /// once and judge the cache by the hits of a few nodes, switching off a
    /// cache that pays: a run on several threads would search many more
    /// nodes than on one).
    #[cold]
    pub fn review(&mut self, nodes: u64) {
        let n = nodes.checked_sub(self.last).unwrap_or(nodes);
        self.last = nodes;
        self.seen += n;
        if self.seen < WINDOW {
            return;
        }
        let n = std::mem::take(&mut self.seen);
        let used = match &self.table {
            Table::Pairs(s) => !s.is_empty(),
            Table::Words(_, w) => w.get().is_some(),
        };
        if used && self.hits < n / MIN_HIT_RATE {
            self.off = true;
        }
        self.hits = 0;
    }

    /// The table (allocated if still empty), for a kernel that probes it
    /// inline. Hits found there are reported by [`Self::add_hits`].
    pub(in crate::poly) fn table(&mut self) -> Kernel<'_, B> {
        match &mut self.table {
            Table::Pairs(s) => {
                if s.is_empty() {
                    let n = (BUDGET / std::mem::size_of::<(B, u64)>()).max(1);
                    *s = Slots::zeroed(1 << n.ilog2());
                }
                let mask = s.len() - 1;
                Kernel::Pairs(PairTable { slots: s, mask })
            }
            Table::Words(pack, w) => {
                Kernel::Words(WordTable { slots: w.get_or_init(|| Slots::zeroed(WORDS)), pack: *pack })
            }
        }
    }

    /// Counts hits found by probing [`Self::table`] directly.
    pub(in crate::poly) fn add_hits(&mut self, n: u64) {
        self.hits += n;
    }

    /// Records a dead state (occupancy not empty).
    #[inline(always)]
    pub fn insert(&mut self, occ: B, avail: u64) {
        debug_assert!(!occ.is_zero());
        if self.off {
            return;
        }
        match self.table() {
            Kernel::Pairs(mut t) => t.put(t.tag(&occ, avail), &occ, avail),
            Kernel::Words(mut t) => t.put(t.tag(&occ, avail), &occ, avail),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::stages::debruijn::memo::*;

    #[test]
    fn remembers_exact_states_only() {
        let mut d = DeadStates::<u64>::default();
        assert!(!d.contains(&0b1011, 3));
        d.insert(0b1011, 3);
        assert!(d.contains(&0b1011, 3));
        assert!(!d.contains(&0b1011, 2));
        assert!(!d.contains(&0b1111, 3));
        let mut w = DeadStates::<u128>::default();
        w.insert(1 << 100 | 1, 1);
        assert!(w.contains(&(1 << 100 | 1), 1));
        assert!(!w.contains(&1, 1));
    }

    #[test]
    fn switches_off_after_a_window_of_misses() {
        let mut d = DeadStates::<u64>::default();
        d.insert(1, 1);
        for i in 0..WINDOW / MIN_HIT_RATE - 1 {
            assert!(!d.contains(&(i + 2), 1));
            assert!(d.contains(&1, 1));
        }
        d.review(WINDOW - 1);
        assert!(!d.off, "the window is not over");
        d.review(WINDOW);
        assert!(d.off);
        assert!(!d.contains(&1, 1));
    }

    #[test]
    fn mapped_tables_start_empty_and_clone() {
        let mut d = DeadStates::<crate::poly::model::bits::Wide<3>>::default();
        let s = crate::poly::model::bits::Wide([1, 0, 1 << 63]);
        d.insert(s, 5);
        let Table::Pairs(slots) = &d.table else { panic!("two words by default") };
        assert!(slots.iter().filter(|(o, _)| !o.is_zero()).count() == 1);
        let mut e = d.clone();
        assert!(e.contains(&s, 5) && d.contains(&s, 5));
        assert!(!e.contains(&s, 4));
        e.insert(s, 4);
        assert!(!d.contains(&s, 4), "two-word tables are copied");
        assert!(matches!(&DeadStates::<u64>::default().clone().table, Table::Pairs(s) if s.is_empty()));
    }

    /// The state a key packs (as [`Pack::key`] lays it out).
    fn unpack<B: Bits>(p: &Pack<B>, key: u64) -> (B, u64) {
        let h = (key & ((1 << p.pos) - 1)) as usize;
        let rest = key >> p.pos & ((1 << p.window) - 1);
        let occ = p.padding.or(B::below(h)).or(B::from_words(rest, 0).shl(h as u32).shl(1));
        (occ, key >> (p.pos + p.window))
    }

    /// Random states of a box of `n` cells and `g` groups whose cells after
    /// the hole lie within `reach` of it: a key each, unpacked to the state,
    /// no two states with one key; states reaching past the window have
    /// none.
    fn round_trip<B: Bits + std::hash::Hash>(n: usize, g: usize, reach: usize) {
        let p = Pack::<B>::new(n, g, 8).expect("a one-word layout");
        assert_eq!(p.pos + p.window + g as u32, 64);
        let mut rng = crate::search::Rng::new(0x2545_f491_4f6c_dd1d);
        let mut seen = std::collections::HashMap::new();
        let (mut packed, mut outside) = (0, 0);
        for _ in 0..20_000 {
            let h = rng.next_u64() as usize % n;
            let above = B::from_words(rng.next_u64(), rng.next_u64()).and(B::below(reach)).shl(h as u32).shl(1);
            let occ = p.padding.or(B::below(h)).or(above.and(B::below(n)));
            let avail = (rng.next_u64() & ((1 << g) - 1)).max(1);
            let key = p.key(&occ, avail);
            let fits = occ.andnot(p.padding).shr(h as u32).shr(p.window + 1).is_zero();
            assert_eq!(key != 0, fits, "h {h}");
            if key == 0 {
                outside += 1;
                continue;
            }
            packed += 1;
            assert!(unpack(&p, key) == (occ, avail), "h {h} avail {avail:#x}");
            if let Some(&(o, a)) = seen.get(&key) {
                assert!((o, a) == (occ, avail), "two states, one key {key:#x}");
            }
            seen.insert(key, (occ, avail));
        }
        assert!(packed > 1000 && outside > 1000, "{packed} {outside}");
    }

    #[test]
    fn keys_give_back_their_states() {
        round_trip::<u64>(60, 12, 64);
        round_trip::<u64>(64, 13, 64);
        round_trip::<u128>(90, 18, 64);
        round_trip::<u128>(128, 20, 64);
    }

    #[test]
    fn states_past_the_window_are_not_cached() {
        let mut d = DeadStates::<u64>::new(60, 12, 6);
        let Table::Words(p, _) = d.table else { panic!("one word") };
        let h = 5;
        let inside = p.padding | ((1 << h) - 1) | 1 << (h + p.window);
        let outside = inside | 1 << (h + p.window + 1);
        d.insert(inside, 0b101);
        d.insert(outside, 0b101);
        assert!(d.contains(&inside, 0b101));
        assert!(!d.contains(&outside, 0b101));
        let Kernel::Words(t) = d.table() else { panic!("one word") };
        assert_eq!(t.slots.iter().filter(|w| w.load(Relaxed) != 0).count(), 1);
    }

    #[test]
    fn one_word_tables_are_shared_by_clones() {
        let mut d = DeadStates::<u128>::new(90, 18, 3);
        assert!(matches!(d.table, Table::Words(..)));
        let mut e = d.clone();
        let occ = !0u128 << 90 | 0b0111_1011;
        d.insert(occ, 3);
        assert!(e.contains(&occ, 3) && !e.contains(&occ, 2));
        e.off = true;
        assert!(!e.contains(&occ, 3) && d.contains(&occ, 3), "the switch is per clone");
        // Too many groups for the window: two words.
        assert!(matches!(DeadStates::<u64>::new(60, 50, 6).table, Table::Pairs(_)));
        assert!(matches!(DeadStates::<u128>::new(128, 64, 6).table, Table::Pairs(_)));
    }
}
