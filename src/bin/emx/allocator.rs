//! The allocator's settings for emx's pattern of work: large tables built
//! once at set-up, then a search that allocates little. Only glibc on
//! Linux is tuned; elsewhere [`tune`] does nothing.

/// Tunes glibc's allocator for the set-up: blocks up to [`MMAP_BELOW`] come
/// from the heap (glibc's default maps every block of 128 KB or more on
/// its own and unmaps it when freed, so the next large block faults in
/// fresh pages again), and freed memory stays in the heap for the next
/// tables (up to [`TRIM_ABOVE`] kept at the top).
///
/// Then the heap is grown once by [`HEAP_RESERVE`] of address space (a
/// block allocated and freed at once: it stays as the heap's free top, no
/// page of it touched) and the whole 2 MB pages inside it are marked
/// `MADV_HUGEPAGE`, so the tables the set-up builds there fault in 2 MB at
/// a time instead of 4 KB: a fraction of the page faults, which are a
/// measurable part of a short run's set-up (docs/tried/poly.md, "Set-up,
/// solutions, threads, DLX"). The part below the first 2 MB boundary is
/// taken by one block that is never touched, so the next blocks start on
/// huge pages.
/// Memory is only committed where the program writes, as before, rounded
/// to 2 MB where the kernel grants huge pages (its THP mode `madvise` or
/// `always`); where it does not, nothing changes.
///
/// Worker threads allocate from that heap too (one arena, `M_ARENA_MAX`):
/// glibc otherwise gives each new thread an arena of its own, a fresh
/// mapping without huge pages, where a worker's first walker (its copy of
/// the DLX matrix, its buffers) would fault in 4 KB at a time, several
/// times the faults of a run with one arena. The searches allocate little
/// once started, and small blocks come from each thread's cache.
pub fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets allocator parameters; called first in
        // `main`, before any thread exists. It returns 1 on success.
        let ok = unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_BELOW)
                + libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_ABOVE)
                + libc::mallopt(libc::M_ARENA_MAX, 1)
        };
        debug_assert_eq!(ok, 3, "mallopt");
        if ok == 3 {
            reserve_huge_heap();
        }
    }
}

/// The heap growth of [`tune`]: best effort, a no-op where the
/// allocator does not behave as expected.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn reserve_huge_heap() {
    const HUGE: usize = 2 << 20;
    /// glibc's chunk header before a block, and the chunk alignment.
    const HEADER: usize = 16;
    // SAFETY: plain malloc/free of blocks this function owns; the pointers
    // are only compared and turned into addresses, never dereferenced. The
    // head block is leaked on purpose (address space, never touched).
    //
    // Two traps, both seen in the page faults of a set-up:
    // the blocks pass through `black_box`, since the compiler knows `malloc`
    // and `free` and otherwise took `taken != block` as always true (two
    // allocations) and deleted the head block's `malloc`/`free` pair, so the
    // first blocks went below the huge pages; and the huge pages are asked
    // for before the head is taken, since taking it writes the heap top's
    // header at the boundary, and a 2 MB range with a 4 KB page in it
    // already faults in 4 KB pages for good.
    unsafe {
        let block = std::hint::black_box(libc::malloc(HEAP_RESERVE));
        if block.is_null() {
            return;
        }
        let chunk = block as usize - HEADER;
        let end = chunk + HEAP_RESERVE;
        libc::free(block);
        // The freed block merged back into the heap's top: a block of
        // `head - 8` bytes from the top takes a chunk of exactly `head`
        // (glibc rounds request + 8 up to 16), ending at the boundary.
        let aligned = (chunk + HEADER + HUGE - 1) & !(HUGE - 1);
        let head = aligned - chunk;
        let huge_end = end & !(HUGE - 1);
        if huge_end > aligned {
            libc::madvise(aligned as *mut libc::c_void, huge_end - aligned, libc::MADV_HUGEPAGE);
        }
        let taken = std::hint::black_box(libc::malloc(head - 8));
        if !std::ptr::eq(taken, block) {
            // Not carved from the top (a free block of that size was
            // reused): give it back; the first blocks then start below
            // the huge pages.
            libc::free(taken);
        }
    }
}

/// See [`tune`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_BELOW: libc::c_int = 32 << 20;
/// See [`tune`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_ABOVE: libc::c_int = 64 << 20;
/// See [`tune`]: just under [`MMAP_BELOW`], so it comes from the
/// heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_RESERVE: usize = (32 << 20) - (64 << 10);
