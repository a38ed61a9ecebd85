//! Known edge-matching counts: DLX and the scan backtracker agree, every
//! board verified. Counts are of all boards (the board rotations included)
//! unless said "up to rotation".

use crate::repo_path;
use emx::backend::{self, BackendConfig};
use emx::edgematch::generate::{generate, GenerateSpec, Style};
use emx::input::{self, Instance, InstanceKind};
use emx::ir::{Equivalence, Solution, UniqueFilter};
use emx::solve::{solve, Mode, SolveOptions};

fn brendan(n: &str) -> Instance {
    input::load(&repo_path(&format!("instances/edgematch/brendan_set2/pieces_{n}.txt")), None, 1).unwrap()
}

/// (all boards, up to rotation, every solution sorted) with `backend`;
/// every solution is verified by the instance (exact cover and board
/// check).
fn count(inst: &Instance, backend: &str) -> (u64, usize, Vec<Vec<u32>>) {
    let mut engine = backend::make(backend, inst, &BackendConfig::default()).unwrap();
    let opts = SolveOptions { mode: Some(Mode::All), equivalence: Equivalence::None, ..Default::default() };
    let verify = |s: &Solution| inst.verify(s);
    let report = solve(engine.as_mut(), inst.problem(), &opts, &verify).unwrap();
    assert!(report.stats.complete());
    let mut filter = UniqueFilter::new(&inst.problem().symmetries, Equivalence::Rotations);
    let mut all: Vec<Vec<u32>> = report
        .solutions
        .iter()
        .map(|s| {
            filter.insert(&s.options);
            let mut v = s.options.clone();
            v.sort_unstable();
            v
        })
        .collect();
    all.sort();
    (report.found, filter.classes(), all)
}

fn check(n: &str, all: u64, unique: usize, backends: &[&str]) {
    let inst = brendan(n);
    let mut first: Option<Vec<Vec<u32>>> = None;
    for b in backends {
        let (found, classes, boards) = count(&inst, b);
        assert_eq!((found, classes), (all, unique), "{n} with {b}");
        // Both engines enumerate exactly the same boards.
        match &first {
            None => first = Some(boards),
            Some(f) => assert_eq!(f, &boards, "{n}: {b} finds other boards"),
        }
    }
}

#[test]
fn brendan_3x3_4x4_5x5() {
    check("03x03", 8, 2, &["dlx", "scan"]);
    check("04x04", 48, 12, &["dlx", "scan"]);
    check("05x05", 4, 1, &["dlx", "scan"]);
}

#[test]
fn brendan_6x6_scan() {
    check("06x06", 160, 40, &["scan"]);
}

/// About 30 s of CPU for DLX: run with `cargo test -- --ignored`.
#[test]
#[ignore]
fn brendan_6x6_dlx() {
    check("06x06", 160, 40, &["dlx"]);
}

#[test]
fn rectangles_dlx_and_scan_agree() {
    for n in ["04x03", "05x03", "05x04", "06x03"] {
        let inst = brendan(n);
        let dlx = count(&inst, "dlx");
        assert_eq!(dlx, count(&inst, "scan"), "{n}");
        assert!(dlx.0 > 0, "{n}");
    }
}

#[test]
fn generated_puzzles_dlx_and_scan_agree() {
    let dir = crate::Scratch::new("counts");
    for (k, (rows, cols, style, seed)) in [
        (4, 4, Style::Uniform { colors: 4 }, 100),
        (5, 5, Style::Uniform { colors: 6 }, 101),
        (5, 4, Style::Frame { border_colors: 2, inner_colors: 4 }, 102),
        (6, 6, Style::Uniform { colors: 10 }, 5),
    ]
    .into_iter()
    .enumerate()
    {
        let g = generate(&GenerateSpec { rows, cols, style, seed }).unwrap();
        let path = dir.join(format!("g{k}.txt"));
        std::fs::write(&path, emx::frontend::edgematch::write_emx(&g.puzzle, &[])).unwrap();
        let inst = input::load(&path, None, 1).unwrap();
        let dlx = count(&inst, "dlx");
        assert_eq!(dlx, count(&inst, "scan"), "{rows}x{cols} {style:?}");
        assert!(dlx.0 >= 1);
    }
}

#[test]
fn scan_is_not_applicable_to_polycubes() {
    let inst = input::load(&repo_path("instances/polycube/somacube_def.txt"), None, 1).unwrap();
    assert!(matches!(inst.kind, InstanceKind::Polycube(_)));
    let err = backend::make("scan", &inst, &BackendConfig::default()).err().unwrap();
    assert!(matches!(err, backend::BackendError::NotApplicable { .. }), "{err}");
}

/// Identical tiles are labelled: each distinct picture (colours per cell)
/// is counted once per arrangement of the identical tiles, so
/// boards = pictures x product of (group size)!.
#[test]
fn identical_tiles_are_counted_as_labelled() {
    use emx::edgematch::{identical_tiles, ir::board_of};
    use emx::search::{Flow, Limits};
    let g = generate(&GenerateSpec { rows: 3, cols: 4, style: Style::Uniform { colors: 2 }, seed: 4 }).unwrap();
    let groups = identical_tiles(&g.puzzle);
    assert!(!groups.is_empty(), "want duplicates: {groups:?}");
    let factor: u64 = groups.iter().map(|g| (1..=g.len() as u64).product::<u64>()).product();
    let problem = emx::edgematch::ir::to_problem(&g.puzzle);
    for backend in ["dlx", "scan"] {
        let mut pictures = std::collections::HashSet::new();
        let mut visit = |s: &[u32]| {
            let b = board_of(&g.puzzle, &problem, s);
            b.check_solution(&g.puzzle).unwrap();
            pictures.insert((0..b.cells.len()).map(|i| b.colours(&g.puzzle, i).unwrap()).collect::<Vec<_>>());
            Flow::Continue
        };
        let stats = match backend {
            "dlx" => emx::dlx::Dlx::new(&problem).search(&Limits::none(), &mut visit),
            _ => emx::edgematch::scan::Scan::new(&g.puzzle, &problem).unwrap().search(&Limits::none(), &mut visit),
        };
        assert!(stats.complete());
        assert_eq!(stats.solutions, pictures.len() as u64 * factor, "{backend}: {groups:?}");
    }
}

#[test]
fn auto_uses_scan_for_edge_matching() {
    let inst = brendan("04x04");
    let engine = backend::make("auto", &inst, &BackendConfig::default()).unwrap();
    assert!(engine.describe().starts_with("scan"), "{}", engine.describe());
}
