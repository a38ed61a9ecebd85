//! `emx solve`'s output written as the solutions come: the json array and
//! the jsonl lines agree with the counts, an SVG or board list is whole,
//! the size cap stops a growing output and leaves no file, and Ctrl-C in
//! the middle of a long list leaves a complete file of what was found.

use crate::repo_path;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn emx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
}

const SOMA: &str = "instances/polycube/somacube_def.txt";
const TETRIS: &str = "instances/polycube/tetriscube_def.txt";
const BOARD_4X4: &str = "instances/edgematch/brendan_set2/pieces_04x04.txt";

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn json_and_jsonl_list_every_solution_they_count() {
    let out = emx(&["solve", SOMA, "--all", "--unique=mirror", "--format", "json", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solutions"], 240);
    assert_eq!(v["solution_list"].as_array().unwrap().len(), 240);
    assert_eq!(v["command"], "solve");

    let out = emx(&["solve", SOMA, "--all", "--unique=mirror", "--format", "jsonl", "-q"]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 241, "a line per solution and the summary");
    for (k, line) in lines[..240].iter().enumerate() {
        assert_eq!(line["index"], k as u64 + 1);
        assert_eq!(line["solution"].as_array().unwrap().len(), 7, "the seven Soma pieces");
    }
    let summary = &lines[240];
    assert_eq!(summary["command"], "solve");
    assert_eq!(summary["solutions"], 240);
    assert_eq!(summary["complete"], true);
    assert!(summary.get("solution_list").is_none());
    // The solutions are the same in both forms.
    assert_eq!(lines[0]["solution"], v["solution_list"][0]);
}

#[test]
fn a_streamed_picture_has_one_block_per_solution_and_the_height_of_all() {
    let dir = crate::Scratch::new("stream-svg");
    let path = dir.join("all.svg");
    let out = emx(&["solve", BOARD_4X4, "--all", "--format", "svg", "-q", "-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<?xml") && svg.ends_with("</svg>\n"));
    let count = emx(&["solve", BOARD_4X4, "--format", "json", "-q"]);
    let n = serde_json::from_slice::<Value>(&count.stdout).unwrap()["solutions"].as_u64().unwrap();
    assert!(n > 1);
    assert_eq!(svg.matches(">solution ").count() as u64, n, "a caption per board");
    assert!(svg.contains(&format!(">solution {n}<")));
    assert_eq!(listing(&dir), vec!["all.svg"], "no scratch file left");
    // One solution: no caption, as a picture of a single board.
    let out = emx(&["solve", BOARD_4X4, "--format", "svg", "-q", "-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(!std::fs::read_to_string(&path).unwrap().contains(">solution "));
}

#[test]
fn boards_stream_as_board_files_that_score_reads() {
    let dir = crate::Scratch::new("stream-boards");
    let path = dir.join("boards.txt");
    let out = emx(&["solve", BOARD_4X4, "--first", "3", "--format", "board", "-q", "-o", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("# pieces_04x04 board ").count(), 3);
    let scored = emx(&["score", "--puzzle", BOARD_4X4, path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(scored.status.code(), Some(0), "{}", String::from_utf8_lossy(&scored.stderr));
    // The same boards as bucas lines, which score reads back as solved boards.
    let bucas = dir.join("boards.bucas.txt");
    let out = emx(&["solve", BOARD_4X4, "--first", "3", "--format", "bucas", "-q", "-o", bucas.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = std::fs::read_to_string(&bucas).unwrap();
    assert_eq!(lines.lines().count(), 3);
    assert!(lines.lines().all(|l| l.starts_with("pieces_04x04 jblackwood ")), "{lines}");
    let scored = emx(&["score", "--puzzle", BOARD_4X4, bucas.to_str().unwrap(), "--format", "json"]);
    assert_eq!(scored.status.code(), Some(0), "{}", String::from_utf8_lossy(&scored.stderr));
    // A polycube puzzle has no board to write.
    let out = emx(&["solve", SOMA, "--format", "bucas", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an edge-matching puzzle"));
}

#[test]
fn the_size_cap_stops_a_growing_output_and_leaves_nothing() {
    let dir = crate::Scratch::new("stream-cap");
    for format in ["svg", "json", "jsonl", "text"] {
        let path = dir.join(format!("all.{format}"));
        let out =
            emx(&["solve", TETRIS, "--all", "--format", format, "--max-size", "2M", "-o", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("over the size cap"), "{format}: {stderr}");
        assert!(listing(&dir).is_empty(), "{format}: {:?}", listing(&dir));
    }
    // On standard output the bytes before the cap are written, never more.
    let out = emx(&["solve", TETRIS, "--all", "--format", "jsonl", "--max-size", "2M"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.len() <= 2 << 20, "{} bytes", out.stdout.len());
}

#[cfg(unix)]
#[test]
fn ctrl_c_in_a_long_list_leaves_a_complete_file_of_what_was_found() {
    use std::process::Stdio;
    use std::time::Duration;
    let dir = crate::Scratch::new("stream-interrupt");
    for format in ["svg", "json"] {
        let path = dir.join(format!("all.{format}"));
        let child = Command::new(env!("CARGO_BIN_EXE_emx"))
            .args(["solve", TETRIS, "--all", "--format", format, "--max-size", "100G", "-q", "-o"])
            .arg(&path)
            .current_dir(repo_path(""))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Long enough for some solutions (the first come within a second).
        std::thread::sleep(Duration::from_millis(1500));
        let ok = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success();
        assert!(ok);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&path).unwrap();
        match format {
            "svg" => assert!(text.ends_with("</svg>\n"), "a whole document"),
            _ => {
                let v: Value = serde_json::from_str(&text).expect("a whole JSON object");
                assert_eq!(v["stopped"], "interrupted");
                assert_eq!(v["solution_list"].as_array().unwrap().len() as u64, v["solutions"].as_u64().unwrap());
            }
        }
        assert_eq!(listing(&dir), vec![format!("all.{format}")]);
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_cpu_time_limit_stops_the_search() {
    let out = emx(&["solve", TETRIS, "--time-limit", "0.3", "--clock", "cpu", "--format", "json", "-q"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stopped"], "time_limit");
    assert_eq!(v["complete"], false);
}

#[test]
fn an_estimate_goes_to_the_output_file() {
    let dir = crate::Scratch::new("estimate-out");
    for (file, name) in [(SOMA, "soma.json"), (BOARD_4X4, "board.json")] {
        let path = dir.join(name);
        let out = emx(&["solve", file, "--estimate", "200,1", "--format", "json", "-o", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "{file}: the report goes to -o, not stdout");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["mode"], "estimate");
    }
}
