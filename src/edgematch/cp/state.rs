//! The dynamic state of the CP model: the board, the ColorPair structures
//! and the counters the filtering rules read. No per-cell domains.
//!
//! Invariants (between two public calls):
//! * **Offer**: for every pair `p`, `off[pair_start[p] .. pair_start[p] +
//!   off_len[p]]` holds the memberships of the *available* (unplaced) tiles
//!   showing `p`; the rest of the segment holds the placed ones
//!   (`Unavailable(p)`); `mem_pos[m]` is the position of membership `m`.
//! * **Demand**: for every pair `p`, `dem[p][..dem_len[p]]` lists `cell * 6 +
//!   slot` for each empty cell whose known sides show `p` in that slot, one
//!   entry per (cell, pair): the cell's other slots with the same pair have
//!   `slot_pos == NONE`. `active` is the set of pairs with a demand.
//! * **Knowledge**: for an empty cell, `known[c][s]` is grey on a border
//!   side, the colour the filled neighbour shows across `s`, or
//!   [`UNKNOWN`]; `bucket[k]` holds the empty cells with `k >= 2` known
//!   sides. A filled cell keeps the knowledge it had when it was filled.
//! * **Preemption**: `pre[t]` is the pair that reserved tile `t` (or
//!   `NONE`); for every pair `p`, `own[p]` counts the available tiles of
//!   `p` reserved by `p` and `nb[p]` those reserved by another pair.
//! * **Colours**: for each colour `k`, `edges[k]` counts the `k` sides of
//!   available tiles, `tiles_left[k]` the available tiles showing `k`,
//!   `demanded[k]` the sides of empty cells facing a filled cell that shows
//!   `k`.
//!
//! [`State::assign`] and [`State::unassign`] keep all of these in O(1)
//! (a bounded number of sparse-set operations); `unassign` must undo the
//! latest `assign` (LIFO).

use super::model::{Model, NONE, SIDE_SLOTS, SLOT_SIDES, UNKNOWN};
use crate::edgematch::{Color, GREY};

/// The dynamic state of one puzzle's CP model (the invariants are the
/// module's). The board: `tile_at[c]` is the tile on cell `c` and
/// `cell_of[t]` the cell of tile `t`, each the other's inverse, [`NONE`]
/// for an empty cell or an available tile; a filled cell also keeps its
/// rotation, the colours it shows and the search level that filled it;
/// `n_empty` counts the empty cells and `ring_filled` the filled cells of
/// the border ring.
#[derive(Clone)]
pub(crate) struct State {
    pub tile_at: Vec<u32>,
    pub rot_at: Vec<u8>,
    pub colors_at: Vec<[Color; 4]>,
    pub level_at: Vec<u32>,
    pub cell_of: Vec<u32>,
    pub n_empty: usize,
    pub ring_filled: usize,

    pub known: Vec<[Color; 4]>,
    /// Known colours packed 16 bits per side, and the mask of known sides.
    pub known_packed: Vec<u64>,
    pub known_mask: Vec<u64>,
    /// 4-bit mask of the unknown (inner, open) sides.
    pub unknown_sides: Vec<u8>,
    pub nknown: Vec<u8>,
    pub slot_pair: Vec<[u32; 6]>,
    pub slot_pos: Vec<[u32; 6]>,

    pub off: Vec<u32>,
    pub mem_pos: Vec<u32>,
    pub off_len: Vec<u32>,

    pub dem: Vec<Vec<u32>>,
    pub dem_len: Vec<u32>,
    pub active: Vec<u32>,
    pub active_pos: Vec<u32>,

    pub bucket: [Vec<u32>; 5],
    pub bucket_pos: Vec<u32>,

    pub pre: Vec<u32>,
    pub nb: Vec<u32>,
    pub own: Vec<u32>,

    pub edges: Vec<i32>,
    pub tiles_left: Vec<i32>,
    pub demanded: Vec<i32>,
}

