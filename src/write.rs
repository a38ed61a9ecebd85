//! Every file emx writes goes through [`atomically`]: the bytes go to a
//! temporary file in the target's directory, which is renamed over the
//! target only once everything was written and synced. A run that fails,
//! hits the size cap or is interrupted (Ctrl-C) midway removes the
//! temporary file and leaves the target as it was (absent, or its old
//! contents), never truncated.
//!
//! Writes go through a [`Guarded`] writer that enforces the size cap
//! (`--max-size`) and stops when the cancel flag (set by Ctrl-C) is raised.

use crate::size_cap::{Measure, SizeCap, TooLarge};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Temporary files of writes in progress, for [`remove_unfinished`].
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes the temporary files of every write still in progress: called
/// by the CLI's Ctrl-C handler right before it exits, so an interrupted
/// run leaves neither a truncated output nor a stray temporary file.
///
/// The list stays locked afterwards, so no write can make a new temporary
/// file between this call and the exit (a write that tries waits for the
/// lock until the process ends). Temporary files are made under the same
/// lock ([`create_listed`]): each one is either listed here, and removed,
/// or not yet made.
pub fn remove_unfinished() {
    let mut list = unfinished();
    for tmp in list.drain(..) {
        let _ = std::fs::remove_file(tmp);
    }
    std::mem::forget(list);
}

/// Makes the temporary file that `path` is written under: runs the
/// before-temp hook, then creates the file and lists it for
/// [`remove_unfinished`] under one lock (listing it first and creating it
/// after would let an interrupt remove it in between, before it exists,
/// and leave it behind). Every write ends with [`unlist`].
fn create_listed(path: &Path) -> io::Result<(PathBuf, File)> {
    if let Some(hook) = BEFORE_TEMP.get() {
        hook();
    }
    let tmp = temp_path(path);
    let mut list = unfinished();
    // Readable too: a [`Scratch`] file is read back.
    let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&tmp)?;
    list.push(tmp.clone());
    Ok((tmp, file))
}

/// Ends the write of `tmp` (renamed over its target, or `failed`, in which
/// case the file is removed): takes it off the list, under the lock.
fn unlist(tmp: &Path, failed: bool) {
    let mut list = unfinished();
    if failed {
        let _ = std::fs::remove_file(tmp);
    }
    list.retain(|p| p != tmp);
}

/// Called before each temporary file is made (see [`before_first_temp`]).
static BEFORE_TEMP: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Has `hook` called before every temporary file is made (the first
/// registration wins): the CLI installs its file-removing Ctrl-C handler
/// there, lazily, so runs that write no file spawn no handler thread. The
/// hook must be cheap after its first call.
pub fn before_first_temp(hook: fn()) {
    let _ = BEFORE_TEMP.set(hook);
}

/// What a written output is allowed: a size cap and a cancel flag.
#[derive(Clone, Debug, Default)]
pub struct OutputGuard {
    /// Largest output, in bytes.
    pub cap: SizeCap,
    /// Stop writing when this becomes true (Ctrl-C).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl OutputGuard {
    /// A guard with no cap and no cancel flag.
    pub fn unlimited() -> Self {
        OutputGuard { cap: SizeCap::unlimited(), cancel: None }
    }
}

/// The write was stopped by the cancel flag (Ctrl-C).
#[derive(Debug, thiserror::Error)]
#[error("interrupted while writing {0}: nothing was written there")]
pub struct Cancelled(pub String);

/// A writer that enforces an [`OutputGuard`]: it fails with a [`TooLarge`]
/// error before the output would exceed the cap, and with [`Cancelled`]
/// once the cancel flag is raised.
pub struct Guarded<W> {
    inner: W,
    written: u64,
    guard: OutputGuard,
    what: String,
}

impl<W: Write> Guarded<W> {
    /// Wraps `inner`; `what` names the output in errors.
    pub fn new(inner: W, guard: &OutputGuard, what: impl Into<String>) -> Self {
        Guarded { inner, written: 0, guard: guard.clone(), what: what.into() }
    }
    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }
    /// The wrapped writer.
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for Guarded<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.guard.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(io::Error::other(Cancelled(self.what.clone())));
        }
        let after = self.written.saturating_add(buf.len() as u64);
        if after > self.guard.cap.bytes {
            return Err(io::Error::other(TooLarge {
                what: self.what.clone(),
                bytes: after,
                measure: Measure::AtLeast,
                detail: "stopped while writing".into(),
                cap: self.guard.cap.bytes,
            }));
        }
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The writer [`atomically`] hands to its closure.
pub type AtomicWriter = BufWriter<Guarded<File>>;

