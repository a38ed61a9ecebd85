//! A cache of dead de Bruijn states: (occupancy, remaining pieces) pairs
//! whose subtree holds no solution.
//!
//! In de Bruijn's order every cell before the hole is full, so the state
//! of a node is its occupancy and the set of pieces left, and the same
//! state is reached again whenever other pieces have filled the same cells
//! (on the 10x6 pentominoes about a third of the nodes with 4 pieces left
//! are states met before). The subtree under a state depends on nothing
//! else (no copies, no rows excluded by a DLX branch above; triggers and
//! later stages read only the state), so a state whose subtree gave no
//! solution can be cut when met again. Solutions are never cached: a state
//! that led to one is searched again, and every solution is still found by
//! the search and verified by the solve loop.

use super::bits::Bits;

/// Bytes the cache may take, about the L2 cache of the 2-core build
/// machine (1 MiB per core) twice over. Whole-run instructions
/// (cachegrind; D1 misses) on the 10x6 pentominoes, u64 occupancy with
/// 16-byte slots: no cache 424 M (3.5 M); 256 KB 355 M (3.3 M); 512 KB
/// 337 M (3.1 M); 2 MB about 300 M, with more last-level misses. One-sided
/// 30x3, u128 with 32-byte slots: no cache 1023 M; 256 KB 734 M; 512 KB
/// 634 M. After the cheaper per-solution work (commit 15096e9): 512 KB
/// 301 M / 607 M, 2 MB 263 M / 448 M, 8 MB 243 M / 380 M; CPU time
/// (median of 30 alternating runs, load 4) 51.2 / 68.2 ms at 512 KB,
/// 49.0 / 60.9 ms at 1 MB, 47.7 / 56.1 ms at 2 MB, and 4 MB slower than
/// 2 MB (misses beyond L2, first touch of the pages). See docs/poly.md.
const BUDGET: usize = 2 << 20;
/// Nodes (placements) per window of the hit-rate check.
const WINDOW: u64 = 1 << 16;
/// The cache switches itself off after a window with fewer than one hit
/// in this many nodes. (Counted in nodes, which the search counts anyway,
/// rather than in look-ups, to keep the count out of the look-up; there
/// are fewer look-ups than nodes, 0.4 per node on the 10x6 pentominoes.)
const MIN_HIT_RATE: u64 = 64;

/// A direct-mapped, lossy set of dead states.
///
/// Invariant: every slot with a non-zero `occ` holds a state (occupancy,
/// available groups) whose subtree was searched to the end and held no
/// solution; a slot is `hash(state) & (slots.len() - 1)`, and a new state
/// overwrites the slot's old one. Empty until the first [`insert`]
/// (occupancies of cached states are never empty: a piece was placed).
///
/// [`insert`]: DeadStates::insert
#[derive(Clone, Debug, Default)]
pub struct DeadStates<B> {
    slots: Slots<B>,
    /// Node count at the start of the current window, and hits since.
    since: u64,
    hits: u64,
    /// The cache gave too few hits and is no longer used.
    pub off: bool,
}

impl<B: Bits> DeadStates<B> {
    #[inline(always)]
    fn slot(&self, occ: &B, avail: u64) -> usize {
        Self::slot_in(self.slots.len() - 1, occ, avail)
    }

    /// Whether the state is known to be dead.
    #[inline(always)]
    pub fn contains(&mut self, occ: &B, avail: u64) -> bool {
        if self.slots.is_empty() || self.off {
            return false;
        }
        // SAFETY: `slot` is masked to the table size.
        let (o, a) = unsafe { self.slots.get_unchecked(self.slot(occ, avail)) };
        if a == &avail && o == occ {
            self.hits += 1;
            return true;
        }
        false
    }

    /// Closes the hit-rate window once `nodes` is a window past its
    /// start: switches the cache off after too few hits. Called every so
    /// many nodes (the search's poll), not on every look-up.
    #[cold]
    pub fn review(&mut self, nodes: u64) {
        let n = nodes.wrapping_sub(self.since);
        if n < WINDOW {
            return;
        }
        if !self.slots.is_empty() && self.hits < n / MIN_HIT_RATE {
            self.off = true;
        }
        self.since = nodes;
        self.hits = 0;
    }

