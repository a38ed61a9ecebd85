//! Front-ends: puzzle files to the IR.

pub mod dlx;
pub mod edgematch;
pub mod format;
pub mod polycube;

use std::fmt;
use std::path::Path;

/// A syntax or semantic error in an input file, with its position.
///
/// Displayed as `file:line:col: message` (or `file:line: message` when no
/// column applies), the form editors and terminals link to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// File name as given by the user (or `<stdin>`, `<string>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, when the error points into the line.
    pub col: Option<usize>,
    /// What was found and what was expected.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.col {
            Some(col) => write!(f, "{}:{}:{}: {}", self.file, self.line, col, self.message),
            None => write!(f, "{}:{}: {}", self.file, self.line, self.message),
        }
    }
}

/// Failure to load an input file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Io {
        /// File name.
        file: String,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The file was read but is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The puzzle is well-formed but its model would exceed the size cap.
    #[error("{file}: {error}")]
    TooLarge {
        /// File name.
        file: String,
        /// What, how large, and the cap (not a `source`: the message
        /// already says it all).
        error: crate::size_cap::TooLarge,
    },
    /// The run's memory estimate exceeds `--memory-limit` (checked before
    /// the IR is built).
    #[error("{file}: {error}")]
    OverMemoryLimit {
        /// File name.
        file: String,
        /// The estimate and the limit.
        error: crate::memory::OverMemoryLimit,
    },
    /// A deadline or a cancellation stopped the reading or the build: no
    /// model was built and nothing was searched.
    #[error("{file}: {} while building the model; nothing was searched", stop_phrase(*.reason))]
    Stopped {
        /// File name.
        file: String,
        /// `TimeLimit` or `Interrupted` (or `MemoryLimit` as relabelled
        /// by a caller that watched the memory).
        reason: crate::search::StopReason,
    },
}

/// How a stop during the build is told: `the time limit was reached`...
pub fn stop_phrase(reason: crate::search::StopReason) -> &'static str {
    use crate::search::StopReason::*;
    match reason {
        TimeLimit => "the time limit was reached",
        MemoryLimit => "the memory limit was reached",
        Interrupted => "interrupted",
        NodeLimit | SolutionLimit | Visitor => "stopped",
    }
}

/// Largest input file emx reads (bytes); larger files are refused with a
/// clear error rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a whole text file, refusing anything over [`MAX_FILE_BYTES`] and
/// anything that is not UTF-8, with errors that name the file.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let file = path.display().to_string();
    let io = |source| LoadError::Io { file: file.clone(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ParseError {
            file: file.clone(),
            line: 1,
            col: None,
            message: format!("file is {} bytes; emx reads at most {} bytes", meta.len(), MAX_FILE_BYTES),
        }
        .into());
    }
    let bytes = std::fs::read(path).map_err(io)?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = valid.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        LoadError::Parse(ParseError {
            file: file.clone(),
            line,
            col: Some(col),
            message: "invalid UTF-8: expected a text file".into(),
        })
    })
}
