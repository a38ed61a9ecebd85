//! CNF of an exact cover with colours ([`encode_cnf`]).
//!
//! Always: a variable per option (allocated first, in option order, so a
//! model's true option variables are the solution), exactly-`m` per primary
//! item, colour agreement per secondary item, a unit clause `¬x` per
//! excluded option. Chosen by [`CnfOptions`]:
//!
//! * [`ColorEncoding`]: colour agreement as binary conflicts, or through a
//!   variable per (item, colour) (Heule's direct encoding).
//! * [`ExactlyOneOver`]: the exactly-one of a primary item over option
//!   variables, or over *sites*: the options that cover the same primary
//!   items (a tile in a cell; its rotations) get one site variable, as in
//!   Heule's piece-on-square variables.
//! * [`ColorChoice`]: whether an item every solution covers must show a
//!   colour (at-least-one over its colour variables) or may show none.

use crate::card::{at_most_one, exactly_k, AmoEncoding};
use crate::cardinality::CardEncoding;
use crate::cover::{check_mask, CoverSource, EncodeError, Flat};
use crate::formula::{ClauseSink, Lit, Var};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// An enum with command-line names: `NAMES[variant as usize]`, `name()`,
/// `Display` and `FromStr`.
macro_rules! named_enum {
    ($ty:ident, $what:literal, [$($variant:ident = $name:literal),+ $(,)?]) => {
        impl $ty {
            /// Names accepted by [`FromStr`] (and the command line), in variant order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
            /// The variant's name.
            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err(format!(concat!("unknown ", $what, " `{}`: expected one of {}"), s, Self::NAMES.join(", "))),
                }
            }
        }
    };
}

/// How colour agreement on secondary items is written in CNF.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorEncoding {
    /// A binary clause `¬a ∨ ¬b` for every two options that give an item
    /// different colours (or use it exclusively).
    Conflicts,
    /// One variable per (item, colour) (Heule's compact direct encoding):
    /// an option implies the colour it gives, the colour implies that some
    /// option gives it, and at most one colour (or exclusive use) per item.
    #[default]
    Variables,
}
named_enum!(ColorEncoding, "colour encoding", [Conflicts = "conflicts", Variables = "variables"]);

/// Over which variables the exactly-`m` of each primary item is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExactlyOneOver {
    /// Over the options that cover the item.
    #[default]
    Options,
    /// Over *sites*: options with the same primary items, one of which has
    /// multiplicity 1 (a tile in a cell: its rotations), share a site
    /// variable `s ↔ ∨ options`; the exactly-`m` counts sites. With colour
    /// variables, `s ∧ colour(j, c) → ∨ {options of s that show c on j or
    /// leave j}` for every item `j` and colour `c` of the site's options
    /// (so a site rules out the colours none of its options shows, and a
    /// colour picks the options that show it). Options of a site that no
    /// colour keeps apart get at-most-one.
    Sites,
}
named_enum!(ExactlyOneOver, "exactly-one encoding", [Options = "options", Sites = "sites"]);

/// Whether a coloured secondary item must show a colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColorChoice {
    /// At most one colour (or exclusive use) per item.
    #[default]
    AtMostOne,
    /// Exactly one for items that every solution covers (all options of
    /// some primary item cover them: an inner join is covered by both its
    /// cells): the at-least-one clause over the item's colour variables is
    /// added. Only with [`ColorEncoding::Variables`]; a no-op otherwise.
    ExactlyOne,
}
named_enum!(ColorChoice, "colour choice", [AtMostOne = "at-most-one", ExactlyOne = "exactly-one"]);

