//! emx integration tests: one binary, one module per area.

mod agreement;
mod bench;
mod cli;
mod cp;
mod edgematch_counts;
mod edgematch_errors;
mod edgematch_formats;
mod edgematch_generate;
mod edgematch_score;
mod edgematch_split;
mod encoders;
mod fuzz_regressions;
mod huge_inputs;
mod json_schema;
mod limits;
mod optimize;
mod poly;
mod polycube_counts;
mod polycube_errors;
mod render;
mod ux_cli;
mod zoo;

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
