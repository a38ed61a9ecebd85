//! The IR as a [`CoverSource`] for the encoders crate.

use crate::ir::{Problem, NO_COLOR};
use emx_encoders::{CoverEntry, CoverSource};

impl CoverSource for Problem {
    fn n_items(&self) -> usize {
        self.items().len()
    }
    fn n_primary(&self) -> usize {
        Problem::n_primary(self)
    }
    fn multiplicity(&self, item: u32) -> u32 {
        Problem::multiplicity(self, item)
    }
    fn item_name(&self, item: u32) -> &str {
        &self.items()[item as usize].name
    }
    fn n_colors(&self) -> usize {
        self.colors().len()
    }
    fn color_name(&self, color: u32) -> &str {
        &self.colors()[color as usize]
    }
    fn n_options(&self) -> usize {
        Problem::n_options(self)
    }
    fn for_each_entry(&self, o: u32, f: &mut dyn FnMut(CoverEntry)) {
        for e in self.option(o) {
            f(CoverEntry { item: e.item, color: if e.color == NO_COLOR { 0 } else { e.color } });
        }
    }
}
