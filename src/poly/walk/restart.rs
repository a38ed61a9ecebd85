//! Reusing a walker: a run that ends without stopping leaves the walker at
//! the root (every placement, cover and row exclusion is undone on the way
//! back up), so the next run needs only its walk and fresh counts, not a
//! new copy of the DLX matrix and buffers.

use crate::poly::walk::*;

impl<B: Bits> Walker<'_, B> {
    /// Prepares a walker whose last run returned `Ok` for a run of `walk`
    /// from the root (debug builds check that the run left it there). The
    /// scratch buffers (path, candidates, kernel stacks) keep their old
    /// contents: every search writes a slot before it reads it.
    pub fn restart(&mut self, walk: Walk) {
        debug_assert!(self.at_root(), "a walker is restarted only after a completed run");
        self.walk = walk;
        self.nodes = 0;
        self.solutions = 0;
        self.poll.polled = 0;
    }

    /// Every part of the search state as [`Shared::walker`] makes it.
    pub(in crate::poly) fn at_root(&self) -> bool {
        let fresh = self.s.walker(self.poll.limits, Walk::All);
        self.dlx.m.same_links(&fresh.dlx.m)
            && self.occ == fresh.occ
            && self.left == fresh.left
            && self.avail == fresh.avail
            && self.n_left == fresh.n_left
            && self.pstate == fresh.pstate
            && self.prem == fresh.prem
            && self.vstate == fresh.vstate
            && self.depth == 0
            && self.dlx.hidden.is_empty()
            && self.lo == fresh.lo
            && self.lo_mask == 0
            && self.bdlx.used == 0
    }
}
