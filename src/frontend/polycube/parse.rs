//! Reader for Busche's polycube definition files (polycube 1.2.1 format,
//! read unmodified): `D:`, `C:`, `L` ... `~L`, `~D`, `#` comments, several
//! puzzles per file.

use super::{PieceDef, Puzzle};
use crate::frontend::ParseError;
use crate::geometry::{Point, Shape, Transform};
use std::collections::HashMap;

/// Largest box side accepted.
pub const MAX_DIM: u32 = 1024;
/// Largest box volume accepted (grid points).
pub const MAX_VOLUME: u32 = 1 << 16;
/// Largest absolute coordinate in a `C:` layout.
const MAX_COORD: i32 = 4096;

struct Parser<'a> {
    file: &'a str,
    puzzles: Vec<Puzzle>,
    /// Puzzle under construction with the position of its `D:` line.
    current: Option<Puzzle>,
    /// Where each piece name of the current puzzle was first defined.
    names: HashMap<String, (usize, usize)>,
}

/// 1-based column of byte offset `at` in `line`.
fn col_of(line: &str, at: usize) -> usize {
    line[..at].chars().count() + 1
}

/// Splits `s` on `sep`, yielding each part with its byte offset in `s`.
fn split_offsets(s: &str, sep: char) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    s.split(sep).map(move |part| {
        let at = start;
        start += part.len() + sep.len_utf8();
        (at, part)
    })
}

/// Whitespace-separated tokens of `s` with their byte offsets.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = 0;
    std::iter::from_fn(move || {
        let start = rest + s[rest..].find(|c: char| !c.is_whitespace())?;
        let end = s[start..].find(char::is_whitespace).map_or(s.len(), |e| start + e);
        rest = end;
        Some((start, &s[start..end]))
    })
}

fn strip_comment(line: &str) -> &str {
    line.find('#').map_or(line, |i| &line[..i])
}

impl<'a> Parser<'a> {
    fn err(&self, line: usize, col: Option<usize>, message: impl Into<String>) -> ParseError {
        ParseError { file: self.file.to_string(), line, col, message: message.into() }
    }

    fn puzzle(&mut self, line_no: usize, what: &str) -> Result<&mut Puzzle, ParseError> {
        if self.current.is_none() {
            return Err(self.err(
                line_no,
                Some(1),
                format!("{what} before any puzzle: expected a `D:xDim=..:yDim=..:zDim=..` directive first"),
            ));
        }
        Ok(self.current.as_mut().expect("checked above"))
    }

