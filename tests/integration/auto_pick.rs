//! `--backend auto` on an edge-matching board in the estimate band
//! (8x8 with 8 inner colours): the colour-count rule by default, the pick
//! from Knuth estimates with `--auto-pick estimate`, and counts equal to
//! cp's and scan's with every board verified.

use crate::repo_path;
use emx::backend::pick::{AutoPick, Engine};
use emx::backend::{self, BackendConfig};
use emx::input::{self, Instance};
use emx::ir::{Equivalence, Solution};
use emx::solve::{solve, Mode, SolveOptions};
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

/// `emx generate edgematch --size 8 --colors 8 --seed SEED` into `dir`.
fn band_puzzle(dir: &crate::Scratch, seed: u32) -> String {
    let path = dir.join(format!("g8_8_{seed}.txt"));
    let p = path.to_str().unwrap().to_string();
    let out = emx(&["generate", "edgematch", "--size", "8", "--colors", "8", "--seed", &seed.to_string(), "-o", &p]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    p
}

/// All boards found by `backend`, each verified, and the count.
fn count(inst: &Instance, backend: &str, config: &BackendConfig) -> (u64, Option<Engine>) {
    let (mut engine, decision) = backend::make_explained(backend, inst, config).unwrap();
    let opts = SolveOptions { mode: Some(Mode::All), equivalence: Equivalence::None, ..Default::default() };
    let verify = |s: &Solution| inst.verify(s);
    let report = solve(engine.as_mut(), inst.problem(), &opts, &verify).unwrap();
    assert!(report.stats.complete());
    assert_eq!(report.solutions.len() as u64, report.found);
    (report.found, decision.map(|d| d.engine))
}

#[test]
fn auto_counts_like_cp_and_scan_in_the_band() {
    let dir = crate::Scratch::new("auto-pick");
    // Seed 3: a board both engines enumerate in well under a second, cp
    // the faster.
    let inst = input::load(std::path::Path::new(&band_puzzle(&dir, 3)), None, 1).unwrap();
    let config = BackendConfig { auto_pick: AutoPick::Estimate, ..BackendConfig::default() };
    let (cp, none) = count(&inst, "cp", &config);
    assert_eq!(none, None, "only auto picks");
    let (auto, picked) = count(&inst, "auto", &config);
    assert_eq!(picked, Some(Engine::Cp), "scan's tree is estimated 40 times longer");
    let (scan, _) = count(&inst, "scan", &config);
    assert_eq!((auto, scan), (cp, cp));
    assert!(cp >= 4, "the planted board and its rotations");
    let (_, decision) = backend::make_explained("auto", &inst, &config).unwrap();
    let d = decision.unwrap();
    assert!(d.estimates.is_some(), "{d:?}");
    // The default: the rule, which gives cp in the band.
    let (auto, picked) = count(&inst, "auto", &BackendConfig::default());
    assert_eq!((auto, picked), (cp, Some(Engine::Cp)));
    let (_, decision) = backend::make_explained("auto", &inst, &BackendConfig::default()).unwrap();
    assert_eq!(decision.unwrap().estimates, None);
}

/// The note says what auto picked; `--auto-pick estimate` changes the pick
/// on seed 1 (estimates: scan; rule, the default: cp), but not with
/// `--first` or a solution limit (the estimates are of the whole tree).
#[test]
fn auto_pick_flag_changes_the_pick() {
    let dir = crate::Scratch::new("auto-pick-flag");
    let p = band_puzzle(&dir, 1);
    let note = |extra: &[&str]| {
        let mut args = vec!["solve", p.as_str(), "--time-limit", "0.001"];
        args.extend_from_slice(extra);
        let out = emx(&args);
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        err.lines().find(|l| l.starts_with("note: auto picked")).unwrap_or_else(|| panic!("{err}")).to_string()
    };
    let rule = "note: auto picked cp by the colour-count rule";
    assert_eq!(note(&[]), rule);
    assert_eq!(note(&["--auto-pick", "rule"]), rule);
    let estimated = note(&["--auto-pick", "estimate"]);
    assert!(estimated.starts_with("note: auto picked scan from Knuth estimates: cp "), "{estimated}");
    assert!(estimated.contains(" s, scan ") && estimated.contains("estimates took"), "{estimated}");
    // The same pick from the same estimates (fixed seed); only the time
    // the estimates took differs.
    let picked = |n: &str| n.split(" (estimates took").next().unwrap().to_string();
    assert_eq!(picked(&note(&["--auto-pick", "estimate"])), picked(&estimated));
    assert_eq!(note(&["--auto-pick", "estimate", "--first", "1"]), rule);
    assert_eq!(note(&["--auto-pick", "estimate", "--solution-limit", "2"]), rule);
    // Quiet runs say nothing.
    let out = emx(&["solve", &p, "--time-limit", "0.001", "-q"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("auto picked"));
    // --estimate with auto shows the pick.
    let out = emx(&["solve", &p, "--estimate", "100", "--auto-pick", "estimate"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("auto picked scan from Knuth estimates"));
    let out = emx(&["solve", &p, "--estimate", "100"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("auto picked cp by the colour-count rule"));
    // The option belongs to auto on edge-matching puzzles.
    let out = emx(&["solve", &p, "--backend", "cp", "--auto-pick", "rule"]);
    assert_eq!(out.status.code(), Some(2));
    let out = emx(&["solve", &p, "--auto-pick", "cheapest"]);
    assert_eq!(out.status.code(), Some(2));
}
