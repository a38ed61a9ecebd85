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

pub use board::{parse_board, parse_boards, BoardAt};
pub use bucas::{bucas_line, edge_string, is_bucas, parse_bucas, viewer_url, BucasError, Order};
pub use check::{check_puzzle, Lines};
pub use emx::{parse_emx, write_emx, KEYWORDS as EMX_KEYWORDS};
pub use heule::{parse_heule, write_heule};
pub use meta::{parse_meta, write_meta};

/// Largest board side accepted by the readers.
pub const MAX_SIDE: usize = 256;
/// Largest colour number accepted.
pub const MAX_COLOR: u64 = 4095;

/// Appends one `N E S W` line per tile (the tile section of the META and
/// Heule formats).
fn write_tile_lines(out: &mut String, tiles: &[crate::edgematch::Tile]) {
    use std::fmt::Write;
    for t in tiles {
        let [n, e, s, w] = t.0;
        let _ = writeln!(out, "{n} {e} {s} {w}");
    }
}
