//! The dancing-links arena and its elementary operations (cover, hide,
//! purify and their inverses), kept apart from the search so that other
//! engines (the polycube schedules) can drive the same structure.

use crate::ir::{Problem, NO_COLOR};
use crate::search::{StopCheck, StopReason};

/// Colour of a node whose secondary item has been purified to that node's
/// colour (Knuth's `COLOR = -1`): the node stays linked and is skipped by
/// `hide`/`unhide`.
const MARKED: u32 = u32::MAX;

/// One node of the arena: an item header (`top` = length) or an option
/// node (`top` = item header index) or a spacer (`top <= 0`).
///
/// `color` is the node's colour in a matrix with colours. In a matrix
/// without (no node can be marked), an option node's `color` holds instead
/// the index of the next node of its row, circularly (Knuth's right link),
/// so that `hide` and `unhide` walk a row without meeting its spacer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Node {
    top: i32,
    up: u32,
    down: u32,
    color: u32,
}

/// The dancing-links matrix of a problem.
#[derive(Clone)]
///
/// Invariants: header `i` (`1..=n_items`) stands for IR item `i - 1`;
/// `nodes[i].top` is the number of rows linked in column `i`; the circular
/// list `rlink` from 0 visits exactly the primary items whose remaining
/// bound is positive and that are not covered; every operation here is undone
/// by its inverse called in reverse (LIFO) order.
pub struct Matrix {
    n_primary: u32,
    nodes: Vec<Node>,
    llink: Vec<u32>,
    rlink: Vec<u32>,
    bound: Vec<u32>,
    /// Whether any option node has a colour: only then can `purify` mark
    /// nodes, and only then must `hide`/`unhide` look for marks.
    colored: bool,
    /// Link updates performed (statistics).
    pub(crate) updates: u64,
}

/// Takes option node `node` out of its column: its neighbours skip it and
/// the column's length drops.
///
/// # Safety
/// `nodes` points to an arena of `len` nodes, and `node` is an option node
/// of it, whose `up`, `down` and `top` are therefore arena indices.
#[inline(always)]
unsafe fn unlink_raw(nodes: *mut Node, len: usize, node: Node) {
    debug_assert!((node.up as usize) < len && (node.down as usize) < len && (node.top as usize) < len);
    (*nodes.add(node.up as usize)).down = node.down;
    (*nodes.add(node.down as usize)).up = node.up;
    (*nodes.add(node.top as usize)).top -= 1;
}

/// Inverse of [`unlink_raw`] for the node at index `q`.
///
/// # Safety
/// As [`unlink_raw`].
#[inline(always)]
unsafe fn relink_raw(nodes: *mut Node, len: usize, q: u32, node: Node) {
    debug_assert!((node.up as usize) < len && (node.down as usize) < len && (node.top as usize) < len);
    (*nodes.add(node.up as usize)).down = q;
    (*nodes.add(node.down as usize)).up = q;
    (*nodes.add(node.top as usize)).top += 1;
}

impl Matrix {
    /// The matrix of no items and no options.
    pub fn empty() -> Matrix {
        Matrix::from_items(0, &[], 0, std::iter::empty::<&[u32]>())
    }

    /// Builds the arena for `problem`.
    pub fn new(problem: &Problem) -> Self {
        Self::new_checked(problem, &StopCheck::default()).expect("no stop to check")
    }

    /// [`Matrix::new`], checking `stop` every few thousand options: a
    /// deadline or a cancellation ends the set-up within milliseconds.
    pub fn new_checked(problem: &Problem, stop: &StopCheck) -> Result<Self, StopReason> {
        let n_items = problem.items().len() as u32;
        let n_primary = problem.n_primary() as u32;
        let bounds = (0..n_items).map(|i| problem.multiplicity(i));
        let rows = problem.options().map(|row| row.iter().map(|e| (e.item, e.color)));
        debug_assert!(problem.options().all(|r| r.iter().all(|e| e.color == NO_COLOR || e.item >= n_primary)));
        Self::from_rows(n_primary, bounds, problem.n_entries(), problem.n_options(), rows, stop)
    }

