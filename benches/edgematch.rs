//! Edge matching: the scan-row backtracker against DLX on Brendan Owen's
//! set-2 5x5 and 6x6, and scan with its rows along the shorter side (the
//! default) against the rows of the file on the set-2 rectangles 7x4, 9x4
//! and 10x3 (4, 4 and 3 rows), full enumeration, in one run.
//!
//! Run: `cargo bench --bench edgematch`. Prints per instance and engine the
//! solutions, nodes, time, nodes/s (median of 3 runs; 1 run when the first
//! takes over 10 s). Solutions count every board (rotations included).

use emx::backend::{self, BackendConfig};
use emx::edgematch::scan::ScanConfig;
use emx::input;
use emx::search::{Flow, Limits, SearchStats};
use std::path::Path;
use std::time::Duration;

fn runs(inst: &input::Instance, backend: &str, config: &BackendConfig) -> (SearchStats, usize) {
    let once = || {
        let mut engine = backend::make(backend, inst, config).expect("backend applies");
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
        "{:<14} {:<20} {:>9} {:>12} {:>9} {:>14} {:>5}",
        "instance", "engine", "solutions", "nodes", "time_s", "nodes/s", "runs"
    );
    let long_rows =
        BackendConfig { scan: ScanConfig { short_rows: false, ..ScanConfig::default() }, ..BackendConfig::default() };
    let plain = BackendConfig::default();
    let square: &[(&str, &BackendConfig)] = &[("scan", &plain), ("dlx", &plain)];
    let wide: &[(&str, &BackendConfig)] = &[("scan", &plain), ("scan no-short-rows", &long_rows)];
    for (name, engines) in [
        ("pieces_05x05", square),
        ("pieces_06x06", square),
        ("pieces_07x04", wide),
        ("pieces_09x04", wide),
        ("pieces_10x03", wide),
    ] {
        let path = format!("{root}/instances/edgematch/brendan_set2/{name}.txt");
        let inst = input::load(Path::new(&path), None, 1).expect("bundled instance loads");
        for &(label, config) in engines {
            let backend = label.split(' ').next().expect("a backend name");
            let (s, n) = runs(&inst, backend, config);
            println!(
                "{:<14} {:<20} {:>9} {:>12} {:>9.3} {:>14.0} {:>5}",
                name,
                label,
                s.solutions,
                s.nodes,
                s.elapsed.as_secs_f64(),
                s.nodes_per_sec(),
                n
            );
        }
    }
}
