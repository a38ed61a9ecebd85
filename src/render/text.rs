//! Plain-text drawings of solutions.

use crate::edgematch::Board;
use crate::ir::Geometry;

/// Draws a polyomino or polycube solution the way Busche's solver does: one
/// letter (piece name) per cell, rows from the top (`y = yDim - 1`) down,
/// and for 3-D boxes the layers side by side, bottom layer (`z = 0`) first.
/// Cells not covered are drawn as `.`.
pub fn layers(geo: &Geometry, options: &[u32]) -> String {
    let mut label: Vec<&str> = vec!["."; geo.volume()];
    for (name, p) in geo.named_placements(options) {
        for &c in &p.cells {
            label[c as usize] = name;
        }
    }
    let width = label.iter().map(|s| s.chars().count()).max().unwrap_or(1);
    let [dx, dy, dz] = geo.dims;
    let mut out = String::new();
    for y in (0..dy).rev() {
        for z in 0..dz {
            if z > 0 {
                out.push_str("   ");
            }
            for x in 0..dx {
                if x > 0 {
                    out.push(' ');
                }
                let s = label[geo.cell([x, y, z]) as usize];
                out.push_str(s);
                for _ in s.chars().count()..width {
                    out.push(' ');
                }
            }
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out
}

/// Draws an edge-matching board as a grid of `tile/rotation` (1-based
/// tile numbers; `.` for an empty cell), one board row per line.
pub fn board(board: &Board) -> String {
    let cells: Vec<String> = board
        .cells
        .iter()
        .map(|c| c.map_or_else(|| ".".to_string(), |p| format!("{}/{}", p.tile + 1, p.rotation)))
        .collect();
    let width = cells.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for row in cells.chunks(board.cols) {
        let line: Vec<String> = row.iter().map(|s| format!("{s:>width$}")).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}
