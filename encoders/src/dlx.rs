//! Knuth's `.dlx` text format (the input of DLX1/DLX2/DLX3 and SSXCC):
//!
//! ```text
//! | comment lines start with a bar
//! A B 2|C | X Y        primary items, `|`, secondary items
//! A B X:0 Y:0          one option per line; `item:colour` on secondary items
//! ```
//!
//! A primary item may carry DLX3 bounds `a:b|name` (covered between `a` and
//! `b` times), `b|name` for exactly `b`. emx's IR has exact multiplicities
//! only, so the reader accepts `b|name` and `b:b|name` and rejects `a:b|`
//! with `a != b`; the writer emits `b|name` for a multiplicity `b > 1`.
//! Knuth's programs limit names to 8 characters; the writer warns in a
//! comment when a name is longer.

use crate::cover::{CoverEntry, CoverSource};
use crate::ParseError;
use std::collections::HashMap;
use std::io::{self, Write};

fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == ':' || c == '|')
}

/// Writes `src` in `.dlx` format, skipping `excluded` options (empty: keep
/// all). `comments` become `|` lines at the top. Fails if a name cannot be
/// written (blank, `:` or `|` inside).
pub fn write_dlx(
    w: &mut impl Write,
    src: &(impl CoverSource + ?Sized),
    excluded: &[bool],
    comments: &str,
) -> io::Result<()> {
    let bad = |what: &str, name: &str| {
        io::Error::new(io::ErrorKind::InvalidData, format!("{what} `{name}` cannot be written in .dlx format"))
    };
    for line in comments.lines() {
        writeln!(w, "| {line}")?;
    }
    let mut long = 0;
    for i in 0..src.n_items() as u32 {
        let name = src.item_name(i);
        if !valid_name(name) {
            return Err(bad("item name", name));
        }
        long += (name.len() > 8) as usize;
    }
    for c in 1..src.n_colors() as u32 {
        let name = src.color_name(c);
        if !valid_name(name) {
            return Err(bad("colour name", name));
        }
        long += (name.len() > 8) as usize;
    }
    if long > 0 {
        writeln!(w, "| warning: {long} names are longer than the 8 characters Knuth's programs accept")?;
    }
    let mut line = String::new();
    for i in 0..src.n_items() as u32 {
        if i as usize == src.n_primary() {
            line.push_str("| ");
        }
        if (i as usize) < src.n_primary() && src.multiplicity(i) != 1 {
            line.push_str(&format!("{}|", src.multiplicity(i)));
        }
        line.push_str(src.item_name(i));
        line.push(' ');
    }
    writeln!(w, "{}", line.trim_end())?;
    for o in 0..src.n_options() as u32 {
        if excluded.get(o as usize).copied().unwrap_or(false) {
            continue;
        }
        line.clear();
        src.for_each_entry(o, &mut |e| {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(src.item_name(e.item));
            if e.color != 0 {
                line.push(':');
                line.push_str(src.color_name(e.color));
            }
        });
        writeln!(w, "{line}")?;
    }
    Ok(())
}

/// An item read from a `.dlx` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlxItem {
    /// Name.
    pub name: String,
    /// `Some(m)`: primary, covered exactly `m` times; `None`: secondary.
    pub multiplicity: Option<u32>,
}

/// A problem read from a `.dlx` file, in file order (primary items first,
/// as the format requires).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlxProblem {
    /// Items.
    pub items: Vec<DlxItem>,
    /// Colour names; index 0 is the empty "no colour".
    pub colors: Vec<String>,
    /// Options as (item index, colour index) entries, in line order.
    pub options: Vec<Vec<CoverEntry>>,
    /// The 1-based line of each option.
    pub option_lines: Vec<usize>,
}