    /// Builds the arena of an uncoloured problem given directly: items
    /// `0..bounds.len()`, the first `n_primary` primary with those bounds
    /// (multiplicities; 0 for the secondary ones), and `rows`, each option's
    /// items in increasing order (as [`Problem::option`] lists them), with
    /// `n_entries` entries in all. The same arena as [`Self::new`] of the
    /// problem these make, without building that problem first.
    pub fn from_items<'r>(
        n_primary: u32,
        bounds: &[u32],
        n_entries: usize,
        rows: impl ExactSizeIterator<Item = &'r [u32]>,
    ) -> Self {
        let n_options = rows.len();
        let rows = rows.map(|row| {
            debug_assert!(row.windows(2).all(|w| w[0] < w[1]) && row.iter().all(|&i| (i as usize) < bounds.len()));
            row.iter().map(|&i| (i, NO_COLOR))
        });
        Self::from_rows(n_primary, bounds.iter().copied(), n_entries, n_options, rows, &StopCheck::default())
            .expect("no stop to check")
    }

    fn from_rows(
        n_primary: u32,
        bounds: impl ExactSizeIterator<Item = u32>,
        n_entries: usize,
        n_options: usize,
        rows: impl Iterator<Item = impl Iterator<Item = (u32, u32)>>,
        stop: &StopCheck,
    ) -> Result<Self, StopReason> {
        let n_items = bounds.len() as u32;
        let mut nodes = Vec::with_capacity(n_items as usize + 2 + n_entries + n_options);
        for i in 0..=n_items {
            nodes.push(Node { top: 0, up: i, down: i, color: 0 });
        }
        let mut bound = vec![0u32; n_items as usize + 1];
        for (i, b) in bounds.enumerate() {
            bound[i + 1] = b;
        }
        // Leading spacer.
        let mut spacer = nodes.len() as u32;
        nodes.push(Node { top: 0, up: 0, down: 0, color: 0 });
        for (o, row) in rows.enumerate() {
            if o % crate::ir::STOP_EVERY == 0 {
                stop.check()?;
            }
            let first = nodes.len() as u32;
            for (item, color) in row {
                let col = item + 1;
                let x = nodes.len() as u32;
                let last = nodes[col as usize].up;
                nodes.push(Node { top: col as i32, up: last, down: col, color });
                nodes[last as usize].down = x;
                nodes[col as usize].up = x;
                nodes[col as usize].top += 1;
            }
            let last = nodes.len() as u32 - 1;
            nodes[spacer as usize].top = -(o as i32 + 1);
            nodes[spacer as usize].down = last;
            spacer = nodes.len() as u32;
            nodes.push(Node { top: -(o as i32 + 2), up: first, down: 0, color: 0 });
        }
        let colored = nodes.iter().any(|n| n.top > 0 && n.color != NO_COLOR);
        if !colored {
            // Right links: each option node names the next node of its row.
            let mut x = n_items as usize + 2;
            while x < nodes.len() {
                let first = x;
                while x < nodes.len() && nodes[x].top > 0 {
                    x += 1;
                }
                for (y, node) in nodes[first..x].iter_mut().enumerate() {
                    let next = first + y + 1;
                    node.color = if next < x { next as u32 } else { first as u32 };
                }
                x += 1;
            }
        }
        let mut llink = vec![0u32; n_primary as usize + 1];
        let mut rlink = vec![0u32; n_primary as usize + 1];
        for i in 0..=n_primary {
            llink[i as usize] = if i == 0 { n_primary } else { i - 1 };
            rlink[i as usize] = if i == n_primary { 0 } else { i + 1 };
        }
        Ok(Matrix { n_primary, nodes, llink, rlink, bound, colored, updates: 0 })
    }

    /// Header of the first active primary item, or `None` when all are done.
    pub fn first_active(&self) -> Option<u32> {
        let r = self.rlink[0];
        (r != 0).then_some(r)
    }

    /// Column length of item header `i`.
    #[inline]
    pub fn len(&self, i: u32) -> u32 {
        self.nodes[i as usize].top as u32
    }

    /// Whether the matrix has no items (a problem with nothing to cover).
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// Remaining bound (times still to be covered) of item header `i`.
    #[inline]
    pub fn bound(&self, i: u32) -> u32 {
        self.bound[i as usize]
    }

    /// Whether item `i` can still reach its bound.
    #[inline]
    pub fn feasible(&self, i: u32) -> bool {
        self.len(i) >= self.bound(i)
    }

    /// Next node down from `x` (in a column).
    #[inline]
    pub fn down(&self, x: u32) -> u32 {
        self.nodes[x as usize].down
    }

    /// The active primary item with the fewest branches
    /// `len + 1 - bound` (ties: first in list order); `None` when no primary
    /// item remains, i.e. a solution has been found.
    pub fn choose_min_fit(&self) -> Option<u32> {
        let mut best = None;
        let mut best_theta = i64::MAX;
        let mut i = self.rlink[0];
        while i != 0 {
            let theta = self.len(i) as i64 + 1 - self.bound(i) as i64;
            if theta < best_theta {
                best_theta = theta;
                best = Some(i);
                if theta <= 0 {
                    break;
                }
            }
            i = self.rlink[i as usize];
        }
        best
    }

    /// The option id of the row that contains node `x`.
    pub fn option_of(&self, mut x: u32) -> u32 {
        while self.nodes[x as usize].top > 0 {
            x -= 1;
        }
        (-self.nodes[x as usize].top - 1) as u32
    }

    /// Iterates the active primary item headers.
    pub fn active_items(&self) -> impl Iterator<Item = u32> + '_ {
        let mut i = self.rlink[0];
        std::iter::from_fn(move || {
            (i != 0).then(|| {
                let cur = i;
                i = self.rlink[i as usize];
                cur
            })
        })
    }

    #[inline]
    fn unlink_node(&mut self, q: u32) {
        let Node { top, up, down, .. } = self.nodes[q as usize];
        self.nodes[up as usize].down = down;
        self.nodes[down as usize].up = up;
        self.nodes[top as usize].top -= 1;
        self.updates += 1;
    }

    #[inline]
    fn relink_node(&mut self, q: u32) {
        let Node { top, up, down, .. } = self.nodes[q as usize];
        self.nodes[up as usize].down = q;
        self.nodes[down as usize].up = q;
        self.nodes[top as usize].top += 1;
    }

    /// Panics unless `p` is an option node (not a header, not a spacer).
    /// The public operations that take a row node check it once, which
    /// makes `hide`/`unhide`'s unchecked walk sound whatever a caller
    /// passes: from option nodes (the rows reached from a checked row, and
    /// the rows of the columns those name) they only follow row links and
    /// the `up`, `down` and `top` of option nodes, which are arena indices
    /// from the start and are only ever overwritten with arena indices.
    #[inline]
    fn check_option_node(&self, p: u32) {
        assert!(
            p as usize >= self.bound.len() && self.nodes[p as usize].top > 0,
            "dlx: node {p} is not an option node"
        );
    }

    /// Removes the other nodes of `p`'s row from their columns.
    ///
    /// The hot loop of every DLX search (with `unhide`, most of its time on
    /// large matrices), so it walks the arena through a raw pointer: every
    /// index it follows is a link of the arena (`p`'s row neighbours, their
    /// `up`/`down` and `top`), which [`Matrix::from_rows`] makes in bounds
    /// and every operation keeps in bounds (the type's invariant). In a
    /// matrix without colours the row is walked by its right links (no node
    /// there can be marked); with colours, past its spacer, skipping marks.
    fn hide(&mut self, p: u32) {
        let len = self.nodes.len();
        let nodes = self.nodes.as_mut_ptr();
        let mut updates = 0u64;
        debug_assert!((p as usize) < len);
        if !self.colored {
            // SAFETY: `p` and its row's right links are arena indices by the
            // arena's invariant (debug-checked).
            let mut q = unsafe { (*nodes.add(p as usize)).color };
            while q != p {
                debug_assert!((q as usize) < len);
                // SAFETY: as above.
                let node = unsafe { *nodes.add(q as usize) };
                // SAFETY: `node` is a linked option node.
                unsafe { unlink_raw(nodes, len, node) };
                updates += 1;
                q = node.color;
            }
        } else {
            let mut q = p + 1;
            while q != p {
                debug_assert!((q as usize) < len);
                // SAFETY: `q` is a node of `p`'s row or its spacer, in bounds
                // by the arena's invariant (debug-checked above).
                let node = unsafe { *nodes.add(q as usize) };
                if node.top <= 0 {
                    q = node.up;
                } else {
                    if node.color != MARKED {
                        // SAFETY: `node` is a linked option node.
                        unsafe { unlink_raw(nodes, len, node) };
                        updates += 1;
                    }
                    q += 1;
                }
            }
        }
        self.updates += updates;
    }

    /// Inverse of [`Matrix::hide`], through the same raw pointer.
    fn unhide(&mut self, p: u32) {
        let len = self.nodes.len();
        let nodes = self.nodes.as_mut_ptr();
        debug_assert!((p as usize) < len);
        if !self.colored {
            // The row's other nodes are in other columns, so restoring them
            // in the order `hide` removed them is as good as in reverse.
            // SAFETY: as in `hide`.
            let mut q = unsafe { (*nodes.add(p as usize)).color };
            while q != p {
                debug_assert!((q as usize) < len);
                // SAFETY: as in `hide`.
                let node = unsafe { *nodes.add(q as usize) };
                // SAFETY: `node` (at `q`) is an option node `hide` unlinked.
                unsafe { relink_raw(nodes, len, q, node) };
                q = node.color;
            }
        } else {
            let mut q = p - 1;
            while q != p {
                debug_assert!((q as usize) < len);
                // SAFETY: as in `hide`.
                let node = unsafe { *nodes.add(q as usize) };
                if node.top <= 0 {
                    q = node.down;
                } else {
                    if node.color != MARKED {
                        // SAFETY: `node` (at `q`) is an option node `hide`
                        // unlinked.
                        unsafe { relink_raw(nodes, len, q, node) };
                    }
                    q -= 1;
                }
            }
        }
    }

    /// Removes every row of column `i`; primary items also leave the list.
    fn cover(&mut self, i: u32) {
        let mut p = self.nodes[i as usize].down;
        while p != i {
            self.hide(p);
            p = self.nodes[p as usize].down;
        }
        if i <= self.n_primary {
            let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
            self.rlink[l as usize] = r;
            self.llink[r as usize] = l;
        }
    }

    fn uncover(&mut self, i: u32) {
        if i <= self.n_primary {
            let (l, r) = (self.llink[i as usize], self.rlink[i as usize]);
            self.rlink[l as usize] = i;
            self.llink[r as usize] = i;
        }
        let mut p = self.nodes[i as usize].up;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize].up;
        }
    }

    /// Keeps only rows of `p`'s colour in `p`'s (secondary) column.
    fn purify(&mut self, p: u32) {
        let Node { top, color, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut q = self.nodes[i as usize].down;
        while q != i {
            if self.nodes[q as usize].color == color {
                self.nodes[q as usize].color = MARKED;
            } else {
                self.hide(q);
            }
            q = self.nodes[q as usize].down;
        }
    }

    fn unpurify(&mut self, p: u32) {
        let Node { top, color, .. } = self.nodes[p as usize];
        let i = top as u32;
        let mut q = self.nodes[i as usize].up;
        while q != i {
            if self.nodes[q as usize].color == MARKED {
                self.nodes[q as usize].color = color;
            } else {
                self.unhide(q);
            }
            q = self.nodes[q as usize].up;
        }
    }

    /// Accounts for one chosen row's use of node `q`'s item.
    fn commit(&mut self, q: u32) {
        let Node { top, color, .. } = self.nodes[q as usize];
        let j = top as u32;
        if j <= self.n_primary {
            self.bound[j as usize] -= 1;
            if self.bound[j as usize] == 0 {
                self.cover(j);
            }
        } else if !self.colored || color == NO_COLOR {
            self.cover(j);
        } else if color != MARKED {
            self.purify(q);
        }
    }

    fn uncommit(&mut self, q: u32) {
        let Node { top, color, .. } = self.nodes[q as usize];
        let j = top as u32;
        if j <= self.n_primary {
            if self.bound[j as usize] == 0 {
                self.uncover(j);
            }
            self.bound[j as usize] += 1;
        } else if !self.colored || color == NO_COLOR {
            self.uncover(j);
        } else if color != MARKED {
            self.unpurify(q);
        }
    }

    /// Covers primary item `i` whose bound is 1, before branching on it.
    pub fn commit_primary(&mut self, i: u32) {
        assert_eq!(self.bound(i), 1, "commit_primary on an item still needed {} times", self.bound(i));
        self.bound[i as usize] = 0;
        self.cover(i);
    }

    /// Inverse of [`Matrix::commit_primary`].
    pub fn uncommit_primary(&mut self, i: u32) {
        debug_assert_eq!(self.bound(i), 0, "uncommit_primary without a matching commit_primary");
        self.uncover(i);
        self.bound[i as usize] = 1;
    }

    /// The same links, lengths and bounds as `other` (the statistics aside):
    /// a matrix whose operations were all undone equals its first state.
    pub fn same_links(&self, other: &Matrix) -> bool {
        self.n_primary == other.n_primary
            && self.nodes == other.nodes
            && self.llink == other.llink
            && self.rlink == other.rlink
            && self.bound == other.bound
    }

    /// Checks the structure from scratch (for debug assertions and tests):
    /// every column's `up`/`down` links are mutual and its length is the
    /// number of rows linked in it, every linked node names its column, and
    /// the active list is a consistent circular list of primary items with
    /// a positive bound. Returns a description of the first violation.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n_items = self.bound.len() as u32 - 1;
        for i in 1..=n_items {
            let mut len = 0u32;
            let mut x = i;
            loop {
                let next = self.nodes[x as usize].down;
                if self.nodes[next as usize].up != x {
                    return Err(format!("column {i}: down/up links disagree at node {x}"));
                }
                x = next;
                if x == i {
                    break;
                }
                if self.nodes[x as usize].top != i as i32 {
                    return Err(format!("column {i}: node {x} belongs to column {}", self.nodes[x as usize].top));
                }
                len += 1;
                if len > self.nodes.len() as u32 {
                    return Err(format!("column {i}: the list does not close"));
                }
            }
            if self.len(i) != len {
                return Err(format!("column {i}: length field {} but {len} rows linked", self.len(i)));
            }
        }
        let mut seen = vec![false; self.n_primary as usize + 1];
        let mut i = 0u32;
        loop {
            let r = self.rlink[i as usize];
            if self.llink[r as usize] != i {
                return Err(format!("active list: rlink/llink disagree at {i}"));
            }
            i = r;
            if i == 0 {
                break;
            }
            if seen[i as usize] {
                return Err(format!("active list: item {i} appears twice"));
            }
            seen[i as usize] = true;
            if self.bound(i) == 0 {
                return Err(format!("active list: item {i} has bound 0"));
            }
        }
        for i in 1..=self.n_primary {
            if self.bound(i) > 0 && !seen[i as usize] {
                return Err(format!("item {i} still needed {} times is not in the active list", self.bound(i)));
            }
        }
        Ok(())
    }

    /// Commits the other items of row `x` (its own column is covered).
    pub fn commit_row_except(&mut self, x: u32) {
        self.check_option_node(x);
        let mut q = x + 1;
        while q != x {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.up;
            } else {
                self.commit(q);
                q += 1;
            }
        }
    }

    /// Inverse of [`Matrix::commit_row_except`].
    pub fn uncommit_row_except(&mut self, x: u32) {
        self.check_option_node(x);
        let mut q = x - 1;
        while q != x {
            let node = self.nodes[q as usize];
            if node.top <= 0 {
                q = node.down;
            } else {
                self.uncommit(q);
                q -= 1;
            }
        }
    }

    /// Removes row `x` from every column (including `x`'s own).
    pub fn hide_row(&mut self, x: u32) {
        self.check_option_node(x);
        if self.nodes[x as usize].color != MARKED {
            self.unlink_node(x);
        }
        self.hide(x);
    }

    /// Inverse of [`Matrix::hide_row`].
    pub fn unhide_row(&mut self, x: u32) {
        self.check_option_node(x);
        self.unhide(x);
        if self.nodes[x as usize].color != MARKED {
            self.relink_node(x);
        }
    }

    /// Chooses row `x` through a column that stays active (bound > 1):
    /// removes the row, then commits all its items.
    pub fn select_row(&mut self, x: u32) {
        self.hide_row(x);
        self.commit(x);
        self.commit_row_except(x);
    }

    /// Inverse of [`Matrix::select_row`].
    pub fn unselect_row(&mut self, x: u32) {
        self.uncommit_row_except(x);
        self.uncommit(x);
        self.unhide_row(x);
    }
}