/// Settings of [`encode_cnf`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfOptions {
    /// At-most-one encoding (exactly-one = at-least-one clause + this).
    pub amo: AmoEncoding,
    /// Encoding of every exactly-`k` with `k > 1`: primary items of
    /// multiplicity `k` (identical pieces) and the colour totals.
    pub card: CardEncoding,
    /// Colour agreement encoding.
    pub colors: ColorEncoding,
    /// Variables the primary items' exactly-one counts.
    pub exactly_one_over: ExactlyOneOver,
    /// At most or exactly one colour per always-covered item.
    pub color_choice: ColorChoice,
    /// With [`ColorEncoding::Variables`]: the support clause of each colour
    /// variable, `colour(j, c) → ∨ {options that show c on j}`. Without
    /// it a colour variable may be true with no option showing it, which
    /// only forbids the item's other colours: the option variables of the
    /// models are still exactly the solutions (every chosen option implies
    /// its colours), but the colour variables are no longer determined by
    /// them. Heule's encodings have no support clauses.
    pub color_support: bool,
    /// Redundant colour totals the caller knows: `(colour, k)` = exactly `k`
    /// secondary items show `colour` in every solution (edge matching: half
    /// the tile sides of that colour). With [`ColorEncoding::Variables`]
    /// only: each becomes an exactly-`k` ([`CnfOptions::card`]) over that
    /// colour's variables, which then exist on every item that can show
    /// the colour. Empty: none.
    pub color_totals: Vec<(u32, u32)>,
    /// Options forced false (symmetry breaking, pinned pieces); empty for
    /// none, otherwise one flag per option.
    pub excluded: Vec<bool>,
}

impl Default for CnfOptions {
    fn default() -> Self {
        CnfOptions {
            amo: AmoEncoding::default(),
            card: CardEncoding::default(),
            colors: ColorEncoding::default(),
            exactly_one_over: ExactlyOneOver::default(),
            color_choice: ColorChoice::default(),
            color_support: true,
            color_totals: Vec::new(),
            excluded: Vec::new(),
        }
    }
}

/// Where [`encode_cnf`] put its variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfLayout {
    /// Option `o` is variable `option_base + o`.
    pub option_base: u32,
    /// Number of options.
    pub n_options: u32,
    /// Colour variables: `(variable, item, colour)`.
    pub color_vars: Vec<(Var, u32, u32)>,
    /// Site variables ([`ExactlyOneOver::Sites`], sites of two or more
    /// options only): `(variable, options of the site)`.
    pub site_vars: Vec<(Var, Vec<u32>)>,
}

impl CnfLayout {
    /// The variable of option `o`.
    pub fn option_var(&self, o: u32) -> Var {
        Var::new(self.option_base + o)
    }
}

/// The sites of the kept options: options with the same primary items, one
/// of multiplicity 1 (so that at most one of them is in a solution).
fn sites(src: &(impl CoverSource + ?Sized), flat: &Flat, kept: &[u32]) -> Vec<Vec<u32>> {
    let n_primary = src.n_primary() as u32;
    let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
    let mut out: Vec<Vec<u32>> = Vec::new();
    for &o in kept {
        let key: Vec<u32> = flat.option(o).iter().take_while(|e| e.item < n_primary).map(|e| e.item).collect();
        if key.iter().any(|&i| src.multiplicity(i) == 1) {
            match index.get(&key) {
                Some(&s) => out[s].push(o),
                None => {
                    index.insert(key, out.len());
                    out.push(vec![o]);
                }
            }
        } else {
            out.push(vec![o]);
        }
    }
    out
}

/// Whether two options can never both be chosen because of a secondary
/// item: one uses it without colour, or they give it different colours.
fn secondary_clash(flat: &Flat, n_primary: u32, a: u32, b: u32) -> bool {
    let (ea, eb) = (flat.option(a), flat.option(b));
    ea.iter()
        .filter(|e| e.item >= n_primary)
        .any(|x| eb.iter().any(|y| y.item == x.item && (x.color == 0 || y.color == 0 || x.color != y.color)))
}

/// Secondary items that every solution covers: for some primary item,
/// every kept option covering it covers them too.
fn always_covered(src: &(impl CoverSource + ?Sized), flat: &Flat, uses: &[Vec<(u32, u32)>]) -> Vec<bool> {
    let n_primary = src.n_primary() as u32;
    let mut covered = vec![false; src.n_items()];
    for u in uses.iter().take(src.n_primary()) {
        let Some(&(first, _)) = u.first() else { continue };
        let mut common: Vec<u32> = flat.option(first).iter().filter(|e| e.item >= n_primary).map(|e| e.item).collect();
        for &(o, _) in &u[1..] {
            let items = flat.option(o);
            common.retain(|&i| items.binary_search_by_key(&i, |e| e.item).is_ok());
            if common.is_empty() {
                break;
            }
        }
        for i in common {
            covered[i as usize] = true;
        }
    }
    covered
}

