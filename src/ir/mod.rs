//! The shared intermediate representation: exact cover with colours (XCC).
//!
//! Every front-end turns its puzzle into a [`Problem`]; every back-end
//! (DLX, the encoders, the specialised engines) reads one. The model is
//! Knuth's exact cover with colours, extended with multiplicities on primary
//! items (an item that must be covered exactly `m` times), which is how
//! interchangeable identical pieces are counted once instead of once per
//! permutation.
//!
//! * A **primary item** must be covered exactly `multiplicity` times
//!   (usually once: a cell, a board position, a tile).
//! * A **secondary item** may be covered at most once by options that name it
//!   without a colour; options that name it *with* a colour may share it as
//!   long as they all name the same colour (an inner join of an edge-matching
//!   board). Mixing a plain and a coloured use is a conflict.
//! * An **option** is a set of items, each secondary one optionally coloured.

mod geometry;
mod symmetry;
mod verify;

pub use geometry::{Geometry, PieceInfo, Placement};
pub use symmetry::{canonical, Equivalence, Symmetry, UniqueFilter};
pub use verify::{verify, VerifyError};

use std::collections::HashMap;
use std::ops::Range;

/// Index of an item in [`Problem::items`]. Primary items come first.
pub type ItemId = u32;
/// Index of an option in a [`Problem`].
pub type OptionId = u32;
/// Index into [`Problem::colors`]; [`NO_COLOR`] means "uncoloured".
pub type ColorId = u32;

/// The colour id of an uncoloured use of an item.
pub const NO_COLOR: ColorId = 0;

/// How an item must be covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ItemKind {
    /// Covered exactly `multiplicity` times (`multiplicity >= 1`).
    Primary {
        /// Number of chosen options that must contain the item.
        multiplicity: u32,
    },
    /// Covered at most once, or by any number of options of one colour.
    Secondary,
}

/// A named item.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Item {
    /// Printable name (unique within a problem).
    pub name: String,
    /// Primary (with multiplicity) or secondary.
    pub kind: ItemKind,
}

/// One item of an option, with the colour the option gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Entry {
    /// The item covered.
    pub item: ItemId,
    /// [`NO_COLOR`] for an exclusive use; otherwise the colour, which is only
    /// allowed on secondary items.
    pub color: ColorId,
}

/// An exact-cover-with-colours problem.
///
/// Invariants (established by [`ProblemBuilder::build`]):
/// * items `0..n_primary` are primary, `n_primary..` secondary;
/// * item names are unique;
/// * every option has at least one primary item, names no item twice, and
///   its entries are sorted by item id;
/// * coloured entries refer to secondary items only, and every colour id is
///   `< colors.len()`; `colors[0]` is the empty name of [`NO_COLOR`];
/// * `geometry`, when present, has one placement per option;
/// * every member of `symmetries` is a permutation of the options that maps
///   solutions to solutions (the identity is not listed).
#[derive(Clone, Debug)]
pub struct Problem {
    /// What the problem is called (puzzle name or file stem).
    pub name: String,
    items: Vec<Item>,
    n_primary: usize,
    colors: Vec<String>,
    /// `option_starts[o]..option_starts[o+1]` is option `o` in `entries`.
    option_starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Optional geometry for engines and renderers.
    pub geometry: Option<Geometry>,
    /// Known symmetries (for `--unique` and symmetry breaking).
    pub symmetries: Vec<Symmetry>,
    /// [`verify`]'s bit-set check, prepared on its first call (`None`
    /// inside: the problem has colours, multiplicities or too many items).
    cover_check: std::sync::OnceLock<Option<Box<verify::CoverCheck>>>,
}

impl Problem {
    /// All items, primary first.
    pub fn items(&self) -> &[Item] {
        &self.items
    }
    /// Number of primary items (they are items `0..n_primary()`).
    pub fn n_primary(&self) -> usize {
        self.n_primary
    }
    /// Number of secondary items.
    pub fn n_secondary(&self) -> usize {
        self.items.len() - self.n_primary
    }
    /// Whether `item` is primary.
    pub fn is_primary(&self, item: ItemId) -> bool {
        (item as usize) < self.n_primary
    }
    /// The multiplicity of a primary item, 0 for a secondary item.
    pub fn multiplicity(&self, item: ItemId) -> u32 {
        match self.items[item as usize].kind {
            ItemKind::Primary { multiplicity } => multiplicity,
            ItemKind::Secondary => 0,
        }
    }
    /// Colour names; index 0 is [`NO_COLOR`] with an empty name.
    pub fn colors(&self) -> &[String] {
        &self.colors
    }
    /// Number of options.
    pub fn n_options(&self) -> usize {
        self.option_starts.len() - 1
    }
    /// The entries of option `o`, sorted by item.
    pub fn option(&self, o: OptionId) -> &[Entry] {
        &self.entries[self.option_range(o)]
    }
    fn option_range(&self, o: OptionId) -> Range<usize> {
        self.option_starts[o as usize] as usize..self.option_starts[o as usize + 1] as usize
    }
    /// Iterator over all options as entry slices.
    pub fn options(&self) -> impl ExactSizeIterator<Item = &[Entry]> + '_ {
        (0..self.n_options() as OptionId).map(move |o| self.option(o))
    }
    /// Total number of entries over all options.
    pub fn n_entries(&self) -> usize {
        self.entries.len()
    }
    /// Human-readable text of option `o` (`item item:colour ...`).
    pub fn option_text(&self, o: OptionId) -> String {
        let mut s = String::new();
        for (k, e) in self.option(o).iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(&self.items[e.item as usize].name);
            if e.color != NO_COLOR {
                s.push(':');
                s.push_str(&self.colors[e.color as usize]);
            }
        }
        s
    }
}

