//! emx integration tests: one binary, one module per area.

mod cli;
mod cp;
mod edgematch_counts;
mod edgematch_errors;
mod edgematch_formats;
mod edgematch_generate;
mod edgematch_score;
mod encoders;
mod polycube_counts;
mod polycube_errors;

use std::path::PathBuf;

/// Path of a file relative to the repository root.
pub fn repo_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
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
