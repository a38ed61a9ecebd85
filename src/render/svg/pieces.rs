//! Polyomino and polycube pictures: each piece a coloured region with a
//! thick outline (thick lines wherever two different pieces meet, thin lines
//! inside a piece), its name written once per layer; a polycube is drawn as
//! one panel per layer `z = 0, 1, …` from left to right, each seen from
//! above with `y` growing upwards (the layout of the text drawing).

use super::{escape, ink_on, num, palette, Column, Svg};
use crate::ir::{Geometry, OptionId, Placement};
use std::fmt::Write;

const MARGIN: f64 = 12.0;
const TITLE_H: f64 = 26.0;
const CAPTION_H: f64 = 18.0;
const STATIONARY: &str = "#7A7A7A";
/// Panels wrap to a new row past this width.
const MAX_ROW_WIDTH: f64 = 1400.0;

/// Who covers each cell of a box: an index into the owner list.
struct Grid {
    dims: [u32; 3],
    owner: Vec<Option<usize>>,
}

/// A piece copy as drawn: its name and fill colour.
struct Owner {
    name: String,
    fill: String,
}

impl Grid {
    fn at(&self, [x, y, z]: [i64; 3]) -> Option<usize> {
        let [dx, dy, dz] = self.dims.map(i64::from);
        if x < 0 || y < 0 || z < 0 || x >= dx || y >= dy || z >= dz {
            return None;
        }
        self.owner[(x + dx * (y + dy * z)) as usize]
    }
    fn inside(&self, [x, y, z]: [i64; 3]) -> bool {
        let [dx, dy, dz] = self.dims.map(i64::from);
        (0..dx).contains(&x) && (0..dy).contains(&y) && (0..dz).contains(&z)
    }
}

/// Cell size for a box of this extent: about 480 px for the longer side.
fn cell_size(dims: [u32; 3]) -> f64 {
    (480.0 / dims[0].max(dims[1]) as f64).floor().clamp(12.0, 36.0)
}

/// Width and height of the layer panels of `dims`, laid out in rows.
fn panels_layout(dims: [u32; 3], s: f64, captions: bool) -> (Vec<(f64, f64)>, f64, f64) {
    let (pw, ph) = (dims[0] as f64 * s, dims[1] as f64 * s + if captions { CAPTION_H } else { 0.0 });
    let gap = s.max(16.0);
    let mut origins = Vec::new();
    let (mut x, mut y, mut width) = (0.0, 0.0, 0.0f64);
    for _ in 0..dims[2] {
        if x > 0.0 && x + pw > MAX_ROW_WIDTH {
            x = 0.0;
            y += ph + gap;
        }
        origins.push((x, y));
        width = width.max(x + pw);
        x += pw + gap;
    }
    (origins, width, y + ph)
}

