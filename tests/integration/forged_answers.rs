//! Forged answers: every one `emx decode` must refuse with exit code 2 and
//! a message naming the file, the line and what is wrong (a SAT model that
//! falsifies a clause, names a variable beyond the header, gives a
//! variable both signs, a hand-written UNSAT; LP values nan, inf, 2; MaxSAT
//! answers whose cost or optimum claim is false), and decode errors said
//! in the puzzle's terms. No external tool is needed.

use crate::{repo_path, Scratch};
use emx::encode::{clique, cnf, maxsat, restrict};
use emx::input::{self, Instance, InstanceKind};
use emx::search::{Flow, Limits};
use emx_encoders::CnfOptions;
use std::path::Path;
use std::process::{Command, Output};

const P3: &str = "instances/edgematch/brendan_set2/pieces_03x03.txt";

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn load(rel: &str) -> Instance {
    input::load(&repo_path(rel), None, 1).unwrap()
}

/// Every solution's options (DLX).
fn solutions(inst: &Instance) -> Vec<Vec<u32>> {
    let mut all = Vec::new();
    emx::dlx::Dlx::new(inst.problem()).search(&Limits::none(), |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        all.push(s);
        Flow::Continue
    });
    all
}

/// A complete model of the default CNF of `inst`, found by varisat.
fn cnf_model(inst: &Instance) -> Vec<i64> {
    let enc = cnf::encode(inst.problem(), &CnfOptions::default()).unwrap();
    let mut solver = varisat::Solver::new();
    for c in enc.cnf.clauses() {
        let lits: Vec<varisat::Lit> = c.iter().map(|l| varisat::Lit::from_dimacs(l.to_dimacs() as isize)).collect();
        varisat::ExtendFormula::add_clause(&mut solver, &lits);
    }
    assert!(solver.solve().unwrap());
    let mut values = vec![false; enc.cnf.n_vars() as usize];
    for l in solver.model().unwrap() {
        if let Some(v) = values.get_mut(l.index()) {
            *v = l.is_positive();
        }
    }
    values.iter().enumerate().map(|(i, &b)| if b { i as i64 + 1 } else { -(i as i64 + 1) }).collect()
}

fn join(lits: &[i64]) -> String {
    lits.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
}

