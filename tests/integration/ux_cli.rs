//! The command line as a user meets it: pictures from `solve`, `info` and
//! `render`, errors that say where and how to fix, Ctrl-C.

use crate::render::assert_valid_svg;
use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn pictures_from_every_command() {
    let soma = "instances/polycube/somacube_def.txt";
    let e4 = "instances/edgematch/brendan_set2/pieces_04x04.txt";
    for args in [
        vec!["solve", soma, "--first", "3", "--format", "svg"],
        vec!["solve", e4, "--format", "svg", "-q"],
        vec!["info", soma, "--format", "svg"],
        vec!["info", e4, "--format", "svg"],
        vec!["render", soma],
        vec!["render", e4],
        vec![
            "score",
            "instances/edgematch/eternity2/blackwood470.board.txt",
            "--puzzle",
            "instances/edgematch/eternity2/e2_centre.txt",
            "--format",
            "svg",
        ],
    ] {
        let out = emx(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_valid_svg(&stdout(&out));
    }
    // The summary of `solve --format svg` goes to stderr, the picture alone to stdout.
    let out = emx(&["solve", soma, "--first", "3", "--format", "svg"]);
    assert!(stderr(&out).contains("solutions: at least 3"), "{}", stderr(&out));
    assert_eq!(stdout(&out).matches("solution ").count(), 3);
}

#[test]
fn render_reads_solutions_and_boards() {
    let dir = crate::Scratch::new("ux-cli");
    let pent = "instances/polycube/pentominoes_10x6_def.txt";
    // Text drawing from `solve` -> render (the drawing is the solution file).
    let out = emx(&["solve", pent, "--first", "1", "-q", "--format", "json"]);
    let sol = dir.join("pent.json");
    std::fs::write(&sol, &out.stdout).unwrap();
    let svg_path = dir.join("pent.svg");
    let out = emx(&["render", pent, "--solution", sol.to_str().unwrap(), "-o", svg_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_valid_svg(&std::fs::read_to_string(&svg_path).unwrap());
    let out = emx(&["render", pent, "--solution", sol.to_str().unwrap(), "--format", "text"]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 6, "{text}");
    let layers = dir.join("pent.txt");
    std::fs::write(&layers, &text).unwrap();
    let out = emx(&["render", pent, "--solution", layers.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solution"], true);
    assert_eq!(v["placements"].as_array().unwrap().len(), 12);

    // A board that is not a solution is drawn, and the JSON says why.
    let e3 = "instances/edgematch/brendan_set2/pieces_03x03.txt";
    let out = emx(&["render", e3, "--solution", "tests/data/render/board_3x3_mismatched.txt", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["solution"].as_bool(), v["score"]["matched"].as_u64()), (Some(false), Some(4)));

    // Errors a user can make name the file and line, and exit 2.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "1/3 7/0 2/0\n5/3 9/9 8/1\n3/2 6/2 4/1\n").unwrap();
    let out = emx(&["render", e3, "--solution", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.txt:2:5: bad cell `9/9`"), "{}", stderr(&out));
    let out = emx(&["render", e3, "--solution", sol.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("pent.json:1: board 1"), "{}", stderr(&out));
    let out = emx(&["render", pent, "--solution", layers.to_str().unwrap(), "--index", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("holds 1 solution(s); --index 2 is out of range"), "{}", stderr(&out));
    let out = emx(&["render", pent, "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--solution FILE"));
    let out = emx(&["render", pent, "-o", "/no/such/dir/x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write /no/such/dir/x.svg"), "{}", stderr(&out));
    let out = emx(&["solve", pent, "--first", "0"]);
    assert_eq!(out.status.code(), Some(2));
    // A missing file: named once, the cause said once.
    let out = emx(&["solve", "no/such/file.txt"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: no/such/file.txt: ") && err.lines().count() == 1, "{err}");
    assert_eq!(err.matches("os error").count(), 1, "{err}");
}

#[cfg(unix)]
fn interrupt_after(args: &[&str], millis: u64) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_emx"))
        .args(args)
        .current_dir(repo_path(""))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(millis));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_with_the_statistics_so_far() {
    let pent = "instances/polycube/pentominoes_10x6_def.txt";
    let out = interrupt_after(&["solve", pent, "--backend", "dlx", "--count", "-q"], 700);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("stopped: interrupted") && text.contains("solutions: at least"), "{text}");

    let out = interrupt_after(&["bench", pent, "--backends", "dlx", "--count", "--runs", "3", "--format", "json"], 700);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["rows"][0]["status"], "interrupted");
}

/// An encoding flag that does not fit the puzzle is a usage error (exit 2,
/// as `emx --help` documents), not an internal error (exit 4): found by
/// tests/scripts/doc_commands.py's sweep of the documented commands.
#[test]
fn encode_flags_that_do_not_fit_the_puzzle_exit_2() {
    let soma = "instances/polycube/somacube_def.txt";
    let set2 = "instances/edgematch/brendan_set2/pieces_04x04.txt";
    let dir = crate::Scratch::new("encode-usage");
    let out = dir.join("out").to_str().unwrap().to_owned();
    let cases: [(&str, &[&str], &str); 4] = [
        (soma, &["--to", "lp"], "edge-matching puzzles only"),
        (soma, &["--to", "cnf", "--pin-first-corner"], "edge-matching puzzles only"),
        (set2, &["--to", "cnf", "--pin-first-corner", "--break-symmetry"], "use one of them"),
        (set2, &["--to", "lp", "--break-symmetry"], "use --pin-first-corner"),
    ];
    for (file, flags, says) in cases {
        let mut args = vec!["encode", file, "-o", &out];
        args.extend_from_slice(flags);
        let res = emx(&args);
        assert_eq!(res.status.code(), Some(2), "{args:?}: {}", stderr(&res));
        assert!(stderr(&res).contains(says), "{args:?}: {}", stderr(&res));
    }
    assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 0, "nothing written");
}

/// A flag that the command would parse and then ignore is refused (exit 2)
/// rather than silently dropped: `render --index` without `--solution`,
/// `encode --map` for a target other than the clique graph, and decode's
/// encoding flags with an answer they do not describe.
#[test]
fn flags_that_would_be_ignored_are_refused() {
    let soma = "instances/polycube/somacube_def.txt";
    let set2 = "instances/edgematch/brendan_set2/pieces_04x04.txt";
    let dir = crate::Scratch::new("ignored-flags");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (cnf, map, model) = (path("p.cnf"), path("p.map"), path("p.model"));
    std::fs::write(&model, "s UNSATISFIABLE\n").unwrap();
    // (`--pin-first-corner` and `--break-symmetry` with `--model` are not
    // ignored: the CNF the model is checked against is rebuilt with them.)
    let cases: [(&[&str], &str); 5] = [
        (&["render", soma, "--index", "2"], "--solution"),
        (&["encode", soma, "--to", "cnf", "-o", &cnf, "--map", &map], "--to clique"),
        (&["decode", soma, "--model", &model, "--map", &map], "--clique"),
        (&["decode", set2, "--lp-solution", &model, "--break-symmetry"], "an LP solution is read without them"),
        (&["decode", set2, "--clique", &model, "--map", &map, "--pin-first-corner"], "--map"),
    ];
    for (args, says) in cases {
        let res = emx(args);
        assert_eq!(res.status.code(), Some(2), "{args:?}: {}", stderr(&res));
        assert!(stderr(&res).contains(says), "{args:?}: {}", stderr(&res));
    }
    assert!(!dir.join("p.cnf").exists() && !dir.join("p.map").exists());
}

/// `emx merge` before the parts are solved says how many results are missing
/// and how to make them, not just "No such file" for the first one.
#[test]
fn merge_before_the_parts_are_solved_says_what_to_run() {
    let dir = crate::Scratch::new("merge-unsolved");
    let parts = dir.join("parts");
    let parts = parts.to_str().unwrap();
    let split = emx(&["split", "instances/polycube/somacube_def.txt", "--depth", "1", "-o", parts]);
    assert_eq!(split.status.code(), Some(0), "{}", stderr(&split));
    let manifest = format!("{parts}/manifest.json");
    let res = emx(&["merge", &manifest]);
    assert_eq!(res.status.code(), Some(2), "{}", stderr(&res));
    let err = stderr(&res);
    assert!(err.contains("part results are missing") && err.contains("emx solve PART --format json --all"), "{err}");
}

/// A reader that closes the pipe early (`emx info F | head -1`, `emx split
/// ... | head`) ends emx quietly with exit code 0: no panic message, for
/// commands that print with `println!` and for those that return the I/O
/// error alike.
#[test]
fn a_closed_stdout_ends_the_run_quietly() {
    use std::process::Stdio;
    let split_dir = std::env::temp_dir().join(format!("emx-closed-stdout-{}", std::process::id()));
    let split_out = split_dir.to_string_lossy().into_owned();
    let runs: [&[&str]; 3] = [
        &["info", "instances/polycube/somacube_def.txt"],
        &["solve", "instances/polycube/somacube_def.txt", "--unique", "--all"],
        &["split", "instances/polycube/pentominoes_10x6_def.txt", "--depth", "1", "-o", &split_out],
    ];
    for args in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_emx"))
            .args(args)
            .current_dir(repo_path(""))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before emx writes anything.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&split_dir);
}
