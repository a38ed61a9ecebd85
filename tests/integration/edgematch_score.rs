//! `emx score`: record boards, partial boards, faults, errors.

use crate::repo_path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

const E2: &str = "instances/edgematch/eternity2/e2_centre.txt";
const E2_FIVE: &str = "instances/edgematch/eternity2/e2_five_clues.txt";

#[test]
fn blackwood_470_scores_470() {
    let out = emx(&["score", "instances/edgematch/eternity2/blackwood470.board.txt", "--puzzle", E2]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("score: 470 / 480 matched inner joins (10 unmatched)"), "{text}");
    assert!(text.contains("cells: 256 filled (complete)"), "{text}");
}

#[test]
fn bucas_record_boards_score_as_published() {
    let out = emx(&["score", "instances/edgematch/eternity2/records.bucas.txt", "--puzzle", E2, "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    let boards = v["boards"].as_array().unwrap();
    let scores: Vec<(String, u64)> =
        boards.iter().map(|b| (b["name"].as_str().unwrap().to_string(), b["matched"].as_u64().unwrap())).collect();
    assert_eq!(
        scores,
        [("Joshua_Blackwood_470", 470), ("Blackwood_468", 468), ("Verhaard_467", 467), ("Riotte_464", 464)]
            .map(|(n, s)| (n.to_string(), s))
    );
    assert!(boards.iter().all(|b| b["valid"] == true && b["joins"] == 480));
    // With all five clues only Riotte's board keeps the rules: exit 1.
    let out =
        emx(&["score", "instances/edgematch/eternity2/records.bucas.txt", "--puzzle", E2_FIVE, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let valid: Vec<bool> = json(&out)["boards"].as_array().unwrap().iter().map(|b| b["valid"] == true).collect();
    assert_eq!(valid, [false, false, false, true]);
}

#[test]
fn partial_and_faulty_boards() {
    let dir = crate::Scratch::new("score");
    let puzzle = "instances/edgematch/brendan_set2/pieces_03x03.txt";
    let solve = emx(&["solve", puzzle, "--first", "1", "--format", "json"]);
    let cells = json(&solve)["solution_list"][0]["cells"].clone();
    let cell = |i: usize| format!("{}/{}", cells[i]["tile"], cells[i]["rotation"]);
    // A full solution: 12 of 12.
    let full: String = (0..3).map(|r| (0..3).map(|c| cell(3 * r + c)).collect::<Vec<_>>().join(" ") + "\n").collect();
    let path = dir.join("full.txt");
    std::fs::write(&path, &full).unwrap();
    let v = json(&emx(&["score", path.to_str().unwrap(), "--puzzle", puzzle, "--format", "json"]));
    assert_eq!((v["boards"][0]["matched"].as_u64(), v["boards"][0]["solved"].as_bool()), (Some(12), Some(true)));
    // Centre emptied: 8 joins left, all matched, partial.
    let partial = full.replacen(&cell(4), ".", 1);
    std::fs::write(&path, &partial).unwrap();
    let out = emx(&["score", path.to_str().unwrap(), "--puzzle", puzzle]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cells: 8 filled, 1 empty"), "{text}");
    assert!(text.contains("score: 8 / 12 matched inner joins (0 unmatched, 4 next to an empty cell)"), "{text}");
    // The same corner twice: a broken rule, exit 1.
    let twice = full.replacen(&cell(8), &cell(0), 1);
    std::fs::write(&path, &twice).unwrap();
    let out = emx(&["score", path.to_str().unwrap(), "--puzzle", puzzle]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("is used twice"));
    // A 2x2 board for a 3x3 puzzle cannot be scored: exit 2.
    std::fs::write(&path, "1/0 2/0\n3/0 4/0\n").unwrap();
    let out = emx(&["score", path.to_str().unwrap(), "--puzzle", puzzle]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("board 1 is 2 x 2 (rows x cols), but the puzzle is 3 x 3"));
    // A malformed board file: exit 2 with the position.
    std::fs::write(&path, "1/0 2/x\n").unwrap();
    let out = emx(&["score", path.to_str().unwrap(), "--puzzle", puzzle]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("full.txt:1:5: bad cell `2/x`"));
}