/// The temporary name an output is written under before it is renamed:
/// hidden, in the same directory (so the rename is atomic), unique per
/// process and call.
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map_or_else(|| "out".into(), |s| s.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.emx-tmp-{}-{n}", std::process::id()))
}

/// Writes `path` through `write`, first to a temporary file beside it that
/// is renamed over `path` only when everything was written (so a failed,
/// capped or interrupted run never leaves a truncated output).
pub fn atomically<T>(
    path: &Path,
    guard: &OutputGuard,
    write: impl FnOnce(&mut AtomicWriter) -> io::Result<T>,
) -> io::Result<T> {
    let mut file = AtomicFile::create(path, guard)?;
    let value = write(file.writer())?;
    file.commit()?;
    Ok(value)
}

/// An output written over time (a search writing solutions as it finds
/// them) that appears at its target only when [`AtomicFile::commit`]ed:
/// until then the bytes go to a listed temporary file beside the target
/// (removed by [`remove_unfinished`] on Ctrl-C), and dropping the value
/// uncommitted removes it, leaving the target as it was.
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    writer: Option<AtomicWriter>,
}

impl AtomicFile {
    /// Starts the write of `path` under `guard`.
    pub fn create(path: &Path, guard: &OutputGuard) -> io::Result<Self> {
        let (tmp, file) = create_listed(path)?;
        let writer = BufWriter::with_capacity(1 << 20, Guarded::new(file, guard, path.display().to_string()));
        Ok(AtomicFile { target: path.to_path_buf(), tmp, writer: Some(writer) })
    }

    /// Where the bytes go (through the guard).
    pub fn writer(&mut self) -> &mut AtomicWriter {
        self.writer.as_mut().expect("an uncommitted file has its writer")
    }

    /// Flushes, syncs and renames the file over its target.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("an uncommitted file has its writer");
        let result = (|| {
            let file = writer.into_inner().map_err(|e| e.into_error())?.into_inner();
            file.sync_all()?;
            drop(file);
            std::fs::rename(&self.tmp, &self.target)
        })();
        unlist(&self.tmp, result.is_err());
        result
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(writer) = self.writer.take() {
            // Uncommitted: the bytes are dropped with the file.
            drop(writer.into_parts());
            unlist(&self.tmp, true);
        }
    }
}

/// A scratch file for bytes that are written before what must precede
/// them is known (the body of an SVG picture, whose head holds its
/// height): a listed temporary file in `dir` (removed on Ctrl-C), written
/// through a guard, read back with [`Scratch::copy_to`], and removed when
/// dropped.
pub struct Scratch {
    tmp: PathBuf,
    /// Always `Some` until dropped (the file is closed before it is removed).
    writer: Option<BufWriter<Guarded<File>>>,
}

impl Scratch {
    /// A scratch file in `dir` under `guard`; `what` names the output it
    /// belongs to in errors.
    pub fn create(dir: &Path, guard: &OutputGuard, what: &str) -> io::Result<Self> {
        let (tmp, file) = create_listed(&dir.join("scratch"))?;
        Ok(Scratch { tmp, writer: Some(BufWriter::with_capacity(1 << 20, Guarded::new(file, guard, what))) })
    }

    /// Bytes written so far (buffered ones included).
    pub fn written(&self) -> u64 {
        let w = self.writer.as_ref().expect("open until dropped");
        w.get_ref().written() + w.buffer().len() as u64
    }

    fn buffered(&mut self) -> &mut BufWriter<Guarded<File>> {
        self.writer.as_mut().expect("open until dropped")
    }

    /// Copies everything written to `out`.
    pub fn copy_to(&mut self, out: &mut dyn Write) -> io::Result<u64> {
        use std::io::{Seek, SeekFrom};
        let writer = self.buffered();
        writer.flush()?;
        let file = &mut writer.get_mut().inner;
        file.seek(SeekFrom::Start(0))?;
        let n = io::copy(file, out)?;
        file.seek(SeekFrom::End(0))?;
        Ok(n)
    }
}

