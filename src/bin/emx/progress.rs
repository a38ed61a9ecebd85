//! The progress line on stderr: a ticker thread polls the shared
//! [`Progress`] counters and redraws one line a few times a second. It
//! stays silent when stderr is not a terminal, with `--quiet`, and for runs
//! shorter than [`DELAY`].

use emx::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Runs shorter than this never show a progress line.
pub const DELAY: Duration = Duration::from_millis(800);
const TICK: Duration = Duration::from_millis(200);

/// Whether a progress line may be drawn at all.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A running progress display; dropping it (or [`Ticker::finish`]) erases
/// the line and stops the thread.
pub struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts polling `progress` (does nothing unless [`wanted`]).
    pub fn start(progress: Arc<Progress>, label: String, quiet: bool) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        if !wanted(quiet) {
            return Ticker { stop, thread: None };
        }
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
                if start.elapsed() < DELAY {
                    continue;
                }
                let bar = bar.get_or_insert_with(|| {
                    let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                    b.set_style(ProgressStyle::with_template("{spinner} {prefix} {wide_msg}").expect("valid template"));
                    b.set_prefix(label.clone());
                    b
                });
                bar.set_message(progress.snapshot().line());
                bar.tick();
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        Ticker { stop, thread: Some(thread) }
    }

    /// Stops and erases the line.
    pub fn finish(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.shutdown();
    }
}
