//! Exact cover with colours, seen through [`CoverSource`], translated into
//! a CNF formula ([`encode_cnf`]) and into a clique graph
//! ([`CliqueGraph`]).
//!
//! The model (Knuth's XCC with multiplicities): a primary item must be
//! covered exactly `multiplicity` times; a secondary item is either used
//! by at most one option without a colour, or by any number of options that
//! all give it the same colour.

use crate::card::{at_most_one, exactly_k, AmoEncoding};
use crate::formula::{ClauseSink, Lit, Var};
use std::fmt;
use std::str::FromStr;

/// One item of an option; `color == 0` means uncoloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoverEntry {
    /// Item index (`< n_items`; `< n_primary` for a primary item).
    pub item: u32,
    /// Colour index, `0` for none (only secondary items carry colours).
    pub color: u32,
}

/// An exact cover problem with colours and multiplicities, as the encoders
/// read it. Items `0..n_primary()` are primary. Each option lists an item at
/// most once.
pub trait CoverSource {
    /// Number of items.
    fn n_items(&self) -> usize;
    /// Number of primary items (they come first).
    fn n_primary(&self) -> usize;
    /// How many times primary item `item` must be covered (`>= 1`).
    fn multiplicity(&self, item: u32) -> u32;
    /// Printable name of an item (no blanks, `:` or `|`).
    fn item_name(&self, item: u32) -> &str;
    /// Number of colours including the "no colour" `0`.
    fn n_colors(&self) -> usize;
    /// Printable name of colour `color >= 1`.
    fn color_name(&self, color: u32) -> &str;
    /// Number of options.
    fn n_options(&self) -> usize;
    /// Calls `f` on each entry of option `o`.
    fn for_each_entry(&self, o: u32, f: &mut dyn FnMut(CoverEntry));
}

/// Why an encoding cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The clique graph expands multiplicities per option; an option with
    /// two primary items of multiplicity > 1 has no single copy index.
    #[error(
        "option {option} covers two primary items with multiplicity > 1 (`{first}` and `{second}`); the clique graph supports at most one per option"
    )]
    TwoMultiItems {
        /// Option index.
        option: u32,
        /// One item name.
        first: String,
        /// The other.
        second: String,
    },
    /// The excluded-option mask does not match the options.
    #[error("{mask} exclusion flags for {options} options")]
    MaskLength {
        /// Flags given.
        mask: usize,
        /// Options.
        options: usize,
    },
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