impl State {
    /// The empty board.
    pub fn new(m: &Model) -> State {
        let n = m.n_cells;
        let n_tiles = m.rot_colors.len();
        let mut s = State {
            tile_at: vec![NONE; n],
            rot_at: vec![0; n],
            colors_at: vec![[UNKNOWN; 4]; n],
            level_at: vec![0; n],
            cell_of: vec![NONE; n_tiles],
            n_empty: n,
            ring_filled: 0,
            known: vec![[UNKNOWN; 4]; n],
            known_packed: vec![0; n],
            known_mask: vec![0; n],
            unknown_sides: vec![0xf; n],
            nknown: vec![0; n],
            slot_pair: vec![[NONE; 6]; n],
            slot_pos: vec![[NONE; 6]; n],
            off: (0..m.mem_tile.len() as u32).collect(),
            mem_pos: (0..m.mem_tile.len() as u32).collect(),
            off_len: (0..m.n_pairs).map(|p| m.pair_start[p + 1] - m.pair_start[p]).collect(),
            dem: vec![Vec::new(); m.n_pairs],
            dem_len: vec![0; m.n_pairs],
            active: Vec::new(),
            active_pos: vec![NONE; m.n_pairs],
            bucket: Default::default(),
            bucket_pos: vec![NONE; n],
            pre: vec![NONE; n_tiles],
            nb: vec![0; m.n_pairs],
            own: vec![0; m.n_pairs],
            edges: vec![0; m.n_colors],
            tiles_left: vec![0; m.n_colors],
            demanded: vec![0; m.n_colors],
        };
        for t in 0..n_tiles {
            for &(k, c) in &m.tile_colors[t] {
                s.edges[k as usize] += c as i32;
                s.tiles_left[k as usize] += 1;
            }
        }
        for c in 0..n {
            for side in 0..4 {
                if m.nbr[c][side] == NONE {
                    s.set_known(m, c, side, GREY);
                }
            }
        }
        s
    }

    #[inline]
    fn offer_remove(&mut self, m: &Model, p: u32, mem: u32) {
        let start = m.pair_start[p as usize];
        let last = start + self.off_len[p as usize] - 1;
        let pos = self.mem_pos[mem as usize];
        let other = self.off[last as usize];
        self.off[pos as usize] = other;
        self.mem_pos[other as usize] = pos;
        self.off[last as usize] = mem;
        self.mem_pos[mem as usize] = last;
        self.off_len[p as usize] -= 1;
    }

    #[inline]
    fn offer_restore(&mut self, m: &Model, p: u32, mem: u32) {
        let first_out = m.pair_start[p as usize] + self.off_len[p as usize];
        let pos = self.mem_pos[mem as usize];
        let other = self.off[first_out as usize];
        self.off[pos as usize] = other;
        self.mem_pos[other as usize] = pos;
        self.off[first_out as usize] = mem;
        self.mem_pos[mem as usize] = first_out;
        self.off_len[p as usize] += 1;
    }

    #[inline]
    fn dem_add(&mut self, p: u32, cell: usize, slot: usize) {
        let pi = p as usize;
        let i = self.dem_len[pi] as usize;
        let e = (cell * 6 + slot) as u32;
        if i == self.dem[pi].len() {
            self.dem[pi].push(e);
        } else {
            self.dem[pi][i] = e;
        }
        self.slot_pos[cell][slot] = i as u32;
        self.dem_len[pi] += 1;
        if i == 0 {
            set_insert(&mut self.active, &mut self.active_pos, p);
        }
    }

    #[inline]
    fn dem_remove(&mut self, p: u32, cell: usize, slot: usize) {
        let pi = p as usize;
        let pos = self.slot_pos[cell][slot] as usize;
        let last = self.dem_len[pi] as usize - 1;
        let moved = self.dem[pi][last];
        self.dem[pi][pos] = moved;
        self.slot_pos[moved as usize / 6][moved as usize % 6] = pos as u32;
        self.slot_pos[cell][slot] = NONE;
        self.dem_len[pi] -= 1;
        if last == 0 {
            set_remove(&mut self.active, &mut self.active_pos, p);
        }
    }

    #[inline]
    fn bucket_remove(&mut self, cell: usize) {
        let k = self.nknown[cell] as usize;
        if k < 2 {
            return;
        }
        set_remove(&mut self.bucket[k], &mut self.bucket_pos, cell as u32);
    }

    #[inline]
    fn bucket_add(&mut self, cell: usize) {
        let k = self.nknown[cell] as usize;
        if k < 2 {
            return;
        }
        set_insert(&mut self.bucket[k], &mut self.bucket_pos, cell as u32);
    }

    /// Whether another slot of `cell` already represents pair `p`.
    #[inline]
    fn represented(&self, cell: usize, p: u32) -> bool {
        (0..6).any(|j| self.slot_pos[cell][j] != NONE && self.slot_pair[cell][j] == p)
    }

    /// Side `side` of empty cell `cell` becomes known with colour `k`.
    fn set_known(&mut self, m: &Model, cell: usize, side: usize, k: Color) {
        self.bucket_remove(cell);
        self.known[cell][side] = k;
        self.known_packed[cell] |= (k as u64) << (16 * side);
        self.known_mask[cell] |= 0xffff << (16 * side);
        self.unknown_sides[cell] &= !(1 << side);
        self.nknown[cell] += 1;
        self.bucket_add(cell);
        for slot in SIDE_SLOTS[side] {
            let (a, b) = SLOT_SIDES[slot];
            if self.known[cell][a] == UNKNOWN || self.known[cell][b] == UNKNOWN {
                continue;
            }
            let p = m.slot_pair(slot, &self.known[cell]);
            if !self.represented(cell, p) {
                self.dem_add(p, cell, slot);
            }
            self.slot_pair[cell][slot] = p;
        }
    }

