//! Cross-backend agreement: every back-end of the registry
//! (`emx::backend::NAMES`, so engines added later join automatically) on the
//! same instance, every solution verified, the solution sets compared.
//!
//! * A back-end that does not apply says why (printed) and is skipped.
//! * Each run enumerates every solution (`Mode::All`) within a budget. The
//!   runs that finish must report the same set of solutions (as sets of IR
//!   option ids, not only the same count); a run stopped by the budget must
//!   report a subset of a finished run's set.
//! * `fast_subset_agrees` runs in CI; `every_bundled_instance_agrees` (all of
//!   `instances/`, `#[ignore]`) is run by hand:
//!   `cargo test --release --test integration agreement -- --ignored --nocapture`.
//!
//! Property tests (proptest) do the same on random small polyomino boxes
//! (cut into random connected pieces, so they have a solution) and random
//! small edge-matching puzzles from `emx::edgematch::generate`.

use crate::repo_path;
use emx::backend::{self, BackendConfig, BackendError};
use emx::input::{self, Instance, LoadOptions};
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

/// How much each back-end may spend on one instance.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Nodes for the search engines.
    nodes: u64,
    /// Solver calls (one per solution) for `sat`.
    sat_calls: u64,
    /// Largest instance (options) given to `sat`: its CNF is built whole.
    sat_max_options: usize,
    /// Wall time per run.
    time: Duration,
}

/// One back-end's run on one instance.
struct Run {
    backend: String,
    complete: bool,
    solutions: BTreeSet<Vec<u32>>,
}

/// Runs every applicable back-end on `instance`; panics on an unverified
/// solution or a back-end error.
fn run_backends(instance: &Instance, budget: Budget) -> Vec<Run> {
    let mut runs = Vec::new();
    for &name in backend::NAMES.iter().filter(|&&n| n != "auto") {
        let problem = instance.problem();
        if name == "sat" && problem.n_options() > budget.sat_max_options {
            println!(
                "  {name}: skipped: {} options, over the {} this suite gives SAT (its CNF is built whole)",
                problem.n_options(),
                budget.sat_max_options
            );
            continue;
        }
        let mut engine = match backend::make(name, instance, &BackendConfig::default()) {
            Ok(e) => e,
            Err(BackendError::NotApplicable { reason, .. }) => {
                println!("  {name}: not applicable: {reason}");
                continue;
            }
            Err(e) => panic!("{}: {e}", instance.file),
        };
        let max_nodes = if name == "sat" { budget.sat_calls } else { budget.nodes };
        let opts = SolveOptions {
            mode: Some(Mode::All),
            limits: Limits { max_nodes: Some(max_nodes), ..Limits::none() }.with_time_limit(Some(budget.time)),
            ..SolveOptions::default()
        };
        let start = Instant::now();
        let report = solve(engine.as_mut(), problem, &opts, &|s| instance.verify(s))
            .unwrap_or_else(|e| panic!("{}: {name}: {e}", instance.file));
        if let Some(err) = engine.error() {
            panic!("{}: {name}: {err}", instance.file);
        }
        let solutions: BTreeSet<Vec<u32>> = crate::option_sets(&report.solutions);
        assert_eq!(solutions.len() as u64, report.found, "{}: {name} reported a solution twice", instance.file);
        println!(
            "  {name}: {} solutions, {}, {} nodes, {:.2} s",
            solutions.len(),
            if report.stats.complete() { "complete" } else { "stopped by the budget" },
            report.stats.nodes,
            start.elapsed().as_secs_f64()
        );
        runs.push(Run { backend: name.to_string(), complete: report.stats.complete(), solutions });
    }
    runs
}

/// Checks that finished runs agree and stopped runs found a subset.
/// Returns the agreed count when some run finished.
fn check_agreement(file: &str, runs: &[Run]) -> Option<usize> {
    let complete: Vec<&Run> = runs.iter().filter(|r| r.complete).collect();
    let reference = complete.first()?;
    for r in &complete[1..] {
        assert!(
            r.solutions == reference.solutions,
            "{file}: {} and {} finished with different solutions ({} vs {})",
            reference.backend,
            r.backend,
            reference.solutions.len(),
            r.solutions.len()
        );
    }
    for r in runs.iter().filter(|r| !r.complete) {
        assert!(
            r.solutions.is_subset(&reference.solutions),
            "{file}: {} (stopped) reported a solution {} did not find",
            r.backend,
            reference.backend
        );
    }
    Some(reference.solutions.len())
}

fn agree_on(path: &Path, budget: Budget) -> Option<usize> {
    println!("{}", path.display());
    let instance = match input::load_with(path, None, 1, &LoadOptions::default()) {
        Ok(i) => i,
        Err(e) => {
            println!("  not loaded: {e}");
            return None;
        }
    };
    let runs = run_backends(&instance, budget);
    let count = check_agreement(&instance.file, &runs);
    match count {
        Some(n) => println!("  agreed: {n} solutions"),
        None => println!("  no back-end finished within the budget; every solution found verified"),
    }
    count
}

