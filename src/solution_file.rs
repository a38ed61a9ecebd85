//! Reading solutions back: what `emx solve --format json` prints, emx's
//! edge-matching board files, and polycube layer drawings (what `emx solve`
//! draws as text), turned into boards or IR option ids so they can be
//! verified and drawn.
//!
//! Accepted documents:
//! * **JSON**: the output of `emx solve --format json` (its
//!   `solution_list`), an object with a `board` or `solution` member, one
//!   solution (a polycube placement list `[{"piece", "cells"}, …]` or an
//!   edge-matching board `{"rows", "cols", "cells"}`), or an array of them;
//! * **board file** (edge matching): `T/R` per cell, one board or several
//!   one after the other, see
//!   [`parse_boards`](crate::frontend::edgematch::parse_boards);
//! * **e2.bucas.name boards** (edge matching): `NAME ORDER EDGES` lines,
//!   viewer URLs and bare edge strings, one board a line, the tiles
//!   recovered from the colours, see
//!   [`parse_bucas`](crate::frontend::edgematch::parse_bucas);
//! * **layer drawing** (polycube): one line per row from the top, the
//!   layers side by side, one piece name per cell, `.` for an empty cell.

use crate::edgematch::{Board, EdgePuzzle, Placed};
use crate::frontend::edgematch::{is_bucas, parse_boards, parse_bucas};
use crate::frontend::ParseError;
use crate::input::{Instance, InstanceKind};
use crate::ir::{Geometry, OptionId, Problem, Solution};
use serde_json::Value;
use std::collections::HashMap;

fn error(file: &str, line: usize, message: String) -> ParseError {
    ParseError { file: file.to_string(), line, col: None, message }
}

fn parse_json(text: &str, file: &str) -> Result<Value, ParseError> {
    serde_json::from_str(text).map_err(|e| ParseError {
        file: file.to_string(),
        line: e.line().max(1),
        col: Some(e.column().max(1)),
        message: format!("invalid JSON: {e}"),
    })
}

fn looks_like_json(text: &str) -> bool {
    matches!(text.trim_start().chars().next(), Some('{' | '['))
}

/// The solution values in a JSON document (see the module documentation).
fn json_solutions(v: &Value) -> Vec<&Value> {
    let is_board = |v: &Value| v.get("cells").is_some_and(Value::is_array) && v.get("rows").is_some();
    let is_placements = |v: &Value| v.as_array().is_some_and(|a| a.first().is_none_or(|p| p.get("piece").is_some()));
    if let Some(obj) = v.as_object() {
        for key in ["solution_list", "solutions", "boards"] {
            if let Some(list) = obj.get(key).and_then(Value::as_array) {
                return list.iter().collect();
            }
        }
        for key in ["board", "solution"] {
            if let Some(one) = obj.get(key) {
                return vec![one];
            }
        }
        if is_board(v) {
            return vec![v];
        }
        return vec![];
    }
    if is_placements(v) {
        return vec![v];
    }
    v.as_array().map_or_else(Vec::new, |a| a.iter().collect())
}

