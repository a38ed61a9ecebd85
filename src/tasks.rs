//! Task files of `emx split --tasks N` and their results (`emx task`), and
//! the checks `emx merge` applies to them before it adds anything up.
//!
//! A split with tasks groups its parts (the subproblems listed in
//! `manifest.json`, numbered from 1 in manifest order) into `N` task files.
//! A task file is self-contained: it holds the original puzzle's text and
//! the specification of each of its parts, so a batch node needs nothing
//! else. Its result lists, for each part, every solution found, their
//! count and a digest of the sorted list, and names the split it belongs
//! to ([`split_id`]: a digest of the original puzzle's text and the
//! manifest). [`collect`] accepts a set of results only when each one is
//! from this split, is a task of it met once, covers exactly the parts the
//! split gave that task, and agrees with itself (counts, list, digests).
//!
//! The digests are 64-bit FNV-1a: they catch results mixed up between
//! splits, truncated or edited lists, not a forger who recomputes them;
//! merge verifies every listed solution against the original puzzle for
//! that.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Value of [`TaskFile::format`] and [`TaskResult::format`].
pub const FORMAT: &str = "emx-task-1";

/// The 64-bit FNV-1a digest of the concatenated `chunks`, as 16 hex digits.
pub fn digest<'a>(chunks: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in chunks {
        for &b in chunk {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The identity of a split: a digest of the original puzzle's text and the
/// manifest's JSON (written without its `split` field). Two splits share it
/// only when they cut the same puzzle text into the same parts.
pub fn split_id(puzzle_text: &str, manifest_json: &str) -> String {
    digest([puzzle_text.as_bytes(), b"\0", manifest_json.as_bytes()])
}

/// The digest of a solution list: over the canonical JSON of each solution
/// (`serde_json`'s compact form, object keys sorted), sorted, one a line.
/// The order the solutions were found in does not change it.
pub fn solutions_digest(solutions: &[Value]) -> String {
    let mut lines: Vec<String> = solutions.iter().map(Value::to_string).collect();
    lines.sort_unstable();
    digest(lines.iter().flat_map(|l| [l.as_bytes(), b"\n"]))
}

/// The digest of a task's result: over its parts' `id found digest` lines,
/// in the order listed.
pub fn task_digest(parts: &[PartFound]) -> String {
    let lines: Vec<String> = parts.iter().map(|p| format!("{} {} {}\n", p.id, p.found, p.digest)).collect();
    digest(lines.iter().map(|l| l.as_bytes()))
}

/// The parts (1-based ids) of each of `n_tasks` tasks, dealt round-robin
/// in split order: task sizes differ by at most one part, and neighbouring
/// parts, which share their first placements and so tend to be alike in
/// size, go to different tasks.
pub fn groups(n_parts: usize, n_tasks: usize) -> Result<Vec<Vec<u64>>, TaskError> {
    if n_tasks == 0 || n_tasks > n_parts {
        return Err(TaskError::TaskCount { tasks: n_tasks, parts: n_parts });
    }
    let mut out = vec![Vec::new(); n_tasks];
    for p in 0..n_parts {
        out[p % n_tasks].push(p as u64 + 1);
    }
    Ok(out)
}

/// One task as `manifest.json` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskEntry {
    /// Task file, relative to the manifest.
    pub file: String,
    /// Its parts (1-based ids into the manifest's part list).
    pub parts: Vec<u64>,
}

/// A task file (`task-K.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// `"polycube"` or `"edgematch"`.
    pub kind: String,
    /// The split's [`split_id`].
    pub split: String,
    /// This task's number (1-based).
    pub task: u64,
    /// Tasks in the split.
    pub tasks: u64,
    /// The original puzzle file, as named to `emx split`.
    pub file: String,
    /// Puzzle index in that file (1-based).
    pub puzzle: usize,
    /// The original file's text.
    pub text: String,
    /// The parts to solve.
    pub parts: Vec<TaskPart>,
}

/// One part of a task file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskPart {
    /// Its id in the manifest.
    pub id: u64,
    /// What the part fixes, as the manifest lists it for this kind.
    pub spec: Value,
}

/// The result of one task (`task-K.result.json`, written by `emx task`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TaskResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// The split's [`split_id`].
    pub split: String,
    /// The task's number.
    pub task: u64,
    /// Whether every part's search finished.
    pub complete: bool,
    /// Solutions over all parts.
    pub found: u64,
    /// [`task_digest`] of `parts`.
    pub digest: String,
    /// Each part's solutions.
    pub parts: Vec<PartFound>,
}

/// The solutions of one part in a [`TaskResult`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartFound {
    /// The part's id.
    pub id: u64,
    /// Solutions found (the length of `solutions`).
    pub found: u64,
    /// Whether its search finished.
    pub complete: bool,
    /// [`solutions_digest`] of `solutions`.
    pub digest: String,
    /// Every solution, as `emx solve --format json` lists them.
    pub solutions: Vec<Value>,
}

/// Why task results are refused, or a split cannot be grouped.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TaskError {
    /// `--tasks` is 0 or exceeds the parts.
    #[error("--tasks {tasks}: the split has {parts} parts, so between 1 and {parts} tasks (a larger --depth gives more parts)")]
    TaskCount {
        /// Tasks asked for.
        tasks: usize,
        /// Parts of the split.
        parts: usize,
    },
    /// A result file disagrees with the split or with itself.
    #[error("{file}: {message}")]
    Refused {
        /// The result file.
        file: String,
        /// What is wrong.
        message: String,
    },
}

