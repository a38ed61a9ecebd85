//! Knuth-compatible `.dlx`: random exact-cover problems with colours and
//! multiplicities, written by emx, pass a checker of the input rules of
//! Knuth's DLX1/DLX2/DLX3 (as their input routines apply them) and read
//! back to a problem with the same number of solutions.

use emx::ir::{Entry, Problem, ProblemBuilder, NO_COLOR};
use emx::search::Limits;
use emx_encoders::dlx::{write_dlx, DlxNames};
use proptest::prelude::*;
use std::collections::HashSet;

/// Knuth's rules for a name: 1 to 8 bytes, none blank, `:` or `|`.
fn name_ok(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 8 {
        return Err(format!("item name `{name}` has {} bytes (1 to 8)", name.len()));
    }
    if name.bytes().any(|b| !b.is_ascii_graphic() || b == b':' || b == b'|') {
        return Err(format!("illegal character in item name `{name}`"));
    }
    Ok(())
}

/// The input rules of Knuth's DLX programs (dlx1.w, dlx2.w, dlx3.w): every
/// line ends with a newline; `|` lines and blank lines are skipped; the
/// first other line names the items (primary ones optionally prefixed by
/// DLX3 bounds `u:v|` or `v|`, a lone `|` once before the secondary ones,
/// no name twice); each further line is an option of known items, each at
/// most once, a colour (one character after `:`) only on secondary items,
/// and at least one primary item. Returns the number of options.
fn knuth_accepts(text: &str) -> Result<usize, String> {
    if !text.ends_with('\n') {
        return Err("the last line has no newline".into());
    }
    let mut items: Vec<(String, bool)> = Vec::new(); // (name, primary)
    let mut have_items = false;
    let mut options = 0;
    for (k, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('|') {
            continue;
        }
        let n = k + 1;
        if !have_items {
            have_items = true;
            let mut secondary = false;
            for tok in t.split_whitespace() {
                if tok == "|" {
                    if secondary {
                        return Err(format!("line {n}: item name line contains | twice"));
                    }
                    secondary = true;
                    continue;
                }
                let name = match (secondary, tok.rsplit_once('|')) {
                    (false, Some((bounds, name))) => {
                        let (u, v) = bounds.split_once(':').unwrap_or((bounds, bounds));
                        let (u, v) = (u.parse::<u32>(), v.parse::<u32>());
                        match (u, v) {
                            (Ok(u), Ok(v)) if v >= 1 && u <= v => {}
                            _ => return Err(format!("line {n}: bad bound spec in `{tok}`")),
                        }
                        // DLX3 scans a bound within the 8 characters of a name.
                        if bounds.split(':').any(|d| d.len() >= 8) {
                            return Err(format!("line {n}: the bounds of `{tok}` are too long"));
                        }
                        name
                    }
                    _ => tok,
                };
                name_ok(name).map_err(|e| format!("line {n}: {e}"))?;
                if items.iter().any(|(i, _)| i == name) {
                    return Err(format!("line {n}: duplicate item name `{name}`"));
                }
                items.push((name.to_string(), !secondary));
            }
            continue;
        }
        let mut seen = HashSet::new();
        let mut primary = false;
        for tok in t.split_whitespace() {
            let (name, colour) = match tok.split_once(':') {
                Some((name, c)) => (name, Some(c)),
                None => (tok, None),
            };
            name_ok(name).map_err(|e| format!("line {n}: {e}"))?;
            let Some((_, is_primary)) = items.iter().find(|(i, _)| i == name) else {
                return Err(format!("line {n}: unknown item name `{name}`"));
            };
            if let Some(c) = colour {
                if *is_primary {
                    return Err(format!("line {n}: primary item `{name}` must be uncolored"));
                }
                if c.chars().count() != 1 {
                    return Err(format!("line {n}: color `{c}` must be a single character"));
                }
            }
            if !seen.insert(name) {
                return Err(format!("line {n}: duplicate item name `{name}` in this option"));
            }
            primary |= is_primary;
        }
        if !primary {
            return Err(format!("line {n}: option without primary items"));
        }
        options += 1;
    }
    if !have_items {
        return Err("no items".into());
    }
    Ok(options)
}

