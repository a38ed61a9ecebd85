//! The static part of the CP model: tiles in their distinct rotations, the
//! ColorPairs each tile shows, cell neighbourhoods, colour statistics.
//!
//! ColorPair ids: the clockwise sequence `(k1, k2)` is `k1 * C + k2`; the
//! opposite pair `{a, b}` (a <= b) is `C * C + a * C + b`, with `C` the
//! number of colours including grey. A cell side pair is numbered by its
//! *slot*: slot `i < 4` is the clockwise sequence of sides `(i, i + 1)`,
//! slot 4 the opposite sides North/South, slot 5 East/West.

use crate::edgematch::{Color, EdgePuzzle, GREY};

/// No cell / tile / pair.
pub(crate) const NONE: u32 = u32::MAX;
/// A side whose colour is not known yet.
pub(crate) const UNKNOWN: Color = Color::MAX;

/// The two sides of each slot.
pub(crate) const SLOT_SIDES: [(usize, usize); 6] = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)];
/// The slots that involve each side.
pub(crate) const SIDE_SLOTS: [[usize; 3]; 4] = [[3, 0, 4], [0, 1, 5], [1, 2, 4], [2, 3, 5]];

/// Immutable data of one puzzle.
#[derive(Clone)]
pub(crate) struct Model {
    pub n_cells: usize,
    pub n_colors: usize,
    pub n_pairs: usize,
    /// `rot_colors[t][r]`: tile `t` turned `r` quarter turns, `[N, E, S, W]`.
    pub rot_colors: Vec<[[Color; 4]; 4]>,
    /// The same colours packed 16 bits per side (see [`pack`]).
    pub rot_packed: Vec<[u64; 4]>,
    /// The rotations of each tile that look different (one per option of
    /// the IR): `rots[t][..n_rots[t]]`.
    pub rots: Vec<[u8; 4]>,
    pub n_rots: Vec<u8>,
    /// Grey sides of each rotation as a 4-bit mask (bit `s` = side `s`).
    pub grey_mask: Vec<[u8; 4]>,
    /// The distinct pairs of each tile: `tile_pairs[t][..n_tile_pairs[t]]`.
    pub tile_pairs: Vec<[u32; 6]>,
    pub n_tile_pairs: Vec<u8>,
    /// Membership id of `(t, tile_pairs[t][k])`: index into the offer arena.
    pub tile_mem: Vec<[u32; 6]>,
    /// Tile of each membership.
    pub mem_tile: Vec<u32>,
    /// Offer arena segment of each pair: `pair_start[p]..pair_start[p+1]`.
    pub pair_start: Vec<u32>,
    /// The distinct non-grey colours of each tile and how often each occurs.
    pub tile_colors: Vec<Vec<(Color, u8)>>,
    /// Tiles showing each colour.
    pub tiles_with: Vec<Vec<u32>>,
    /// Colours that only occur next to a grey side (border colours) and
    /// the two border-side colours of each tile with a grey side.
    pub border_color: Vec<bool>,
    pub border_sides: Vec<Option<[Color; 2]>>,
    /// Neighbour of each cell across each side, or [`NONE`].
    pub nbr: Vec<[u32; 4]>,
    /// Whether a cell is on the border ring.
    pub on_ring: Vec<bool>,
    pub ring_size: usize,
    /// Symmetry breaking: tile `pivot` may only go to the cells marked in
    /// `pivot_allowed` (one corner per orbit of the board rotations).
    pub pivot: u32,
    pub pivot_allowed: Vec<bool>,
    /// `h[m]`: most edges `m` unit squares can share (`2m - ceil(2 sqrt m)`).
    pub h: Vec<u32>,
    /// Every cell once, in the order the scan backend fills them (rows along
    /// the shorter side: [`crate::edgematch::scan::cell_order`]); the
    /// `heuristic=scan` branching takes the first empty one.
    pub scan_order: Vec<u32>,
}

