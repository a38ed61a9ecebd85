//! MaxSAT for the matched-edge score: `emx encode --to wcnf` solved by RC2
//! (python-sat), held against the LP optimum (HiGHS), the exhaustive
//! maximum (3x3 boards) and emx's own search (optimum 0 exactly when a
//! solution exists); the decoded board's score equals the optimum. Boards
//! with mismatches scored from hand-written LP solutions.

use crate::{repo_path, Scratch};
use emx::edgematch::EdgePuzzle;
use emx::input::{self, InstanceKind};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Instant;

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Whether python-sat imports; prints why the caller skips when not.
fn have_pysat(test: &str) -> bool {
    let ok = Command::new("python3").args(["-c", "import pysat"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        println!("SKIP {test}: python-sat is not installed (pip install python-sat)");
    }
    ok
}

fn puzzle(path: &Path) -> EdgePuzzle {
    let inst = input::load(path, None, 1).unwrap();
    let InstanceKind::EdgeMatch(e) = inst.kind else { panic!("{} is not edge matching", path.display()) };
    e.puzzle
}

/// The most matched joins over all boards, by backtracking over every
/// border-valid placement (3x3 only: 2304 boards for a 3x3).
fn exhaustive_maximum(p: &EdgePuzzle) -> usize {
    fn go(p: &EdgePuzzle, cell: usize, board: &mut emx::edgematch::Board, used: &mut [bool], best: &mut usize) {
        if cell == p.n_cells() {
            *best = (*best).max(board.score(p).matched);
            return;
        }
        for t in 0..p.tiles.len() {
            if used[t] {
                continue;
            }
            let mut looks = Vec::new();
            for r in 0..4u8 {
                let look = p.tiles[t].rotated(r);
                if p.fits_border(t, r, cell) && !looks.contains(&look) {
                    looks.push(look);
                    used[t] = true;
                    board.cells[cell] = Some(emx::edgematch::Placed { tile: t as u32, rotation: r });
                    go(p, cell + 1, board, used, best);
                    board.cells[cell] = None;
                    used[t] = false;
                }
            }
        }
    }
    assert!(p.n_cells() <= 9, "exhaustive search is for 3x3 boards");
    let mut best = 0;
    let mut board = emx::edgematch::Board::empty(p.rows, p.cols);
    go(p, 0, &mut board, &mut vec![false; p.tiles.len()], &mut best);
    best
}

/// A META puzzle made unsolvable: one side of its last inner tile takes
/// another colour, so two colours show on an odd number of sides.
fn spoil(meta: &str) -> String {
    let mut lines: Vec<String> = meta.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect();
    let k = lines
        .iter()
        .rposition(|l| l.split_whitespace().all(|c| c != "0") && l.split_whitespace().count() == 4)
        .unwrap();
    let mut t: Vec<String> = lines[k].split_whitespace().map(String::from).collect();
    let other = if t[0] != t[3] { t[0].clone() } else { t[1].clone() };
    assert_ne!(other, t[3], "a tile of one colour: pick another puzzle");
    t[3] = other;
    lines[k] = t.join(" ");
    lines.join("\n") + "\n"
}

/// A META puzzle with its non-grey sides moved one place along the file
/// (the same colours, mostly on other tiles): far from solvable, so its
/// optimum leaves several joins unmatched.
fn scramble(meta: &str) -> String {
    let mut lines: Vec<Vec<String>> = meta
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    let sides: Vec<(usize, usize)> = (1..lines.len())
        .flat_map(|k| (0..lines[k].len()).map(move |i| (k, i)))
        .filter(|&(k, i)| lines[k][i] != "0")
        .collect();
    let colours: Vec<String> = sides.iter().map(|&(k, i)| lines[k][i].clone()).collect();
    for (n, &(k, i)) in sides.iter().enumerate() {
        lines[k][i] = colours[(n + colours.len() - 1) % colours.len()].clone();
    }
    lines.iter().map(|l| l.join(" ") + "\n").collect()
}

/// `score M/J` of a decode line: (M, J).
fn score_of(out: &str) -> (usize, usize) {
    let s = out.split("score ").nth(1).unwrap_or_else(|| panic!("no score in {out}"));
    let (m, rest) = s.split_once('/').unwrap();
    let j: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (m.parse().unwrap(), j.parse().unwrap())
}

/// RC2 on a WCNF file: its answer text, its claimed cost, the seconds.
fn rc2(wcnf: &Path, vnew: bool) -> (String, usize, f64) {
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pysat.examples.rc2", "-vv"]);
    if vnew {
        cmd.arg("--vnew");
    }
    let start = Instant::now();
    let out = cmd.arg(wcnf).output().unwrap();
    let seconds = start.elapsed().as_secs_f64();
    let answer = String::from_utf8(out.stdout).unwrap();
    assert!(answer.contains("s OPTIMUM FOUND"), "{answer}{}", String::from_utf8_lossy(&out.stderr));
    let cost = answer.lines().find_map(|l| l.strip_prefix("o ")).unwrap().trim().parse().unwrap();
    (answer, cost, seconds)
}

/// HiGHS's optimum and the path of its solution file, or `None` (printed)
/// when highspy is missing.
fn highs(puzzle: &Path, dir: &Path, tag: &str) -> Option<(usize, std::path::PathBuf)> {
    let sol = dir.join(format!("{tag}.sol"));
    let script = repo_path("tests/scripts/highs_optimum.py");
    let out =
        Command::new("python3").arg(&script).arg(env!("CARGO_BIN_EXE_emx")).arg(puzzle).arg(&sol).output().ok()?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if let Some(skip) = stdout.lines().find(|l| l.starts_with("SKIP")) {
        println!("{skip} (the LP comparison of {tag} is skipped)");
        return None;
    }
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let line = stdout.lines().find(|l| l.starts_with("optimum ")).unwrap();
    println!("{tag}: HiGHS {line}");
    Some((line.split_whitespace().nth(1).unwrap().parse().unwrap(), sol))
}

/// The boards of the test: set 2 3x3 to 5x5, generated ones with few
/// colours, an unsolvable copy of each (optimum 1) and, up to 4x4, a
/// scrambled one (a larger optimum).
fn boards(dir: &Path) -> Vec<(String, std::path::PathBuf)> {
    let mut out = Vec::new();
    let mut add = |tag: String, meta: String| {
        let mut variants = vec![(tag.clone(), meta.clone()), (format!("{tag}-spoilt"), spoil(&meta))];
        if meta.lines().count() <= 17 {
            variants.push((format!("{tag}-scrambled"), scramble(&meta)));
        }
        for (tag, meta) in variants {
            let path = dir.join(format!("{tag}.txt"));
            std::fs::write(&path, &meta).unwrap();
            out.push((tag, path));
        }
    };
    for n in 3..=5 {
        let rel = format!("instances/edgematch/brendan_set2/pieces_{n:02}x{n:02}.txt");
        add(format!("set2-{n}x{n}"), std::fs::read_to_string(repo_path(&rel)).unwrap());
    }
    for (n, colors, seed) in [(3, "2", "5"), (4, "2", "3"), (5, "3", "1")] {
        let size = n.to_string();
        let planted = dir.join(format!("planted-{n}.txt"));
        let gen = emx(&[
            "generate",
            "edgematch",
            "--size",
            &size,
            "--colors",
            colors,
            "--seed",
            seed,
            "--output-format",
            "meta",
            "--solution",
            planted.to_str().unwrap(),
        ]);
        assert!(gen.status.success(), "{}", text(&gen));
        let meta: String = String::from_utf8(gen.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        add(format!("gen-{n}x{n}-k{colors}"), meta);
    }
    out
}

#[test]
fn maxsat_optimum_equals_lp_exhaustive_and_the_decoded_score() {
    if !have_pysat("maxsat_optimum_equals_lp_exhaustive_and_the_decoded_score") {
        return;
    }
    let dir = Scratch::new("maxsat-rc2");
    for (tag, path) in boards(&dir) {
        let file = path.to_str().unwrap();
        let p = puzzle(&path);
        let joins = p.n_joins();
        let mut costs = Vec::new();
        for (form, vnew) in [("standard", false), ("classic", true)] {
            let wcnf = dir.join(format!("{tag}-{form}.wcnf"));
            let out = emx(&["encode", file, "--to", "wcnf", "--wcnf-format", form, "-o", wcnf.to_str().unwrap()]);
            assert!(out.status.success(), "{tag}: {}", text(&out));
            let head = std::fs::read_to_string(&wcnf).unwrap();
            let first = head.lines().find(|l| !l.starts_with('c')).unwrap();
            assert_eq!(first.starts_with("p wcnf "), form == "classic", "{tag} {form}: {first}");
            let (answer, cost, seconds) = rc2(&wcnf, vnew);
            println!(
                "{tag} ({form} WCNF, {} v line): RC2 cost {cost} in {seconds:.2} s",
                if vnew { "0/1-string" } else { "literal" }
            );
            let model = dir.join(format!("{tag}-{form}.answer"));
            std::fs::write(&model, &answer).unwrap();
            let out = emx(&["decode", file, "--maxsat-model", model.to_str().unwrap()]);
            let said = text(&out);
            assert_eq!(out.status.code(), Some(0), "{tag} {form}: {said}");
            assert_eq!(
                score_of(&said),
                (joins - cost, joins),
                "{tag} {form}: the decoded board scores the optimum: {said}"
            );
            assert!(said.contains(&format!("the solver's cost {cost}, claimed optimal")), "{said}");
            let json = emx(&["decode", file, "--maxsat-model", model.to_str().unwrap(), "--format", "json"]);
            let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
            assert_eq!(v["score"]["matched"], joins - cost, "{v}");
            assert_eq!((v["cost"].as_u64(), v["claimed_cost"].as_u64()), (Some(cost as u64), Some(cost as u64)), "{v}");
            costs.push(cost);
        }
        assert_eq!(costs[0], costs[1], "{tag}: both WCNF forms have one optimum");
        let cost = costs[0];
        // Optimum 0 exactly when emx's exact search finds a solution.
        let solve = emx(&["solve", file, "--first", "1", "-q"]);
        assert_eq!(solve.status.code(), Some(if cost == 0 { 0 } else { 1 }), "{tag}: cost {cost}: {}", text(&solve));
        if !tag.ends_with("scrambled") {
            assert_eq!(
                tag.ends_with("spoilt"),
                cost > 0,
                "{tag}: a spoilt puzzle has no solution, the others have one"
            );
        }
        if p.n_cells() <= 9 {
            assert_eq!(exhaustive_maximum(&p), joins - cost, "{tag}: the exhaustive maximum");
        }
        // HiGHS needs about 35 s for the solved set-2 5x5 (whose optimum 0
        // emx's search confirms above): left out of the default suite.
        if tag == "set2-5x5" {
            continue;
        }
        if let Some((lp, sol)) = highs(&path, &dir, &tag) {
            assert_eq!(lp, cost, "{tag}: the LP optimum (HiGHS) equals the MaxSAT optimum");
            let out = emx(&["decode", file, "--lp-solution", sol.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(0), "{tag}: {}", text(&out));
            assert_eq!(score_of(&text(&out)), (joins - cost, joins), "{tag}: the LP board scores the optimum");
        }
    }
}

#[test]
fn the_wcnf_flags_and_restrictions_keep_the_optimum() {
    if !have_pysat("the_wcnf_flags_and_restrictions_keep_the_optimum") {
        return;
    }
    let dir = Scratch::new("maxsat-flags");
    let bad = dir.join("bad4.txt");
    let meta = std::fs::read_to_string(repo_path("instances/edgematch/brendan_set2/pieces_04x04.txt")).unwrap();
    std::fs::write(&bad, spoil(&meta)).unwrap();
    let file = bad.to_str().unwrap();
    for flags in [&["--amo", "pairwise"][..], &["--amo", "commander"], &["--pin-first-corner"], &["--break-symmetry"]] {
        let wcnf = dir.join("f.wcnf");
        let mut args = vec!["encode", file, "--to", "wcnf", "-o", wcnf.to_str().unwrap()];
        args.extend_from_slice(flags);
        let out = emx(&args);
        assert!(out.status.success(), "{flags:?}: {}", text(&out));
        let (answer, cost, _) = rc2(&wcnf, false);
        assert_eq!(cost, 1, "{flags:?}");
        let model = dir.join("f.answer");
        std::fs::write(&model, &answer).unwrap();
        let mut args = vec!["decode", file, "--maxsat-model", model.to_str().unwrap()];
        args.extend_from_slice(flags);
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", text(&out));
        assert_eq!(score_of(&text(&out)), (23, 24), "{flags:?}");
    }
}

#[test]
fn lp_solutions_with_mismatches_are_scored() {
    let dir = Scratch::new("maxsat-lp");
    let p3 = "instances/edgematch/brendan_set2/pieces_03x03.txt";
    // Every tile in file order, rotated to fit its cell's border: a valid
    // board whose joins mostly do not match.
    let p = puzzle(&repo_path(p3));
    let mut used = [false; 9];
    let cells: Vec<Option<(usize, u8)>> = (0..9)
        .map(|cell| {
            let (t, r) = (0..9)
                .flat_map(|t| (0..4u8).map(move |r| (t, r)))
                .find(|&(t, r)| !used[t] && p.fits_border(t, r, cell))?;
            used[t] = true;
            Some((t, r))
        })
        .collect();
    let mut sol = String::from("# Primal solution values\n");
    let mut board = emx::edgematch::Board::empty(3, 3);
    for (cell, c) in cells.iter().enumerate() {
        let (t, r) = c.unwrap();
        sol.push_str(&format!("x_{}_{}_{}_{} 1\n", t + 1, cell / 3 + 1, cell % 3 + 1, r));
        board.cells[cell] = Some(emx::edgematch::Placed { tile: t as u32, rotation: r });
    }
    let matched = board.score(&p).matched;
    assert!(matched < 12, "the board has mismatches");
    let path = dir.join("mismatched.sol");
    std::fs::write(&path, &sol).unwrap();
    let out = emx(&["decode", p3, "--lp-solution", path.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains(&format!("verified board of {p3}: score {matched}/12 ({} unmatched joins)", 12 - matched)),
        "{said}"
    );
    let json = emx(&["decode", p3, "--lp-solution", path.to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!((v["solved"].as_bool(), v["score"]["matched"].as_u64()), (Some(false), Some(matched as u64)), "{v}");
    // The fields are those docs/json.md lists for scored boards.
    let doc = std::fs::read_to_string(repo_path("docs/json.md")).unwrap();
    let section = doc.split("\n## emx decode (scored boards)\n").nth(1).expect("docs/json.md documents scored boards");
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let documented: std::collections::BTreeSet<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .filter(|f| !f.contains("[]."))
        .collect();
    let actual: std::collections::BTreeSet<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(actual, documented, "docs/json.md against the output {v}");
    // A board that breaks a rule is still refused, in the puzzle's terms.
    let twice = sol.replacen("x_2_", "x_1_", 1);
    std::fs::write(&path, twice).unwrap();
    let out = emx(&["decode", p3, "--lp-solution", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("tile 1 is placed twice: in cells (1, 1) and"), "{}", text(&out));
}
