//! The memory of the dead-state tables: zero-filled slots in a huge-page
//! mapping of their own when the table is a whole number of huge pages.

use crate::poly::model::bits::Bits;
use std::sync::atomic::AtomicU64;

/// Size and alignment of a transparent huge page (x86-64).
#[cfg(target_os = "linux")]
pub(in crate::poly::stages::debruijn::memo) const HUGE_PAGE: usize = 2 << 20;

/// A slot type whose all-zero bytes are a valid value, the empty slot.
///
/// # Safety
/// All-zero bytes must be a valid `Self` equal to [`Zeroed::zero`], and
/// `Self` must have no drop glue (slots are unmapped, never dropped).
pub(in crate::poly::stages::debruijn::memo) unsafe trait Zeroed:
    Sized
{
    fn zero() -> Self;
}

// SAFETY: the masks are plain integers (`B::default()` is zero bytes,
// checked in `Slots::zeroed`); no drop glue.
unsafe impl<B: Bits> Zeroed for (B, u64) {
    fn zero() -> Self {
        (B::default(), 0)
    }
}

// SAFETY: an `AtomicU64` is a `u64` in memory; no drop glue.
unsafe impl Zeroed for AtomicU64 {
    fn zero() -> Self {
        AtomicU64::new(0)
    }
}

/// A table's slots, all [`Zeroed::zero`] when made: in an anonymous
/// mapping of their own, aligned to and asking for transparent huge pages,
/// when the table is a whole number of them (Linux); else in a `Vec`.
///
/// Why: the probes hit the table at random, so even a short search touches
/// most of its 4 KB pages, each a page fault (on a small flat puzzle most
/// of the set-up's faults; docs/tried/poly.md, "Set-up, solutions,
/// threads, DLX", the heap on 2 MB pages); one huge page is one fault, and
/// fewer TLB misses in the search.
/// Where the kernel gives no huge page, the mapping is zero-filled 4 KB
/// pages as `calloc` would give.
///
/// Invariant: `Mapped { ptr, len }` owns a mapping of exactly
/// `len * size_of::<T>()` bytes at `ptr` (from `mmap`, unmapped on drop),
/// its `len` slots initialised (zero bytes, which are `T::zero()`).
#[derive(Debug)]
pub(in crate::poly::stages::debruijn::memo) enum Slots<T> {
    Heap(Vec<T>),
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<T>,
        len: usize,
    },
}

// SAFETY: `Mapped` owns its memory like a `Vec` does.
unsafe impl<T: Send> Send for Slots<T> {}
// SAFETY: shared access gives `&[T]` only, as for a `Vec`.
unsafe impl<T: Sync> Sync for Slots<T> {}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots::Heap(Vec::new())
    }
}

impl<T: Clone> Clone for Slots<T> {
    fn clone(&self) -> Self {
        match self {
            Slots::Heap(v) => Slots::Heap(v.clone()),
            #[cfg(target_os = "linux")]
            Slots::Mapped { len, .. } => {
                let bytes = len * std::mem::size_of::<T>();
                let Some(to) = map_huge(bytes) else {
                    return Slots::Heap(self.to_vec());
                };
                let to = to.cast::<T>();
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

impl<T: Zeroed> Slots<T> {
    /// `len` slots `T::zero()`.
    pub(in crate::poly::stages::debruijn::memo) fn zeroed(len: usize) -> Self {
        #[cfg(target_os = "linux")]
        if let Some(ptr) = map_huge(len * std::mem::size_of::<T>()) {
            debug_assert!(std::mem::size_of::<T>().is_multiple_of(8));
            debug_assert_eq!(ptr.as_ptr() as usize % std::mem::align_of::<T>(), 0);
            return Slots::Mapped { ptr: ptr.cast(), len };
        }
        Slots::Heap(std::iter::repeat_with(T::zero).take(len).collect())
    }
}

impl<T> std::ops::Deref for Slots<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Slots::Heap(v) => v,
            // SAFETY: by the invariant, `len` initialised slots at `ptr`.
            #[cfg(target_os = "linux")]
            Slots::Mapped { ptr, len } => {
                debug_assert!(*len > 0 && (ptr.as_ptr() as usize).is_multiple_of(HUGE_PAGE));
                unsafe { std::slice::from_raw_parts(ptr.as_ptr(), *len) }
            }
        }
    }
}

impl<T> std::ops::DerefMut for Slots<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Slots::Heap(v) => v,
            // SAFETY: by the invariant, `len` initialised slots at `ptr`, owned by `self`.
            #[cfg(target_os = "linux")]
            Slots::Mapped { ptr, len } => {
                debug_assert!(*len > 0 && (ptr.as_ptr() as usize).is_multiple_of(HUGE_PAGE));
                unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), *len) }
            }
        }
    }
}

impl<T> Drop for Slots<T> {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Slots::Mapped { ptr, len } = self {
            // SAFETY: by the invariant, the mapping is ours and this size
            // (the slots have no drop glue: `Zeroed`).
            debug_assert!((*len * std::mem::size_of::<T>()).is_multiple_of(HUGE_PAGE));
            unsafe { libc::munmap(ptr.as_ptr().cast(), *len * std::mem::size_of::<T>()) };
        }
    }
}

/// A zero-filled anonymous mapping of `bytes` (a non-zero multiple of
/// [`HUGE_PAGE`]) aligned to [`HUGE_PAGE`], with `MADV_HUGEPAGE` asked for;
/// `None` for other sizes or if `mmap` fails.
#[cfg(target_os = "linux")]
fn map_huge(bytes: usize) -> Option<std::ptr::NonNull<u8>> {
    if bytes == 0 || !bytes.is_multiple_of(HUGE_PAGE) {
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
    debug_assert!(head + tail == HUGE_PAGE && start.is_multiple_of(HUGE_PAGE));
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