/// Checks that the clause a refusal quotes (`` (`LITS 0`... `` and
/// `line N of`) is line N of the file `emx encode FILE --to TO` writes.
fn quoted_clause_is_on_its_line(text: &str, puzzle: &str, to: &str) {
    let lits = text.split("(`").nth(1).and_then(|r| r.split('`').next()).unwrap_or_else(|| panic!("{text}"));
    let line: usize = text.split("line ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    let out = emx(&["encode", puzzle, "--to", to]);
    let file = String::from_utf8(out.stdout).unwrap();
    let at = file.lines().nth(line - 1).unwrap();
    assert_eq!(at.trim_start_matches("h "), lits, "{text}");
}

/// Runs `emx decode FILE --KIND ANSWER EXTRA...` on `text` written to `name`.
fn decode(dir: &Path, puzzle: &str, kind: &str, name: &str, text: &str, extra: &[&str]) -> (Option<i32>, String) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["decode", puzzle, kind, path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = emx(&args);
    (out.status.code(), said(&out))
}

#[test]
fn forged_sat_models_are_refused() {
    let dir = Scratch::new("forged-sat");
    let inst = load(P3);
    let model = cnf_model(&inst);
    let n_vars = model.len();
    let good = format!("s SATISFIABLE\nv {} 0\n", join(&model));
    let (code, text) = decode(&dir, P3, "--model", "good.model", &good, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("verified solution"), "{text}");

    // A model that falsifies a clause: one chosen placement turned off.
    let mut off = model.clone();
    let k = off.iter().position(|&l| l > 0).unwrap();
    off[k] = -off[k];
    let (code, text) =
        decode(&dir, P3, "--model", "clause.model", &format!("s SATISFIABLE\nv {} 0\n", join(&off)), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("clause.model: the model falsifies clause ") && text.contains(" of the CNF (`"), "{text}");
    quoted_clause_is_on_its_line(&text, P3, "cnf");

    // A variable beyond the header.
    let beyond = format!("s SATISFIABLE\nv {} {} 0\n", join(&model), n_vars + 1);
    let (code, text) = decode(&dir, P3, "--model", "beyond.model", &beyond, &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("beyond.model:2:")
            && text.contains(&format!(
                "literal {} names variable {0}, but the CNF declares {n_vars} variables",
                n_vars + 1
            )),
        "{text}"
    );

    // Contradictory lines.
    let both = format!("s SATISFIABLE\nv {}\nv {} 0\n", join(&model), -model[0]);
    let (code, text) = decode(&dir, P3, "--model", "both.model", &both, &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("both.model:3:3: variable 1 is given both signs (`-1` on line 2, `1` here)")
            || text.contains("both.model:3:3: variable 1 is given both signs (`1` on line 2, `-1` here)"),
        "{text}"
    );

    // Literals in an UNSAT answer.
    let (code, text) = decode(&dir, P3, "--model", "unsat-v.model", "s UNSATISFIABLE\nv 1 0\n", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("unsat-v.model:2: literals in an answer that says unsatisfiable (line 1)"), "{text}");
}

#[test]
fn a_hand_written_unsat_is_a_claim_put_to_the_test() {
    let dir = Scratch::new("forged-unsat");
    // A solvable puzzle: emx's own search refutes the claim.
    let (code, text) = decode(&dir, P3, "--model", "unsat.model", "c forged\ns UNSATISFIABLE\n", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("unsat.model:2: the solver says UNSATISFIABLE, but the CNF has a model"), "{text}");
    // An unsolvable one: the claim stands, reported as the solver's.
    let meta = std::fs::read_to_string(repo_path(P3)).unwrap().replace("3 3 4 4", "3 3 4 3");
    let bad = dir.join("bad3.txt");
    std::fs::write(&bad, meta).unwrap();
    let (code, text) = decode(&dir, bad.to_str().unwrap(), "--model", "true-unsat.model", "s UNSATISFIABLE\n", &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the solver says UNSATISFIABLE, and emx's own search of the same CNF agrees"), "{text}");
    assert!(!text.contains("UNSATISFIABLE: no solution"), "{text}");
}

#[test]
fn forged_lp_values_are_refused_with_line_and_column() {
    let dir = Scratch::new("forged-lp");
    let tiny = "tests/data/encoders/tiny_2x2.txt";
    let good = "x_1_1_1_0 1\nx_2_1_2_0 1\nx_3_2_1_0 1\nx_4_2_2_0 1\n";
    let (code, text) = decode(&dir, tiny, "--lp-solution", "good.sol", good, &[]);
    assert_eq!(code, Some(0), "{text}");
    for (value, what) in [
        ("nan", "the value `nan` of `x_2_1_2_0` is not a finite number"),
        ("inf", "the value `inf` of `x_2_1_2_0` is not a finite number"),
        ("2", "the value `2` of the binary `x_2_1_2_0` is neither 0 nor 1 (within 1e-6"),
        ("0.5", "the value `0.5` of the binary `x_2_1_2_0` is neither 0 nor 1"),
    ] {
        let forged = good.replace("x_2_1_2_0 1", &format!("x_2_1_2_0 {value}"));
        let (code, text) = decode(&dir, tiny, "--lp-solution", "forged.sol", &forged, &[]);
        assert_eq!(code, Some(2), "{value}: {text}");
        assert!(text.contains(&format!("forged.sol:2:11: {what}")), "{value}: {text}");
    }
    // Within the tolerance a value is its integer; --lp-tolerance narrows it.
    let near =
        good.replace("x_2_1_2_0 1", "x_2_1_2_0 0.9999999").replace("x_1_1_1_0 1\n", "x_1_1_1_0 1\nx_1_1_1_1 1e-9\n");
    let (code, text) = decode(&dir, tiny, "--lp-solution", "near.sol", &near, &[]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = decode(&dir, tiny, "--lp-solution", "near.sol", &near, &["--lp-tolerance", "1e-9"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("near.sol:3:11: the value `0.9999999` of the binary `x_2_1_2_0` is neither 0 nor 1 (within 1e-9"),
        "{text}"
    );
}

/// A complete WCNF model of a solved board of `inst` (every join matched).
fn wcnf_model(inst: &Instance, options: &[u32]) -> (maxsat::MaxSatEncoding, Vec<bool>) {
    let InstanceKind::EdgeMatch(e) = &inst.kind else { panic!() };
    let enc = maxsat::encode(&e.puzzle, &e.problem, emx_encoders::AmoEncoding::Sequential, &[]);
    // The option variables, then every auxiliary the hard clauses force:
    // the join variables of the colours shown, the at-most-one registers
    // by unit propagation over the hard clauses.
    let mut model = vec![false; enc.wcnf.n_vars() as usize];
    for &o in options {
        model[o as usize] = true;
    }
    let board = emx::edgematch::ir::board_of(&e.puzzle, &e.problem, options);
    for &(v, j, c) in &enc.match_vars {
        let (cell, side) = enc.joins[j];
        model[v.index() as usize] = board.colours(&e.puzzle, cell).unwrap()[side] == c;
    }
    // Sequential at-most-one registers: s_i is true from the first true
    // literal of its group on; set by fixpoint over `¬a ∨ s` clauses.
    loop {
        let mut changed = false;
        for c in enc.wcnf.hard().clauses() {
            if let [a, s] = c {
                let (a_true, s_var) = (!a.is_positive() && model[a.var().index() as usize], s.var().index() as usize);
                if a_true && s.is_positive() && s_var >= options.len().max(e.problem.n_options()) && !model[s_var] {
                    model[s_var] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    assert_eq!(enc.wcnf.falsified_hard(&model), None, "the constructed model satisfies the hard clauses");
    (enc, model)
}

fn v_line(model: &[bool]) -> String {
    model
        .iter()
        .enumerate()
        .map(|(i, &b)| if b { format!("{}", i + 1) } else { format!("-{}", i + 1) })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn forged_maxsat_answers_are_refused() {
    let dir = Scratch::new("forged-maxsat");
    let inst = load(P3);
    let options = solutions(&inst).remove(0);
    let (enc, model) = wcnf_model(&inst, &options);
    let joins = enc.joins.len();
    let good = format!("s OPTIMUM FOUND\no 0\nv {}\n", v_line(&model));
    let (code, text) = decode(&dir, P3, "--maxsat-model", "good.answer", &good, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("score 12/12 (every inner join matched); the solver's cost 0, claimed optimal"), "{text}");
    let bits: String = model.iter().map(|&b| if b { '1' } else { '0' }).collect();
    let (code, text) =
        decode(&dir, P3, "--maxsat-model", "bits.answer", &format!("s OPTIMUM FOUND\no 0\nv {bits}\n"), &[]);
    assert_eq!(code, Some(0), "{text}");

    // A false cost claim.
    let (code, text) = decode(&dir, P3, "--maxsat-model", "cost.answer", &good.replace("o 0", "o 3"), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(
            "cost.answer: the solver claims cost 3 (line 2), but its model falsifies soft clauses of weight 0"
        ),
        "{text}"
    );

    // An optimum claimed for a model that claims no matched join.
    let mut lazy = model.clone();
    for &(v, _, _) in &enc.match_vars {
        lazy[v.index() as usize] = false;
    }
    let forged = format!("s OPTIMUM FOUND\no {joins}\nv {}\n", v_line(&lazy));
    let (code, text) = decode(&dir, P3, "--maxsat-model", "lazy.answer", &forged, &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "claims an optimum (line 1) of cost {joins}, but the board of its model has only 0 unmatched joins"
        )),
        "{text}"
    );
    // Not claimed optimal, the same model is a fair (poor) answer.
    let (code, text) =
        decode(&dir, P3, "--maxsat-model", "lazy-sat.answer", &forged.replace("OPTIMUM FOUND", "SATISFIABLE"), &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(&format!("the solver's cost {joins}, not claimed optimal")), "{text}");

    // A hard clause broken: a placed tile removed.
    let mut off = model.clone();
    off[options[0] as usize] = false;
    let (code, text) =
        decode(&dir, P3, "--maxsat-model", "hard.answer", &format!("s SATISFIABLE\nv {}\n", v_line(&off)), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("hard.answer: the model falsifies hard clause "), "{text}");
    assert!(text.contains("must hold exactly one tile") || text.contains("must be placed exactly once"), "{text}");
    quoted_clause_is_on_its_line(&text, P3, "wcnf");

    // A model string of the wrong length, a variable beyond the formula.
    let (code, text) =
        decode(&dir, P3, "--maxsat-model", "short.answer", &format!("s SATISFIABLE\nv {}\n", &bits[1..]), &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "short.answer:2:3: the model string gives {} values, but the formula has {} variables",
            bits.len() - 1,
            bits.len()
        )),
        "{text}"
    );
    let (code, text) = decode(
        &dir,
        P3,
        "--maxsat-model",
        "beyond.answer",
        &format!("s SATISFIABLE\nv {} {}\n", v_line(&model), model.len() + 1),
        &[],
    );
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!("names variable {}, but the formula has {} variables", model.len() + 1, model.len())),
        "{text}"
    );
}

#[test]
fn decode_errors_speak_the_puzzles_language() {
    let dir = Scratch::new("forged-words");
    // A clique of the pinned graph decoded without --pin-first-corner: the
    // numbering differs, and the error says so.
    let inst = load(P3);
    let InstanceKind::EdgeMatch(e) = &inst.kind else { panic!() };
    let pin = restrict::pin_first_corner(&e.puzzle, inst.problem()).unwrap();
    let g = clique::graph(inst.problem(), &pin.excluded).unwrap();
    let solution = solutions(&inst).into_iter().find(|s| s.iter().all(|&o| !pin.excluded[o as usize])).unwrap();
    let nodes: Vec<String> =
        solution.iter().map(|&o| (g.nodes().iter().position(|n| n.option == o).unwrap() + 1).to_string()).collect();
    let clique_text = format!("size=9, weight=9: {}\n", nodes.join(" "));
    let (code, text) = decode(&dir, P3, "--clique", "c.txt", &clique_text, &["--pin-first-corner"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = decode(&dir, P3, "--clique", "c.txt", &clique_text, &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("does not decode to a solution of"), "{text}");
    assert!(
        text.contains(
            "if the graph was written with other flags, give the same flags or its node map with --map FILE.map"
        ),
        "{text}"
    );
    assert!(!text.contains("primary item"), "the IR's words: {text}");

    // Edge matching: cells by 1-based row and column, tiles by number.
    let (code, text) = decode(&dir, "tests/data/encoders/tiny_2x2.txt", "--clique", "one.txt", "1\n", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains(": cell (1, 2) is empty") || text.contains(": cell (2, 1) is empty"), "{text}");
    // Polycube: pieces by name, cells by coordinates.
    let soma = "instances/polycube/somacube_def.txt";
    let (code, text) = decode(&dir, soma, "--clique", "soma.txt", "1\n", &[]);
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("does not decode to a solution")
            && text.contains(": piece ")
            && text.contains("0 placed, expected 1"),
        "{text}"
    );
    assert!(!text.contains("primary item"), "the IR's words: {text}");
}

#[test]
fn truncated_and_primary_less_dlx_files_are_refused() {
    let dir = Scratch::new("forged-dlx");
    let soma = dir.join("soma.dlx");
    let out = emx(&["encode", "instances/polycube/somacube_def.txt", "--to", "dlx", "-o", soma.to_str().unwrap()]);
    assert!(out.status.success(), "{}", said(&out));
    let full = std::fs::read_to_string(&soma).unwrap();
    let lines = full.lines().count();
    for (name, text, want) in [
        ("cut-in-line.dlx", full[..full.len() - 3].to_string(), format!("cut-in-line.dlx:{lines}:")),
        ("cut-at-line.dlx", full[..full.rfind("\n0,0").unwrap() + 1].to_string(), "it looks truncated".to_string()),
        (
            "no-primary.dlx",
            "A B | X\nA X:1\nX:1\n".to_string(),
            "no-primary.dlx:3:1: an option must contain at least one primary item".to_string(),
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, &text).unwrap();
        let out = emx(&["solve", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", said(&out));
        assert!(said(&out).contains(&want), "{name}: {}", said(&out));
    }
}
