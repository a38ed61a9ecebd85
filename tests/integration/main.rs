//! emx integration tests: one binary, one module per area.

mod agreement;
mod architecture;
mod auto_pick;
mod bench;
mod bucas_boards;
mod cli;
mod cp;
mod dlx_knuth;
mod docs;
mod edgematch_counts;
mod edgematch_errors;
mod edgematch_estimate;
mod edgematch_formats;
mod edgematch_generate;
mod edgematch_score;
mod edgematch_split;
mod encoders;
mod forged_answers;
mod frictions;
mod fuzz_regressions;
mod help;
mod huge_inputs;
mod json_schema;
mod limits;
mod maxsat;
mod optimize;
mod poly;
mod poly_random;
mod polycube_counts;
mod polycube_errors;
mod render;
mod run_limits;
mod split_tasks;
mod streaming;
mod ux_cli;
mod zoo;

use std::path::{Path, PathBuf};

/// Path of a file relative to the repository root.
pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Each solution as its sorted option ids, in a set (a solution reported
/// twice appears once).
pub fn option_sets(solutions: &[emx::ir::Solution]) -> std::collections::BTreeSet<Vec<u32>> {
    solutions
        .iter()
        .map(|s| {
            let mut o = s.options.clone();
            o.sort_unstable();
            o
        })
        .collect()
}

/// A scratch directory for one test, `emx-<tag>-<pid>` under the system
/// temp directory: emptied when made, removed with its contents when
/// dropped (also when the test fails), so that test runs leave nothing
/// behind. Tags are unique per test (tests of one binary share the pid).
pub struct Scratch(PathBuf);

impl Scratch {
    /// Makes the (empty) directory for `tag`.
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("emx-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Splits `file` with `emx split FILE --depth DEPTH`, solves every part
/// with `emx solve PART --format json SOLVE_ARGS...`, and merges the
/// results with `emx merge`: the split's JSON summary and the merge's JSON.
/// The parts live in a [`Scratch`] directory named after `tag`.
pub fn split_solve_merge(
    file: &str,
    depth: &str,
    solve_args: &[&str],
    tag: &str,
) -> (serde_json::Value, serde_json::Value) {
    use std::process::{Command, Output};
    let emx = |args: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_emx")).args(args).current_dir(repo_path("")).output().unwrap()
    };
    let json = |out: &Output| -> serde_json::Value {
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        serde_json::from_str(text.lines().last().unwrap_or("")).unwrap_or_else(|e| panic!("{e}: {text}"))
    };
    let scratch = Scratch::new(&format!("split-{tag}"));
    let dir = scratch.join("parts");
    let summary = json(&emx(&["split", file, "--depth", depth, "--out", dir.to_str().unwrap(), "--format", "json"]));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let parts = manifest["parts"].as_array().unwrap();
    assert_eq!(parts.len() as u64, summary["parts"].as_u64().unwrap());
    assert!(parts.len() > 1);
    for p in parts {
        let file = dir.join(p["file"].as_str().unwrap());
        let mut args = vec!["solve", file.to_str().unwrap(), "--format", "json"];
        args.extend_from_slice(solve_args);
        let result = emx(&args);
        json(&result);
        std::fs::write(file.with_extension("json"), &result.stdout).unwrap();
    }
    let merged = emx(&["merge", dir.join("manifest.json").to_str().unwrap(), "--format", "json"]);
    assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
    (summary, json(&merged))
}

/// Runs an insta assertion with snapshots stored under the top-level
/// `snapshots/` directory.
#[macro_export]
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({ snapshot_path => $crate::repo_path("snapshots"), prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// One test per bad input file: `error_of(name)` (defined in the calling
/// module) must name the file, and its text is the snapshot
/// `<prefix><name>`.
#[macro_export]
macro_rules! error_snapshots {
    ($prefix:literal; $($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let text = error_of(stringify!($name));
            assert!(text.contains(&format!("{}.txt:", stringify!($name))), "{text}");
            $crate::snapshot!(concat!($prefix, stringify!($name)), text);
        }
    )*};
}
