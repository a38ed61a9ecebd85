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
//! with `a != b`.
//!
//! The writer keeps to Knuth's input rules, so that his programs read every
//! file it writes: item names of at most 8 printable ASCII characters
//! without `:` or `|` (others are renamed `_1`, `_2`, ..., the new names
//! listed in `|` comment lines), one character per colour (colours whose
//! name is not a single character get one of [`COLOUR_CHARS`], with a
//! legend in `|` lines), `b|name` for a multiplicity `b > 1` (DLX3), and a
//! newline after every line. It announces its option count in a comment
//! `| emx: N options`, which the reader checks, so a file cut at a line
//! boundary is refused like one cut inside a line.

use crate::cover::{CoverEntry, CoverSource};
use crate::text::tokens;
use crate::ParseError;
use std::collections::{HashMap, HashSet};
use std::io::{self, Write};

/// The characters the writer gives colours, in the order it hands them
/// out: printable ASCII without blank, `:` and `|` (Knuth's programs read
/// the one byte after `:` as the colour).
pub const COLOUR_CHARS: &str =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./;<=>?@[\\]^_`{}~";

/// The longest item name Knuth's programs accept.
pub const MAX_NAME: usize = 8;

fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(|c: char| c.is_whitespace() || c == ':' || c == '|')
}

/// Whether Knuth's programs take `name` as it is: 1 to 8 printable ASCII
/// characters, no `:` or `|`.
pub fn knuth_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_graphic() && b != b':' && b != b'|')
}

/// Why a problem cannot be written in Knuth's format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DlxError {
    /// More colours than one-character names.
    #[error("the options use {used} colours, but Knuth's .dlx format has one character per colour ({max} at most)")]
    TooManyColours {
        /// Colours the kept options use.
        used: usize,
        /// Colours the format can name.
        max: usize,
    },
}

/// The names [`write_dlx`] writes: each item's and each colour's, in
/// Knuth's limits, with the renamed ones listed.
///
/// Invariant: `items[i]` is a [`knuth_name`], pairwise distinct; `colors[c]`
/// is one character of [`COLOUR_CHARS`] (or any single-character name the
/// problem already had that Knuth's programs take) for every colour the
/// kept options use, pairwise distinct among those, and empty otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DlxNames {
    items: Vec<String>,
    colors: Vec<String>,
    /// `(written name, original name)` of the renamed items.
    pub renamed_items: Vec<(String, String)>,
    /// `(written character, original name)` of the renamed colours.
    pub renamed_colors: Vec<(String, String)>,
}

impl DlxNames {
    /// The names for `src` without the `excluded` options (empty: none).
    pub fn new(src: &(impl CoverSource + ?Sized), excluded: &[bool]) -> Result<DlxNames, DlxError> {
        let kept: HashSet<&str> =
            (0..src.n_items() as u32).map(|i| src.item_name(i)).filter(|n| knuth_name(n)).collect();
        let mut items = Vec::with_capacity(src.n_items());
        let mut renamed_items = Vec::new();
        let mut next = 1u64;
        for i in 0..src.n_items() as u32 {
            let name = src.item_name(i);
            if knuth_name(name) {
                items.push(name.to_string());
                continue;
            }
            let fresh = loop {
                let candidate = format!("_{next}");
                next += 1;
                if !kept.contains(candidate.as_str()) {
                    break candidate;
                }
            };
            renamed_items.push((fresh.clone(), name.to_string()));
            items.push(fresh);
        }
        let mut used = vec![false; src.n_colors().max(1)];
        for o in 0..src.n_options() as u32 {
            if !excluded.get(o as usize).copied().unwrap_or(false) {
                src.for_each_entry(o, &mut |e| used[e.color as usize] = true);
            }
        }
        used[0] = false;
        let single = |n: &str| n.len() == 1 && knuth_name(n);
        let mut colors = vec![String::new(); used.len()];
        // A colour keeps a one-character name; no other colour gets the
        // name of one (used or not: grey's `0` stays unused, not `10`).
        let mut taken: HashSet<String> = HashSet::new();
        for c in 1..used.len() {
            let name = src.color_name(c as u32);
            if single(name) && taken.insert(name.to_string()) && used[c] {
                colors[c] = name.to_string();
            }
        }
        let n_used = used.iter().filter(|&&u| u).count();
        let mut free = COLOUR_CHARS.chars().map(String::from).filter(|ch| !taken.contains(ch)).collect::<Vec<_>>();
        free.reverse();
        let mut renamed_colors = Vec::new();
        for c in 1..used.len() {
            if !used[c] || !colors[c].is_empty() {
                continue;
            }
            let Some(ch) = free.pop() else {
                return Err(DlxError::TooManyColours { used: n_used, max: COLOUR_CHARS.len() });
            };
            renamed_colors.push((ch.clone(), src.color_name(c as u32).to_string()));
            colors[c] = ch;
        }
        Ok(DlxNames { items, colors, renamed_items, renamed_colors })
    }

    /// The written name of item `i`.
    pub fn item(&self, i: u32) -> &str {
        &self.items[i as usize]
    }

    /// The written name of colour `c` (used by a kept option).
    pub fn color(&self, c: u32) -> &str {
        &self.colors[c as usize]
    }
}

/// Writes `src` in `.dlx` format with `names` (made by [`DlxNames::new`]
/// for the same `excluded` options), skipping `excluded` options (empty:
/// keep all). `comments` become `|` lines at the top, then the option
/// count and the legend of renamed items and colours.
pub fn write_dlx(
    w: &mut impl Write,
    src: &(impl CoverSource + ?Sized),
    names: &DlxNames,
    excluded: &[bool],
    comments: &str,
) -> io::Result<()> {
    let skip = |o: u32| excluded.get(o as usize).copied().unwrap_or(false);
    for line in comments.lines() {
        writeln!(w, "| {line}")?;
    }
    let n_kept = (0..src.n_options() as u32).filter(|&o| !skip(o)).count();
    writeln!(w, "| emx: {n_kept} options")?;
    let coloured = names.colors.iter().any(|c| !c.is_empty());
    let multi = (0..src.n_primary() as u32).any(|i| src.multiplicity(i) != 1);
    let readers = match (coloured, multi) {
        (_, true) => "DLX3",
        (true, false) => "DLX2 and DLX3",
        (false, false) => "DLX1, DLX2 and DLX3",
    };
    writeln!(w, "| input of Knuth's {readers}")?;
    for (short, long) in &names.renamed_items {
        writeln!(w, "| item {short} = {long}")?;
    }
    for (ch, long) in &names.renamed_colors {
        writeln!(w, "| colour {ch} = {long}")?;
    }
    let mut line = String::new();
    for i in 0..src.n_items() as u32 {
        if i as usize == src.n_primary() {
            line.push_str("| ");
        }
        if (i as usize) < src.n_primary() && src.multiplicity(i) != 1 {
            line.push_str(&format!("{}|", src.multiplicity(i)));
        }
        line.push_str(names.item(i));
        line.push(' ');
    }
    writeln!(w, "{}", line.trim_end())?;
    for o in (0..src.n_options() as u32).filter(|&o| !skip(o)) {
        line.clear();
        src.for_each_entry(o, &mut |e| {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(names.item(e.item));
            if e.color != 0 {
                line.push(':');
                line.push_str(names.color(e.color));
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

/// Reads a `.dlx` file. Every option must hold a primary item; a last
/// line without its newline, or fewer options than an `| emx: N options`
/// comment announces, is a truncated file.
pub fn read_dlx(text: &str) -> Result<DlxProblem, ParseError> {
    let mut items: Vec<DlxItem> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut colors = vec![String::new()];
    let mut color_index: HashMap<&str, u32> = HashMap::new();
    let mut options = Vec::new();
    let mut option_lines = Vec::new();
    let mut have_items = false;
    let mut announced: Option<(usize, usize)> = None; // (options, line)
    let mut last = 1;
    let n_lines = text.lines().count();
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        last = n;
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix('|') {
            let count = rest.trim().strip_prefix("emx:").and_then(|r| r.trim().strip_suffix("options"));
            if let Some(Ok(count)) = count.map(|c| c.trim().parse::<usize>()) {
                announced = Some((count, n));
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        if n == n_lines && !text.ends_with('\n') {
            return Err(ParseError::at(
                n,
                raw.chars().count() + 1,
                "the last line ends without a newline: the file looks truncated (Knuth's programs need a newline after every line)",
            ));
        }
        if !have_items {
            have_items = true;
            let mut secondary = false;
            for (col, tok) in tokens(raw) {
                if tok == "|" {
                    if secondary {
                        return Err(ParseError::at(n, col, "a second `|` on the item line"));
                    }
                    secondary = true;
                    continue;
                }
                let (bounds, name) = match tok.rsplit_once('|') {
                    Some((b, name)) => (Some(b), name),
                    None => (None, tok),
                };
                if !valid_name(name) {
                    return Err(ParseError::at(n, col, format!("expected an item name, found `{tok}`")));
                }
                let multiplicity = match (secondary, bounds) {
                    (true, Some(_)) => {
                        return Err(ParseError::at(n, col, format!("secondary item `{name}` cannot have bounds")))
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
                                return Err(ParseError::at(
                                    n,
                                    col,
                                    format!("item `{name}` has bounds {lo}:{hi}; emx supports exact multiplicities only (`m|name` or `m:m|name` with m >= 1)"),
                                ))
                            }
                            _ => {
                                return Err(ParseError::at(
                                    n,
                                    col,
                                    format!("expected bounds `m|` or `m:m|` (m >= 1) before `{name}`, found `{b}|`"),
                                ))
                            }
                        }
                    }
                };
                if index.insert(name, items.len() as u32).is_some() {
                    return Err(ParseError::at(n, col, format!("item `{name}` is declared twice")));
                }
                items.push(DlxItem { name: name.to_string(), multiplicity });
            }
            if !items.iter().any(|i| i.multiplicity.is_some()) {
                return Err(ParseError::new(n, "the item line declares no primary item"));
            }
            continue;
        }
        let mut option: Vec<CoverEntry> = Vec::new();
        let mut first_col = 1;
        for (col, tok) in tokens(raw) {
            if option.is_empty() {
                first_col = col;
            }
            let (name, color) = match tok.split_once(':') {
                Some((name, c)) => (name, Some(c)),
                None => (tok, None),
            };
            let Some(&item) = index.get(name) else {
                return Err(ParseError::at(n, col, format!("unknown item `{name}` (not on the item line)")));
            };
            let primary = items[item as usize].multiplicity.is_some();
            let color = match color {
                None => 0,
                Some(_) if primary => {
                    return Err(ParseError::at(n, col, format!("primary item `{name}` cannot have a colour")))
                }
                Some(c) if !valid_name(c) => {
                    return Err(ParseError::at(
                        n,
                        col + name.chars().count() + 1,
                        format!("expected a colour name after `{name}:`, found `{c}`"),
                    ))
                }
                Some(c) => *color_index.entry(c).or_insert_with(|| {
                    colors.push(c.to_string());
                    colors.len() as u32 - 1
                }),
            };
            if option.iter().any(|e| e.item == item) {
                return Err(ParseError::at(n, col, format!("item `{name}` appears twice in this option")));
            }
            option.push(CoverEntry { item, color });
        }
        if !option.iter().any(|e| items[e.item as usize].multiplicity.is_some()) {
            return Err(ParseError::at(
                n,
                first_col,
                "an option must contain at least one primary item (Knuth's programs drop such an option; emx refuses it)",
            ));
        }
        options.push(option);
        option_lines.push(n);
    }
    if !have_items {
        return Err(ParseError::new(last, "no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`"));
    }
    if let Some((count, at)) = announced.filter(|&(c, _)| c != options.len()) {
        return Err(ParseError::new(
            last,
            format!("the file announces {count} options (line {at}) but holds {}: it looks truncated", options.len()),
        ));
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

    fn write(p: &DlxProblem, excluded: &[bool], comments: &str) -> String {
        let names = DlxNames::new(p, excluded).unwrap();
        let mut out = Vec::new();
        write_dlx(&mut out, p, &names, excluded, comments).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn round_trip() {
        let p = read_dlx(KNUTH).unwrap();
        assert_eq!(p.items.len(), 5);
        assert_eq!(p.items[2], DlxItem { name: "C".into(), multiplicity: Some(2) });
        assert_eq!(p.colors, vec!["", "0", "1"]);
        assert_eq!(p.option_lines, vec![3, 4, 5, 6, 7]);
        let text = write(&p, &[false, false, true, false, false], "copy");
        assert_eq!(
            text,
            "| copy\n| emx: 4 options\n| input of Knuth's DLX3\nA B 2|C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\n"
        );
        assert_eq!(read_dlx(&text).unwrap().options.len(), 4);
    }

    #[test]
    fn long_names_and_colours_are_mapped_with_a_legend() {
        let mut text = String::from("piece+piece+more x | joinlong10 y\n");
        for c in 10..13 {
            text.push_str(&format!("piece+piece+more joinlong10:c{c}\nx y:{}\n", c - 10));
        }
        let p = read_dlx(&text).unwrap();
        let out = write(&p, &[], "");
        assert_eq!(
            out,
            "| emx: 6 options\n| input of Knuth's DLX2 and DLX3\n| item _1 = piece+piece+more\n| item _2 = joinlong10\n\
             | colour 3 = c10\n| colour 4 = c11\n| colour 5 = c12\n_1 x | _2 y\n\
             _1 _2:3\nx y:0\n_1 _2:4\nx y:1\n_1 _2:5\nx y:2\n"
        );
        let back = read_dlx(&out).unwrap();
        assert_eq!(back.options.len(), 6);
        assert_eq!(back.colors.len(), p.colors.len());
    }

    #[test]
    fn too_many_colours_are_refused() {
        let mut text = String::from("A | X\n");
        for c in 0..=COLOUR_CHARS.len() {
            text.push_str(&format!("A X:c{c}\n"));
        }
        let p = read_dlx(&text).unwrap();
        let e = DlxNames::new(&p, &[]).unwrap_err();
        assert_eq!(e, DlxError::TooManyColours { used: 93, max: 92 });
        // Without the last option the 92 colours fit.
        let mut excluded = vec![false; p.options.len()];
        excluded[92] = true;
        assert!(DlxNames::new(&p, &excluded).is_ok());
    }

    #[test]
    fn malformed_files_name_the_line_and_column() {
        let e = |t: &str| read_dlx(t).unwrap_err().to_string();
        assert_eq!(e("A | X\nA Z\n"), "line 2, column 3: unknown item `Z` (not on the item line)");
        assert_eq!(e("A | X\nA:1\n"), "line 2, column 1: primary item `A` cannot have a colour");
        assert_eq!(
            e("A | X\n X\n"),
            "line 2, column 2: an option must contain at least one primary item (Knuth's programs drop such an option; emx refuses it)"
        );
        assert_eq!(e("A | X\nA A\n"), "line 2, column 3: item `A` appears twice in this option");
        assert_eq!(e("A | X\nA X:\n"), "line 2, column 5: expected a colour name after `X:`, found ``");
        assert!(e("1:2|A\n")
            .starts_with("line 1, column 1: item `A` has bounds 1:2; emx supports exact multiplicities only"));
        assert_eq!(e("x|A\n"), "line 1, column 1: expected bounds `m|` or `m:m|` (m >= 1) before `A`, found `x|`");
        assert_eq!(e("| X Y\n"), "line 1: no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`");
        assert_eq!(e("A A\n"), "line 1, column 3: item `A` is declared twice");
        assert_eq!(e("| only comments\n\n"), "line 2: no item line: expected `PRIMARY ITEMS | SECONDARY ITEMS`");
        assert_eq!(
            e("A B | X\nA X:1\nB X:"),
            "line 3, column 5: the last line ends without a newline: the file looks truncated (Knuth's programs need a newline after every line)"
        );
        assert_eq!(
            e("| emx: 3 options\nA B | X\nA X:1\nB X:1\n"),
            "line 4: the file announces 3 options (line 1) but holds 2: it looks truncated"
        );
        // A last comment without a newline is harmless.
        assert!(read_dlx("A | X\nA X:1\n| end").is_ok());
    }
}
