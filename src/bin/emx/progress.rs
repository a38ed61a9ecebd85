//! The progress line on stderr: a ticker thread polls the shared
//! [`Progress`] counters and redraws one line a few times a second. It
//! stays silent with `--quiet`, for runs shorter than [`DELAY`], and when
//! stderr is not a terminal unless `--progress` asks for it: then it writes
//! a plain line at the interval asked (logs of batch jobs, `nohup`).

use emx::search::progress::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Runs shorter than this never show a progress line.
pub const DELAY: Duration = Duration::from_millis(800);
const TICK: Duration = Duration::from_millis(200);

/// When progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// Never (`--quiet`).
    Never,
    /// On a terminal only (the default).
    OnTerminal,
    /// Always (`--progress`): a redrawn line on a terminal, elsewhere a
    /// plain line every interval.
    Always(Duration),
}

impl Show {
    /// The mode of `--quiet` and `--progress[=SECONDS]` (which wins).
    pub fn of(quiet: bool, progress: Option<f64>) -> Show {
        match (quiet, progress) {
            (_, Some(s)) => Show::Always(Duration::from_secs_f64(s.max(0.05))),
            (true, None) => Show::Never,
            (false, None) => Show::OnTerminal,
        }
    }
}

/// Whether any progress will be shown (the redrawn line, or the lines of
/// `--progress` in a log).
pub fn shown(show: Show) -> bool {
    matches!(show, Show::Always(_)) || wanted(show)
}

/// Whether a redrawn progress line may be drawn.
pub fn wanted(show: Show) -> bool {
    show != Show::Never && std::io::stderr().is_terminal()
}

/// stderr as indicatif sees it, three columns narrower than it is.
/// indicatif pads its line to the full width, leaving the cursor in the
/// last column; the `^C` a terminal echoes on Ctrl-C then wraps to a new
/// line and the progress line could not be erased. The spare columns
/// keep the echo on the progress line.
#[derive(Debug)]
struct NarrowStderr(console::Term);

impl TermLike for NarrowStderr {
    fn width(&self) -> u16 {
        self.0.size().1.saturating_sub(3).max(20)
    }
    fn height(&self) -> u16 {
        self.0.size().0
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_up(n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_down(n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_right(n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.0.move_cursor_left(n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.0.write_line(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.0.write_str(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.0.clear_line()
    }
    fn flush(&self) -> std::io::Result<()> {
        std::io::Write::flush(&mut &self.0)
    }
}

/// A progress bar drawing on stderr (only call when [`wanted`]).
pub fn bar(len: Option<u64>, template: &str) -> ProgressBar {
    let target = ProgressDrawTarget::term_like_with_hz(Box::new(NarrowStderr(console::Term::stderr())), 10);
    let b = ProgressBar::with_draw_target(len, target);
    b.set_style(ProgressStyle::with_template(template).expect("valid template"));
    b
}

/// A running progress display; dropping it (or [`Ticker::finish`]) erases
/// the line and stops the thread.
pub struct Ticker {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    /// Starts polling `progress` as `show` says.
    pub fn start(progress: Arc<Progress>, label: String, show: Show) -> Ticker {
        let stop = Arc::new(AtomicBool::new(false));
        let every = match show {
            Show::Always(every) if !std::io::stderr().is_terminal() => Some(every),
            _ => None,
        };
        if !wanted(show) && every.is_none() {
            return Ticker { stop, thread: None };
        }
        let flag = stop.clone();
        if let Some(every) = every {
            let thread = std::thread::spawn(move || {
                let start = Instant::now();
                let mut next = every;
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(TICK.min(every));
                    if start.elapsed() >= next {
                        eprintln!("progress: {label}: {}", progress.snapshot().line());
                        next += every;
                    }
                }
            });
            return Ticker { stop, thread: Some(thread) };
        }
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut bar: Option<ProgressBar> = None;
            while !flag.load(Ordering::Relaxed) {
                std::thread::sleep(TICK);
                if start.elapsed() < DELAY {
                    continue;
                }
                let bar = bar.get_or_insert_with(|| {
                    let b = self::bar(None, "{spinner} {prefix} {msg}");
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