    fn directive_d(&mut self, line_no: usize, line: &str) -> Result<(), ParseError> {
        if let Some(p) = &self.current {
            return Err(self.err(
                line_no,
                Some(1),
                format!("new `D:` directive while the puzzle begun on line {} is open: expected `~D` first", p.line),
            ));
        }
        let mut dims = [None; 3];
        let mut one_side = false;
        for (at, field) in split_offsets(line, ':').skip(1) {
            let col = col_of(line, at);
            let field_trim = field.trim();
            let (key, value) = match field_trim.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (field_trim, None),
            };
            let axis = match key {
                "xDim" => 0,
                "yDim" => 1,
                "zDim" => 2,
                "oneSide" => {
                    if value.is_some() {
                        return Err(self.err(line_no, Some(col), "`oneSide` takes no value"));
                    }
                    one_side = true;
                    continue;
                }
                "" => continue,
                other => {
                    return Err(self.err(
                        line_no,
                        Some(col),
                        format!("unknown field `{other}` in D: directive: expected xDim=, yDim=, zDim= or oneSide"),
                    ))
                }
            };
            let Some(value) = value else {
                return Err(self.err(line_no, Some(col), format!("`{key}` needs a value: expected `{key}=N`")));
            };
            let n: u32 = value.parse().map_err(|_| {
                self.err(line_no, Some(col), format!("bad number `{value}` for {key}: expected a positive integer"))
            })?;
            if n == 0 || n > MAX_DIM {
                return Err(self.err(
                    line_no,
                    Some(col),
                    format!("{key}={n} is out of range: expected 1 to {MAX_DIM}"),
                ));
            }
            dims[axis] = Some(n);
        }
        let mut d = [0u32; 3];
        for (axis, name) in ["xDim", "yDim", "zDim"].iter().enumerate() {
            d[axis] = dims[axis]
                .ok_or_else(|| self.err(line_no, Some(1), format!("D: directive lacks {name}: expected `{name}=N`")))?;
        }
        let volume = d[0] as u64 * d[1] as u64 * d[2] as u64;
        if volume > MAX_VOLUME as u64 {
            return Err(self.err(
                line_no,
                Some(1),
                format!("box of {volume} cells is too large: emx accepts at most {MAX_VOLUME} cells"),
            ));
        }
        if one_side && d[2] != 1 {
            return Err(self.err(line_no, Some(1), "oneSide requires zDim=1"));
        }
        self.names.clear();
        self.current = Some(Puzzle { name: String::new(), dims: d, one_side, pieces: Vec::new(), line: line_no });
        Ok(())
    }

    fn add_piece(&mut self, def: PieceDef) -> Result<(), ParseError> {
        if let Some(&(line, col)) = self.names.get(&def.name) {
            return Err(self.err(
                def.line,
                Some(def.col),
                format!("duplicate piece name `{}`: it was first defined at line {line}, column {col}", def.name),
            ));
        }
        self.names.insert(def.name.clone(), (def.line, def.col));
        self.current.as_mut().expect("piece inside a puzzle").pieces.push(def);
        Ok(())
    }

    fn directive_c(&mut self, line_no: usize, line: &str) -> Result<(), ParseError> {
        self.puzzle(line_no, "C: directive")?;
        let (mut name, mut stationary, mut layout) = (None, false, None);
        for (at, field) in split_offsets(line, ':').skip(1) {
            let col = col_of(line, at);
            let Some((key, value)) = field.split_once('=') else {
                if field.trim().is_empty() {
                    continue;
                }
                return Err(self.err(
                    line_no,
                    Some(col),
                    format!("field `{}` needs `=`: expected name=, type= or layout=", field.trim()),
                ));
            };
            let vcol = col + key.len() + 1;
            match key.trim() {
                "name" => {
                    let v = value.trim();
                    if v.is_empty() || v.contains(char::is_whitespace) || v.contains(',') {
                        return Err(self.err(
                            line_no,
                            Some(vcol),
                            format!("bad piece name `{v}`: expected one word without commas"),
                        ));
                    }
                    name = Some((v.to_string(), vcol));
                }
                "type" => match value.trim() {
                    "M" => stationary = false,
                    "S" => stationary = true,
                    other => {
                        return Err(self.err(
                            line_no,
                            Some(vcol),
                            format!("unknown piece type `{other}`: expected M (mobile) or S (stationary)"),
                        ))
                    }
                },
                "layout" => layout = Some((at + key.len() + 1, value)),
                other => {
                    return Err(self.err(
                        line_no,
                        Some(col),
                        format!("unknown field `{other}` in C: directive: expected name=, type= or layout="),
                    ))
                }
            }
        }
        let (name, name_col) =
            name.ok_or_else(|| self.err(line_no, Some(1), "C: directive lacks name=: expected `name=NAME`"))?;
        let (layout_at, layout) = layout.ok_or_else(|| {
            self.err(line_no, Some(1), "C: directive lacks layout=: expected `layout=x y z, x y z, ...`")
        })?;
        let mut cells: Vec<Point> = Vec::new();
        let mut seen: std::collections::HashSet<Point> = std::collections::HashSet::new();
        for (at, triple) in split_offsets(layout, ',') {
            let base = layout_at + at;
            let nums: Vec<(usize, &str)> = tokens(triple).collect();
            if nums.len() != 3 {
                let col = col_of(line, base + nums.first().map_or(0, |t| t.0));
                return Err(self.err(
                    line_no,
                    Some(col),
                    format!("expected three coordinates `x y z`, found {}", nums.len()),
                ));
            }
            let mut p = [0i32; 3];
            for (k, &(off, tok)) in nums.iter().enumerate() {
                let col = col_of(line, base + off);
                p[k] = tok.parse().ok().filter(|v: &i32| v.abs() <= MAX_COORD).ok_or_else(|| {
                    self.err(line_no, Some(col), format!("bad number `{tok}`: expected an integer coordinate"))
                })?;
            }
            if !seen.insert(p) {
                let col = col_of(line, base + nums[0].0);
                return Err(self.err(
                    line_no,
                    Some(col),
                    format!("cell {} {} {} is listed twice in piece `{name}`", p[0], p[1], p[2]),
                ));
            }
            cells.push(p);
        }
        self.add_piece(PieceDef { name, cells, stationary, line: line_no, col: name_col })
    }

    /// Reads an `L` block starting at `lines[start]`; returns the index of
    /// its `~L` line.
    fn block_l(&mut self, lines: &[&str], start: usize) -> Result<usize, ParseError> {
        let line_no = start + 1;
        let header = strip_comment(lines[start]);
        let dims = self.puzzle(line_no, "L block")?.dims;
        let mut stationary: Vec<(String, usize)> = Vec::new();
        for (at, field) in split_offsets(header, ':').skip(1) {
            let col = col_of(lines[start], at);
            match field.split_once('=') {
                Some((k, v)) if k.trim() == "stationary" => {
                    let vat = at + k.len() + 1;
                    stationary.extend(tokens(v).map(|(o, t)| (t.to_string(), col_of(lines[start], vat + o))))
                }
                _ => {
                    return Err(self.err(
                        line_no,
                        Some(col),
                        format!("unknown field `{}` in L directive: expected stationary=NAMES", field.trim()),
                    ))
                }
            }
        }
        // Cells per name, in order of first appearance.
        let mut order: Vec<String> = Vec::new();
        let mut found: HashMap<String, PieceDef> = HashMap::new();
        let mut row = 0i64;
        let mut end = None;
        for (k, raw) in lines.iter().enumerate().skip(start + 1) {
            let text = strip_comment(raw);
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            if t == "~L" {
                end = Some(k);
                break;
            }
            if t == "~D" || t.starts_with("D:") || t.starts_with("C:") || t == "L" || t.starts_with("L:") {
                return Err(self.err(
                    k + 1,
                    Some(col_of(raw, text.find(t).unwrap_or(0))),
                    format!("`{t}` inside the L block opened at line {line_no}: expected `~L` first"),
                ));
            }
            let y = dims[1] as i64 - 1 - row;
            row += 1;
            for (z, (lat, layer)) in split_offsets(text, ',').enumerate() {
                for (x, (tat, tok)) in tokens(layer).enumerate() {
                    if tok == "." {
                        continue;
                    }
                    let col = col_of(raw, lat + tat);
                    let p = [x as i32, y.clamp(-(MAX_COORD as i64), MAX_COORD as i64) as i32, z as i32];
                    if x as i32 > MAX_COORD || z as i32 > MAX_COORD || y.abs() > MAX_COORD as i64 {
                        return Err(self.err(
                            k + 1,
                            Some(col),
                            format!("layout is too large: coordinates are limited to {MAX_COORD}"),
                        ));
                    }
                    let def = found.entry(tok.to_string()).or_insert_with(|| {
                        order.push(tok.to_string());
                        PieceDef { name: tok.to_string(), cells: Vec::new(), stationary: false, line: k + 1, col }
                    });
                    def.cells.push(p);
                }
            }
        }
        let end = end.ok_or_else(|| {
            self.err(line_no, Some(1), "L block is not closed: expected `~L` before the end of the file")
        })?;
        for (name, col) in &stationary {
            match found.get_mut(name) {
                Some(def) => def.stationary = true,
                None => {
                    return Err(self.err(
                        line_no,
                        Some(*col),
                        format!("stationary piece `{name}` does not appear in this L block"),
                    ))
                }
            }
        }
        for name in order {
            let def = found.remove(&name).expect("every ordered name was found");
            self.add_piece(def)?;
        }
        Ok(end)
    }

    /// Checks a finished puzzle (`~D` at `line_no`).
    fn finish(&mut self, line_no: usize) -> Result<(), ParseError> {
        let mut p = self.current.take().ok_or_else(|| {
            self.err(line_no, Some(1), "`~D` without an open puzzle: expected a `D:` directive first")
        })?;
        let [dx, dy, dz] = p.dims;
        let volume = (dx * dy * dz) as usize;
        if p.pieces.iter().all(|d| d.stationary) {
            return Err(self.err(p.line, Some(1), "puzzle has no mobile pieces: expected C: or L pieces before `~D`"));
        }
        let inside = |c: &Point| {
            (0..dx as i32).contains(&c[0]) && (0..dy as i32).contains(&c[1]) && (0..dz as i32).contains(&c[2])
        };
        let mut taken: HashMap<Point, &str> = HashMap::new();
        for d in p.pieces.iter().filter(|d| d.stationary) {
            for c in &d.cells {
                if !inside(c) {
                    return Err(self.err(
                        d.line,
                        Some(d.col),
                        format!("layout outside the box: stationary piece `{}` has cell ({}, {}, {}) outside the {dx}x{dy}x{dz} box", d.name, c[0], c[1], c[2]),
                    ));
                }
                if let Some(other) = taken.insert(*c, &d.name) {
                    return Err(self.err(
                        d.line,
                        Some(d.col),
                        format!(
                            "stationary pieces `{other}` and `{}` overlap at ({}, {}, {})",
                            d.name, c[0], c[1], c[2]
                        ),
                    ));
                }
            }
        }
        let total: usize = p.pieces.iter().map(|d| d.cells.len()).sum();
        if total != volume {
            return Err(self.err(
                p.line,
                Some(1),
                format!("piece volume does not match the box: the pieces have {total} cells, the {dx}x{dy}x{dz} box has {volume}; stationary pieces must fill any holes"),
            ));
        }
        let group = Transform::group(p.one_side, false);
        for d in p.pieces.iter().filter(|d| !d.stationary) {
            let fits = Shape::new(d.cells.iter().copied()).orientations(&group).iter().any(|o| {
                let e = o.extent();
                e[0] <= dx as i32 && e[1] <= dy as i32 && e[2] <= dz as i32
            });
            if !fits {
                return Err(self.err(
                    d.line,
                    Some(d.col),
                    format!("piece `{}` fits nowhere in the {dx}x{dy}x{dz} box", d.name),
                ));
            }
        }
        p.name = format!("#{}", self.puzzles.len() + 1);
        self.puzzles.push(p);
        Ok(())
    }
}