    /// Undoes [`State::set_known`].
    fn clear_known(&mut self, cell: usize, side: usize) {
        let mut lost = [NONE; 3];
        for (i, slot) in SIDE_SLOTS[side].into_iter().enumerate() {
            let p = self.slot_pair[cell][slot];
            if p == NONE {
                continue;
            }
            if self.slot_pos[cell][slot] != NONE {
                self.dem_remove(p, cell, slot);
                lost[i] = p;
            }
            self.slot_pair[cell][slot] = NONE;
        }
        for p in lost {
            if p == NONE {
                continue;
            }
            if let Some(j) = (0..6).find(|&j| self.slot_pair[cell][j] == p) {
                self.dem_add(p, cell, j);
            }
        }
        self.bucket_remove(cell);
        self.known[cell][side] = UNKNOWN;
        self.known_packed[cell] &= !(0xffff << (16 * side));
        self.known_mask[cell] &= !(0xffff << (16 * side));
        self.unknown_sides[cell] |= 1 << side;
        self.nknown[cell] -= 1;
        self.bucket_add(cell);
    }

    /// Places tile `t` in rotation `r` on empty cell `c`.
    #[allow(clippy::needless_range_loop, reason = "a side indexes several parallel arrays")]
    pub fn assign(&mut self, m: &Model, c: usize, t: usize, r: u8, level: u32) {
        debug_assert_eq!(self.tile_at[c], NONE);
        debug_assert_eq!(self.cell_of[t], NONE);
        let col = m.rot_colors[t][r as usize];
        self.tile_at[c] = t as u32;
        self.rot_at[c] = r;
        self.colors_at[c] = col;
        self.level_at[c] = level;
        self.cell_of[t] = c as u32;
        self.n_empty -= 1;
        self.ring_filled += m.on_ring[c] as usize;

        let pre = self.pre[t];
        for k in 0..m.n_tile_pairs[t] as usize {
            let p = m.tile_pairs[t][k];
            self.offer_remove(m, p, m.tile_mem[t][k]);
            if pre != NONE {
                if p == pre {
                    self.own[p as usize] -= 1;
                } else {
                    self.nb[p as usize] -= 1;
                }
            }
        }
        for &(k, n) in &m.tile_colors[t] {
            self.edges[k as usize] -= n as i32;
            self.tiles_left[k as usize] -= 1;
        }
        self.bucket_remove(c);
        for slot in 0..6 {
            if self.slot_pos[c][slot] != NONE {
                self.dem_remove(self.slot_pair[c][slot], c, slot);
            }
        }
        for side in 0..4 {
            let n = m.nbr[c][side];
            if n == NONE {
                continue;
            }
            let n = n as usize;
            if self.tile_at[n] != NONE {
                self.demanded[self.known[c][side] as usize] -= 1;
            } else {
                self.demanded[col[side] as usize] += 1;
                self.set_known(m, n, (side + 2) & 3, col[side]);
            }
        }
    }

    /// Removes the tile of cell `c`, which must be the latest assigned.
    pub fn unassign(&mut self, m: &Model, c: usize) {
        let t = self.tile_at[c] as usize;
        let col = self.colors_at[c];
        for side in (0..4).rev() {
            let n = m.nbr[c][side];
            if n == NONE {
                continue;
            }
            let n = n as usize;
            if self.tile_at[n] != NONE {
                self.demanded[self.known[c][side] as usize] += 1;
            } else {
                self.clear_known(n, (side + 2) & 3);
                self.demanded[col[side] as usize] -= 1;
            }
        }
        for slot in 0..6 {
            let p = self.slot_pair[c][slot];
            if p != NONE && !(0..slot).any(|j| self.slot_pair[c][j] == p) {
                self.dem_add(p, c, slot);
            }
        }
        self.bucket_add(c);
        for &(k, n) in &m.tile_colors[t] {
            self.edges[k as usize] += n as i32;
            self.tiles_left[k as usize] += 1;
        }
        let pre = self.pre[t];
        for k in (0..m.n_tile_pairs[t] as usize).rev() {
            let p = m.tile_pairs[t][k];
            self.offer_restore(m, p, m.tile_mem[t][k]);
            if pre != NONE {
                if p == pre {
                    self.own[p as usize] += 1;
                } else {
                    self.nb[p as usize] += 1;
                }
            }
        }
        self.tile_at[c] = NONE;
        self.colors_at[c] = [UNKNOWN; 4];
        self.level_at[c] = 0;
        self.cell_of[t] = NONE;
        self.n_empty += 1;
        self.ring_filled -= m.on_ring[c] as usize;
    }

