//! Boards in the e2.bucas.name viewer's notation, one board a line, in any
//! of three forms:
//!
//! ```text
//! # comment
//! NAME ORDER EDGES
//! https://e2.bucas.name/#puzzle=NAME&board_w=16&board_h=16&board_edges=EDGES&motifs_order=jblackwood
//! EDGES
//! ```
//!
//! `EDGES` has 4 letters per cell, cells row-major from the top-left, each
//! cell's letters Up Right Down Left (N E S W); `a` is grey, `aaaa` an empty
//! cell (unless a tile of the puzzle is all grey). The letter order says
//! which colour number a letter is ([`Order`]): in a `NAME ORDER EDGES`
//! line `jblackwood` (letter k is colour k) or `jef` (the viewer's default
//! letters); in a URL the viewer's `motifs_order` parameter (absent: the
//! viewer's default letters); a bare edge string is `jblackwood`, what
//! [`edge_string`] writes.
//!
//! A board names colours, not tiles: each cell gets an unused tile (and
//! rotation) showing its four colours. Tiles showing the same colours in
//! some rotation are identical up to rotation, so taking the first unused
//! one never fails where another choice would succeed; a URL's
//! `board_pieces` picks among identical tiles (a number whose tile does not
//! show the cell's colours, or is taken, is passed over: the edges decide),
//! and a clue's cell gets the clue's tile when it shows the cell's colours.

mod url;

use crate::edgematch::{Board, Color, EdgePuzzle, Placed};
use crate::frontend::ParseError;
use std::collections::HashMap;

/// The viewer's default letters: letter k shows this colour of Heule's
/// numbering (the numbering of emx's Eternity II files).
const VIEWER: [Color; 23] = [0, 1, 9, 17, 5, 13, 2, 10, 18, 6, 14, 3, 11, 19, 7, 15, 4, 12, 20, 8, 16, 21, 22];

/// The viewer's `motifs_order=jef` letters: letter k is this letter of the
/// viewer's default order.
const VIEWER_JEF: &[u8; 23] = b"atojeqlgbupkfrmhcwvsnid";

/// How the letters of an edge string map to colour numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Letter k is colour k (`a` to `z`): the viewer's
    /// `motifs_order=jblackwood` (or `marie`), the `jblackwood` of a
    /// `NAME ORDER EDGES` line, and what emx writes.
    Jblackwood,
    /// The viewer's default letters (a URL without `motifs_order`), `a` to
    /// `w`; `jef` in a `NAME ORDER EDGES` line.
    Viewer,
    /// The viewer's `motifs_order=jef` letters, `a` to `w`.
    ViewerJef,
}

impl Order {
    /// The colour of `letter`, if it is one of this order's letters.
    pub fn colour(self, letter: u8) -> Option<Color> {
        let i = letter.checked_sub(b'a')? as usize;
        match self {
            Order::Jblackwood => (i < 26).then_some(i as Color),
            Order::Viewer => VIEWER.get(i).copied(),
            Order::ViewerJef => VIEWER_JEF.get(i).and_then(|&l| Order::Viewer.colour(l)),
        }
    }

    /// The letters this order has and its name, for messages.
    fn letters(self) -> &'static str {
        match self {
            Order::Jblackwood => "a-z (jblackwood letters)",
            Order::Viewer => "a-w (the viewer's default letters)",
            Order::ViewerJef => "a-w (the viewer's jef letters)",
        }
    }
}

/// Why a board cannot be written as a bucas edge string.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BucasError {
    /// The puzzle uses a colour past `z`.
    #[error("colour {0} has no bucas letter (letters a-z are colours 0-25)")]
    NoLetter(Color),
    /// The board holds a tile the puzzle does not have.
    #[error("cell (row {row}, column {col}) holds tile {tile}, but the puzzle has {tiles} tiles")]
    NoTile {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// 1-based tile number.
        tile: u32,
        /// Tiles of the puzzle.
        tiles: usize,
    },
}

/// The board's edge string in [`Order::Jblackwood`] letters: `aaaa` for an
/// empty cell. Every colour of the board's tiles must be below 26.
pub fn edge_string(puzzle: &EdgePuzzle, board: &Board) -> Result<String, BucasError> {
    let mut out = String::with_capacity(4 * board.cells.len());
    for (i, cell) in board.cells.iter().enumerate() {
        let look = match cell {
            None => [0; 4],
            Some(p) => {
                let tile = puzzle.tiles.get(p.tile as usize).ok_or(BucasError::NoTile {
                    row: i / board.cols.max(1) + 1,
                    col: i % board.cols.max(1) + 1,
                    tile: p.tile + 1,
                    tiles: puzzle.tiles.len(),
                })?;
                tile.rotated(p.rotation)
            }
        };
        for c in look {
            let c8 = u8::try_from(c).ok().filter(|&c| c < 26).ok_or(BucasError::NoLetter(c))?;
            out.push(char::from(b'a' + c8));
        }
    }
    Ok(out)
}