/// A random problem's shape: item names, multiplicities, colour names and
/// options as `(item, colour)` lists (`None`: uncoloured).
#[derive(Clone, Debug)]
struct Shape {
    primary: Vec<(String, u32)>,
    secondary: Vec<String>,
    colours: Vec<String>,
    options: Vec<Vec<(usize, Option<usize>)>>,
}

const PREFIXES: [&str; 5] = ["p", "a_rather_long_name_", "L1+L2+L3+", "é", "#"];

fn shape() -> impl Strategy<Value = Shape> {
    (1usize..=5, 0usize..=3, 0usize..=14).prop_flat_map(|(np, ns, nc)| {
        let names = proptest::collection::vec(0..PREFIXES.len(), np + ns);
        let mult = proptest::collection::vec(1u32..=2, np);
        let colour_names = proptest::collection::vec(0..PREFIXES.len(), nc);
        // Per option: a non-empty subset of the primary items, and per
        // secondary item absent / uncoloured / one of the colours.
        let option = (1u32..(1 << np), proptest::collection::vec(0..nc + 2, ns));
        let options = proptest::collection::vec(option, 1..=10);
        (names, mult, colour_names, options).prop_map(move |(names, mult, colour_names, options)| {
            let name = |k: usize, p: usize| format!("{}{k}", PREFIXES[p]);
            Shape {
                primary: (0..np).map(|k| (name(k, names[k]), mult[k])).collect(),
                secondary: (np..np + ns).map(|k| name(k, names[k])).collect(),
                colours: colour_names.iter().enumerate().map(|(k, &p)| format!("{}{k}", PREFIXES[p])).collect(),
                options: options
                    .into_iter()
                    .map(|(mask, sec)| {
                        let mut o: Vec<(usize, Option<usize>)> =
                            (0..np).filter(|i| mask >> i & 1 == 1).map(|i| (i, None)).collect();
                        for (j, s) in sec.into_iter().enumerate() {
                            match s {
                                0 => {}
                                1 => o.push((np + j, None)),
                                c => o.push((np + j, Some(c - 2))),
                            }
                        }
                        o
                    })
                    .collect(),
            }
        })
    })
}

fn build(s: &Shape) -> Problem {
    let mut b = ProblemBuilder::new("random");
    let mut ids: Vec<u32> = s.primary.iter().map(|(n, m)| b.primary_with_multiplicity(n.clone(), *m)).collect();
    ids.extend(s.secondary.iter().map(|n| b.secondary(n.clone())));
    let colours: Vec<u32> = s.colours.iter().map(|c| b.color(c)).collect();
    for o in &s.options {
        b.option(o.iter().map(|&(i, c)| Entry { item: ids[i], color: c.map_or(NO_COLOR, |c| colours[c]) }));
    }
    b.build(None).unwrap()
}

fn count(p: &Problem) -> u64 {
    emx::dlx::count(p, &Limits::none()).solutions
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn written_dlx_passes_knuths_rules_and_keeps_the_count(s in shape()) {
        let problem = build(&s);
        let names = DlxNames::new(&problem, &[]).unwrap();
        let mut out = Vec::new();
        write_dlx(&mut out, &problem, &names, &[], "random problem").unwrap();
        let text = String::from_utf8(out).unwrap();
        let options = knuth_accepts(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(options, s.options.len());
        let back = emx::frontend::dlx::dlx_problem(&text, "random.dlx", "random").unwrap();
        prop_assert_eq!(count(&back), count(&problem), "{}", text);
    }
}

#[test]
fn the_checker_refuses_what_knuth_refuses() {
    // The checker is a test of the writer only if it can say no.
    for (text, want) in [
        ("A | X\nA X:10\n", "single character"),
        ("A | X\nX:1\n", "without primary"),
        ("ABCDEFGHI | X\nABCDEFGHI\n", "1 to 8"),
        ("A | X\nA:1\n", "uncolored"),
        ("A | X\nA", "no newline"),
        ("A | X\nA A\n", "duplicate"),
        ("A | X\nB\n", "unknown"),
    ] {
        let e = knuth_accepts(text).unwrap_err();
        assert!(e.contains(want), "{text:?}: {e}");
    }
    assert_eq!(knuth_accepts("| c\nA 2|B | X\nA B X:a\nB\n"), Ok(2));
}