/// A solution: the chosen options. Order is the order in which a solver
/// chose them and carries no meaning for validity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Solution {
    /// Chosen option ids.
    pub options: Vec<OptionId>,
}

/// Why a problem could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BuildError {
    /// Two items share a name.
    #[error("item name `{0}` is used twice")]
    DuplicateItem(String),
    /// An option names an item twice.
    #[error("option {option} names item `{item}` twice")]
    RepeatedItem {
        /// Option index.
        option: usize,
        /// Item name.
        item: String,
    },
    /// An option has no primary item, so no solver would ever choose it.
    #[error("option {0} has no primary item")]
    NoPrimary(usize),
    /// A colour on a primary item.
    #[error("option {option} gives primary item `{item}` a colour")]
    ColoredPrimary {
        /// Option index.
        option: usize,
        /// Item name.
        item: String,
    },
    /// A primary item with multiplicity 0.
    #[error("primary item `{0}` has multiplicity 0")]
    ZeroMultiplicity(String),
    /// An item id out of range.
    #[error("option {option} refers to item {item}, but there are only {n_items} items")]
    UnknownItem {
        /// Option index.
        option: usize,
        /// Item id.
        item: u32,
        /// Number of items.
        n_items: usize,
    },
    /// A deadline or a cancellation stopped the build ([`crate::search::StopCheck`]).
    #[error("the build was stopped ({0:?})")]
    Stopped(crate::search::StopReason),
    /// Geometry does not match the options.
    #[error("geometry has {placements} placements for {options} options")]
    GeometryMismatch {
        /// Placements given.
        placements: usize,
        /// Options in the problem.
        options: usize,
    },
}

/// How many options [`ProblemBuilder::build_checked`] handles between two
/// checks of its [`crate::search::StopCheck`] (a few milliseconds of work).
pub const STOP_EVERY: usize = 1 << 14;

/// Incremental construction of a [`Problem`]. Items may be declared in any
/// order; [`ProblemBuilder::build`] renumbers them so primaries come first
/// (ids returned by the builder are *builder* ids, translated by `build`).
#[derive(Clone, Debug, Default)]
pub struct ProblemBuilder {
    name: String,
    items: Vec<Item>,
    item_by_name: HashMap<String, ItemId>,
    colors: Vec<String>,
    color_by_name: HashMap<String, ColorId>,
    option_starts: Vec<u32>,
    entries: Vec<Entry>,
    duplicate: Option<String>,
}

impl ProblemBuilder {
    /// A builder for a problem called `name`.
    pub fn new(name: impl Into<String>) -> Self {
        ProblemBuilder { name: name.into(), colors: vec![String::new()], option_starts: vec![0], ..Default::default() }
    }

    /// Makes room for `options` more options of `entries` entries in all
    /// (a hint: one allocation instead of a run of doublings and copies).
    pub fn reserve(&mut self, options: usize, entries: usize) {
        self.option_starts.reserve(options);
        self.entries.reserve(entries);
    }

    fn add_item(&mut self, name: String, kind: ItemKind) -> ItemId {
        let id = self.items.len() as ItemId;
        if self.item_by_name.insert(name.clone(), id).is_some() && self.duplicate.is_none() {
            self.duplicate = Some(name.clone());
        }
        self.items.push(Item { name, kind });
        id
    }

    /// Declares a primary item covered exactly once.
    pub fn primary(&mut self, name: impl Into<String>) -> ItemId {
        self.primary_with_multiplicity(name, 1)
    }

    /// Declares a primary item covered exactly `multiplicity` times.
    pub fn primary_with_multiplicity(&mut self, name: impl Into<String>, multiplicity: u32) -> ItemId {
        self.add_item(name.into(), ItemKind::Primary { multiplicity })
    }

    /// Declares a secondary item.
    pub fn secondary(&mut self, name: impl Into<String>) -> ItemId {
        self.add_item(name.into(), ItemKind::Secondary)
    }

    /// The id of a declared item, by name.
    pub fn item_id(&self, name: &str) -> Option<ItemId> {
        self.item_by_name.get(name).copied()
    }

    /// Interns a colour name and returns its id (never [`NO_COLOR`]).
    pub fn color(&mut self, name: &str) -> ColorId {
        if let Some(&c) = self.color_by_name.get(name) {
            return c;
        }
        let c = self.colors.len() as ColorId;
        self.colors.push(name.to_string());
        self.color_by_name.insert(name.to_string(), c);
        c
    }

