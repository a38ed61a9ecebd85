//! The formats emx reads, told apart by a file's first line, and the
//! dispatch of an edge-matching file to its reader.

use crate::edgematch::EdgePuzzle;
use crate::frontend::{edgematch, LoadError, ParseError};
use std::path::Path;

/// The file formats emx reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Busche's polycube definition file (`D:`, `C:`, `L` ... `~D`).
    Polycube,
    /// Edge matching, META 2010 / Brendan Owen format (`cols rows`, then
    /// `N E S W` per tile).
    Meta,
    /// Edge matching, Heule's format (hint count, hints `row col piece
    /// rot`, then `N E S W` per piece; size inferred).
    Heule,
    /// Edge matching, emx's own format (`size`, `colors`, `tile`, `clue`).
    Emx,
    /// Knuth's `.dlx` exact-cover text (items line, then one option per line).
    Dlx,
}

impl InputFormat {
    /// Names accepted by `--input-format`.
    pub const NAMES: &'static [&'static str] = &["polycube", "meta", "heule", "emx", "dlx"];

    /// Parses a `--input-format` value.
    pub fn from_name(name: &str) -> Option<InputFormat> {
        match name {
            "polycube" => Some(InputFormat::Polycube),
            "meta" => Some(InputFormat::Meta),
            "heule" => Some(InputFormat::Heule),
            "emx" => Some(InputFormat::Emx),
            "dlx" => Some(InputFormat::Dlx),
            _ => None,
        }
    }

    /// Guesses the format from the text of a file.
    pub fn detect(text: &str) -> Option<InputFormat> {
        // Knuth's files open with `|` comment lines.
        if text.lines().map(str::trim).find(|l| !l.is_empty()).is_some_and(|l| l.starts_with('|')) {
            return Some(InputFormat::Dlx);
        }
        let first = text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty())?;
        if first.starts_with("D:") || first == "D" {
            return Some(InputFormat::Polycube);
        }
        let fields = first.split_whitespace().count();
        if fields == 2 && first.split_whitespace().all(|f| f.parse::<u32>().is_ok()) {
            return Some(InputFormat::Meta);
        }
        if fields == 1 && first.parse::<u32>().is_ok() {
            return Some(InputFormat::Heule);
        }
        if first.split_whitespace().next().is_some_and(|k| crate::frontend::edgematch::EMX_KEYWORDS.contains(&k)) {
            return Some(InputFormat::Emx);
        }
        None
    }
}

/// Parses `text` in an edge-matching `format` (META, Heule or emx).
pub fn parse_puzzle(text: &str, format: InputFormat, file: &str, name: &str) -> Result<EdgePuzzle, ParseError> {
    match format {
        InputFormat::Meta => edgematch::parse_meta(text, file, name),
        InputFormat::Heule => edgematch::parse_heule(text, file, name),
        InputFormat::Emx => edgematch::parse_emx(text, file, name),
        InputFormat::Polycube | InputFormat::Dlx => Err(ParseError {
            file: file.to_string(),
            line: 1,
            col: None,
            message: format!(
                "this is a {} file: expected an edge-matching puzzle",
                if format == InputFormat::Polycube { "polycube definition" } else { "Knuth .dlx" }
            ),
        }),
    }
}

/// Reads an edge-matching puzzle file (format given or detected) without
/// building its exact-cover model, so any size the readers accept works.
pub fn read_puzzle(path: &Path, format: Option<InputFormat>) -> Result<EdgePuzzle, LoadError> {
    let file = path.display().to_string();
    let text = crate::frontend::read_text(path)?;
    let format = format.or_else(|| InputFormat::detect(&text)).ok_or_else(|| ParseError {
        file: file.clone(),
        line: 1,
        col: None,
        message: format!(
            "cannot tell the format of this file: expected an edge-matching puzzle (META `cols rows`, Heule hint count, emx `size ROWS COLS`); use --input-format {}",
            InputFormat::NAMES.join("|")
        ),
    })?;
    let stem = path.file_stem().map_or_else(|| file.clone(), |s| s.to_string_lossy().into_owned());
    Ok(parse_puzzle(&text, format, &file, &stem)?)
}