#[cfg(test)]
mod tests {
    use super::Matrix;
    use crate::frontend::polycube;
    use crate::poly::model::Images;
    use crate::poly::walk::{image_matrix, image_problem};

    fn same(a: &Matrix, b: &Matrix) -> bool {
        format!("{:?}", a.nodes) == format!("{:?}", b.nodes)
            && (a.n_primary, &a.llink, &a.rlink, &a.bound) == (b.n_primary, &b.llink, &b.rlink, &b.bound)
    }

    #[test]
    fn image_matrix_is_the_arena_of_the_image_problem() {
        let soma = std::fs::read_to_string("instances/polycube/somacube_def.txt").unwrap();
        // Identical pieces (three dominoes): one group with multiplicity 3.
        let dominoes = "D:xDim=3:yDim=2:zDim=1\nC:name=A:layout=0 0 0, 1 0 0\nC:name=B:layout=0 0 0, 1 0 0\nC:name=C:layout=0 0 0, 0 1 0\n~D\n";
        for text in [soma.as_str(), dominoes] {
            let puzzle = polycube::parse(text, "t").unwrap().remove(0);
            let built = polycube::build(&puzzle, "t").unwrap();
            let images = Images::from_problem(&built.problem, Default::default()).unwrap();
            assert!(text != dominoes || images.groups[0].count == 3);
            assert!(same(&image_matrix(&images), &Matrix::new(&image_problem(&images))));
        }
    }

