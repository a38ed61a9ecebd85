//! Edge-matching boards: each tile a square split by its diagonals into four
//! triangles coloured by its sides (grey border colour, a stable palette for
//! the others), mismatched joins marked with a red bar, empty cells dashed.
//! A 16 x 16 board (Eternity II) comes out 640 px wide.

use super::{ink_on, num, palette, Column, Svg};
use crate::edgematch::{Board, Color, EdgePuzzle, GREY};
use std::fmt::Write;

const MARGIN: f64 = 12.0;
const CAPTION_H: f64 = 22.0;
const GREY_FILL: &str = "#B4B4B4";
const MISMATCH: &str = "#E00000";

/// What to draw besides the tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// Mark joins whose two sides differ, and print the score.
    pub mark_mismatches: bool,
    /// Write each tile's 1-based number in its centre.
    pub tile_numbers: bool,
}

impl BoardStyle {
    /// For solutions and optimised boards: mismatches marked, no numbers.
    pub fn solution() -> Self {
        BoardStyle { mark_mismatches: true, tile_numbers: false }
    }
    /// For the tile set laid out in file order: numbers, no mismatches.
    pub fn tile_set() -> Self {
        BoardStyle { mark_mismatches: false, tile_numbers: true }
    }
}

/// The fill colour of edge colour `c`: grey for [`GREY`], else the palette.
pub fn colour_fill(c: Color) -> String {
    if c == GREY {
        GREY_FILL.to_string()
    } else {
        palette(c as usize - 1)
    }
}

/// Draws `board` (complete or not) for `puzzle` under `title`.
pub fn board(puzzle: &EdgePuzzle, board: &Board, title: &str, style: &BoardStyle) -> String {
    boards(puzzle, std::slice::from_ref(board), title, style)
}

/// Draws several boards one below the other (each captioned `solution k`
/// when there are several) under `title`.
pub fn boards(puzzle: &EdgePuzzle, boards: &[Board], title: &str, style: &BoardStyle) -> String {
    let (rows, cols) = boards.first().map_or((puzzle.rows, puzzle.cols), |b| (b.rows, b.cols));
    let col = column(rows, cols, style);
    let captions = boards.len() > 1;
    let mut svg = Svg::new(col.width, col.height(boards.len(), captions));
    col.title(&mut svg, title);
    for (k, b) in boards.iter().enumerate() {
        board_block(&mut svg, puzzle, &col, k, captions, b, style);
    }
    svg.finish()
}

/// The column boards of `rows` x `cols` are drawn in.
pub fn column(rows: usize, cols: usize, style: &BoardStyle) -> Column {
    let t = tile_size(rows, cols);
    let (bw, bh) = (cols as f64 * t, rows as f64 * t);
    let caption = if style.mark_mismatches { CAPTION_H } else { 0.0 };
    // Wide enough for the score caption under a small board.
    let min_width = if style.mark_mismatches { 400.0 } else { 260.0 };
    Column {
        width: (bw + 2.0 * MARGIN).max(min_width),
        block: bh + caption,
        gap: 16.0,
        caption: CAPTION_H,
        baseline: 13.0,
    }
}

/// Draws `board` as block `k` of `col`.
pub fn board_block(
    svg: &mut Svg,
    puzzle: &EdgePuzzle,
    col: &Column,
    k: usize,
    captions: bool,
    board: &Board,
    style: &BoardStyle,
) {
    let origin = col.place(svg, k, captions);
    draw_board(svg, puzzle, board, origin, style);
}

/// Tile size in pixels: a board about 640 px wide, tiles 24 to 72 px.
fn tile_size(rows: usize, cols: usize) -> f64 {
    (640.0 / rows.max(cols).max(1) as f64).floor().clamp(24.0, 72.0)
}

