//! Writing a command's output: to stdout, or to a file atomically (a
//! temporary file beside it, then a rename), so an interrupted run never
//! leaves half a file behind.

use std::io::Write;
use std::path::Path;

/// Writes `content` to `path`, or to stdout when `path` is `None` or `-`.
pub fn write(path: Option<&Path>, content: &str) -> anyhow::Result<()> {
    match path {
        None => stdout(content),
        Some(p) if p.as_os_str() == "-" => stdout(content),
        Some(p) => write_file(p, content),
    }
}

fn stdout(content: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(content.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes `content` to `path` through [`emx::write::text_atomically`] (a
/// temporary file in the same directory and a rename).
pub fn write_file(path: &Path, content: &str) -> anyhow::Result<()> {
    emx::write::text_atomically(path, &emx::write::OutputGuard::default(), content).map_err(|e| cannot_write(path, e))
}

/// A failed write of `path` as the user reads it (a usage error: exit 2).
pub fn cannot_write(path: &Path, e: std::io::Error) -> anyhow::Error {
    crate::usage::UsageError(format!(
        "cannot write {}: {e} (check that the directory exists and is writable)",
        path.display()
    ))
    .into()
}