impl ColorEncoding {
    /// Names accepted by [`FromStr`] (and `--colors`).
    pub const NAMES: &'static [&'static str] = &["conflicts", "variables"];
    /// The encoding's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for ColorEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ColorEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "conflicts" => Ok(ColorEncoding::Conflicts),
            "variables" => Ok(ColorEncoding::Variables),
            _ => Err(format!("unknown colour encoding `{s}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// Settings of [`encode_cnf`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CnfOptions {
    /// At-most-one encoding (exactly-one = at-least-one clause + this).
    pub amo: AmoEncoding,
    /// Colour agreement encoding.
    pub colors: ColorEncoding,
    /// Options forced false (symmetry breaking, pinned pieces); empty for
    /// none, otherwise one flag per option.
    pub excluded: Vec<bool>,
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
}

impl CnfLayout {
    /// The variable of option `o`.
    pub fn option_var(&self, o: u32) -> Var {
        Var::new(self.option_base + o)
    }
}

/// The options as flat arrays plus, per item, the options that use it.
struct Flat {
    starts: Vec<usize>,
    entries: Vec<CoverEntry>,
}

impl Flat {
    fn new(src: &(impl CoverSource + ?Sized)) -> Flat {
        let mut starts = Vec::with_capacity(src.n_options() + 1);
        let mut entries = Vec::new();
        starts.push(0);
        for o in 0..src.n_options() as u32 {
            src.for_each_entry(o, &mut |e| entries.push(e));
            let s = *starts.last().expect("non-empty");
            entries[s..].sort_unstable();
            starts.push(entries.len());
        }
        Flat { starts, entries }
    }
    fn option(&self, o: u32) -> &[CoverEntry] {
        &self.entries[self.starts[o as usize]..self.starts[o as usize + 1]]
    }
}

fn check_mask(src: &(impl CoverSource + ?Sized), mask: &[bool]) -> Result<(), EncodeError> {
    if !mask.is_empty() && mask.len() != src.n_options() {
        return Err(EncodeError::MaskLength { mask: mask.len(), options: src.n_options() });
    }
    Ok(())
}

/// Encodes the problem as CNF into `sink`: a variable per option (allocated
/// first, in option order), exactly-`m` over the options of each primary
/// item, at-most-one exclusive use per secondary item, colour agreement as
/// chosen, and a unit clause `¬x` per excluded option.
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
    let option_base = if n == 0 { 0 } else { sink.new_var().index() };
    for _ in 1..n {
        sink.new_var();
    }
    let var = |o: u32| Var::new(option_base + o).positive();
    let excluded = |o: u32| opts.excluded.get(o as usize).copied().unwrap_or(false);
    let flat = Flat::new(src);
    // Uses of each item by kept options: (option, colour).
    let mut uses: Vec<Vec<(u32, u32)>> = vec![Vec::new(); src.n_items()];
    for o in 0..n {
        if excluded(o) {
            sink.add_clause(&[!var(o)]);
            continue;
        }
        for e in flat.option(o) {
            uses[e.item as usize].push((o, e.color));
        }
    }
    let mut lits: Vec<Lit> = Vec::new();
    for (item, u) in uses.iter().enumerate().take(src.n_primary()) {
        lits.clear();
        lits.extend(u.iter().map(|&(o, _)| var(o)));
        exactly_k(sink, &lits, src.multiplicity(item as u32) as usize, opts.amo);
    }
    let mut color_vars = Vec::new();
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
                if classes.len() + plain.len() <= 1 {
                    continue; // a single colour (or a single exclusive use) is always consistent
                }
                let mut group = plain;
                for (c, class) in &classes {
                    let y = sink.new_var();
                    color_vars.push((y, item as u32, *c));
                    let mut support = vec![y.negative()];
                    for &x in class {
                        sink.add_clause(&[!x, y.positive()]);
                        support.push(x);
                    }
                    sink.add_clause(&support);
                    group.push(y.positive());
                }
                at_most_one(sink, &group, opts.amo);
            }
        }
    }
    Ok(CnfLayout { option_base, n_options: n, color_vars })
}

/// A node of a clique graph: copy `copy` of option `option` (options that
/// cover a primary item of multiplicity `k > 1` get `k` nodes, one per
/// copy of that item; every other option gets one node with copy `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CliqueNode {
    /// Option index.
    pub option: u32,
    /// Copy index of the option's multiplicity item (0 when it has none).
    pub copy: u32,
}

/// The compatibility graph of an exact cover problem: a node per kept
/// option (per copy, see [`CliqueNode`]); an edge between two nodes whose
/// options share no primary item of multiplicity 1 and give every shared
/// secondary item the same colour. For an item of multiplicity `k > 1`,
/// copies are ordered: two nodes that share it are adjacent only if they
/// are different copies and the lower copy has the lower option, so that a
/// solution appears as exactly one clique.
///
/// A clique is a set of pairwise compatible options; it is a solution when
/// it also covers every primary item (for puzzles where every option
/// places one piece, when its size is the number of pieces).
pub struct CliqueGraph {
    flat: Flat,
    nodes: Vec<CliqueNode>,
    multiplicity: Vec<u32>,
    n_primary: usize,
    /// Per item: the nodes that use it (ascending) and the colour they give.
    occ: Vec<Vec<(u32, u32)>>,
}

impl CliqueGraph {
    /// Builds the node set over the options not `excluded` (empty: all).
    pub fn new(src: &(impl CoverSource + ?Sized), excluded: &[bool]) -> Result<CliqueGraph, EncodeError> {
        check_mask(src, excluded)?;
        let flat = Flat::new(src);
        let multiplicity: Vec<u32> = (0..src.n_primary() as u32).map(|i| src.multiplicity(i)).collect();
        let mut nodes = Vec::new();
        for o in 0..src.n_options() as u32 {
            if excluded.get(o as usize).copied().unwrap_or(false) {
                continue;
            }
            let mut multi = flat
                .option(o)
                .iter()
                .filter(|e| (e.item as usize) < multiplicity.len() && multiplicity[e.item as usize] > 1);
            let copies = match (multi.next(), multi.next()) {
                (None, _) => 1,
                (Some(a), None) => multiplicity[a.item as usize],
                (Some(a), Some(b)) => {
                    return Err(EncodeError::TwoMultiItems {
                        option: o,
                        first: src.item_name(a.item).to_string(),
                        second: src.item_name(b.item).to_string(),
                    })
                }
            };
            nodes.extend((0..copies).map(|copy| CliqueNode { option: o, copy }));
        }
        let mut occ = vec![Vec::new(); src.n_items()];
        for (k, node) in nodes.iter().enumerate() {
            for e in flat.option(node.option) {
                occ[e.item as usize].push((k as u32, e.color));
            }
        }
        Ok(CliqueGraph { flat, nodes, multiplicity, n_primary: src.n_primary(), occ })
    }

