//! The candidate lists of one search case of the scan backtracker, keyed
//! by (cell block, west colour, north colour).

use super::fast::FastTable;
use super::Cand;

/// The candidate lists of one search case.
///
/// Invariants: `start[k]..start[k + 1]` is the range in `cands` of key
/// `k`; `rotation[i]` is the rotation of candidate `i`; `fast`, when
/// set, is the same table in the form of the fast walk.
pub(super) struct Table {
    pub(super) cands: Vec<Cand>,
    pub(super) rotation: Vec<u8>,
    pub(super) start: Vec<u32>,
    pub(super) fast: Option<FastTable>,
}

impl Table {
    /// The table of `keyed` (key, candidate, rotation), each key's entries
    /// in (tile, rotation) order (not necessarily next to each other): a
    /// counting sort by key, which keeps that order within a list.
    pub(super) fn new(keyed: &[(usize, Cand, u8)], n_keys: usize) -> Table {
        let mut start = vec![0u32; n_keys + 1];
        for &(k, _, _) in keyed {
            start[k + 1] += 1;
        }
        for k in 0..n_keys {
            start[k + 1] += start[k];
        }
        let mut next = start.clone();
        let (mut cands, mut rotation) = (vec![Cand::default(); keyed.len()], vec![0u8; keyed.len()]);
        for &(k, c, r) in keyed {
            let at = next[k] as usize;
            next[k] += 1;
            cands[at] = c;
            rotation[at] = r;
        }
        debug_assert!(start.windows(2).all(|w| {
            let list = &cands[w[0] as usize..w[1] as usize];
            list.windows(2).all(|p| p[0].tile <= p[1].tile)
        }));
        Table { cands, rotation, start, fast: None }
    }
}