/// Parses the text of a definition file. `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut parser = Parser { file, puzzles: Vec::new(), current: None, names: HashMap::new() };
    let lines: Vec<&str> = text.lines().collect();
    let mut k = 0;
    while k < lines.len() {
        let raw = lines[k];
        let line_no = k + 1;
        let text = strip_comment(raw);
        let t = text.trim();
        let col = col_of(raw, text.len() - text.trim_start().len());
        if t.is_empty() {
        } else if t == "~D" {
            parser.finish(line_no)?;
        } else if t.starts_with("D:") || t == "D" {
            parser.directive_d(line_no, text)?;
        } else if t.starts_with("C:") {
            parser.directive_c(line_no, text)?;
        } else if t == "L" || t.starts_with("L:") {
            k = parser.block_l(&lines, k)?;
        } else if t == "~L" {
            return Err(parser.err(line_no, Some(col), "`~L` without an open L block"));
        } else {
            let word: String = t.chars().take_while(|c| !c.is_whitespace()).take(20).collect();
            return Err(parser.err(
                line_no,
                Some(col),
                format!("unknown directive `{word}`: expected D:, C:, L, ~L, ~D or a # comment"),
            ));
        }
        k += 1;
    }
    if let Some(p) = &parser.current {
        return Err(parser.err(p.line, Some(1), "puzzle is not closed: expected `~D` before the end of the file"));
    }
    if parser.puzzles.is_empty() {
        return Err(parser.err(1, Some(1), "no puzzle in the file: expected a `D:xDim=..:yDim=..:zDim=..` directive"));
    }
    Ok(parser.puzzles)
}
