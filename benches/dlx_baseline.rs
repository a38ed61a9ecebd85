//! Plain DLX (min-fit, no filters) on the 10x6 pentominoes and the Soma
//! cube: the baseline the polycube engines are measured against.
//!
//! Run: `cargo bench --bench dlx_baseline`. Prints, per instance, the
//! solutions, nodes, time, nodes/s and solutions/s (median of 3 runs).

use emx::dlx::Dlx;
use emx::input;
use emx::search::{Flow, Limits, SearchStats};
use std::path::Path;

fn median_run(path: &str, runs: usize) -> SearchStats {
    let inst = input::load(Path::new(path), None, 1).expect("bundled instance loads");
    let mut all: Vec<SearchStats> =
        (0..runs).map(|_| Dlx::new(inst.problem()).search(&Limits::none(), |_| Flow::Continue)).collect();
    all.sort_by_key(|s| s.elapsed);
    all.swap_remove(runs / 2)
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    println!(
        "{:<28} {:>9} {:>11} {:>9} {:>12} {:>12}",
        "instance", "solutions", "nodes", "time_s", "nodes/s", "solutions/s"
    );
    for name in ["pentominoes_10x6_def.txt", "somacube_def.txt"] {
        let s = median_run(&format!("{root}/instances/polycube/{name}"), 3);
        let t = s.elapsed.as_secs_f64();
        println!(
            "{:<28} {:>9} {:>11} {:>9.3} {:>12.0} {:>12.0}",
            name.trim_end_matches("_def.txt"),
            s.solutions,
            s.nodes,
            t,
            s.nodes_per_sec(),
            s.solutions as f64 / t
        );
    }
}