    /// Selects every row of the first active item, two levels deep, and
    /// checks the structure after each step and the first state after each
    /// undo: once on a matrix without colours (rows walked by right links)
    /// and once on one with colours (rows walked past spacers, marks).
    #[test]
    fn rows_are_hidden_and_restored_with_and_without_colours() {
        let soma = std::fs::read_to_string("instances/polycube/somacube_def.txt").unwrap();
        let puzzle = polycube::parse(&soma, "t").unwrap().remove(0);
        let plain = polycube::build(&puzzle, "t").unwrap().problem;
        let coloured = crate::dlx::tests::knuth_colour_problem();
        for (problem, has_colours) in [(&plain, false), (&coloured, true)] {
            let mut m = Matrix::new(problem);
            assert_eq!(m.colored, has_colours);
            let first = m.clone();
            walk(&mut m, 2);
            assert!(same(&m, &first));
        }
    }

    /// The row operations refuse a node that is not an option node (here
    /// the root header) instead of walking the arena from it unchecked.
    #[test]
    #[should_panic(expected = "is not an option node")]
    fn row_operations_refuse_a_header() {
        let mut m = Matrix::new(&crate::dlx::tests::knuth_colour_problem());
        m.hide_row(0);
    }

    /// Branches on the first active item as the search does, `depth`
    /// levels down, checking the structure at every node and the node's
    /// state after each child is undone.
    fn walk(m: &mut Matrix, depth: u32) {
        let Some(i) = m.first_active() else { return };
        let at_node = m.clone();
        let mut rows = vec![];
        let mut x = m.down(i);
        while x != i {
            rows.push(x);
            x = m.down(x);
        }
        let once = m.bound(i) == 1;
        if once {
            m.commit_primary(i);
        }
        for x in rows {
            if once {
                m.commit_row_except(x);
            } else {
                m.select_row(x);
            }
            m.check_invariants().unwrap();
            if depth > 1 {
                walk(m, depth - 1);
            }
            if once {
                m.uncommit_row_except(x);
            } else {
                m.unselect_row(x);
            }
        }
        if once {
            m.uncommit_primary(i);
        }
        assert!(same(m, &at_node));
    }
}