impl Model {
    pub fn new(p: &EdgePuzzle) -> Model {
        let n_cells = p.n_cells();
        let n_tiles = p.tiles.len();
        let n_colors = p.n_colors();
        let c = n_colors as u32;
        let n_pairs = 2 * n_colors * n_colors;
        let seq = |a: Color, b: Color| a as u32 * c + b as u32;
        let opp = |a: Color, b: Color| c * c + a.min(b) as u32 * c + a.max(b) as u32;

        let mut rot_colors = Vec::with_capacity(n_tiles);
        let mut rots = Vec::with_capacity(n_tiles);
        let mut n_rots = Vec::with_capacity(n_tiles);
        let mut grey_mask = Vec::with_capacity(n_tiles);
        let mut tile_pairs = Vec::with_capacity(n_tiles);
        let mut n_tile_pairs = Vec::with_capacity(n_tiles);
        let mut tile_colors = Vec::with_capacity(n_tiles);
        let mut tiles_with = vec![Vec::new(); n_colors];
        let mut next_to_grey = vec![false; n_colors];
        let mut away_from_grey = vec![false; n_colors];
        let mut border_sides = Vec::with_capacity(n_tiles);
        for (t, tile) in p.tiles.iter().enumerate() {
            let rc: [[Color; 4]; 4] = std::array::from_fn(|r| tile.rotated(r as u8));
            let mut rr = [0u8; 4];
            let mut n = 0;
            for r in 0..4u8 {
                if !(0..r).any(|q| rc[q as usize] == rc[r as usize]) {
                    rr[n] = r;
                    n += 1;
                }
            }
            rots.push(rr);
            n_rots.push(n as u8);
            grey_mask
                .push(std::array::from_fn(|r| (0..4).filter(|&s| rc[r][s] == GREY).fold(0u8, |m, s| m | (1 << s))));
            rot_colors.push(rc);
            let col = tile.0;
            let mut pairs = [NONE; 6];
            let mut np = 0;
            let candidates = [
                seq(col[0], col[1]),
                seq(col[1], col[2]),
                seq(col[2], col[3]),
                seq(col[3], col[0]),
                opp(col[0], col[2]),
                opp(col[1], col[3]),
            ];
            for q in candidates {
                if !pairs[..np].contains(&q) {
                    pairs[np] = q;
                    np += 1;
                }
            }
            tile_pairs.push(pairs);
            n_tile_pairs.push(np as u8);
            let mut tc: Vec<(Color, u8)> = Vec::new();
            for &k in &col {
                if k == GREY {
                    continue;
                }
                match tc.iter_mut().find(|(x, _)| *x == k) {
                    Some(e) => e.1 += 1,
                    None => tc.push((k, 1)),
                }
            }
            for &(k, _) in &tc {
                tiles_with[k as usize].push(t as u32);
            }
            tile_colors.push(tc);
            let mut bs = Vec::new();
            for s in 0..4 {
                if col[s] == GREY {
                    continue;
                }
                if col[(s + 1) & 3] == GREY || col[(s + 3) & 3] == GREY {
                    next_to_grey[col[s] as usize] = true;
                    bs.push(col[s]);
                } else {
                    away_from_grey[col[s] as usize] = true;
                }
            }
            border_sides.push((bs.len() == 2).then(|| [bs[0], bs[1]]));
        }
        let border_color: Vec<bool> =
            (0..n_colors).map(|k| k != GREY as usize && next_to_grey[k] && !away_from_grey[k]).collect();

        // Offer arena: the tiles of each pair, in tile order.
        let mut members: Vec<Vec<(u32, usize)>> = vec![Vec::new(); n_pairs];
        for t in 0..n_tiles {
            for k in 0..n_tile_pairs[t] as usize {
                members[tile_pairs[t][k] as usize].push((t as u32, k));
            }
        }
        let mut pair_start = Vec::with_capacity(n_pairs + 1);
        let mut mem_tile = Vec::new();
        let mut tile_mem = vec![[NONE; 6]; n_tiles];
        for m in &members {
            pair_start.push(mem_tile.len() as u32);
            for &(t, k) in m {
                tile_mem[t as usize][k] = mem_tile.len() as u32;
                mem_tile.push(t);
            }
        }
        pair_start.push(mem_tile.len() as u32);

        let nbr: Vec<[u32; 4]> =
            (0..n_cells).map(|i| std::array::from_fn(|s| p.neighbour(i, s).map_or(NONE, |n| n as u32))).collect();
        let on_ring: Vec<bool> = (0..n_cells).map(|i| nbr[i].contains(&NONE)).collect();
        let ring_size = on_ring.iter().filter(|&&b| b).count();
        let h = (0..=n_tiles as u64).map(|m| if m == 0 { 0 } else { (2 * m - ceil_2_sqrt(m)) as u32 }).collect();
        Model {
            n_cells,
            n_colors,
            n_pairs,
            rot_packed: rot_colors.iter().map(|rc| std::array::from_fn(|r| pack(&rc[r]))).collect(),
            rot_colors,
            rots,
            n_rots,
            grey_mask,
            tile_pairs,
            n_tile_pairs,
            tile_mem,
            mem_tile,
            pair_start,
            tile_colors,
            tiles_with,
            border_color,
            border_sides,
            nbr,
            on_ring,
            ring_size,
            pivot: NONE,
            pivot_allowed: Vec::new(),
            scan_order: crate::edgematch::scan::cell_order(p).into_iter().map(|c| c as u32).collect(),
            h,
        }
    }

    /// The pair a slot shows for side colours `k` (all of the slot's sides
    /// known).
    #[inline]
    pub fn slot_pair(&self, slot: usize, k: &[Color; 4]) -> u32 {
        let c = self.n_colors as u32;
        let (a, b) = SLOT_SIDES[slot];
        let (x, y) = (k[a], k[b]);
        if slot < 4 {
            x as u32 * c + y as u32
        } else {
            c * c + x.min(y) as u32 * c + x.max(y) as u32
        }
    }

    /// Whether `pair` is an opposite pair.
    #[inline]
    pub fn is_opposite(&self, pair: u32) -> bool {
        pair as usize >= self.n_colors * self.n_colors
    }
}

/// `ceil(2 * sqrt(m))`, exactly.
fn ceil_2_sqrt(m: u64) -> u64 {
    // Smallest s with s * s >= 4 m.
    let mut s = (2.0 * (m as f64).sqrt()) as u64;
    while s * s < 4 * m {
        s += 1;
    }
    while s > 0 && (s - 1) * (s - 1) >= 4 * m {
        s -= 1;
    }
    s
}

/// Packs four colours, 16 bits each.
#[inline]
pub(crate) fn pack(c: &[Color; 4]) -> u64 {
    c[0] as u64 | (c[1] as u64) << 16 | (c[2] as u64) << 32 | (c[3] as u64) << 48
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_edges_bound() {
        // 1 square: 0; 2: 1; 3: 2; 4 (a 2x2 square): 4; 6 (2x3): 7; 9 (3x3): 12.
        let h = |m: u64| if m == 0 { 0 } else { 2 * m - ceil_2_sqrt(m) };
        assert_eq!([h(1), h(2), h(3), h(4), h(5), h(6), h(9), h(12)], [0, 1, 2, 4, 5, 7, 12, 17]);
    }
}
