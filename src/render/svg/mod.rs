//! SVG pictures: polyomino and polycube solutions ([`pieces`]), edge-matching
//! boards ([`board`]), score-over-time traces and benchmark charts
//! ([`chart`]).
//!
//! Every picture is a self-contained SVG 1.1 document built as a string by
//! [`Svg`]: no randomness, no clock, no hash-map order, numbers printed with
//! at most two decimals, so the same input always gives the same bytes
//! (the snapshot tests rely on it).

pub mod board;
pub mod chart;
pub mod pieces;

pub use board::{board, boards, BoardStyle};
pub use chart::{bar_chart_log, score_traces, Bar, BarChart, Trace};
pub use pieces::{piece_catalogue, solutions};

use std::fmt::Write;

/// A point in user units.
pub type Point = (f64, f64);
/// A straight segment between two points.
pub type Segment = (Point, Point);

/// An SVG document under construction. Coordinates are user units (pixels).
#[derive(Clone, Debug)]
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// A number as SVG text: at most two decimals, no trailing zeros, no `-0`.
pub fn num(x: f64) -> String {
    let r = (x * 100.0).round() / 100.0;
    let mut s = format!("{r:.2}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// Escapes text for an XML text node or attribute value.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            // Characters XML 1.0 forbids; they cannot come from a valid
            // file name or puzzle, but never write an invalid document.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => s.push('?'),
            c => s.push(c),
        }
    }
    s
}

impl Svg {
    /// An empty drawing of the given size.
    pub fn new(width: f64, height: f64) -> Self {
        Svg { width, height, body: String::new() }
    }

    /// Appends raw SVG markup (already escaped).
    pub fn raw(&mut self, markup: &str) {
        self.body.push_str(markup);
        if !markup.ends_with('\n') {
            self.body.push('\n');
        }
    }

