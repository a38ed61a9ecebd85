//! Ctrl-C. In a command that polls the flag (a search), the first Ctrl-C
//! sets it and the search stops cleanly, printing what it found (exit code
//! 3). Otherwise, or on a second Ctrl-C, the temporary files of unfinished
//! outputs are removed (the targets were never touched) and emx exits with
//! code 3.
//!
//! On Unix, until the first temporary file is made there is nothing to
//! remove, and a plain signal handler does it all (an atomic flag, or a
//! message and `_exit`); the `ctrlc` handler, which needs a thread of its
//! own (a measurable part of a run of a few milliseconds), is installed
//! only then, through [`emx::write::before_first_temp`]. Elsewhere the
//! `ctrlc` handler is installed at once.

use crate::EXIT_LIMIT;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag Ctrl-C sets.
static INTERRUPT: OnceLock<Arc<AtomicBool>> = OnceLock::new();
/// Whether the running command polls [`INTERRUPT`] (a search).
static POLLED: AtomicBool = AtomicBool::new(false);

/// A flag set by Ctrl-C; searches poll it and stop cleanly (printing what
/// they found, exit code 3). Calling this tells the Ctrl-C handler that the
/// command polls the flag.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    POLLED.store(true, Ordering::SeqCst);
    INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone()
}

/// Installs the handling described in the module documentation.
pub fn install() {
    INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false)));
    #[cfg(unix)]
    {
        unix::install_plain();
        emx::write::before_first_temp(install_removing_handler);
    }
    #[cfg(not(unix))]
    install_removing_handler();
}

/// The `ctrlc` handler: it also removes the temporary files of unfinished
/// outputs (installed once).
fn install_removing_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let flag = INTERRUPT.get_or_init(|| Arc::new(AtomicBool::new(false))).clone();
        // If a handler cannot be installed, the plain one stays (Unix) or
        // the default: the process ends, and unfinished outputs stay under
        // their temporary names, never at their targets.
        let _ = ctrlc::set_handler(move || {
            if POLLED.load(Ordering::SeqCst) && !flag.swap(true, Ordering::SeqCst) {
                return;
            }
            emx::write::remove_unfinished();
            eprintln!("emx: interrupted: unfinished outputs removed");
            std::process::exit(EXIT_LIMIT.into());
        });
    });
}

#[cfg(unix)]
mod unix {
    use super::{EXIT_LIMIT, INTERRUPT, POLLED};
    use std::sync::atomic::Ordering;

    /// Installs [`on_sigint`] for SIGINT.
    pub(super) fn install_plain() {
        // SAFETY: `sa` is fully initialised (zeroed, then an empty mask)
        // before `sigaction` reads it; `on_sigint` only does
        // async-signal-safe work. If it fails, Ctrl-C keeps its default
        // effect: the process ends, and unfinished outputs stay under their
        // temporary names, never at their targets.
        let rc = unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(libc::SIGINT, &sa, std::ptr::null_mut())
        };
        debug_assert_eq!(rc, 0, "sigaction(SIGINT)");
    }

    /// The signal handler while no output is in progress: atomics, `write`
    /// and `_exit` only (so, unlike `process::exit`, it does not flush a
    /// partly written line of standard output).
    extern "C" fn on_sigint(_: libc::c_int) {
        if let Some(flag) = INTERRUPT.get() {
            if POLLED.load(Ordering::SeqCst) && !flag.swap(true, Ordering::SeqCst) {
                return;
            }
        }
        const MSG: &[u8] = b"emx: interrupted: unfinished outputs removed\n";
        // SAFETY: `write` and `_exit` are async-signal-safe; `MSG` is static.
        unsafe {
            libc::write(2, MSG.as_ptr().cast(), MSG.len());
            libc::_exit(EXIT_LIMIT.into());
        }
    }
}