/// Encodes the problem as CNF into `sink` (see the module documentation and
/// [`CnfOptions`]).
///
/// Every assignment of the option variables that extends to a model is a
/// solution and vice versa; the auxiliary variables are determined by the
/// option variables except for the product encoding's.
pub fn encode_cnf(
    src: &(impl CoverSource + ?Sized),
    opts: &CnfOptions,
    sink: &mut impl ClauseSink,
) -> Result<CnfLayout, EncodeError> {
    check_mask(src, &opts.excluded)?;
    let n = src.n_options() as u32;
    let n_primary = src.n_primary() as u32;
    let option_base = if n == 0 { 0 } else { sink.new_var().index() };
    for _ in 1..n {
        sink.new_var();
    }
    let var = |o: u32| Var::new(option_base + o).positive();
    let excluded = |o: u32| opts.excluded.get(o as usize).copied().unwrap_or(false);
    let flat = Flat::new(src);
    // Uses of each item by kept options: (option, colour).
    let mut uses: Vec<Vec<(u32, u32)>> = vec![Vec::new(); src.n_items()];
    let mut kept = Vec::with_capacity(n as usize);
    for o in 0..n {
        if excluded(o) {
            sink.add_clause(&[!var(o)]);
            continue;
        }
        kept.push(o);
        for e in flat.option(o) {
            uses[e.item as usize].push((o, e.color));
        }
    }

    // The literal each option is counted through on its primary items.
    let mut counted: Vec<Lit> = (0..n).map(var).collect();
    let mut site_vars = Vec::new();
    if opts.exactly_one_over == ExactlyOneOver::Sites {
        for members in sites(src, &flat, &kept) {
            if members.len() < 2 {
                continue;
            }
            let s = sink.new_var();
            let mut any = vec![s.negative()];
            for (k, &o) in members.iter().enumerate() {
                sink.add_clause(&[!var(o), s.positive()]);
                any.push(var(o));
                counted[o as usize] = s.positive();
                for &p in &members[k + 1..] {
                    if !secondary_clash(&flat, n_primary, o, p) {
                        sink.add_clause(&[!var(o), !var(p)]);
                    }
                }
            }
            sink.add_clause(&any);
            site_vars.push((s, members));
        }
    }

    let mut lits: Vec<Lit> = Vec::new();
    for (item, u) in uses.iter().enumerate().take(src.n_primary()) {
        lits.clear();
        lits.extend(u.iter().map(|&(o, _)| counted[o as usize]));
        lits.sort_unstable(); // options ascending; the options of a site counted once
        lits.dedup();
        exactly_k(sink, &lits, src.multiplicity(item as u32) as usize, opts.amo, opts.card);
    }

    let covered = match (opts.color_choice, opts.colors) {
        (ColorChoice::ExactlyOne, ColorEncoding::Variables) => always_covered(src, &flat, &uses),
        _ => Vec::new(),
    };
    let mut color_vars = Vec::new();
    // Colour variables of each item, by colour.
    let mut item_colors: HashMap<u32, Vec<(u32, Var)>> = HashMap::new();
    // Colour variables of each colour with a known total.
    let mut totals: HashMap<u32, Vec<Lit>> = opts.color_totals.iter().map(|&(c, _)| (c, Vec::new())).collect();
    for (item, u) in uses.iter_mut().enumerate().skip(src.n_primary()) {
        u.sort_unstable_by_key(|&(o, c)| (c, o));
        let plain: Vec<Lit> = u.iter().filter(|&&(_, c)| c == 0).map(|&(o, _)| var(o)).collect();
        let mut classes: Vec<(u32, Vec<Lit>)> = Vec::new();
        for &(o, c) in u.iter().filter(|&&(_, c)| c != 0) {
            match classes.last_mut() {
                Some((last, v)) if *last == c => v.push(var(o)),
                _ => classes.push((c, vec![var(o)])),
            }
        }
        match opts.colors {
            ColorEncoding::Conflicts => {
                at_most_one(sink, &plain, opts.amo);
                for &p in &plain {
                    for (_, class) in &classes {
                        for &q in class {
                            sink.add_clause(&[!p, !q]);
                        }
                    }
                }
                for (i, (_, a)) in classes.iter().enumerate() {
                    for (_, b) in &classes[i + 1..] {
                        for &x in a {
                            for &y in b {
                                sink.add_clause(&[!x, !y]);
                            }
                        }
                    }
                }
            }
            ColorEncoding::Variables => {
                let counted = classes.iter().any(|(c, _)| totals.contains_key(c));
                if classes.len() + plain.len() <= 1 && !counted {
                    continue; // a single colour (or a single exclusive use) is always consistent
                }
                let mut group = plain;
                let mut mine = Vec::with_capacity(classes.len());
                for (c, class) in &classes {
                    let y = sink.new_var();
                    color_vars.push((y, item as u32, *c));
                    mine.push((*c, y));
                    if let Some(list) = totals.get_mut(c) {
                        list.push(y.positive());
                    }
                    let mut support = vec![y.negative()];
                    for &x in class {
                        sink.add_clause(&[!x, y.positive()]);
                        support.push(x);
                    }
                    if opts.color_support {
                        sink.add_clause(&support);
                    }
                    group.push(y.positive());
                }
                if covered.get(item).copied().unwrap_or(false) {
                    sink.add_clause(&group);
                }
                at_most_one(sink, &group, opts.amo);
                item_colors.insert(item as u32, mine);
            }
        }
    }

    for &(c, k) in &opts.color_totals {
        if let (ColorEncoding::Variables, Some(list)) = (opts.colors, totals.get(&c)) {
            exactly_k(sink, list, k as usize, opts.amo, opts.card);
        }
    }

    // A placed site and a colour: one of the site's options that allow it.
    let mut clause = Vec::new();
    for (s, members) in &site_vars {
        let mut items: Vec<u32> = members
            .iter()
            .flat_map(|&o| flat.option(o).iter().filter(|e| e.item >= n_primary).map(|e| e.item))
            .collect();
        items.sort_unstable();
        items.dedup();
        for j in items {
            let Some(colors) = item_colors.get(&j) else { continue };
            for &(c, y) in colors {
                clause.clear();
                clause.extend([s.negative(), y.negative()]);
                for &o in members {
                    let entries = flat.option(o);
                    match entries.binary_search_by_key(&j, |e| e.item) {
                        Ok(k) if entries[k].color != c => {}
                        _ => clause.push(var(o)),
                    }
                }
                if clause.len() < members.len() + 2 {
                    sink.add_clause(&clause);
                }
            }
        }
    }
    Ok(CnfLayout { option_base, n_options: n, color_vars, site_vars })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cover::tests::{brute, e, toy, Toy};
    use crate::formula::Cnf;
    use crate::testsat::sat_models;

    fn all_options() -> Vec<CnfOptions> {
        let mut out = Vec::new();
        for (amo, card) in [
            (AmoEncoding::Pairwise, CardEncoding::Sequential),
            (AmoEncoding::Sequential, CardEncoding::Totalizer),
            (AmoEncoding::Sequential, CardEncoding::Network),
        ] {
            for colors in [ColorEncoding::Conflicts, ColorEncoding::Variables] {
                for exactly_one_over in [ExactlyOneOver::Options, ExactlyOneOver::Sites] {
                    for color_choice in [ColorChoice::AtMostOne, ColorChoice::ExactlyOne] {
                        for color_support in [true, false] {
                            out.push(CnfOptions {
                                amo,
                                card,
                                colors,
                                exactly_one_over,
                                color_choice,
                                color_support,
                                ..CnfOptions::default()
                            });
                        }
                    }
                }
            }
        }
        out
    }

    fn check_all(t: &Toy) {
        let want = brute(t);
        let n = t.options.len() as u32;
        for opts in all_options() {
            let mut f = Cnf::new();
            let layout = encode_cnf(t, &opts, &mut f).unwrap();
            assert_eq!(layout.option_var(3), Var::new(3));
            assert_eq!(sat_models(&f, n), want, "{opts:?}");
        }
    }

    #[test]
    fn cnf_models_are_the_solutions() {
        let t = toy();
        // {0: p s:red, 1: q s:red, 3: q r} and {3: q r, 5: p q s:blue}.
        assert_eq!(brute(&t), vec![0b001011, 0b101000]);
        check_all(&t);
        let want = brute(&t);
        let mut f = Cnf::new();
        let mut excluded = vec![false; 6];
        excluded[want[0].trailing_zeros() as usize] = true;
        encode_cnf(&t, &CnfOptions { excluded: excluded.clone(), ..CnfOptions::default() }, &mut f).unwrap();
        let kept: Vec<u32> = want.iter().copied().filter(|m| m & 1 << want[0].trailing_zeros() == 0).collect();
        assert_eq!(sat_models(&f, 6), kept);
    }

    /// Two tiles `p`, `q` in two cells `r`, `s` joined by `t`; each tile
    /// shows one of two colours on the join depending on its rotation
    /// (sites of two options), plus a site whose two options no colour
    /// tells apart (`u` uncoloured for one, absent for the other).
    fn tiles() -> Toy {
        Toy {
            mult: vec![1, 1, 1, 1],
            n_items: 6,
            options: vec![
                vec![e(0, 0), e(2, 0), e(4, 1)], // 0: p in r, red
                vec![e(0, 0), e(2, 0), e(4, 2)], // 1: p in r, blue
                vec![e(1, 0), e(3, 0), e(4, 2)], // 2: q in s, blue
                vec![e(1, 0), e(3, 0), e(4, 3)], // 3: q in s, green
                vec![e(0, 0), e(3, 0), e(4, 1)], // 4: p in s, red
                vec![e(1, 0), e(2, 0), e(4, 1)], // 5: q in r, red
                vec![e(1, 0), e(2, 0), e(5, 0)], // 6: q in r, uses u
                vec![e(1, 0), e(2, 0)],          // 7: q in r, plain
            ],
        }
    }

    #[test]
    fn sites_keep_the_solutions() {
        let t = tiles();
        // {1, 2}: blue; {4, 5}: red; {4, 6} and {4, 7}: q in r leaves t to p.
        assert_eq!(brute(&t), vec![0b0000_0110, 0b0011_0000, 0b0101_0000, 0b1001_0000]);
        check_all(&t);
        let mut f = Cnf::new();
        let opts = CnfOptions { exactly_one_over: ExactlyOneOver::Sites, ..CnfOptions::default() };
        let layout = encode_cnf(&t, &opts, &mut f).unwrap();
        let sites: Vec<Vec<u32>> = layout.site_vars.iter().map(|(_, m)| m.clone()).collect();
        assert_eq!(sites, vec![vec![0, 1], vec![2, 3], vec![5, 6, 7]]);
    }

    #[test]
    fn color_totals_keep_the_solutions_with_that_total() {
        let t = tiles();
        // Item 4 is red in {4, 5}, {4, 6}, {4, 7} and blue in {1, 2}.
        for (color, k, want) in
            [(1, 1, vec![0b0011_0000, 0b0101_0000, 0b1001_0000]), (2, 1, vec![0b0000_0110]), (3, 1, vec![])]
        {
            for exactly_one_over in [ExactlyOneOver::Options, ExactlyOneOver::Sites] {
                for card in [CardEncoding::Sequential, CardEncoding::Totalizer, CardEncoding::Network] {
                    let opts =
                        CnfOptions { exactly_one_over, card, color_totals: vec![(color, k)], ..CnfOptions::default() };
                    let mut f = Cnf::new();
                    encode_cnf(&t, &opts, &mut f).unwrap();
                    assert_eq!(sat_models(&f, 8), want, "colour {color} {card}");
                }
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for &n in ExactlyOneOver::NAMES {
            assert_eq!(n.parse::<ExactlyOneOver>().unwrap().name(), n);
        }
        for &n in ColorChoice::NAMES {
            assert_eq!(n.parse::<ColorChoice>().unwrap().to_string(), n);
        }
        assert!("both".parse::<ColorChoice>().unwrap_err().contains("at-most-one, exactly-one"));
    }
}
