//! `emx generate edgematch`: files written, reproducible, solvable.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn temp_dir(tag: &str) -> crate::Scratch {
    crate::Scratch::new(&format!("gen-{tag}"))
}

#[test]
fn generated_file_and_planted_solution_are_written_and_solvable() {
    let dir = temp_dir("files");
    let puzzle = dir.join("p.txt");
    let p = puzzle.to_str().unwrap();
    let out = emx(&["generate", "edgematch", "--rows", "4", "--cols", "5", "--colors", "4", "--seed", "11", "-o", p]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&puzzle).unwrap();
    assert!(text.contains("size 4 5"), "{text}");
    let board = std::fs::read_to_string(dir.join("p.solution.txt")).unwrap();
    assert_eq!(board.lines().filter(|l| !l.starts_with('#')).count(), 4, "{board}");
    // The same seed writes the same file.
    let again = emx(&["generate", "edgematch", "--rows", "4", "--cols", "5", "--colors", "4", "--seed", "11"]);
    let stdout = String::from_utf8(again.stdout).unwrap();
    assert!(stdout.contains(text.lines().find(|l| l.starts_with("tile")).unwrap()));
    // Solvable through the CLI (format detected).
    let out = emx(&["solve", p, "--first", "1", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn heule_and_meta_output_need_a_solution_file() {
    let out = emx(&["generate", "edgematch", "--size", "4", "--colors", "3", "--output-format", "heule"]);
    assert_eq!(out.status.code(), Some(2));
    let dir = temp_dir("heule");
    let sol = dir.join("s.txt");
    let out = emx(&[
        "generate",
        "edgematch",
        "--size",
        "5",
        "--colors",
        "3",
        "--border-colors",
        "2",
        "--output-format",
        "heule",
        "--solution",
        sol.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().next(), Some("0"));
    assert_eq!(text.lines().count(), 26);
    assert!(sol.exists());
}

#[test]
fn impossible_specs_exit_2() {
    let out = emx(&["generate", "edgematch", "--size", "1", "--colors", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("each side must be from 2"));
    let out = emx(&["generate", "edgematch", "--size", "2", "--colors", "3", "--border-colors", "1"]);
    assert_eq!(out.status.code(), Some(2));
}
