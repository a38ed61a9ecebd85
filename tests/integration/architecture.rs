//! The layering the crate is built on, held against its source: the IR and
//! the search vocabulary depend on no engine, and the engines (DLX, the
//! polycube engines, scan, cp, local search) reach into each other only
//! through the interfaces listed here, each with its reason. A new
//! dependency between engines fails this test until it is added below with
//! one.

use std::path::{Path, PathBuf};

/// Engines, by source folder (or file) and module path.
const ENGINES: [(&str, &str); 5] = [
    ("src/dlx", "crate::dlx"),
    ("src/poly", "crate::poly"),
    ("src/edgematch/scan", "crate::edgematch::scan"),
    ("src/edgematch/cp", "crate::edgematch::cp"),
    ("src/edgematch/local", "crate::edgematch::local"),
];

/// The allowed uses of one engine by another: (user, name used, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    ("src/poly", "crate::dlx::Matrix", "the DLX stages of a polycube schedule run on the dancing-links matrix"),
    ("src/poly", "crate::dlx::Heuristic", "the DLX stages order by DLX's heuristics"),
    ("src/edgematch/cp", "crate::edgematch::scan::Scan", "cp hands a filtered root to scan's walk (Scan::restricted)"),
    ("src/edgematch/cp", "crate::edgematch::scan::cell_order", "cp's row walker follows scan's cell order"),
    ("src/edgematch/local", "crate::dlx::Dlx", "local search re-solves a region exactly with DLX"),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The text of `file` without its test code (a `tests.rs` file is all test
/// code; a `mod tests {` block runs to the end of its file by convention).
fn code(file: &Path) -> String {
    if file.ends_with("tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(file).unwrap();
    match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Every `crate::...` path of `text` starting with `prefix`, as written
/// (up to the first character that is not part of a path); a brace group
/// (`crate::dlx::{Heuristic, Matrix}`) gives one path per member.
fn uses(text: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(prefix) {
        let tail = &rest[i..];
        let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(tail.len());
        let path = &tail[..end];
        if path == prefix || path.starts_with(&format!("{prefix}::")) {
            if path.ends_with("::") && tail[end..].starts_with('{') {
                let group = &tail[end + 1..tail[end..].find('}').map_or(tail.len(), |j| end + j)];
                for member in group.split(',').map(str::trim).filter(|m| !m.is_empty()) {
                    out.push(format!("{path}{member}"));
                }
            } else {
                out.push(path.trim_end_matches(':').to_string());
            }
        }
        rest = &tail[end.max(1)..];
    }
    out
}

#[test]
fn engines_reach_into_each_other_only_through_the_listed_interfaces() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (dir, me) in ENGINES {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        assert!(!files.is_empty(), "{dir}: no source found");
        for file in &files {
            let text = code(file);
            for (_, other) in ENGINES.iter().filter(|(_, m)| *m != me && !me.starts_with(&format!("{m}::"))) {
                for path in uses(&text, other) {
                    let allowed = ALLOWED.iter().any(|(user, name, _)| *user == dir && path.starts_with(name));
                    if !allowed {
                        found.push(format!("{}: {path}", file.strip_prefix(root).unwrap().display()));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "engines reaching into each other outside the listed interfaces:\n{}", found.join("\n"));
}

#[test]
fn the_ir_and_the_search_vocabulary_depend_on_no_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src/ir", "src/search", "src/cpu.rs"] {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        for file in &files {
            let text = code(file);
            for (_, engine) in ENGINES {
                for path in uses(&text, engine) {
                    found.push(format!("{}: {path}", file.strip_prefix(root).unwrap().display()));
                }
            }
            for other in ["crate::frontend", "crate::input", "crate::backend", "crate::encode", "crate::render"] {
                for path in uses(&text, other) {
                    found.push(format!("{}: {path}", file.strip_prefix(root).unwrap().display()));
                }
            }
        }
    }
    assert!(found.is_empty(), "the lower layers depend on the upper ones:\n{}", found.join("\n"));
}
