//! THROW-AWAY measurement (round 26): how often a scan state (tiles used,
//! frontier colours) recurs, and what a dead-state cut would remove.
//! Run: EMX_PROBE_FILES=a.txt,b.txt EMX_PROBE_TABLE=22 cargo test --release --lib probe -- --ignored --nocapture

use super::super::Scan;
use super::{FastTable, Masks, Pair, TileMask};
use crate::edgematch::ir::to_problem;
use std::collections::HashMap;

trait Wide {
    fn wide128(self) -> u128;
}
impl Wide for u64 {
    fn wide128(self) -> u128 {
        self as u128
    }
}
impl Wide for Pair {
    fn wide128(self) -> u128 {
        self.wide()
    }
}

enum Cache {
    Exact(HashMap<(u128, u128), u64>),
    Direct(Vec<(u128, u128, u64)>, u32),
}

struct Probe<'a, M> {
    m: &'a Masks<M>,
    bases: Vec<u32>,
    cols: usize,
    n: usize,
    nc: u32,
    bits: u32,
    south: Vec<u32>,
    nodes: u64,
    sols: u64,
    lo: usize,
    hi: usize,
    entered: Vec<u64>,
    hits: Vec<u64>,
    saved: Vec<u64>,
    nodes_at: Vec<u64>,
    cache: Cache,
    lookups: u64,
}

fn mix(a: u128, b: u128) -> u64 {
    let x = (a as u64)
        ^ ((a >> 64) as u64).rotate_left(17)
        ^ (b as u64).rotate_left(31)
        ^ ((b >> 64) as u64).rotate_left(47);
    let x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

impl<M: TileMask + Wide> Probe<'_, M> {
    fn rec(&mut self, p: usize, used: M, east: u32) -> u64 {
        self.entered[p] += 1;
        let k = (self.bases[p] + east + self.south[p]) as usize;
        let memo = p >= self.lo && p <= self.hi;
        let mut skey = (0u128, 0u128);
        if memo {
            let mut f: u128 = (east / self.nc) as u128;
            for c in 0..self.cols {
                f = (f << self.bits) | self.south[p + c] as u128;
            }
            skey = (used.wide128(), f);
            self.lookups += 1;
            let got = match &self.cache {
                Cache::Exact(h) => h.get(&skey).copied(),
                Cache::Direct(v, b) => {
                    let e = &v[(mix(skey.0, skey.1) >> (64 - b)) as usize];
                    if (e.0, e.1) == skey && e.2 > 0 {
                        Some(e.2)
                    } else {
                        None
                    }
                }
            };
            if let Some(s) = got {
                self.hits[p] += 1;
                self.saved[p] += s;
                return 0;
            }
        }
        let n0 = self.nodes;
        let key = self.m.keys[k];
        let mut avail = key.tiles & !used;
        let mut found = 0;
        while !avail.is_empty() {
            let bit = avail.lowest();
            avail = avail ^ bit;
            let below = bit.below();
            let mut idxs = [key.first + (key.tiles & below).count(), u32::MAX];
            if !(key.twice & bit).is_empty() {
                idxs[1] = key.second + (key.twice & below).count();
            }
            for idx in idxs {
                if idx == u32::MAX {
                    continue;
                }
                let c = self.m.shows[idx as usize];
                self.nodes += 1;
                self.nodes_at[p] += 1;
                self.south[self.cols + p] = c.south;
                if p + 1 == self.n {
                    self.sols += 1;
                    found += 1;
                } else {
                    found += self.rec(p + 1, used | bit, c.east_key);
                }
            }
        }
        if memo && found == 0 {
            let s = self.nodes - n0;
            match &mut self.cache {
                Cache::Exact(h) => {
                    h.insert(skey, s);
                }
                Cache::Direct(v, b) => {
                    let i = (mix(skey.0, skey.1) >> (64 - *b)) as usize;
                    v[i] = (skey.0, skey.1, s.max(1));
                }
            }
        }
        found
    }
}