    /// The table (allocated if still empty) and its index mask, for a
    /// kernel that probes it inline: slot [`Self::slot_in`], entries as in
    /// the invariant. Hits found there are reported by [`Self::add_hits`].
    pub(super) fn table(&mut self) -> (&mut [(B, u64)], usize) {
        if self.slots.is_empty() {
            self.allocate();
        }
        let mask = self.slots.len() - 1;
        (&mut self.slots, mask)
    }

    /// The slot of a state in a table of `mask + 1` slots (as [`Self::slot`]).
    #[inline(always)]
    pub(super) fn slot_in(mask: usize, occ: &B, avail: u64) -> usize {
        let h = (occ.hash64() ^ avail.wrapping_mul(0xff51_afd7_ed55_8ccd)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & mask
    }

    /// Allocates the table: the largest power of two of slots within
    /// `BUDGET` bytes (done at the first insertion, so searches that never
    /// cache pay nothing).
    #[cold]
    #[inline(never)]
    fn allocate(&mut self) {
        let n = (BUDGET / std::mem::size_of::<(B, u64)>()).max(1);
        self.slots = Slots::zeroed(1 << n.ilog2());
    }

    /// Counts hits found by probing [`Self::table`] directly.
    pub(super) fn add_hits(&mut self, n: u64) {
        self.hits += n;
    }

    /// Records a dead state (occupancy not empty).
    #[inline(always)]
    pub fn insert(&mut self, occ: B, avail: u64) {
        debug_assert!(!occ.is_zero());
        if self.off {
            return;
        }
        if self.slots.is_empty() {
            self.allocate();
        }
        let i = self.slot(&occ, avail);
        // SAFETY: `slot` is masked to the table size.
        unsafe { *self.slots.get_unchecked_mut(i) = (occ, avail) };
    }
}

/// Size and alignment of a transparent huge page (x86-64).
const HUGE_PAGE: usize = 2 << 20;

/// The cache's slots, all `(B::default(), 0)` when made: in an anonymous
/// mapping of their own, aligned to and asking for transparent huge pages,
/// when the table is a whole number of them (Linux); else in a `Vec`.
///
/// Why: the probes hit the table at random, so even a short search touches
/// most of its 4 KB pages, each a page fault (about 800 of the 1741 faults
/// of the 10x6 pentominoes' set-up with `--node-limit 1`, docs/poly.md round
/// 11); one huge page is one fault, and fewer TLB misses in the search.
/// Where the kernel gives no huge page, the mapping is zero-filled 4 KB
/// pages as `calloc` would give.
///
/// Invariant: `Mapped { ptr, len }` owns a mapping of exactly
/// `len * size_of::<(B, u64)>()` bytes at `ptr` (from `mmap`, unmapped on
/// drop), its `len` slots initialised (zero bytes, which are
/// `(B::default(), 0)`: the masks are plain integers).
#[derive(Debug)]
enum Slots<B> {
    Heap(Vec<(B, u64)>),
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<(B, u64)>,
        len: usize,
    },
}

// SAFETY: `Mapped` owns its memory like a `Vec` does (no sharing).
unsafe impl<B: Send> Send for Slots<B> {}
// SAFETY: shared access only reads, as for a `Vec`.
unsafe impl<B: Sync> Sync for Slots<B> {}

impl<B> Default for Slots<B> {
    fn default() -> Self {
        Slots::Heap(Vec::new())
    }
}

impl<B: Clone> Clone for Slots<B> {
    fn clone(&self) -> Self {
        match self {
            Slots::Heap(v) => Slots::Heap(v.clone()),
            #[cfg(target_os = "linux")]
            Slots::Mapped { len, .. } => {
                let bytes = len * std::mem::size_of::<(B, u64)>();
                let Some(to) = map_huge(bytes) else {
                    return Slots::Heap(self.to_vec());
                };
                let to = to.cast::<(B, u64)>();
                for (i, x) in self.iter().enumerate() {
                    // SAFETY: `map_huge` gave `bytes`, room for `len` slots, so `i < len` is inside.
                    debug_assert!(i < *len);
                    unsafe { to.as_ptr().add(i).write(x.clone()) };
                }
                Slots::Mapped { ptr: to, len: *len }
            }
        }
    }
}

