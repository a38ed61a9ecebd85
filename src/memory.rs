//! The memory a run needs, estimated before anything is built, and the
//! process's resident memory, watched while it runs (`--memory-limit`).
//!
//! [`MemoryEstimate`] adds the process's own footprint, the IR build's peak
//! ([`IrEstimate`]) and the tables of the engine that will search it; the
//! loader refuses a run whose estimate exceeds the limit before it
//! allocates anything large ([`crate::input::LoadOptions::memory_limit`]).
//! [`Watcher`] polls the resident set (Linux: `/proc/self/statm`) and sets
//! a cancellation flag when it grows past the limit, which stops the build
//! or the search as Ctrl-C does. Elsewhere [`resident`] is `None` and the
//! watcher never fires: only the estimate holds there.

use crate::size_cap::{human, IrEstimate};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What the process takes before it reads a puzzle: its code and data
/// pages, the allocator's arena, the standard library's buffers (measured
/// as the peak resident set of the smallest runs).
pub const PROCESS_BASE: u64 = 8 << 20;

/// How often [`Watcher`] reads the resident set.
pub const POLL: Duration = Duration::from_millis(10);

/// The engine tables a memory estimate counts on top of the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tables {
    /// None (`emx info`, encoders that stream from the IR).
    None,
    /// The dancing-links matrix ([`crate::dlx::Matrix`]).
    Dlx,
    /// The polycube engines ([`crate::poly::PolyEngine`]).
    Poly,
}

impl Tables {
    fn name(self) -> &'static str {
        match self {
            Tables::None => "the engine's tables",
            Tables::Dlx => "the DLX matrix and the verifier's memo",
            Tables::Poly => "the polycube engines' tables and the verifier's memo",
        }
    }
}

/// Bytes of the DLX matrix of a problem: a 16-byte node per item header,
/// entry and option spacer (two more), and the item lists.
pub fn dlx_tables(items: u64, options: u64, entries: u64) -> u64 {
    items
        .saturating_add(2)
        .saturating_add(entries)
        .saturating_add(options)
        .saturating_mul(16)
        .saturating_add(items * 12)
}

/// Bytes of the polycube engines' tables, a rule fitted to the bundled and
/// generated puzzles (docs/reliability.md, "Memory"): per image its
/// occupancy mask (8 bytes up to 64 free cells, then 16, 32, 64, 128
/// up to 128, 256, 512, 1024) and its index
/// entries, and the indexes the stages build up to their budgets (cover
/// and root indexes, dead-state caches, the engines the redundancy
/// filter's choice builds), about 2 KiB an image up to 24 MiB.
pub fn poly_tables(options: u64, free_cells: u64) -> u64 {
    let mask = match free_cells {
        0..=64 => 8,
        65..=128 => 16,
        129..=256 => 32,
        257..=512 => 64,
        _ => 128,
    };
    options.saturating_mul(mask + 8).saturating_add(options.saturating_mul(2 << 10).min(24 << 20))
}

/// Bytes of the puzzle-level verifier's memo of placements (prepared at
/// the first solution checked): 128 bytes an option.
pub fn verifier_memo(options: u64) -> u64 {
    options.saturating_mul(128)
}

/// The memory a run is expected to take at its peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// The IR build.
    pub ir: IrEstimate,
    /// Which engine's tables are counted.
    pub tables: Tables,
    /// Their bytes.
    pub table_bytes: u64,
    /// The peak: [`PROCESS_BASE`], then the larger of the build's peak and
    /// the built IR with the engine's tables.
    pub bytes: u64,
}

impl MemoryEstimate {
    /// The estimate of a run building `ir` and then `tables` of `table_bytes`.
    pub fn new(ir: IrEstimate, tables: Tables, table_bytes: u64) -> Self {
        let peak = ir.bytes.max(ir.kept.saturating_add(table_bytes));
        MemoryEstimate { ir, tables, table_bytes, bytes: PROCESS_BASE.saturating_add(peak) }
    }

    /// Checks the estimate against a limit of `limit` bytes.
    pub fn check(&self, limit: u64) -> Result<(), OverMemoryLimit> {
        if self.bytes <= limit {
            return Ok(());
        }
        Err(OverMemoryLimit {
            bytes: self.bytes,
            limit,
            detail: format!(
                "the IR build about {} ({} options, {} entries, {} symmetries), {} about {}",
                human(self.ir.bytes),
                self.ir.options,
                self.ir.entries,
                self.ir.symmetries,
                self.tables.name(),
                human(self.table_bytes)
            ),
        })
    }
}

/// A run whose memory estimate exceeds the memory limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the run would need about {need} of memory ({detail}), over the memory limit of {cap}: nothing was built; raise it with --memory-limit",
    need = human(*.bytes),
    cap = human(*.limit)
)]
pub struct OverMemoryLimit {
    /// The estimate, in bytes.
    pub bytes: u64,
    /// The limit, in bytes.
    pub limit: u64,
    /// What the estimate is made of.
    pub detail: String,
}

/// The process's resident set in bytes (Linux: `/proc/self/statm`), `None`
/// where it cannot be read.
pub fn resident() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        // SAFETY: `sysconf` only reads a system constant.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        Some(pages.saturating_mul(u64::try_from(page).ok().filter(|&p| p > 0).unwrap_or(4096)))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// A thread that reads the resident set every [`POLL`] and, once it
/// exceeds the limit, records that and sets the cancellation flag it was
/// given (the flag the build and the search poll). Dropping it stops the
/// thread. Where [`resident`] is `None` it starts no thread.
pub struct Watcher {
    tripped: Arc<AtomicBool>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    /// Watches for a resident set over `limit` bytes; sets `cancel` then.
    pub fn start(limit: u64, cancel: Arc<AtomicBool>) -> Watcher {
        let tripped = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let thread = resident().is_some().then(|| {
            let (tripped, done) = (tripped.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if resident().is_some_and(|r| r > limit) {
                        tripped.store(true, Ordering::SeqCst);
                        cancel.store(true, Ordering::SeqCst);
                        return;
                    }
                    std::thread::sleep(POLL);
                }
            })
        });
        Watcher { tripped, done, thread }
    }

    /// Whether the resident set went past the limit (and the flag was set).
    pub fn tripped(&self) -> bool {
        self.tripped.load(Ordering::SeqCst)
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_over_the_limit_names_both() {
        let ir = IrEstimate::polycube(1000, 5000, 1, 100, 32_000);
        let e = MemoryEstimate::new(ir, Tables::Dlx, dlx_tables(100, 1000, 5000));
        assert!(e.check(1 << 40).is_ok());
        let msg = e.check(1 << 20).unwrap_err().to_string();
        assert!(msg.contains("over the memory limit of 1.0 MiB"), "{msg}");
        assert!(msg.contains("the DLX matrix and the verifier's memo about"), "{msg}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_resident_set_is_read_and_a_low_limit_trips_the_watcher() {
        assert!(resident().is_some_and(|r| r > 0));
        let flag = Arc::new(AtomicBool::new(false));
        let w = Watcher::start(1, flag.clone());
        let t = std::time::Instant::now();
        while !w.tripped() && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(POLL);
        }
        assert!(w.tripped() && flag.load(Ordering::SeqCst));
    }
}
