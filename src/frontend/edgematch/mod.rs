//! Edge-matching file formats.

mod board;
mod meta;

pub use board::parse_board;
pub use meta::parse_meta;

/// Largest board side accepted by the readers.
pub const MAX_SIDE: usize = 256;
/// Largest colour number accepted.
pub const MAX_COLOR: u64 = 4095;