impl<B: Bits> Slots<B> {
    /// `len` slots `(B::default(), 0)`.
    fn zeroed(len: usize) -> Self {
        #[cfg(target_os = "linux")]
        if let Some(ptr) = map_huge(len * std::mem::size_of::<(B, u64)>()) {
            debug_assert!(B::default().is_zero() && std::mem::size_of::<B>() % 8 == 0);
            debug_assert_eq!(ptr.as_ptr() as usize % std::mem::align_of::<(B, u64)>(), 0);
            return Slots::Mapped { ptr: ptr.cast(), len };
        }
        Slots::Heap(vec![(B::default(), 0); len])
    }
}

impl<B> std::ops::Deref for Slots<B> {
    type Target = [(B, u64)];
    fn deref(&self) -> &[(B, u64)] {
        match self {
            Slots::Heap(v) => v,
            // SAFETY: by the invariant, `len` initialised slots at `ptr`.
            #[cfg(target_os = "linux")]
            Slots::Mapped { ptr, len } => {
                debug_assert!(*len > 0 && ptr.as_ptr() as usize % HUGE_PAGE == 0);
                unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) }
            }
        }
    }
}

impl<B> std::ops::DerefMut for Slots<B> {
    fn deref_mut(&mut self) -> &mut [(B, u64)] {
        match self {
            Slots::Heap(v) => v,
            // SAFETY: by the invariant, `len` initialised slots at `ptr`, owned by `self`.
            #[cfg(target_os = "linux")]
            Slots::Mapped { ptr, len } => {
                debug_assert!(*len > 0 && ptr.as_ptr() as usize % HUGE_PAGE == 0);
                unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), *len) }
            }
        }
    }
}

impl<B> Drop for Slots<B> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Slots::Mapped { ptr, len } = self {
            // SAFETY: by the invariant, the mapping is ours and this size
            // (the slots are plain integers: nothing to drop in them).
            debug_assert!(*len * std::mem::size_of::<(B, u64)>() % HUGE_PAGE == 0);
            unsafe { libc::munmap(ptr.as_ptr().cast(), *len * std::mem::size_of::<(B, u64)>()) };
        }
    }
}

/// A zero-filled anonymous mapping of `bytes` (a non-zero multiple of
/// [`HUGE_PAGE`]) aligned to [`HUGE_PAGE`], with `MADV_HUGEPAGE` asked for;
/// `None` for other sizes or if `mmap` fails.
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    if bytes == 0 || bytes % HUGE_PAGE != 0 {
        return None;
    }
    let span = bytes + HUGE_PAGE;
    // SAFETY: a fresh private anonymous mapping; no memory of ours is touched.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            span,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return None;
    }
    let base = p as usize;
    let start = (base + HUGE_PAGE - 1) & !(HUGE_PAGE - 1);
    let (head, tail) = (start - base, base + span - start - bytes);
    debug_assert!(head + tail == HUGE_PAGE && start % HUGE_PAGE == 0);
    // SAFETY: the head and tail are parts of the mapping just made, outside
    // `start..start + bytes`; page-aligned (mmap and `start` are). A failed
    // `madvise` leaves 4 KB pages, still zero-filled.
    unsafe {
        if head > 0 {
            libc::munmap(p, head);
        }
        if tail > 0 {
            libc::munmap((start + bytes) as *mut libc::c_void, tail);
        }
        libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
    std::ptr::NonNull::new(start as *mut u8)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut d = DeadStates::<crate::poly::bits::Wide<3>>::default();
        let s = crate::poly::bits::Wide([1, 0, 1 << 63]);
        d.insert(s, 5);
        assert!(d.slots.iter().filter(|(o, _)| !o.is_zero()).count() == 1);
        let mut e = d.clone();
        assert!(e.contains(&s, 5) && d.contains(&s, 5));
        assert!(!e.contains(&s, 4));
        assert!(DeadStates::<u64>::default().clone().slots.is_empty());
    }
}