/// Draws every layer of `grid` with its top-left corner at `(ox, oy)`.
fn draw_grid(svg: &mut Svg, grid: &Grid, owners: &[Owner], (ox, oy): (f64, f64), s: f64, captions: bool) {
    let (origins, _, _) = panels_layout(grid.dims, s, captions);
    let [dx, dy, _] = grid.dims.map(i64::from);
    let thick = (s / 12.0).clamp(1.5, 3.0);
    for (z, &(px, py)) in origins.iter().enumerate() {
        let z = z as i64;
        let (px, mut py) = (ox + px, oy + py);
        if captions {
            svg.text(px, py + 13.0, &format!("z = {z}"), r##"font-size="12" fill="#333333""##);
            py += CAPTION_H;
        }
        let corner = |x: i64, y: i64| (px + x as f64 * s, py + (dy - y) as f64 * s);
        // Empty cells first, then one group per owner (in owner order).
        let mut present: Vec<usize> = Vec::new();
        for y in 0..dy {
            for x in 0..dx {
                match grid.at([x, y, z]) {
                    None => {
                        let (cx, cy) = corner(x, y + 1);
                        svg.rect(cx, cy, s, s, r##"fill="#FFFFFF" stroke="#DDDDDD" stroke-width="0.5""##);
                    }
                    Some(o) => present.push(o),
                }
            }
        }
        present.sort_unstable();
        present.dedup();
        for &o in &present {
            let owner = &owners[o];
            let mut g = format!(r#"<g fill="{}"><title>{}</title>"#, owner.fill, escape(&owner.name));
            let mut cells = Vec::new();
            for y in 0..dy {
                for x in 0..dx {
                    if grid.at([x, y, z]) == Some(o) {
                        let (cx, cy) = corner(x, y + 1);
                        let _ = write!(
                            g,
                            r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
                            num(cx),
                            num(cy),
                            num(s),
                            num(s)
                        );
                        cells.push((x, y));
                    }
                }
            }
            g.push_str("</g>");
            svg.raw(&g);
            // The label goes in the cell nearest the centroid of the piece's
            // cells in this layer (the first such cell on ties).
            let n = cells.len() as f64;
            let (mx, my) = cells.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f64 / n, b + y as f64 / n));
            let &(lx, ly) = cells
                .iter()
                .min_by(|a, b| {
                    let d = |&(x, y): &(i64, i64)| (x as f64 - mx).powi(2) + (y as f64 - my).powi(2);
                    d(a).total_cmp(&d(b))
                })
                .expect("a present owner has a cell");
            let (cx, cy) = corner(lx, ly + 1);
            let font = (s * 0.55).min(s * 1.6 / owner.name.chars().count().max(1) as f64);
            svg.text(
                cx + s / 2.0,
                cy + s / 2.0 + font * 0.35,
                &owner.name,
                &format!(r#"font-size="{}" text-anchor="middle" fill="{}""#, num(font), ink_on(&owner.fill)),
            );
        }
        // Lines between cells: thin inside a piece, thick between pieces and
        // on the border of the box.
        let (mut thin, mut bold) = (Vec::new(), Vec::new());
        for y in 0..=dy {
            for x in 0..=dx {
                // Vertical edge on the left of cell (x, y), horizontal edge
                // below it.
                for (a, b, seg) in [
                    ([x - 1, y, z], [x, y, z], (corner(x, y), corner(x, y + 1))),
                    ([x, y - 1, z], [x, y, z], (corner(x, y), corner(x + 1, y))),
                ] {
                    let (ina, inb) = (grid.inside(a), grid.inside(b));
                    if !ina && !inb {
                        continue;
                    }
                    let (oa, ob) = (grid.at(a), grid.at(b));
                    if ina && inb && oa == ob {
                        if oa.is_some() {
                            thin.push(seg);
                        }
                    } else if oa.is_some() || ob.is_some() || !(ina && inb) {
                        bold.push(seg);
                    }
                }
            }
        }
        svg.segments(&thin, r##"stroke="#000000" stroke-opacity="0.25" stroke-width="0.6""##);
        svg.segments(&bold, &format!(r##"stroke="#1A1A1A" stroke-width="{}" stroke-linecap="square""##, num(thick)));
    }
}

/// The owners of a geometry: every copy of every piece, in piece order, each
/// with its colour (stationary pieces grey).
fn owners_of(geo: &Geometry) -> Vec<Owner> {
    let mut owners = Vec::new();
    let mut k = 0;
    for piece in &geo.pieces {
        for name in &piece.names {
            let fill = if piece.stationary { STATIONARY.to_string() } else { palette(k) };
            if !piece.stationary {
                k += 1;
            }
            owners.push(Owner { name: name.clone(), fill });
        }
    }
    owners
}

fn owner_index(geo: &Geometry, name: &str) -> Option<usize> {
    geo.pieces.iter().flat_map(|p| p.names.iter()).position(|n| n == name)
}

/// Draws solutions of a polyomino / polycube puzzle, one below the other
/// (each captioned `solution k` when there are several), under `title`.
pub fn solutions(geo: &Geometry, title: &str, solutions: &[&[OptionId]]) -> String {
    let col = column(geo);
    let captions = solutions.len() > 1;
    let mut svg = Svg::new(col.width, col.height(solutions.len(), captions));
    col.title(&mut svg, title);
    for (k, options) in solutions.iter().enumerate() {
        solution_block(&mut svg, geo, &col, k, captions, options);
    }
    svg.finish()
}

/// The column the solutions of a puzzle with geometry `geo` are drawn in.
pub fn column(geo: &Geometry) -> Column {
    let s = cell_size(geo.dims);
    let (_, w, h) = panels_layout(geo.dims, s, geo.dims[2] > 1);
    Column { width: (w + 2.0 * MARGIN).max(220.0), block: h, gap: 20.0, caption: CAPTION_H, baseline: 12.0 }
}

/// Draws solution `options` as block `k` of `col`.
pub fn solution_block(svg: &mut Svg, geo: &Geometry, col: &Column, k: usize, captions: bool, options: &[OptionId]) {
    let owners = owners_of(geo);
    let s = cell_size(geo.dims);
    let origin = col.place(svg, k, captions);
    let mut grid = Grid { dims: geo.dims, owner: vec![None; geo.volume()] };
    for (name, placement) in geo.named_placements(options) {
        let o = owner_index(geo, name);
        for &c in &placement.cells {
            grid.owner[c as usize] = o;
        }
    }
    draw_grid(svg, &grid, &owners, origin, s, geo.dims[2] > 1);
}

/// Draws each piece of a puzzle on its own (in the orientation of its first
/// placement, within its bounding box), captioned with its name and, for
/// interchangeable copies, how many there are.
pub fn piece_catalogue(geo: &Geometry, title: &str) -> String {
    let owners = owners_of(geo);
    let s = (cell_size(geo.dims) * 0.75).floor().max(12.0);
    // (grid, caption) per piece kind.
    let mut items: Vec<(Grid, String)> = Vec::new();
    for (p, piece) in geo.pieces.iter().enumerate() {
        let placement: Option<&Placement> = geo.placements.iter().chain(&geo.fixed).find(|pl| pl.piece as usize == p);
        let Some(placement) = placement else { continue };
        let coords: Vec<[u32; 3]> = placement.cells.iter().map(|&c| geo.coords(c)).collect();
        let lo = [0, 1, 2].map(|d| coords.iter().map(|c| c[d]).min().unwrap_or(0));
        let hi = [0, 1, 2].map(|d| coords.iter().map(|c| c[d]).max().unwrap_or(0));
        let dims = [0, 1, 2].map(|d| hi[d] - lo[d] + 1);
        let mut grid = Grid { dims, owner: vec![None; (dims[0] * dims[1] * dims[2]) as usize] };
        let o = owner_index(geo, &piece.names[0]);
        for c in &coords {
            let [x, y, z] = [0, 1, 2].map(|d| c[d] - lo[d]);
            grid.owner[(x + dims[0] * (y + dims[1] * z)) as usize] = o;
        }
        let mut caption = piece.names.join(" ");
        if piece.names.len() > 1 {
            caption = format!("{} (x{})", piece.names[0], piece.names.len());
        }
        if piece.stationary {
            caption.push_str(" (fixed)");
        }
        items.push((grid, caption));
    }
    // Flow layout, wrapping past the row width.
    let gap = 20.0;
    let mut placed = Vec::new();
    let (mut x, mut y, mut row_h, mut width) = (MARGIN, TITLE_H + MARGIN, 0.0f64, 0.0f64);
    for (grid, caption) in &items {
        let (_, w, h) = panels_layout(grid.dims, s, grid.dims[2] > 1);
        let w = w.max(caption.chars().count() as f64 * 7.0);
        let h = h + CAPTION_H;
        if x > MARGIN && x + w > MAX_ROW_WIDTH * 0.7 {
            x = MARGIN;
            y += row_h + gap;
            row_h = 0.0;
        }
        placed.push((x, y));
        width = width.max(x + w);
        row_h = row_h.max(h);
        x += w + gap;
    }
    let mut svg = Svg::new((width + MARGIN).max(220.0), y + row_h + MARGIN);
    svg.text(MARGIN, 18.0, title, r##"font-size="15" font-weight="bold" fill="#111111""##);
    for ((grid, caption), &(x, y)) in items.iter().zip(&placed) {
        svg.text(x, y + 12.0, caption, r##"font-size="12" fill="#333333""##);
        draw_grid(&mut svg, grid, &owners, (x, y + CAPTION_H), s, grid.dims[2] > 1);
    }
    svg.finish()
}