/// A name that stands as the first field of a line (never read as a URL or
/// a comment): every character but letters, digits and `- . _ +` becomes
/// `_`; empty becomes `board`.
fn field(name: &str) -> String {
    let keep = |c: char| c.is_alphanumeric() || "-._+".contains(c);
    let f: String = name.chars().map(|c| if keep(c) { c } else { '_' }).collect();
    if f.is_empty() {
        "board".into()
    } else {
        f
    }
}

/// The board as a `NAME jblackwood EDGES` line (with its newline), which
/// [`parse_bucas`] reads back.
pub fn bucas_line(name: &str, puzzle: &EdgePuzzle, board: &Board) -> Result<String, BucasError> {
    Ok(format!("{} jblackwood {}\n", field(name), edge_string(puzzle, board)?))
}

/// The e2.bucas.name viewer URL of the board:
/// `https://e2.bucas.name/#puzzle=NAME&board_w=COLS&board_h=ROWS&board_edges=EDGES&motifs_order=jblackwood`.
pub fn viewer_url(name: &str, puzzle: &EdgePuzzle, board: &Board) -> Result<String, BucasError> {
    Ok(format!(
        "https://e2.bucas.name/#puzzle={}&board_w={}&board_h={}&board_edges={}&motifs_order=jblackwood",
        url::percent_encode(&field(name)),
        board.cols,
        board.rows,
        edge_string(puzzle, board)?
    ))
}

/// A line's fields with their 1-based columns, up to a `#` comment; a URL
/// as the first field keeps its `#`. `None` for a blank or comment line.
fn content(raw: &str) -> Option<Vec<(usize, &str)>> {
    let mut fields = Vec::new();
    let mut rest = 0;
    while let Some(start) = raw[rest..].find(|c: char| !c.is_whitespace()).map(|s| rest + s) {
        let end = raw[start..].find(char::is_whitespace).map_or(raw.len(), |e| start + e);
        rest = end;
        let col = raw[..start].chars().count() + 1;
        let tok = &raw[start..end];
        if fields.is_empty() && url::is_url(tok) {
            fields.push((col, tok));
            continue;
        }
        match tok.find('#') {
            None => fields.push((col, tok)),
            Some(h) => {
                if h > 0 {
                    fields.push((col, &tok[..h]));
                }
                break;
            }
        }
    }
    (!fields.is_empty()).then_some(fields)
}

/// Whether `text` looks like bucas boards: its first data line is a URL (or
/// viewer parameters), `NAME ORDER EDGES` (three fields, none a board
/// cell), or one field that is not a board cell.
pub fn is_bucas(text: &str) -> bool {
    let Some(first) = text.lines().find_map(content) else { return false };
    let cell_like = |t: &str| t == "." || t.contains('/');
    match first.as_slice() {
        [(_, t), ..] if url::is_url(t) => true,
        [(_, a), (_, b), (_, c)] => ![a, b, c].iter().any(|t| cell_like(t)),
        [(_, t)] => !cell_like(t),
        _ => false,
    }
}

/// The tiles of a puzzle by the colours they show, and which are used.
struct Tiles<'a> {
    puzzle: &'a EdgePuzzle,
    /// For each look `[N, E, S, W]`: the tiles showing it, with the
    /// rotation that does, in tile order.
    by_look: HashMap<[Color; 4], Vec<Placed>>,
    /// The cell each tile is placed on, in the board being read.
    used_at: Vec<Option<usize>>,
}

impl<'a> Tiles<'a> {
    fn new(puzzle: &'a EdgePuzzle) -> Self {
        let mut by_look: HashMap<[Color; 4], Vec<Placed>> = HashMap::new();
        for (t, tile) in puzzle.tiles.iter().enumerate() {
            for r in 0..4u8 {
                let list = by_look.entry(tile.rotated(r)).or_default();
                if !list.iter().any(|p| p.tile == t as u32) {
                    list.push(Placed { tile: t as u32, rotation: r });
                }
            }
        }
        Tiles { puzzle, by_look, used_at: vec![None; puzzle.tiles.len()] }
    }

    /// Tile `hint` (0-based) on `cell` if it is unused and shows `look`.
    fn take_hinted(&mut self, cell: usize, look: [Color; 4], hint: u32) -> Option<Placed> {
        let p = *self.by_look.get(&look)?.iter().find(|p| p.tile == hint)?;
        let slot = &mut self.used_at[p.tile as usize];
        slot.is_none().then(|| {
            *slot = Some(cell);
            p
        })
    }