    /// Appends an option (entries in any order; builder item ids).
    pub fn option(&mut self, entries: impl IntoIterator<Item = Entry>) -> OptionId {
        let id = self.option_starts.len() as OptionId - 1;
        self.entries.extend(entries);
        self.option_starts.push(self.entries.len() as u32);
        id
    }

    /// Appends an option of uncoloured items.
    pub fn option_items(&mut self, items: impl IntoIterator<Item = ItemId>) -> OptionId {
        self.option(items.into_iter().map(|item| Entry { item, color: NO_COLOR }))
    }

    /// Number of options added so far.
    pub fn n_options(&self) -> usize {
        self.option_starts.len() - 1
    }

    /// Validates and renumbers into a [`Problem`].
    pub fn build(self, geometry: Option<Geometry>) -> Result<Problem, BuildError> {
        self.build_checked(geometry, &crate::search::StopCheck::default())
    }

    /// [`ProblemBuilder::build`], checking `stop` every few thousand options
    /// ([`BuildError::Stopped`] when it fires).
    pub fn build_checked(
        self,
        geometry: Option<Geometry>,
        stop: &crate::search::StopCheck,
    ) -> Result<Problem, BuildError> {
        if let Some(name) = self.duplicate {
            return Err(BuildError::DuplicateItem(name));
        }
        for item in &self.items {
            if item.kind == (ItemKind::Primary { multiplicity: 0 }) {
                return Err(BuildError::ZeroMultiplicity(item.name.clone()));
            }
        }
        // Renumber: primaries first, both groups in declaration order.
        let mut new_id = vec![0u32; self.items.len()];
        let mut items = Vec::with_capacity(self.items.len());
        for pass_primary in [true, false] {
            for (old, item) in self.items.iter().enumerate() {
                if matches!(item.kind, ItemKind::Primary { .. }) == pass_primary {
                    new_id[old] = items.len() as u32;
                    items.push(item.clone());
                }
            }
        }
        let n_primary = self.items.iter().filter(|i| matches!(i.kind, ItemKind::Primary { .. })).count();
        let mut entries = self.entries;
        for o in 0..self.option_starts.len() - 1 {
            if o % STOP_EVERY == 0 {
                stop.check().map_err(BuildError::Stopped)?;
            }
            let range = self.option_starts[o] as usize..self.option_starts[o + 1] as usize;
            let row = &mut entries[range];
            for e in row.iter_mut() {
                if e.item as usize >= items.len() {
                    return Err(BuildError::UnknownItem { option: o, item: e.item, n_items: items.len() });
                }
                e.item = new_id[e.item as usize];
            }
            row.sort_unstable();
            for w in row.windows(2) {
                if w[0].item == w[1].item {
                    return Err(BuildError::RepeatedItem { option: o, item: items[w[0].item as usize].name.clone() });
                }
            }
            if !row.iter().any(|e| (e.item as usize) < n_primary) {
                return Err(BuildError::NoPrimary(o));
            }
            if let Some(e) = row.iter().find(|e| (e.item as usize) < n_primary && e.color != NO_COLOR) {
                return Err(BuildError::ColoredPrimary { option: o, item: items[e.item as usize].name.clone() });
            }
        }
        let n_options = self.option_starts.len() - 1;
        if let Some(g) = &geometry {
            if g.placements.len() != n_options {
                return Err(BuildError::GeometryMismatch { placements: g.placements.len(), options: n_options });
            }
        }
        Ok(Problem {
            name: self.name,
            items,
            n_primary,
            colors: self.colors,
            option_starts: self.option_starts,
            entries,
            geometry,
            symmetries: Vec::new(),
            cover_check: std::sync::OnceLock::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_puts_primaries_first_and_sorts_entries() {
        let mut b = ProblemBuilder::new("t");
        let s = b.secondary("s");
        let p = b.primary("p");
        let red = b.color("red");
        b.option([Entry { item: s, color: red }, Entry { item: p, color: NO_COLOR }]);
        let pr = b.build(None).unwrap();
        assert_eq!(pr.n_primary(), 1);
        assert_eq!(pr.items()[0].name, "p");
        assert_eq!(pr.option(0), &[Entry { item: 0, color: NO_COLOR }, Entry { item: 1, color: red }]);
        assert_eq!(pr.option_text(0), "p s:red");
    }

    #[test]
    fn builder_rejects_bad_options() {
        let mut b = ProblemBuilder::new("t");
        let p = b.primary("p");
        b.option_items([p, p]);
        assert!(matches!(b.build(None), Err(BuildError::RepeatedItem { .. })));

        let mut b = ProblemBuilder::new("t");
        let s = b.secondary("s");
        b.option_items([s]);
        assert_eq!(b.build(None).unwrap_err(), BuildError::NoPrimary(0));

        let mut b = ProblemBuilder::new("t");
        b.primary("p");
        b.primary("p");
        assert_eq!(b.build(None).unwrap_err(), BuildError::DuplicateItem("p".into()));
    }
}