/// Reads edge-matching boards (complete or partial) from a JSON document,
/// a board file (one or several boards) or e2.bucas.name boards (lines,
/// URLs, edge strings), with their names (a bucas line's name or a URL's
/// `puzzle`, else `board K` when there are several, else empty). This is
/// the one board reader of `score`, `render` and `optimize --start-board`. A cell naming a tile the
/// puzzle does not have, or a board of another size, is an error naming
/// where it is.
pub fn read_named_boards(puzzle: &EdgePuzzle, text: &str, file: &str) -> Result<Vec<(String, Board)>, ParseError> {
    let n = puzzle.tiles.len();
    let boards: Vec<(String, Board)> = if looks_like_json(text) {
        let doc = parse_json(text, file)?;
        let list = json_solutions(&doc);
        if list.is_empty() {
            return Err(error(file, 1, "no board found: expected `emx solve --format json` output or a board object `{\"rows\", \"cols\", \"cells\"}`".into()));
        }
        let boards = list
            .iter()
            .enumerate()
            .map(|(k, v)| board_from_json(v).map_err(|m| error(file, 1, format!("board {}: {m}", k + 1))))
            .collect::<Result<Vec<_>, _>>()?;
        for (k, b) in boards.iter().enumerate() {
            if let Some((i, p)) =
                b.cells.iter().enumerate().find_map(|(i, c)| c.filter(|p| p.tile as usize >= n).map(|p| (i, p)))
            {
                return Err(error(
                    file,
                    1,
                    format!(
                        "board {}: cell (row {}, column {}) holds tile {}, but the puzzle has {n} tiles",
                        k + 1,
                        i / b.cols + 1,
                        i % b.cols + 1,
                        p.tile + 1
                    ),
                ));
            }
        }
        boards.into_iter().map(|b| (String::new(), b)).collect()
    } else if is_bucas(text) {
        parse_bucas(text, file, puzzle)?
    } else {
        let boards = parse_boards(text, file)?;
        let several = boards.len() > 1;
        boards
            .into_iter()
            .enumerate()
            .map(|(k, b)| {
                let name = if several { format!("board {}", k + 1) } else { String::new() };
                b.check_tiles(n, file).map(|()| (name, b.board))
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    for (k, (_, b)) in boards.iter().enumerate() {
        if (b.rows, b.cols) != (puzzle.rows, puzzle.cols) {
            return Err(error(
                file,
                1,
                format!(
                    "board {} is {} x {} (rows x cols), but the puzzle is {} x {}: is this the board of another puzzle?",
                    k + 1,
                    b.rows,
                    b.cols,
                    puzzle.rows,
                    puzzle.cols
                ),
            ));
        }
    }
    Ok(boards)
}

/// [`read_named_boards`] without the names.
pub fn read_boards(puzzle: &EdgePuzzle, text: &str, file: &str) -> Result<Vec<Board>, ParseError> {
    Ok(read_named_boards(puzzle, text, file)?.into_iter().map(|(_, b)| b).collect())
}

fn board_from_json(v: &Value) -> Result<Board, String> {
    let dim = |key: &str| {
        v.get(key).and_then(Value::as_u64).map(|x| x as usize).ok_or_else(|| format!("expected a number `{key}`"))
    };
    let (rows, cols) = (dim("rows")?, dim("cols")?);
    let cells = v.get("cells").and_then(Value::as_array).ok_or("expected an array `cells`")?;
    if cells.len() != rows.saturating_mul(cols) {
        return Err(format!("{} cells for a {rows} x {cols} board: expected {}", cells.len(), rows * cols));
    }
    let mut board = Board::empty(rows, cols);
    for (i, c) in cells.iter().enumerate() {
        if c.is_null() {
            continue;
        }
        let tile = c.get("tile").and_then(Value::as_u64).filter(|&t| t >= 1 && t <= u32::MAX as u64);
        let rotation = c.get("rotation").and_then(Value::as_u64).filter(|&r| r < 4);
        match (tile, rotation) {
            (Some(t), Some(r)) => board.cells[i] = Some(Placed { tile: t as u32 - 1, rotation: r as u8 }),
            _ => {
                return Err(format!(
                    "cell {i}: expected null or {{\"tile\": number from 1, \"rotation\": 0-3}}, found {c}"
                ))
            }
        }
    }
    Ok(board)
}

/// The option ids of the placements of a (possibly partial) board.
pub fn options_of_board(puzzle: &EdgePuzzle, problem: &Problem, board: &Board) -> Result<Solution, String> {
    let geo = problem.geometry.as_ref().ok_or("the problem has no geometry")?;
    let index: HashMap<(u32, u32, [u16; 4]), OptionId> = geo
        .placements
        .iter()
        .enumerate()
        .map(|(o, p)| ((p.piece, p.cells[0], puzzle.tiles[p.piece as usize].rotated(p.orientation as u8)), o as u32))
        .collect();
    let mut options = Vec::new();
    for (i, cell) in board.cells.iter().enumerate() {
        let Some(p) = cell else { continue };
        let (r, c) = (i / board.cols, i % board.cols);
        let tile = puzzle.tiles.get(p.tile as usize).ok_or_else(|| {
            format!(
                "cell (row {}, column {}) holds tile {}, but the puzzle has {} tiles",
                r + 1,
                c + 1,
                p.tile + 1,
                puzzle.tiles.len()
            )
        })?;
        let key = (p.tile, i as u32, tile.rotated(p.rotation));
        let o = index.get(&key).ok_or_else(|| {
            format!(
                "cell ({r}, {c}): tile {} in rotation {} is not a placement of this puzzle (grey sides must face the border, and clues fix their cells)",
                p.tile + 1,
                p.rotation
            )
        })?;
        options.push(*o);
    }
    Ok(Solution { options })
}

/// Placement lookup of a polycube geometry: `(piece, sorted cells) -> option`.
fn placement_index(geo: &Geometry) -> HashMap<(u32, &[u32]), OptionId> {
    let mut index = HashMap::new();
    for (o, p) in geo.placements.iter().enumerate() {
        index.entry((p.piece, p.cells.as_slice())).or_insert(o as OptionId);
    }
    index
}

/// Which piece kind a copy name belongs to, and whether it is stationary.
fn piece_of(geo: &Geometry, name: &str) -> Option<(u32, bool)> {
    geo.pieces
        .iter()
        .enumerate()
        .find(|(_, p)| p.names.iter().any(|n| n == name))
        .map(|(k, p)| (k as u32, p.stationary))
}

/// Maps named cell sets to options; stationary pieces are skipped (they are
/// not options).
fn options_of_placements(
    geo: &Geometry,
    index: &HashMap<(u32, &[u32]), OptionId>,
    placed: Vec<(String, Vec<u32>)>,
) -> Result<Solution, String> {
    let mut options = Vec::new();
    for (name, mut cells) in placed {
        let (piece, stationary) =
            piece_of(geo, &name).ok_or_else(|| format!("no piece is named `{name}` in this puzzle"))?;
        if stationary {
            continue;
        }
        cells.sort_unstable();
        let coords: Vec<[u32; 3]> = cells.iter().map(|&c| geo.coords(c)).collect();
        let o = index.get(&(piece, cells.as_slice())).ok_or_else(|| {
            format!("piece `{name}` on cells {coords:?} is not a placement of this puzzle (wrong shape, or overlaps a fixed piece)")
        })?;
        options.push(*o);
    }
    Ok(Solution { options })
}

/// Reads polycube solutions from a JSON document or a layer drawing.
pub fn read_polycube(geo: &Geometry, text: &str, file: &str) -> Result<Vec<Solution>, ParseError> {
    let index = placement_index(geo);
    if looks_like_json(text) {
        let doc = parse_json(text, file)?;
        let list = json_solutions(&doc);
        if list.is_empty() {
            return Err(error(file, 1, "no solution found: expected `emx solve --format json` output (with `--first N` or `--all`) or a list of `{\"piece\", \"cells\"}` placements".into()));
        }
        return list
            .iter()
            .enumerate()
            .map(|(k, v)| {
                placements_from_json(geo, v)
                    .and_then(|placed| options_of_placements(geo, &index, placed))
                    .map_err(|m| error(file, 1, format!("solution {}: {m}", k + 1)))
            })
            .collect();
    }
    let [dx, dy, dz] = geo.dims;
    let wanted = (dx * dz) as usize;
    let mut rows: Vec<(usize, Vec<&str>)> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let content = line.split('#').next().unwrap_or("");
        let tokens: Vec<&str> = content.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        if tokens.len() != wanted {
            return Err(error(
                file,
                k + 1,
                format!(
                    "expected {wanted} cells on this row ({dx} per layer x {dz} layers, one piece name or `.` each), found {}",
                    tokens.len()
                ),
            ));
        }
        rows.push((k + 1, tokens));
    }
    if rows.len() != dy as usize {
        let line = rows.last().map_or(1, |r| r.0);
        return Err(error(
            file,
            line,
            format!("expected {dy} rows (the box is {dx} x {dy} x {dz}), found {}", rows.len()),
        ));
    }
    let mut cells_of: Vec<(String, Vec<u32>, usize)> = Vec::new();
    for (r, (line, tokens)) in rows.iter().enumerate() {
        let y = dy - 1 - r as u32;
        for (k, &name) in tokens.iter().enumerate() {
            if name == "." {
                continue;
            }
            let (z, x) = ((k as u32) / dx, (k as u32) % dx);
            let cell = geo.cell([x, y, z]);
            match cells_of.iter_mut().find(|(n, _, _)| n == name) {
                Some(entry) => entry.1.push(cell),
                None => cells_of.push((name.to_string(), vec![cell], *line)),
            }
        }
    }
    let mut options = Vec::new();
    for (name, cells, line) in cells_of {
        let one = options_of_placements(geo, &index, vec![(name, cells)]).map_err(|m| error(file, line, m))?;
        options.extend(one.options);
    }
    Ok(vec![Solution { options }])
}

fn placements_from_json(geo: &Geometry, v: &Value) -> Result<Vec<(String, Vec<u32>)>, String> {
    let list = v.as_array().ok_or("expected a list of `{\"piece\", \"cells\"}` placements")?;
    let [dx, dy, dz] = geo.dims;
    let mut out = Vec::new();
    for p in list {
        let name = p.get("piece").and_then(Value::as_str).ok_or_else(|| format!("expected a `piece` name in {p}"))?;
        let cells =
            p.get("cells").and_then(Value::as_array).ok_or_else(|| format!("piece `{name}`: expected `cells`"))?;
        let mut ids = Vec::new();
        for c in cells {
            let xyz: Vec<u64> = c.as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default();
            match xyz[..] {
                [x, y, z] if x < dx as u64 && y < dy as u64 && z < dz as u64 => {
                    ids.push(geo.cell([x as u32, y as u32, z as u32]))
                }
                _ => {
                    return Err(format!(
                        "piece `{name}`: cell {c} is not `[x, y, z]` inside the {dx} x {dy} x {dz} box"
                    ))
                }
            }
        }
        out.push((name.to_string(), ids));
    }
    Ok(out)
}

/// Reads the solutions in `text` for `instance`, as option ids.
pub fn read_solutions(instance: &Instance, text: &str, file: &str) -> Result<Vec<Solution>, ParseError> {
    match &instance.kind {
        InstanceKind::EdgeMatch(e) => read_boards(&e.puzzle, text, file)?
            .iter()
            .enumerate()
            .map(|(k, b)| {
                options_of_board(&e.puzzle, &e.problem, b).map_err(|m| error(file, 1, format!("board {}: {m}", k + 1)))
            })
            .collect(),
        InstanceKind::Polycube(_) => {
            let geo = instance.problem().geometry.as_ref().expect("front-ends attach geometry");
            read_polycube(geo, text, file)
        }
        InstanceKind::Cover(c) => read_cover(c.problem.n_options(), text, file),
    }
}

/// Reads solutions of a bare exact-cover problem: JSON lists of
/// `{"option": N, …}` (0-based option numbers), as `emx solve` writes them.
fn read_cover(n_options: usize, text: &str, file: &str) -> Result<Vec<Solution>, ParseError> {
    let doc = parse_json(text, file)?;
    let list: Vec<&Value> = match doc.get("solution_list").and_then(Value::as_array) {
        Some(l) => l.iter().collect(),
        None => vec![&doc],
    };
    list.iter()
        .enumerate()
        .map(|(k, v)| {
            let options: Option<Vec<u32>> = v
                .as_array()
                .and_then(|a| a.iter().map(|o| o.get("option").and_then(Value::as_u64).map(|n| n as u32)).collect());
            match options {
                Some(o) if o.iter().all(|&x| (x as usize) < n_options) => Ok(Solution { options: o }),
                _ => Err(error(
                    file,
                    1,
                    format!("solution {}: expected a list of {{\"option\": N}} with N below {n_options}", k + 1),
                )),
            }
        })
        .collect()
}