    /// The first unused tile showing `look`, placed on `cell`; `Ok(None)`
    /// for an empty cell (all grey, and no tile shows that); otherwise
    /// what is wrong.
    fn take(&mut self, cell: usize, look: [Color; 4], shown: &str) -> Result<Option<Placed>, String> {
        let candidates = self.by_look.get(&look).map_or(&[][..], Vec::as_slice);
        if let Some(&p) = candidates.iter().find(|p| self.used_at[p.tile as usize].is_none()) {
            self.used_at[p.tile as usize] = Some(cell);
            return Ok(Some(p));
        }
        let (row, col) = self.puzzle.row_col(cell);
        let colours: Vec<String> = look.iter().map(Color::to_string).collect();
        let what = format!(
            "cell (row {}, column {}) shows `{shown}` (colours {}, N E S W)",
            row + 1,
            col + 1,
            colours.join(" ")
        );
        match candidates {
            [] if look == [0; 4] => Ok(None),
            [] => Err(format!("{what}, which no tile of the puzzle shows in any rotation")),
            list => {
                let tiles: Vec<String> = list.iter().map(|p| (p.tile + 1).to_string()).collect();
                let last = list.iter().filter_map(|p| self.used_at[p.tile as usize]).max().unwrap_or(cell);
                let (r, c) = self.puzzle.row_col(last);
                Err(format!(
                    "{what}, but every tile showing them (tile {}) is already placed, the last at cell (row {}, column {}): a tile used twice?",
                    tiles.join(", "),
                    r + 1,
                    c + 1
                ))
            }
        }
    }
}

/// One board's edge string and what came with it, before the tiles are
/// recovered.
struct Line<'t> {
    name: String,
    order: Order,
    /// The letters and the column of the first.
    edges: (&'t str, usize),
    /// `board_pieces` and the column of its first digit.
    pieces: Option<(&'t str, usize)>,
}

/// Reads every board of a bucas file (each line a `NAME ORDER EDGES` line,
/// a URL or a bare edge string), recovering tiles from `puzzle`. Errors
/// give the line and the 1-based column of what is wrong.
pub fn parse_bucas(text: &str, file: &str, puzzle: &EdgePuzzle) -> Result<Vec<(String, Board)>, ParseError> {
    let mut boards = Vec::new();
    let mut tiles = Tiles::new(puzzle);
    let mut unnamed = 0;
    for (k, raw) in text.lines().enumerate() {
        let err =
            |col: usize, message: String| ParseError { file: file.to_string(), line: k + 1, col: Some(col), message };
        let Some(fields) = content(raw) else { continue };
        let line = read_line(&fields, puzzle).map_err(|(col, m)| err(col, m))?;
        tiles.used_at.iter_mut().for_each(|u| *u = None);
        let board = recover(&line, puzzle, &mut tiles).map_err(|(col, m)| err(col, m))?;
        let name = if line.name.is_empty() {
            unnamed += 1;
            format!("board {unnamed}")
        } else {
            line.name
        };
        boards.push((name, board));
    }
    if boards.is_empty() {
        return Err(ParseError {
            file: file.to_string(),
            line: 1,
            col: Some(1),
            message: "no board: expected `NAME ORDER EDGES` lines, e2.bucas.name URLs or edge strings".into(),
        });
    }
    if boards.len() == 1 && unnamed == 1 {
        boards[0].0.clear();
    }
    Ok(boards)
}

/// The parts of one data line; `Err((column, message))`.
fn read_line<'t>(fields: &[(usize, &'t str)], puzzle: &EdgePuzzle) -> Result<Line<'t>, (usize, String)> {
    match fields {
        [(col, tok), rest @ ..] if url::is_url(tok) => {
            if let Some((c, _)) = rest.first() {
                return Err((*c, "text after the URL: expected the URL alone on its line (or a `#` comment)".into()));
            }
            read_url(tok, *col, puzzle)
        }
        [(_, name), (col, order), (ecol, edges)] => {
            let order = match *order {
                "jblackwood" | "marie" => Order::Jblackwood,
                "jef" => Order::Viewer,
                other => return Err((*col, format!("unknown letter order `{other}`: expected jblackwood or jef"))),
            };
            Ok(Line { name: name.to_string(), order, edges: (edges, *ecol), pieces: None })
        }
        [(col, edges)] => {
            Ok(Line { name: String::new(), order: Order::Jblackwood, edges: (edges, *col), pieces: None })
        }
        _ => Err((
            fields[0].0,
            format!(
                "{} fields: expected `NAME ORDER EDGES`, an e2.bucas.name URL or an edge string (4 letters per cell)",
                fields.len()
            ),
        )),
    }
}

