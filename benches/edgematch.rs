//! Edge matching: the scan-row backtracker against DLX on Brendan Owen's
//! set-2 5x5 and 6x6, full enumeration, in one run.
//!
//! Run: `cargo bench --bench edgematch`. Prints per instance and engine the
//! solutions, nodes, time, nodes/s (median of 3 runs; 1 run when the first
//! takes over 10 s). Solutions count every board (rotations included).

use emx::backend::{self, BackendConfig};
use emx::input;
use emx::search::{Flow, Limits, SearchStats};
use std::path::Path;
use std::time::Duration;

fn runs(inst: &input::Instance, backend: &str) -> (SearchStats, usize) {
    let once = || {
        let mut engine = backend::make(backend, inst, &BackendConfig::default()).expect("backend applies");
        engine.run(&Limits::none(), &mut |_| Flow::Continue)
    };
    let first = once();
    if first.elapsed > Duration::from_secs(10) {
        return (first, 1);
    }
    let mut all = vec![first, once(), once()];
    all.sort_by_key(|s| s.elapsed);
    (all.swap_remove(1), 3)
}

fn main() {
    let root = env!("CARGO_MANIFEST_DIR");
    println!(
        "{:<14} {:<6} {:>9} {:>12} {:>9} {:>14} {:>5}",
        "instance", "engine", "solutions", "nodes", "time_s", "nodes/s", "runs"
    );
    for name in ["pieces_05x05", "pieces_06x06"] {
        let path = format!("{root}/instances/edgematch/brendan_set2/{name}.txt");
        let inst = input::load(Path::new(&path), None, 1).expect("bundled instance loads");
        for engine in ["scan", "dlx"] {
            let (s, n) = runs(&inst, engine);
            println!(
                "{:<14} {:<6} {:>9} {:>12} {:>9.3} {:>14.0} {:>5}",
                name,
                engine,
                s.solutions,
                s.nodes,
                s.elapsed.as_secs_f64(),
                s.nodes_per_sec(),
                n
            );
        }
    }
}