/// The bundled puzzle files (boards, record files and READMEs excluded).
fn bundled_instances() -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                if name.ends_with(".txt") && !name.contains(".board.") && !name.contains(".bucas.") {
                    out.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&repo_path("instances"), &mut out);
    out
}

#[test]
fn fast_subset_agrees() {
    let budget = Budget { nodes: 5_000_000, sat_calls: 30, sat_max_options: 5_000, time: Duration::from_secs(20) };
    let cases: &[(&str, Option<usize>)] = &[
        ("instances/edgematch/brendan_set2/pieces_03x03.txt", Some(8)),
        ("instances/edgematch/brendan_set2/pieces_04x04.txt", Some(48)),
        ("instances/edgematch/brendan_set2/pieces_05x05.txt", Some(4)),
        ("instances/edgematch/brendan_set2/pieces_04x03.txt", None),
        ("instances/polycube/somacube_def.txt", Some(11520)),
        ("tests/data/encoders/tiny_2x2.txt", None),
        ("tests/data/encoders/knuth_colors.dlx", None),
    ];
    for &(file, expected) in cases {
        let count = agree_on(&repo_path(file), budget);
        if let Some(n) = expected {
            assert_eq!(count, Some(n), "{file}");
        }
    }
}

#[test]
#[ignore = "every bundled instance with every back-end: minutes; run with --ignored --nocapture"]
fn every_bundled_instance_agrees() {
    let budget = Budget { nodes: 1_000_000, sat_calls: 300, sat_max_options: 3_000, time: Duration::from_secs(3) };
    let start = Instant::now();
    let (mut agreed, mut open) = (0, 0);
    for path in bundled_instances() {
        match agree_on(&path, budget) {
            Some(_) => agreed += 1,
            None => open += 1,
        }
    }
    println!(
        "{agreed} instances enumerated and agreed, {open} beyond the budget (solutions verified), {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

mod properties {
    use super::*;
    use emx::edgematch::generate::{generate, GenerateSpec, Style};
    use proptest::prelude::*;

    /// Cuts a `w x h` box into `k` connected pieces grown from random seeds
    /// (so the puzzle has a solution) and writes it as a definition file.
    fn cut_box(w: usize, h: usize, k: usize, choices: &[u32]) -> String {
        let n = w * h;
        let mut owner = vec![usize::MAX; n];
        let mut pick = choices.iter().cycle();
        let mut next = || *pick.next().unwrap() as usize;
        let mut seeds = 0;
        while seeds < k {
            let c = next() % n;
            if owner[c] == usize::MAX {
                owner[c] = seeds;
                seeds += 1;
            }
        }
        while owner.contains(&usize::MAX) {
            // Grow a random piece by one free neighbouring cell.
            let piece = next() % k;
            let frontier: Vec<usize> = (0..n)
                .filter(|&c| owner[c] == usize::MAX)
                .filter(|&c| {
                    let (x, y) = (c % w, c / w);
                    [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)]
                        .iter()
                        .any(|&(a, b)| a < w && b < h && owner[b * w + a] == piece)
                })
                .collect();
            if !frontier.is_empty() {
                owner[frontier[next() % frontier.len()]] = piece;
            }
        }
        let mut text = format!("D:xDim={w}:yDim={h}:zDim=1\n");
        for p in 0..k {
            let cells: Vec<String> =
                (0..n).filter(|&c| owner[c] == p).map(|c| format!("{} {} 0", c % w, c / w)).collect();
            text.push_str(&format!("C:name=p{p}:layout={}\n", cells.join(", ")));
        }
        text.push_str("~D\n");
        text
    }

    const SMALL: Budget =
        Budget { nodes: 1_000_000, sat_calls: 100, sat_max_options: 5_000, time: Duration::from_secs(60) };

    fn agree(instance: &Instance) -> usize {
        let runs = run_backends(instance, SMALL);
        assert!(runs.len() >= 2, "at least two back-ends apply");
        let n = check_agreement(&instance.file, &runs).expect("small puzzles are enumerated completely");
        assert!(runs.iter().filter(|r| r.backend != "sat").all(|r| r.complete), "{}", instance.file);
        n
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn random_polyomino_boxes(w in 2usize..=5, h in 2usize..=3, k in 2usize..=4, choices in proptest::collection::vec(any::<u32>(), 64)) {
            let text = cut_box(w, h, k.min(w * h), &choices);
            let instance = input::load_text(&text, "random box", "random", None, 1, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            let n = agree(&instance);
            prop_assert!(n >= 1, "a cut box has a solution:\n{}", text);
        }

        #[test]
        fn random_edge_matching_puzzles(rows in 2usize..=3, cols in 2usize..=4, colors in 2u16..=5, seed in any::<u64>()) {
            let spec = GenerateSpec { rows, cols, style: Style::Uniform { colors }, seed };
            let g = generate(&spec).unwrap();
            let text = emx::frontend::edgematch::write_emx(&g.puzzle, &[]);
            let instance = input::load_text(&text, "random puzzle", "random", None, 1, &LoadOptions::default())
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            let n = agree(&instance);
            prop_assert!(n >= 1, "a generated puzzle has its planted solution:\n{}", text);
        }
    }
}