/// The parts of a URL line, its size checked against the puzzle's.
fn read_url<'t>(tok: &'t str, col0: usize, puzzle: &EdgePuzzle) -> Result<Line<'t>, (usize, String)> {
    let params = url::params(tok, col0)?;
    let get = |key: &str| params.iter().find(|p| p.key == key);
    // The value as written (board_edges and board_pieces are not decoded).
    let raw = |p: &url::Param| &tok[p.at..p.at + p.value.len()];
    for (key, want, what) in [("board_w", puzzle.cols, "columns"), ("board_h", puzzle.rows, "rows")] {
        if let Some(p) = get(key) {
            match p.value.parse::<usize>() {
                Ok(n) if n == want => {}
                Ok(n) => {
                    return Err((
                        p.col,
                        format!(
                            "the URL's board is {} x {} (board_w x board_h), but the puzzle is {} x {} ({what} {want}, not {n}): is this the board of another puzzle?",
                            get("board_w").map_or("?", |p| p.value.as_str()),
                            get("board_h").map_or("?", |p| p.value.as_str()),
                            puzzle.cols,
                            puzzle.rows
                        ),
                    ))
                }
                Err(_) => return Err((p.col, format!("{key}=`{}`: expected a number of {what}", p.value))),
            }
        }
    }
    let edges = get("board_edges")
        .ok_or((col0, "no board_edges parameter: expected `board_edges=` and 4 letters per cell".to_string()))?;
    let order = match get("motifs_order").map(|p| (p, p.value.as_str())) {
        None => Order::Viewer,
        Some((_, "jblackwood" | "marie")) => Order::Jblackwood,
        Some((_, "jef")) => Order::ViewerJef,
        Some((p, other)) => {
            return Err((p.col, format!("unknown motifs_order `{other}`: expected jblackwood, marie or jef (or none)")))
        }
    };
    Ok(Line {
        name: get("puzzle").map_or_else(String::new, |p| p.value.clone()),
        order,
        edges: (raw(edges), edges.col),
        pieces: get("board_pieces").map(|p| (raw(p), p.col)),
    })
}

/// The board of `line`, its tiles recovered from their colours.
fn recover(line: &Line, puzzle: &EdgePuzzle, tiles: &mut Tiles) -> Result<Board, (usize, String)> {
    let n = puzzle.n_cells();
    let (edges, ecol) = line.edges;
    let letters = edges.as_bytes();
    if let Some(bad) = edges.char_indices().find(|(_, c)| line.order.colour(u8::try_from(*c).unwrap_or(0)).is_none()) {
        let at = edges[..bad.0].chars().count();
        let (row, col) = puzzle.row_col((at / 4).min(n.saturating_sub(1)));
        return Err((
            ecol + at,
            format!(
                "bad letter `{}` (letter {} of the edge string, cell (row {}, column {})): expected {}",
                bad.1,
                at + 1,
                row + 1,
                col + 1,
                line.order.letters(),
            ),
        ));
    }
    if letters.len() != 4 * n {
        return Err((
            ecol,
            format!(
                "{} letters for a {} x {} board: expected {} (4 per cell, N E S W)",
                letters.len(),
                puzzle.rows,
                puzzle.cols,
                4 * n
            ),
        ));
    }
    let look = |cell: usize| -> [Color; 4] {
        std::array::from_fn(|s| line.order.colour(letters[4 * cell + s]).expect("letters checked above"))
    };
    let mut board = Board::empty(puzzle.rows, puzzle.cols);
    if let Some((digits, pcol)) = line.pieces {
        if digits.len() != 3 * n || !digits.bytes().all(|b| b.is_ascii_digit()) {
            let at = digits.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(0);
            return Err((
                pcol + at,
                format!(
                    "board_pieces has {} characters: expected {} digits (3 per cell, 000 for none)",
                    digits.len(),
                    3 * n
                ),
            ));
        }
        for cell in 0..n {
            let number: u32 = digits[3 * cell..3 * cell + 3].parse().expect("three digits");
            if number >= 1 {
                board.cells[cell] = tiles.take_hinted(cell, look(cell), number - 1);
            }
        }
    }
    // A clue's cell gets the clue's own tile when it shows the cell's
    // colours, not an identical copy (which would break the clue).
    for clue in &puzzle.clues {
        let cell = puzzle.cell(clue.row, clue.col);
        if board.cells[cell].is_none() {
            board.cells[cell] = tiles.take_hinted(cell, look(cell), clue.tile as u32);
        }
    }
    for cell in 0..n {
        if board.cells[cell].is_none() {
            let shown = &edges[4 * cell..4 * cell + 4];
            board.cells[cell] = tiles.take(cell, look(cell), shown).map_err(|m| (ecol + 4 * cell, m))?;
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests;
