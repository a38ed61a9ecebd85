//! Edge-matching file formats: META/Brendan (`cols rows` header), Heule's
//! (hint count, hints, pieces), emx's own documented format, and board
//! files. Every reader runs the same checks ([`check`]) so a mistake gets
//! the same `file:line: what was expected` whatever the format.

mod board;
mod bucas;
mod check;
mod emx;
mod heule;
mod meta;

pub use board::parse_board;
pub use bucas::{is_bucas, parse_bucas};
pub use check::{check_puzzle, Lines};
pub use emx::{parse_emx, write_emx, KEYWORDS as EMX_KEYWORDS};
pub use heule::{parse_heule, write_heule};
pub use meta::{parse_meta, write_meta};

/// Largest board side accepted by the readers.
pub const MAX_SIDE: usize = 256;
/// Largest colour number accepted.
pub const MAX_COLOR: u64 = 4095;

use crate::edgematch::EdgePuzzle;
use crate::frontend::{LoadError, ParseError};
use crate::input::InputFormat;
use std::path::Path;

/// Parses `text` in an edge-matching `format` (META, Heule or emx).
pub fn parse_puzzle(text: &str, format: InputFormat, file: &str, name: &str) -> Result<EdgePuzzle, ParseError> {
    match format {
        InputFormat::Meta => parse_meta(text, file, name),
        InputFormat::Heule => parse_heule(text, file, name),
        InputFormat::Emx => parse_emx(text, file, name),
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