    /// Whether tile `t` in rotation `r` fits empty cell `c`: it shows the
    /// known colours and no grey on an open side (and, for the symmetry
    /// pivot, the cell is one it may take).
    #[inline]
    pub fn fits(&self, m: &Model, c: usize, t: usize, r: usize) -> bool {
        (m.rot_packed[t][r] ^ self.known_packed[c]) & self.known_mask[c] == 0
            && m.grey_mask[t][r] & self.unknown_sides[c] == 0
            && (t as u32 != m.pivot || m.pivot_allowed[c])
    }

    /// Available tiles of pair `p` (memberships).
    #[inline]
    pub fn offer<'a>(&'a self, m: &Model, p: u32) -> &'a [u32] {
        let s = m.pair_start[p as usize] as usize;
        &self.off[s..s + self.off_len[p as usize] as usize]
    }

    /// Placed tiles of pair `p` (memberships).
    #[inline]
    pub fn unavailable<'a>(&'a self, m: &Model, p: u32) -> &'a [u32] {
        let s = m.pair_start[p as usize] as usize;
        &self.off[s + self.off_len[p as usize] as usize..m.pair_start[p as usize + 1] as usize]
    }

    /// Demanding cells of pair `p`, as `cell * 6 + slot`.
    #[inline]
    pub fn demand(&self, p: u32) -> &[u32] {
        &self.dem[p as usize][..self.dem_len[p as usize] as usize]
    }
}

/// Adds `x` to the sparse set `list` whose positions are `pos`
/// (`list[pos[x]] == x` for every member; `pos[x] == NONE` otherwise).
#[inline]
fn set_insert(list: &mut Vec<u32>, pos: &mut [u32], x: u32) {
    pos[x as usize] = list.len() as u32;
    list.push(x);
}

/// Removes member `x` from the sparse set `list` in O(1): the last member
/// takes its place.
#[inline]
fn set_remove(list: &mut Vec<u32>, pos: &mut [u32], x: u32) {
    let at = pos[x as usize] as usize;
    let back = list.pop().expect("a member");
    if back != x {
        list[at] = back;
        pos[back as usize] = at as u32;
    }
    pos[x as usize] = NONE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edgematch::{EdgePuzzle, Tile};

    /// Recomputes every derived structure from the board alone and compares.
    fn check_consistent(m: &Model, s: &State) {
        let fresh = {
            let mut f = State::new(m);
            // Replay the board in cell order (order does not matter for sets).
            for c in 0..m.n_cells {
                if s.tile_at[c] != NONE {
                    f.assign(m, c, s.tile_at[c] as usize, s.rot_at[c], 1);
                }
            }
            f
        };
        let sorted = |v: &[u32]| {
            let mut v = v.to_vec();
            v.sort();
            v
        };
        for p in 0..m.n_pairs as u32 {
            let tiles =
                |st: &State| sorted(&st.offer(m, p).iter().map(|&x| m.mem_tile[x as usize]).collect::<Vec<_>>());
            assert_eq!(tiles(s), tiles(&fresh), "offer of pair {p}");
            let cells = |st: &State| sorted(&st.demand(p).iter().map(|&e| e / 6).collect::<Vec<_>>());
            assert_eq!(cells(s), cells(&fresh), "demand of pair {p}");
        }
        assert_eq!(sorted(&s.active), sorted(&fresh.active));
        for k in 2..5 {
            assert_eq!(sorted(&s.bucket[k]), sorted(&fresh.bucket[k]));
        }
        assert_eq!(s.edges, fresh.edges);
        assert_eq!(s.tiles_left, fresh.tiles_left);
        assert_eq!(s.demanded, fresh.demanded);
        for c in 0..m.n_cells {
            if s.tile_at[c] == NONE {
                assert_eq!(s.known[c], fresh.known[c]);
                assert_eq!(s.known_packed[c], fresh.known_packed[c]);
            }
        }
    }

    #[test]
    fn assign_unassign_restore_every_structure() {
        // 3x3 with tiles that need not match: the state is a pure function
        // of the board, whatever the colours.
        let tiles: Vec<Tile> = (0..9u16).map(|i| Tile([i % 3, (i + 1) % 4, (i * 7) % 5, (i + 2) % 3])).collect();
        let p = EdgePuzzle { name: "t".into(), rows: 3, cols: 3, tiles, clues: vec![] };
        let m = Model::new(&p);
        let mut s = State::new(&m);
        check_consistent(&m, &s);
        let order = [4usize, 0, 8, 1, 3, 5, 2, 7, 6];
        for (i, &c) in order.iter().enumerate() {
            s.assign(&m, c, i, (i % 4) as u8, i as u32 + 1);
            check_consistent(&m, &s);
        }
        for &c in order.iter().rev() {
            s.unassign(&m, c);
            check_consistent(&m, &s);
        }
        assert!(s.active.iter().all(|&p| s.dem_len[p as usize] > 0));
    }
}