/// Reads a `.dlx` file.
pub fn read_dlx(text: &str) -> Result<DlxProblem, ParseError> {
    let mut items: Vec<DlxItem> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut colors = vec![String::new()];
    let mut color_index: HashMap<&str, u32> = HashMap::new();
    let mut options = Vec::new();
    let mut option_lines = Vec::new();
    let mut have_items = false;
    let mut last = 1;
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        last = n;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('|') {
            continue;
        }
        if !have_items {
            have_items = true;
            let mut secondary = false;
            for tok in line.split_whitespace() {
                if tok == "|" {
                    if secondary {
                        return Err(ParseError::new(n, "a second `|` on the item line"));
                    }
                    secondary = true;
                    continue;
                }
                let (bounds, name) = match tok.rsplit_once('|') {
                    Some((b, name)) => (Some(b), name),
                    None => (None, tok),
                };
                if !valid_name(name) {
                    return Err(ParseError::new(n, format!("expected an item name, found `{tok}`")));
                }
                let multiplicity = match (secondary, bounds) {
                    (true, Some(_)) => {
                        return Err(ParseError::new(n, format!("secondary item `{name}` cannot have bounds")))
                    }
                    (true, None) => None,
                    (false, None) => Some(1),
                    (false, Some(b)) => {
                        let parse = |s: &str| s.parse::<u32>().ok();
                        let (lo, hi) = match b.split_once(':') {
                            Some((a, b)) => (parse(a), parse(b)),
                            None => (parse(b), parse(b)),
                        };
                        match (lo, hi) {
                            (Some(lo), Some(hi)) if lo == hi && hi >= 1 => Some(hi),
                            (Some(lo), Some(hi)) if lo <= hi => {
                                return Err(ParseError::new(
                                    n,
                                    format!("item `{name}` has bounds {lo}:{hi}; emx supports exact multiplicities only (`m|name` or `m:m|name` with m >= 1)"),
                                ))
                            }
                            _ => {
                                return Err(ParseError::new(
                                    n,
                                    format!("expected bounds `m|` or `m:m|` (m >= 1) before `{name}`, found `{b}|`"),
                                ))
                            }
                        }
                    }
                };
                if index.insert(name, items.len() as u32).is_some() {
                    return Err(ParseError::new(n, format!("item `{name}` is declared twice")));
                }
                items.push(DlxItem { name: name.to_string(), multiplicity });
            }
            if !items.iter().any(|i| i.multiplicity.is_some()) {
                return Err(ParseError::new(n, "the item line declares no primary item"));
            }
            continue;
        }
        let mut option: Vec<CoverEntry> = Vec::new();
        for tok in line.split_whitespace() {
            let (name, color) = match tok.split_once(':') {
                Some((name, c)) => (name, Some(c)),
                None => (tok, None),
            };
            let Some(&item) = index.get(name) else {
                return Err(ParseError::new(n, format!("unknown item `{name}` (not on the item line)")));
            };
            let primary = items[item as usize].multiplicity.is_some();
            let color = match color {
                None => 0,
                Some(_) if primary => {
                    return Err(ParseError::new(n, format!("primary item `{name}` cannot have a colour")))
                }
                Some(c) if !valid_name(c) => {
                    return Err(ParseError::new(n, format!("expected a colour name after `{name}:`, found `{c}`")))
                }
                Some(c) => *color_index.entry(c).or_insert_with(|| {
                    colors.push(c.to_string());
                    colors.len() as u32 - 1
                }),
            };
            if option.iter().any(|e| e.item == item) {
                return Err(ParseError::new(n, format!("item `{name}` appears twice in this option")));
            }
            option.push(CoverEntry { item, color });
        }
        if !option.iter().any(|e| items[e.item as usize].multiplicity.is_some()) {
            return Err(ParseError::new(n, "an option must contain at least one primary item"));
        }
        options.push(option);
        option_lines.push(n);
    }
    if !have_items {
        return Err(ParseError::new(last, "no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`"));
    }
    Ok(DlxProblem { items, colors, options, option_lines })
}

impl CoverSource for DlxProblem {
    fn n_items(&self) -> usize {
        self.items.len()
    }
    fn n_primary(&self) -> usize {
        self.items.iter().take_while(|i| i.multiplicity.is_some()).count()
    }
    fn multiplicity(&self, item: u32) -> u32 {
        self.items[item as usize].multiplicity.unwrap_or(0)
    }
    fn item_name(&self, item: u32) -> &str {
        &self.items[item as usize].name
    }
    fn n_colors(&self) -> usize {
        self.colors.len()
    }
    fn color_name(&self, color: u32) -> &str {
        &self.colors[color as usize]
    }
    fn n_options(&self) -> usize {
        self.options.len()
    }
    fn for_each_entry(&self, o: u32, f: &mut dyn FnMut(CoverEntry)) {
        self.options[o as usize].iter().for_each(|&e| f(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNUTH: &str =
        "| A simple example of color controls\nA B 2|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

    #[test]
    fn round_trip() {
        let p = read_dlx(KNUTH).unwrap();
        assert_eq!(p.items.len(), 5);
        assert_eq!(p.items[2], DlxItem { name: "C".into(), multiplicity: Some(2) });
        assert_eq!(p.colors, vec!["", "0", "1"]);
        assert_eq!(p.option_lines, vec![3, 4, 5, 6, 7]);
        let mut out = Vec::new();
        write_dlx(&mut out, &p, &[false, false, true, false, false], "copy").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "| copy\nA B 2|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n");
        assert_eq!(read_dlx(&text).unwrap().options.len(), 4);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let e = |t: &str| read_dlx(t).unwrap_err().to_string();
        assert_eq!(e("A | X\nA Z\n"), "line 2: unknown item `Z` (not on the item line)");
        assert_eq!(e("A | X\nA:1\n"), "line 2: primary item `A` cannot have a colour");
        assert_eq!(e("A | X\nX\n"), "line 2: an option must contain at least one primary item");
        assert_eq!(e("A | X\nA A\n"), "line 2: item `A` appears twice in this option");
        assert!(e("1:2|A\n").starts_with("line 1: item `A` has bounds 1:2; emx supports exact multiplicities only"));
        assert_eq!(e("x|A\n"), "line 1: expected bounds `m|` or `m:m|` (m >= 1) before `A`, found `x|`");
        assert_eq!(e("| X Y\n"), "line 1: no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`");
        assert_eq!(e("A A\n"), "line 1: item `A` is declared twice");
        assert_eq!(e("| only comments\n\n"), "line 2: no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`");
    }
}
