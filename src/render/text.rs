//! Plain-text drawings of solutions.

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
