//! Running a program with a deadline and a cancel flag, its output captured
//! in files (no pipe can fill up and block it).

use std::io;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcessEnd {
    /// It exited by itself.
    Exited(ExitStatus),
    /// It ran past its deadline and was killed.
    Killed,
    /// The cancel flag was raised and it was killed.
    Interrupted,
}

/// A finished program run.
#[derive(Clone, Debug)]
pub struct ProcessRun {
    /// How it ended.
    pub end: ProcessEnd,
    /// Everything it printed on stdout (lossily decoded).
    pub stdout: String,
    /// Everything it printed on stderr (lossily decoded).
    pub stderr: String,
    /// Wall time from start to exit.
    pub elapsed: Duration,
}

impl ProcessRun {
    /// The exit code, if it exited normally.
    pub fn code(&self) -> Option<i32> {
        match self.end {
            ProcessEnd::Exited(s) => s.code(),
            _ => None,
        }
    }
}

/// Runs `command` with stdin empty and stdout/stderr captured in `dir`,
/// killing it `kill_after` from its start or when `cancel` is raised.
pub fn run_process(
    command: &mut Command,
    dir: &Path,
    kill_after: Option<Duration>,
    cancel: Option<&AtomicBool>,
) -> io::Result<ProcessRun> {
    let out_path = dir.join("stdout.txt");
    let err_path = dir.join("stderr.txt");
    command.stdin(Stdio::null()).stdout(std::fs::File::create(&out_path)?).stderr(std::fs::File::create(&err_path)?);
    let start = Instant::now();
    let mut child = command.spawn()?;
    let mut nap = Duration::from_millis(1);
    let end = loop {
        if let Some(status) = child.try_wait()? {
            break ProcessEnd::Exited(status);
        }
        let stop = if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Some(ProcessEnd::Interrupted)
        } else if kill_after.is_some_and(|k| start.elapsed() >= k) {
            Some(ProcessEnd::Killed)
        } else {
            None
        };
        if let Some(end) = stop {
            let _ = child.kill();
            let _ = child.wait();
            break end;
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let read = |p: &Path| std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(ProcessRun { end, stdout: read(&out_path)?, stderr: read(&err_path)?, elapsed })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn captures_output_and_kills_at_the_deadline() {
        let dir = crate::bench::external::scratch_dir().unwrap();
        let run = run_process(Command::new("sh").args(["-c", "echo out; echo err >&2"]), &dir, None, None).unwrap();
        assert_eq!(run.code(), Some(0));
        assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("out\n", "err\n"));
        let run = run_process(Command::new("sleep").arg("5"), &dir, Some(Duration::from_millis(50)), None).unwrap();
        assert_eq!(run.end, ProcessEnd::Killed);
        assert!(run.elapsed < Duration::from_secs(4));
        let cancel = AtomicBool::new(true);
        let run = run_process(Command::new("sleep").arg("5"), &dir, None, Some(&cancel)).unwrap();
        assert_eq!(run.end, ProcessEnd::Interrupted);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