impl Write for Scratch {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffered().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.buffered().flush()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        drop(self.writer.take().map(BufWriter::into_parts));
        unlist(&self.tmp, true);
    }
}

/// Writes `text` to `path` atomically.
pub fn text_atomically(path: &Path, guard: &OutputGuard, text: &str) -> io::Result<()> {
    atomically(path, guard, |w| w.write_all(text.as_bytes()))
}

/// Writes a small `text` to `path` through a temporary file and a rename,
/// like [`text_atomically`] (never a truncated file under `path`), but
/// without syncing it to disk: for the many part files of a split, whose
/// manifest, written last with [`text_atomically`], is the commit point
/// (a sync per part would make a split into a hundred thousand parts take
/// minutes instead of seconds: docs/tried/scan.md).
pub fn small_text_unsynced(path: &Path, text: &str) -> io::Result<()> {
    let (tmp, mut file) = create_listed(path)?;
    let written = file.write_all(text.as_bytes());
    drop(file);
    let result = written.and_then(|()| std::fs::rename(&tmp, path));
    unlist(&tmp, result.is_err());
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test's scratch directory, removed with its contents when dropped.
    struct Scratch(PathBuf);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn dir(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("emx-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    fn listing(d: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_complete_write_replaces_the_target() {
        let d = dir("ok");
        let p = d.join("out.cnf");
        std::fs::write(&p, "old").unwrap();
        text_atomically(&p, &OutputGuard::default(), "new contents").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new contents");
        assert_eq!(listing(&d), vec!["out.cnf"]);
    }

    #[test]
    fn a_writer_failing_midway_leaves_nothing_at_the_target() {
        let d = dir("fail");
        let p = d.join("out.cnf");
        let r: io::Result<()> = atomically(&p, &OutputGuard::default(), |w| {
            w.write_all(&vec![b'x'; 3 << 20])?; // past the buffer: bytes reach the temporary file
            Err(io::Error::other("the encoder failed"))
        });
        assert!(r.is_err());
        assert!(!p.exists());
        assert!(listing(&d).is_empty(), "{:?}", listing(&d));
        // An existing target keeps its old contents.
        std::fs::write(&p, "old").unwrap();
        let r: io::Result<()> = atomically(&p, &OutputGuard::default(), |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("boom"))
        });
        assert!(r.is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(listing(&d), vec!["out.cnf"]);
    }

    #[test]
    fn the_cap_and_the_cancel_flag_stop_a_write() {
        let d = dir("guard");
        let p = d.join("out.clq");
        let guard = OutputGuard { cap: SizeCap::new(1000), cancel: None };
        let e = atomically(&p, &guard, |w| w.write_all(&[b'e'; 5000])).unwrap_err();
        assert!(e.to_string().contains("over the size cap of 1000 bytes"), "{e}");
        assert!(listing(&d).is_empty());
        let flag = Arc::new(AtomicBool::new(true));
        let guard = OutputGuard { cap: SizeCap::default(), cancel: Some(flag) };
        let e = atomically(&p, &guard, |w| w.write_all(&[b'e'; 5000])).unwrap_err();
        assert!(e.to_string().contains("interrupted while writing"), "{e}");
        assert!(listing(&d).is_empty());
    }

    #[test]
    fn a_temporary_file_is_listed_exactly_while_it_exists() {
        let d = dir("listed");
        let p = d.join("out.txt");
        let listed = |tmp: &Path| unfinished().iter().any(|q| q == tmp);
        let tmp = atomically(&p, &OutputGuard::default(), |w| {
            w.write_all(b"x")?;
            // The temporary file is the only other file in the directory.
            let name = listing(&d).into_iter().find(|n| n != "out.txt").expect("the temporary file");
            let tmp = d.join(name);
            assert!(listed(&tmp), "{tmp:?} exists but is not listed for removal");
            Ok(tmp)
        })
        .unwrap();
        assert!(!listed(&tmp), "{tmp:?} is still listed after the rename");
        small_text_unsynced(&p, "y").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "y");
        assert_eq!(listing(&d), vec!["out.txt"]);
    }
}