    /// The nodes, in node order.
    pub fn nodes(&self) -> &[CliqueNode] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn n_nodes(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// Whether nodes `a` and `b` conflict through their shared `item`, given
    /// the colours they give it.
    fn conflict(&self, item: u32, a: u32, ca: u32, b: u32, cb: u32) -> bool {
        if (item as usize) < self.n_primary {
            if self.multiplicity[item as usize] == 1 {
                return true;
            }
            let (na, nb) = (self.nodes[a as usize], self.nodes[b as usize]);
            na.copy == nb.copy || na.option == nb.option || (na.copy < nb.copy) != (na.option < nb.option)
        } else {
            ca == 0 || ca != cb
        }
    }

    /// Whether two nodes are adjacent, by comparing their options directly
    /// (the reference for [`CliqueGraph::for_each_edge`]).
    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        if a == b {
            return false;
        }
        let (oa, ob) =
            (self.flat.option(self.nodes[a as usize].option), self.flat.option(self.nodes[b as usize].option));
        let (mut i, mut j) = (0, 0);
        while i < oa.len() && j < ob.len() {
            match oa[i].item.cmp(&ob[j].item) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    if self.conflict(oa[i].item, a, oa[i].color, b, ob[j].color) {
                        return false;
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        true
    }

    /// Calls `f(u, v)` for every edge with `u < v`, in lexicographic order,
    /// without storing any edge.
    pub fn for_each_edge(&self, f: &mut dyn FnMut(u32, u32)) {
        let n = self.n_nodes();
        let mut stamp = vec![u32::MAX; n as usize];
        for u in 0..n {
            for e in self.flat.option(self.nodes[u as usize].option) {
                let list = &self.occ[e.item as usize];
                let from = list.partition_point(|&(v, _)| v <= u);
                for &(v, c) in &list[from..] {
                    if stamp[v as usize] != u && self.conflict(e.item, u, e.color, v, c) {
                        stamp[v as usize] = u;
                    }
                }
            }
            for v in u + 1..n {
                if stamp[v as usize] != u {
                    f(u, v);
                }
            }
        }
    }

    /// Number of edges.
    pub fn count_edges(&self) -> u64 {
        let mut m = 0;
        self.for_each_edge(&mut |_, _| m += 1);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::Cnf;

    /// A tiny XCC: primary p, q (q twice), secondary s coloured.
    struct Toy {
        options: Vec<Vec<CoverEntry>>,
        mult: Vec<u32>,
    }
    impl CoverSource for Toy {
        fn n_items(&self) -> usize {
            4
        }
        fn n_primary(&self) -> usize {
            self.mult.len()
        }
        fn multiplicity(&self, item: u32) -> u32 {
            self.mult[item as usize]
        }
        fn item_name(&self, item: u32) -> &str {
            ["p", "q", "r", "s"][item as usize]
        }
        fn n_colors(&self) -> usize {
            3
        }
        fn color_name(&self, color: u32) -> &str {
            ["", "red", "blue"][color as usize]
        }
        fn n_options(&self) -> usize {
            self.options.len()
        }
        fn for_each_entry(&self, o: u32, f: &mut dyn FnMut(CoverEntry)) {
            self.options[o as usize].iter().for_each(|&e| f(e))
        }
    }

    fn e(item: u32, color: u32) -> CoverEntry {
        CoverEntry { item, color }
    }

    fn toy() -> Toy {
        // p once, q twice, r once; s secondary.
        Toy {
            mult: vec![1, 2, 1],
            options: vec![
                vec![e(0, 0), e(3, 1)],          // 0: p s:red
                vec![e(1, 0), e(3, 1)],          // 1: q s:red
                vec![e(1, 0), e(3, 2)],          // 2: q s:blue
                vec![e(1, 0), e(2, 0)],          // 3: q r
                vec![e(2, 0), e(3, 0)],          // 4: r s
                vec![e(0, 0), e(1, 0), e(3, 2)], // 5: p q s:blue
            ],
        }
    }

    /// Solutions by brute force over option subsets.
    fn brute(t: &Toy) -> Vec<u32> {
        let n = t.options.len() as u32;
        (0u32..1 << n)
            .filter(|&m| {
                let mut cover = [0u32; 4];
                let mut color = [u32::MAX; 4];
                let mut plain = [false; 4];
                for o in (0..n).filter(|o| m >> o & 1 == 1) {
                    for x in &t.options[o as usize] {
                        cover[x.item as usize] += 1;
                        if x.item >= 3 {
                            if x.color == 0 {
                                plain[x.item as usize] = true;
                            } else if color[x.item as usize] == u32::MAX {
                                color[x.item as usize] = x.color;
                            } else if color[x.item as usize] != x.color {
                                return false;
                            }
                        }
                    }
                }
                (0..3).all(|i| cover[i] == t.mult[i]) && (3..4).all(|i| !plain[i] || (cover[i] == 1))
            })
            .collect()
    }

    fn sat_models(f: &Cnf, n: u32) -> Vec<u32> {
        let total = f.n_vars();
        (0u32..1 << n)
            .filter(|&m| {
                (0u64..1 << (total - n)).any(|aux| {
                    let full = m as u64 | aux << n;
                    f.clauses().all(|c| c.iter().any(|l| ((full >> l.var().index()) & 1 == 1) == l.is_positive()))
                })
            })
            .collect()
    }

    #[test]
    fn cnf_models_are_the_solutions() {
        let t = toy();
        let want = brute(&t);
        // {0: p s:red, 1: q s:red, 3: q r} and {3: q r, 5: p q s:blue}.
        assert_eq!(want, vec![0b001011, 0b101000]);
        for amo in [AmoEncoding::Pairwise, AmoEncoding::Sequential] {
            for colors in [ColorEncoding::Conflicts, ColorEncoding::Variables] {
                let mut f = Cnf::new();
                let layout = encode_cnf(&t, &CnfOptions { amo, colors, excluded: vec![] }, &mut f).unwrap();
                assert_eq!(layout.option_var(3), Var::new(3));
                assert_eq!(sat_models(&f, 6), want, "{amo} {colors}");
            }
        }
        let mut f = Cnf::new();
        let mut excluded = vec![false; 6];
        excluded[want[0].trailing_zeros() as usize] = true;
        encode_cnf(&t, &CnfOptions { excluded: excluded.clone(), ..CnfOptions::default() }, &mut f).unwrap();
        let kept: Vec<u32> = want.iter().copied().filter(|m| m & 1 << want[0].trailing_zeros() == 0).collect();
        assert_eq!(sat_models(&f, 6), kept);
    }

    #[test]
    fn cliques_of_full_size_are_the_solutions() {
        let t = toy();
        let g = CliqueGraph::new(&t, &[]).unwrap();
        // Options 1, 2, 3, 5 cover q (multiplicity 2): two nodes each.
        assert_eq!(g.n_nodes(), 10);
        let mut edges = Vec::new();
        g.for_each_edge(&mut |u, v| edges.push((u, v)));
        let reference: Vec<(u32, u32)> =
            (0..10).flat_map(|u| (u + 1..10).map(move |v| (u, v))).filter(|&(u, v)| g.adjacent(u, v)).collect();
        assert_eq!(edges, reference);
        assert_eq!(g.count_edges(), edges.len() as u64);
        // Every solution has 3 options here (p once, q twice, r once, no
        // option covering two of them except 3 and 5); the cliques of size 3
        // that cover every primary item are exactly the solutions.
        let mut found = Vec::new();
        for a in 0..10u32 {
            for b in a + 1..10 {
                for c in b + 1..10 {
                    if g.adjacent(a, b) && g.adjacent(a, c) && g.adjacent(b, c) {
                        let m = [a, b, c].iter().fold(0u32, |m, &x| m | 1 << g.nodes()[x as usize].option);
                        if brute(&t).contains(&m) {
                            found.push(m);
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        let mut want: Vec<u32> = brute(&t).into_iter().filter(|m| m.count_ones() == 3).collect();
        want.sort_unstable();
        assert_eq!(found, want, "each 3-option solution is exactly one clique");
    }
}