/// Draws one board with its top-left corner at `(ox, oy)`.
fn draw_board(svg: &mut Svg, puzzle: &EdgePuzzle, board: &Board, (ox, oy): (f64, f64), style: &BoardStyle) {
    let (rows, cols) = (board.rows, board.cols);
    let t = tile_size(rows, cols);
    let (bw, bh) = (cols as f64 * t, rows as f64 * t);
    // Colours shown by each cell; `None` for empty cells and unknown tiles.
    let shown: Vec<Option<[Color; 4]>> = board
        .cells
        .iter()
        .map(|c| c.and_then(|p| puzzle.tiles.get(p.tile as usize).map(|tile| tile.rotated(p.rotation))))
        .collect();
    for (i, cell) in board.cells.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let (x, y) = (ox + c as f64 * t, oy + r as f64 * t);
        let Some(placed) = cell else {
            svg.rect(
                x + 1.0,
                y + 1.0,
                t - 2.0,
                t - 2.0,
                r##"fill="#FAFAFA" stroke="#999999" stroke-width="1" stroke-dasharray="3 3""##,
            );
            continue;
        };
        let Some(colours) = shown[i] else {
            // A tile number the puzzle does not have: a red cross.
            svg.rect(x, y, t, t, r##"fill="#FFFFFF" stroke="#E00000" stroke-width="2""##);
            svg.line((x, y), (x + t, y + t), r##"stroke="#E00000" stroke-width="2""##);
            svg.line((x + t, y), (x, y + t), r##"stroke="#E00000" stroke-width="2""##);
            continue;
        };
        let centre = (x + t / 2.0, y + t / 2.0);
        let corners = [(x, y), (x + t, y), (x + t, y + t), (x, y + t)];
        let mut g = format!(
            r##"<g stroke="#303030" stroke-width="0.5" stroke-linejoin="round"><title>tile {} rotation {} (row {}, column {})</title>"##,
            placed.tile + 1,
            placed.rotation,
            r + 1,
            c + 1
        );
        for side in 0..4 {
            let (a, b) = (corners[side], corners[(side + 1) % 4]);
            let _ = write!(
                g,
                r#"<polygon points="{},{} {},{} {},{}" fill="{}"/>"#,
                num(a.0),
                num(a.1),
                num(b.0),
                num(b.1),
                num(centre.0),
                num(centre.1),
                colour_fill(colours[side])
            );
        }
        g.push_str("</g>");
        svg.raw(&g);
        if style.tile_numbers {
            let font = (t * 0.28).clamp(8.0, 16.0);
            let label = (placed.tile + 1).to_string();
            svg.rect(
                centre.0 - font * 0.35 * label.len() as f64 - 2.0,
                centre.1 - font * 0.6,
                font * 0.7 * label.len() as f64 + 4.0,
                font * 1.2,
                r##"fill="#FFFFFF" fill-opacity="0.85" rx="2""##,
            );
            svg.text(
                centre.0,
                centre.1 + font * 0.35,
                &label,
                &format!(r##"font-size="{}" text-anchor="middle" fill="{}""##, num(font), ink_on("#FFFFFF")),
            );
        }
    }
    // Tile outlines.
    let mut grid = Vec::new();
    for r in 0..=rows {
        grid.push(((ox, oy + r as f64 * t), (ox + bw, oy + r as f64 * t)));
    }
    for c in 0..=cols {
        grid.push(((ox + c as f64 * t, oy), (ox + c as f64 * t, oy + bh)));
    }
    svg.segments(&grid, r##"stroke="#202020" stroke-width="1.2""##);
    if style.mark_mismatches {
        let (mut matched, mut marks) = (0usize, Vec::new());
        for i in 0..board.cells.len() {
            let (r, c) = (i / cols, i % cols);
            let Some(a) = shown[i] else { continue };
            // East join, then south join.
            if c + 1 < cols {
                if let Some(b) = shown[i + 1] {
                    if a[1] == b[3] {
                        matched += 1;
                    } else {
                        let x = ox + (c + 1) as f64 * t;
                        let y = oy + r as f64 * t;
                        marks.push(((x, y + t * 0.15), (x, y + t * 0.85)));
                    }
                }
            }
            if r + 1 < rows {
                if let Some(b) = shown[i + cols] {
                    if a[2] == b[0] {
                        matched += 1;
                    } else {
                        let x = ox + c as f64 * t;
                        let y = oy + (r + 1) as f64 * t;
                        marks.push(((x + t * 0.15, y), (x + t * 0.85, y)));
                    }
                }
            }
        }
        let width = (t / 9.0).clamp(2.5, 6.0);
        // A white halo under the red bar keeps the mark visible on every
        // tile colour, red ones included.
        svg.segments(
            &marks,
            &format!(r##"stroke="#FFFFFF" stroke-width="{}" stroke-linecap="round""##, num(width + 3.0)),
        );
        svg.segments(&marks, &format!(r#"stroke="{MISMATCH}" stroke-width="{}" stroke-linecap="round""#, num(width)));
        let joins = rows * cols.saturating_sub(1) + cols * rows.saturating_sub(1);
        let empty = board.cells.iter().filter(|c| c.is_none()).count();
        let mut text = format!("{matched} of {joins} joins matched");
        if !marks.is_empty() {
            text.push_str(&format!(", {} mismatched (red)", marks.len()));
        }
        if empty > 0 {
            text.push_str(&format!(", {empty} empty cell{}", if empty == 1 { "" } else { "s" }));
        }
        svg.text(ox, oy + bh + 16.0, &text, r##"font-size="13" fill="#222222""##);
    }
}