fn refused(file: &str, message: String) -> TaskError {
    TaskError::Refused { file: file.to_string(), message }
}

/// What [`collect`] accepted: each part's result (by part id − 1, with the
/// result file it came from), and the tasks with no result.
#[derive(Clone, Debug, Default)]
pub struct Collected {
    /// Per part: the result file and its [`PartFound`], or `None` when its
    /// task has no result.
    pub parts: Vec<Option<(String, PartFound)>>,
    /// Tasks (1-based) with no result.
    pub missing: Vec<u64>,
}

/// Checks `results` (each with the file it was read from) against a split
/// of `n_parts` parts whose manifest names `split` and lists `tasks`:
/// every result is of this split and of a task of it, no task is given
/// twice, each result covers exactly its task's parts, and each count and
/// digest matches its list. Solutions themselves are checked by the merge
/// of the puzzle's kind.
pub fn collect(
    split: &str,
    tasks: &[TaskEntry],
    n_parts: usize,
    results: Vec<(String, TaskResult)>,
) -> Result<Collected, TaskError> {
    let mut by_task: Vec<Option<String>> = vec![None; tasks.len()];
    let mut out = Collected { parts: vec![None; n_parts], missing: Vec::new() };
    for (file, r) in results {
        if r.format != FORMAT {
            return Err(refused(&file, format!("format `{}`, expected `{FORMAT}`", r.format)));
        }
        if r.split != split {
            return Err(refused(
                &file,
                format!("a result of another split ({}; this manifest is split {split})", r.split),
            ));
        }
        if r.task == 0 || r.task as usize > tasks.len() {
            return Err(refused(
                &file,
                format!("task {} is not a task of this split (it has {})", r.task, tasks.len()),
            ));
        }
        let k = r.task as usize - 1;
        if let Some(other) = &by_task[k] {
            return Err(refused(&file, format!("task {} again (its result is also {other})", r.task)));
        }
        by_task[k] = Some(file.clone());
        let want = &tasks[k].parts;
        let got: Vec<u64> = r.parts.iter().map(|p| p.id).collect();
        let missing: Vec<String> = want.iter().filter(|id| !got.contains(id)).map(u64::to_string).collect();
        let mut extra: Vec<String> = got.iter().filter(|id| !want.contains(id)).map(u64::to_string).collect();
        let mut sorted = got.clone();
        sorted.sort_unstable();
        extra.extend(sorted.windows(2).filter(|w| w[0] == w[1]).map(|w| format!("{} (twice)", w[0])));
        if !missing.is_empty() || !extra.is_empty() {
            let mut what = Vec::new();
            if !missing.is_empty() {
                what.push(format!("missing part(s) {}", missing.join(", ")));
            }
            if !extra.is_empty() {
                what.push(format!("extra part(s) {}", extra.join(", ")));
            }
            return Err(refused(
                &file,
                format!("task {} does not cover the parts the split gave it: {}", r.task, what.join("; ")),
            ));
        }
        for p in &r.parts {
            if p.found != p.solutions.len() as u64 {
                return Err(refused(
                    &file,
                    format!("part {} claims {} solutions but lists {}", p.id, p.found, p.solutions.len()),
                ));
            }
            if p.digest != solutions_digest(&p.solutions) {
                return Err(refused(&file, format!("part {}: the digest does not match its solution list", p.id)));
            }
        }
        let total: u64 = r.parts.iter().map(|p| p.found).sum();
        if r.found != total {
            return Err(refused(&file, format!("claims {} solutions but its parts list {total}", r.found)));
        }
        if r.digest != task_digest(&r.parts) {
            return Err(refused(&file, "the task digest does not match its parts".to_string()));
        }
        for p in r.parts {
            let id = p.id as usize;
            if id == 0 || id > n_parts {
                return Err(refused(&file, format!("part {id} is not a part of this split (it has {n_parts})")));
            }
            out.parts[id - 1] = Some((file.clone(), p));
        }
    }
    out.missing = (1..=tasks.len() as u64).filter(|&t| by_task[t as usize - 1].is_none()).collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_balanced_and_cover_every_part() {
        let g = groups(10, 3).unwrap();
        assert_eq!(g, vec![vec![1, 4, 7, 10], vec![2, 5, 8], vec![3, 6, 9]]);
        assert_eq!(groups(3, 3).unwrap().len(), 3);
        assert_eq!(groups(3, 4).unwrap_err(), TaskError::TaskCount { tasks: 4, parts: 3 });
        assert!(groups(3, 0).is_err());
    }

    #[test]
    fn digests_ignore_order_but_not_content() {
        let a = serde_json::json!([{"piece": "A", "cells": [[0, 0, 0]]}]);
        let b = serde_json::json!([{"piece": "B", "cells": [[1, 0, 0]]}]);
        assert_eq!(solutions_digest(&[a.clone(), b.clone()]), solutions_digest(&[b.clone(), a.clone()]));
        assert_ne!(solutions_digest(std::slice::from_ref(&a)), solutions_digest(&[a.clone(), a]));
        assert_eq!(digest([b"".as_slice()]), "cbf29ce484222325");
    }
}
