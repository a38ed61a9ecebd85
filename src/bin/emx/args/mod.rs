//! The argument groups and value types several commands share: the
//! output format, the puzzle selection, the polycube engine settings
//! ([`poly`]), the CNF encoding flags ([`cnf`]) and the symmetry
//! restrictions of the encodings ([`restrict`]).

pub mod cnf;
pub mod poly;
pub mod restrict;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use emx::input::InputFormat;

/// Output format of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON object on stdout.
    Json,
    /// An SVG picture.
    Svg,
}

/// The `--format` values of a command, each described for it: text, json
/// and, where the command draws, svg with `svg` as its description (the
/// values a command does not take are refused when the line is parsed).
pub fn format(json: &'static str, svg: Option<&'static str>) -> impl TypedValueParser<Value = Format> {
    let mut values =
        vec![PossibleValue::new("text").help("Human-readable text"), PossibleValue::new("json").help(json)];
    values.extend(svg.map(|h| PossibleValue::new("svg").help(h)));
    PossibleValuesParser::new(values).map(|s| match s.as_str() {
        "json" => Format::Json,
        "svg" => Format::Svg,
        _ => Format::Text,
    })
}

/// Output format of a command that writes edge-matching boards: those of
/// [`Format`], and bucas (`NAME jblackwood EDGES` lines, docs/formats.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardFormat {
    /// Human-readable text.
    Text,
    /// One JSON object on stdout.
    Json,
    /// An SVG picture.
    Svg,
    /// Each board as a `NAME jblackwood EDGES` line.
    Bucas,
}

/// The `--format` values of a command that writes boards: text, json, svg
/// (described by `json` and `svg`) and bucas.
pub fn board_format(json: &'static str, svg: &'static str) -> impl TypedValueParser<Value = BoardFormat> {
    let values = [
        PossibleValue::new("text").help("Human-readable text"),
        PossibleValue::new("json").help(json),
        PossibleValue::new("svg").help(svg),
        PossibleValue::new("bucas")
            .help("Each board as an e2.bucas.name edge string, `NAME jblackwood EDGES` (docs/formats.md)"),
    ];
    PossibleValuesParser::new(values).map(|s| match s.as_str() {
        "json" => BoardFormat::Json,
        "svg" => BoardFormat::Svg,
        "bucas" => BoardFormat::Bucas,
        _ => BoardFormat::Text,
    })
}

/// Which puzzle of a file, and in which format to read it.
#[derive(Args, Clone, Debug)]
pub struct PuzzleArgs {
    /// Which puzzle of a file holding several (1-based).
    #[arg(long, default_value_t = 1)]
    pub puzzle: usize,
    /// Input format, when detection guesses wrong.
    #[arg(long, value_name = "FORMAT", value_parser = parse_input_format)]
    pub input_format: Option<InputFormat>,
}

/// A non-negative, finite number of seconds (`--time-limit`, `--time`).
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err(format!("`{s}`: expected a non-negative number of seconds")),
    }
}

/// A number of worker threads, at least 1 (`--threads`).
pub fn parse_threads(s: &str) -> Result<std::num::NonZeroUsize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) => std::num::NonZeroUsize::new(n).ok_or_else(|| "--threads needs at least 1".to_string()),
        Err(_) => Err(format!("`{s}`: expected a number of threads")),
    }
}

/// A `--input-format` value.
pub fn parse_input_format(s: &str) -> Result<InputFormat, String> {
    InputFormat::from_name(s).ok_or_else(|| format!("`{s}`: expected one of {}", InputFormat::NAMES.join(", ")))
}