    /// A rectangle; `attrs` are extra attributes (`fill="…" stroke="…"`).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            num(x),
            num(y),
            num(w),
            num(h)
        );
    }

    /// A straight line.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), attrs: &str) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {attrs}/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2)
        );
    }

    /// A closed polygon.
    pub fn polygon(&mut self, points: &[(f64, f64)], attrs: &str) {
        let _ = writeln!(self.body, r#"<polygon points="{}" {attrs}/>"#, points_text(points));
    }

    /// An open polyline.
    pub fn polyline(&mut self, points: &[(f64, f64)], attrs: &str) {
        let _ = writeln!(self.body, r#"<polyline points="{}" fill="none" {attrs}/>"#, points_text(points));
    }

    /// A path from a list of segments, each drawn as `M x1 y1 L x2 y2`.
    pub fn segments(&mut self, segments: &[Segment], attrs: &str) {
        if segments.is_empty() {
            return;
        }
        let mut d = String::new();
        for &((x1, y1), (x2, y2)) in segments {
            let _ = write!(d, "M{} {}L{} {}", num(x1), num(y1), num(x2), num(y2));
        }
        let _ = writeln!(self.body, r#"<path d="{d}" fill="none" {attrs}/>"#);
    }

    /// A text label (escaped here).
    pub fn text(&mut self, x: f64, y: f64, text: &str, attrs: &str) {
        let _ = writeln!(self.body, r#"<text x="{}" y="{}" {attrs}>{}</text>"#, num(x), num(y), escape(text));
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!("{}{}{}", head(self.width, self.height), self.body, TAIL)
    }

    /// The markup drawn so far, without the document around it (a block
    /// of a [`Column`] written on its own).
    pub fn into_body(self) -> String {
        self.body
    }
}

/// The start of a document of the given size, up to its background.
pub fn head(width: f64, height: f64) -> String {
    let (w, h) = (num(width.ceil()), num(height.ceil()));
    format!(
        concat!(
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            "\n",
            r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
            "\n",
            r#"<rect x="0" y="0" width="{w}" height="{h}" fill="white"/>"#,
            "\n"
        ),
        w = w,
        h = h
    )
}

/// The end of every document.
pub const TAIL: &str = "</svg>\n";

/// Where the pictures of a list of solutions go: one column of blocks
/// under a title, each block a caption (when the list has more than one)
/// and a drawing of `width` x `block`. The blocks are placed from their
/// index alone, so a long list can be drawn block by block as it comes,
/// the document's head (which holds its height) written last.
#[derive(Clone, Copy, Debug)]
pub struct Column {
    /// Width of the document.
    pub width: f64,
    /// Height of one drawing.
    pub block: f64,
    /// Space between blocks.
    pub gap: f64,
    /// Height of a caption line above a drawing.
    pub caption: f64,
    /// Baseline of the caption text below the block's top.
    pub baseline: f64,
}

/// Margin around a column's content.
const COLUMN_MARGIN: f64 = 12.0;
/// Height of a column's title line.
const COLUMN_TITLE: f64 = 26.0;

impl Column {
    /// The document's height for `n` blocks, captioned when `captions`.
    pub fn height(&self, n: usize, captions: bool) -> f64 {
        let n = n.max(1) as f64;
        let block = self.block + if captions { self.caption } else { 0.0 };
        COLUMN_TITLE + COLUMN_MARGIN + n * block + (n - 1.0) * self.gap + COLUMN_MARGIN
    }

    /// The title line.
    pub fn title(&self, svg: &mut Svg, title: &str) {
        svg.text(COLUMN_MARGIN, 18.0, title, r##"font-size="15" font-weight="bold" fill="#111111""##);
    }

    /// Captions block `k` (when `captions`) and returns where its drawing's
    /// top-left corner goes.
    pub fn place(&self, svg: &mut Svg, k: usize, captions: bool) -> Point {
        let block = self.block + if captions { self.caption } else { 0.0 };
        let mut oy = COLUMN_TITLE + COLUMN_MARGIN + k as f64 * (block + self.gap);
        if captions {
            svg.text(
                COLUMN_MARGIN,
                oy + self.baseline,
                &format!("solution {}", k + 1),
                r##"font-size="13" fill="#333333""##,
            );
            oy += self.caption;
        }
        (COLUMN_MARGIN, oy)
    }
}

fn points_text(points: &[(f64, f64)]) -> String {
    let mut s = String::new();
    for (k, &(x, y)) in points.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", num(x), num(y));
    }
    s
}

/// Distinct colours for pieces, edge-matching colours and chart series: the
/// first 25 are hand-picked to be told apart (Kelly's colours of maximum
/// contrast without white, black and grey, plus six more); later indices
/// walk the hue circle by the golden angle.
pub const PALETTE: [&str; 25] = [
    "#F3C300", "#875692", "#F38400", "#A1CAF1", "#BE0032", "#C2B280", "#008856", "#E68FAC", "#0067A5", "#F99379",
    "#604E97", "#F6A600", "#B3446C", "#DCD300", "#882D17", "#8DB600", "#654522", "#E25822", "#2B3D26", "#00A6A6",
    "#1B2A6B", "#C9A0DC", "#98D8A8", "#D0008A", "#56B4E9",
];

/// The colour of index `k` (stable: the same index always gives the same
/// colour).
pub fn palette(k: usize) -> String {
    if let Some(c) = PALETTE.get(k) {
        return (*c).to_string();
    }
    let hue = ((k - PALETTE.len()) as f64 * 137.507_764) % 360.0;
    let lightness = [0.55, 0.40, 0.70][(k / 7) % 3];
    hsl_to_hex(hue, 0.65, lightness)
}

fn hsl_to_hex(h: f64, s: f64, l: f64) -> String {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02X}{:02X}{:02X}", to(r), to(g), to(b))
}

/// Black or white, whichever reads better on `background` (`#RRGGBB`).
pub fn ink_on(background: &str) -> &'static str {
    let hex = background.trim_start_matches('#');
    let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128) as f64;
    let luma = 0.299 * channel(0) + 0.587 * channel(2) + 0.114 * channel(4);
    if luma > 140.0 {
        "#111111"
    } else {
        "#FFFFFF"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(2.0 / 3.0), "0.67");
        assert_eq!(num(-0.001), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn palette_is_distinct_and_stable() {
        let colours: Vec<String> = (0..60).map(palette).collect();
        let mut unique = colours.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), colours.len());
        assert!(colours.iter().all(|c| c.len() == 7 && c.starts_with('#')));
        assert_eq!(palette(30), palette(30));
        assert_eq!(ink_on("#FFFFFF"), "#111111");
        assert_eq!(ink_on("#000000"), "#FFFFFF");
    }
}
