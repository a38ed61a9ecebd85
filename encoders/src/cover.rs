//! Exact cover with colours, seen through [`CoverSource`], translated into
//! a CNF formula ([`encode_cnf`]) and into a clique graph
//! ([`CliqueGraph`]).
//!
//! The model (Knuth's XCC with multiplicities): a primary item must be
//! covered exactly `multiplicity` times; a secondary item is either used
//! by at most one option without a colour, or by any number of options that
//! all give it the same colour.

pub use crate::cover_cnf::{encode_cnf, CnfLayout, CnfOptions, ColorChoice, ColorEncoding, ExactlyOneOver};

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

/// The options as flat arrays; each option's entries sorted by item (so
/// its primary items come first).
pub(crate) struct Flat {
    starts: Vec<usize>,
    entries: Vec<CoverEntry>,
}

impl Flat {
    pub(crate) fn new(src: &(impl CoverSource + ?Sized)) -> Flat {
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
    pub(crate) fn option(&self, o: u32) -> &[CoverEntry] {
        &self.entries[self.starts[o as usize]..self.starts[o as usize + 1]]
    }
}

pub(crate) fn check_mask(src: &(impl CoverSource + ?Sized), mask: &[bool]) -> Result<(), EncodeError> {
    if !mask.is_empty() && mask.len() != src.n_options() {
        return Err(EncodeError::MaskLength { mask: mask.len(), options: src.n_options() });
    }
    Ok(())
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
        self.try_for_each_edge(&mut |u, v| {
            f(u, v);
            true
        });
    }

    /// Like [`CliqueGraph::for_each_edge`], stopping as soon as `f` returns
    /// `false` (to count edges only up to a size cap); returns whether every
    /// edge was visited.
    pub fn try_for_each_edge(&self, f: &mut dyn FnMut(u32, u32) -> bool) -> bool {
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
                if stamp[v as usize] != u && !f(u, v) {
                    return false;
                }
            }
        }
        true
    }

    /// Number of edges.
    pub fn count_edges(&self) -> u64 {
        let mut m = 0;
        self.for_each_edge(&mut |_, _| m += 1);
        m
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A tiny XCC: items `0..n_items`, the first `mult.len()` primary.
    pub(crate) struct Toy {
        pub(crate) options: Vec<Vec<CoverEntry>>,
        pub(crate) mult: Vec<u32>,
        pub(crate) n_items: usize,
    }
    const NAMES: [&str; 8] = ["p", "q", "r", "s", "t", "u", "v", "w"];
    impl CoverSource for Toy {
        fn n_items(&self) -> usize {
            self.n_items
        }
        fn n_primary(&self) -> usize {
            self.mult.len()
        }
        fn multiplicity(&self, item: u32) -> u32 {
            self.mult[item as usize]
        }
        fn item_name(&self, item: u32) -> &str {
            NAMES[item as usize]
        }
        fn n_colors(&self) -> usize {
            4
        }
        fn color_name(&self, color: u32) -> &str {
            ["", "red", "blue", "green"][color as usize]
        }
        fn n_options(&self) -> usize {
            self.options.len()
        }
        fn for_each_entry(&self, o: u32, f: &mut dyn FnMut(CoverEntry)) {
            self.options[o as usize].iter().for_each(|&e| f(e))
        }
    }

    pub(crate) fn e(item: u32, color: u32) -> CoverEntry {
        CoverEntry { item, color }
    }

    pub(crate) fn toy() -> Toy {
        // p once, q twice, r once; s secondary.
        Toy {
            mult: vec![1, 2, 1],
            n_items: 4,
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

    /// Solutions (as option bit masks) by brute force over option subsets.
    pub(crate) fn brute(t: &Toy) -> Vec<u32> {
        let n = t.options.len() as u32;
        let k = t.n_items;
        (0u32..1 << n)
            .filter(|&m| {
                let mut cover = vec![0u32; k];
                let mut color = vec![u32::MAX; k];
                let mut plain = vec![false; k];
                for o in (0..n).filter(|o| m >> o & 1 == 1) {
                    for x in &t.options[o as usize] {
                        let i = x.item as usize;
                        cover[i] += 1;
                        if i >= t.mult.len() {
                            if x.color == 0 {
                                plain[i] = true;
                            } else if color[i] == u32::MAX {
                                color[i] = x.color;
                            } else if color[i] != x.color {
                                return false;
                            }
                        }
                    }
                }
                (0..t.mult.len()).all(|i| cover[i] == t.mult[i])
                    && (t.mult.len()..k).all(|i| !plain[i] || cover[i] == 1)
            })
            .collect()
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