fn run<M: TileMask + Wide>(
    scan: &Scan,
    m: &Masks<M>,
    lo: usize,
    hi: usize,
    table_bits: u32,
) -> (u64, u64, Vec<[u64; 4]>, u64) {
    let n = scan.rows * scan.cols;
    let nc = scan.nc as u32;
    let bits = 32 - (nc.max(2) - 1).leading_zeros();
    assert!(bits as usize * (scan.cols + 1) <= 128);
    let cache = if table_bits == 0 {
        Cache::Exact(HashMap::new())
    } else {
        Cache::Direct(vec![(0, 0, 0); 1 << table_bits], table_bits)
    };
    let mut pr = Probe {
        m,
        bases: scan.cells.iter().map(|c| c.base).collect(),
        cols: scan.cols,
        n,
        nc,
        bits,
        south: vec![0; scan.cols + n],
        nodes: 0,
        sols: 0,
        lo,
        hi,
        entered: vec![0; n],
        hits: vec![0; n],
        saved: vec![0; n],
        nodes_at: vec![0; n],
        cache,
        lookups: 0,
    };
    pr.rec(0, M::default(), 0);
    let per: Vec<[u64; 4]> = (0..n).map(|p| [pr.entered[p], pr.hits[p], pr.saved[p], pr.nodes_at[p]]).collect();
    (pr.nodes, pr.sols, per, pr.lookups)
}

#[test]
#[ignore]
fn probe_recurrence() {
    let files = std::env::var("EMX_PROBE_FILES").unwrap();
    let tb: u32 = std::env::var("EMX_PROBE_TABLE").map(|s| s.parse().unwrap()).unwrap_or(0);
    let lo: usize = std::env::var("EMX_PROBE_LO").map(|s| s.parse().unwrap()).unwrap_or(0);
    let hi: usize = std::env::var("EMX_PROBE_HI").map(|s| s.parse().unwrap()).unwrap_or(1000);
    let verbose = std::env::var("EMX_PROBE_V").is_ok();
    for file in files.split(',') {
        let p = crate::frontend::edgematch::read_puzzle(std::path::Path::new(file), None).unwrap();
        let problem = to_problem(&p);
        let t0 = std::time::Instant::now();
        let scan = Scan::new(&p, &problem).unwrap();
        let (mut plain, mut cut, mut sols, mut sols0, mut looks) = (0, 0, 0, 0, 0);
        let mut agg: Vec<[u64; 4]> = Vec::new();
        let mut agg0: Vec<[u64; 4]> = Vec::new();
        for t in &scan.tables {
            let (a, s0, per0, b, s, per) = match t.fast.as_ref().unwrap() {
                FastTable::Narrow(m) => {
                    let (a, s0, per0, _) = run(&scan, m, usize::MAX, 0, 0);
                    let (b, s, per, l) = run(&scan, m, lo, hi, tb);
                    looks += l;
                    (a, s0, per0, b, s, per)
                }
                FastTable::Wide(m) => {
                    let (a, s0, per0, _) = run(&scan, m, usize::MAX, 0, 0);
                    let (b, s, per, l) = run(&scan, m, lo, hi, tb);
                    looks += l;
                    (a, s0, per0, b, s, per)
                }
            };
            plain += a;
            cut += b;
            sols += s;
            sols0 += s0;
            agg.resize(per.len(), [0; 4]);
            agg0.resize(per.len(), [0; 4]);
            for (x, y) in agg.iter_mut().zip(&per) {
                for j in 0..4 {
                    x[j] += y[j];
                }
            }
            for (x, y) in agg0.iter_mut().zip(&per0) {
                for j in 0..4 {
                    x[j] += y[j];
                }
            }
        }
        assert_eq!(sols, sols0);
        println!(
            "{file}: tables {} plain {plain} cut {cut} removed {:.1}% boards {sols} table_bits {tb} depths {lo}..={hi} lookups {looks} ({:.1}s)",
            scan.tables.len(),
            100.0 * (plain - cut) as f64 / plain as f64,
            t0.elapsed().as_secs_f64()
        );
        if verbose {
            println!("  depth  plain_nodes  entered(cut)  hits  hit%  saved(stored subtree)  nodes(cut)");
            for (d, (x, y)) in agg.iter().zip(&agg0).enumerate() {
                if x[0] > 0 {
                    println!(
                        "  {d:3} {:12} {:12} {:10} {:5.1}% {:14} {:12}",
                        y[3],
                        x[0],
                        x[1],
                        100.0 * x[1] as f64 / x[0] as f64,
                        x[2],
                        x[3]
                    );
                }
            }
        }
    }
}
