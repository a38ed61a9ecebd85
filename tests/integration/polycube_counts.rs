//! Known solution counts of classic puzzles, with every solution verified
//! at the puzzle level by the solve loop (an invalid one is an error).

use crate::repo_path;
use emx::backend::{self, BackendConfig};
use emx::input::{self, Instance};
use emx::ir::Equivalence;
use emx::search::Limits;
use emx::solve::{solve, Mode, SolveOptions, SolveReport};

fn load(name: &str) -> Instance {
    input::load(&repo_path(&format!("instances/polycube/{name}")), None, 1).unwrap()
}

fn run(instance: &Instance, equivalence: Equivalence, mode: Mode) -> SolveReport {
    run_with("dlx", instance, equivalence, mode)
}

/// Solves with `backend` (verifying every solution) and checks completion.
fn run_with(backend: &str, instance: &Instance, equivalence: Equivalence, mode: Mode) -> SolveReport {
    let config = BackendConfig { equivalence, ..BackendConfig::default() };
    let mut engine = backend::make(backend, instance, &config).unwrap();
    let opts = SolveOptions { mode: Some(mode), equivalence, limits: Limits::none() };
    let report = solve(engine.as_mut(), instance.problem(), &opts, &|s| instance.verify(s)).unwrap();
    assert!(report.stats.complete());
    for s in &report.solutions {
        instance.verify(s).unwrap();
    }
    report
}

#[test]
fn pentominoes_10x6() {
    let inst = load("pentominoes_10x6_def.txt");
    let r = run(&inst, Equivalence::Rotations, Mode::All);
    assert_eq!(r.found, 9356);
    assert_eq!(r.reported, 2339);
    assert_eq!(r.solutions.len(), 2339);
}

#[test]
fn soma_cube() {
    let inst = load("somacube_def.txt");
    let fixed = run(&inst, Equivalence::None, Mode::Count);
    assert_eq!(fixed.reported, 11520);
    let rot = run(&inst, Equivalence::Rotations, Mode::All);
    assert_eq!((rot.found, rot.reported), (11520, 480));
    let mir = run(&inst, Equivalence::RotationsAndMirrors, Mode::All);
    assert_eq!((mir.found, mir.reported), (11520, 240));
}

#[test]
fn one_sided_pentominoes_30x3() {
    let inst = load("pentominoes_onesided_30x3_def.txt");
    let r = run(&inst, Equivalence::Rotations, Mode::All);
    assert_eq!((r.found, r.reported), (184, 46));
}

#[test]
fn first_n_stops_early_with_verified_solutions() {
    let inst = load("tetriscube_def.txt");
    let r = {
        let mut engine = backend::make("dlx", &inst, &BackendConfig::default()).unwrap();
        let opts =
            SolveOptions { mode: Some(Mode::First(3)), equivalence: Equivalence::Rotations, limits: Limits::none() };
        solve(engine.as_mut(), inst.problem(), &opts, &|s| inst.verify(s)).unwrap()
    };
    assert_eq!(r.solutions.len(), 3);
    for s in &r.solutions {
        inst.verify(s).unwrap();
    }
}

/// The Tetris Cube with the default (`auto`) backend, the polycube engines
/// under `--schedule auto`: about half a minute of CPU in release builds
/// (minutes with plain DLX), so run with `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn tetris_cube() {
    let inst = load("tetriscube_def.txt");
    let r = run_with("auto", &inst, Equivalence::Rotations, Mode::Count);
    assert_eq!((r.found, r.reported), (236136, 9839));
}
