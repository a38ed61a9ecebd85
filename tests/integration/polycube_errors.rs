//! Every malformed definition file gets `file:line:col: what was expected`;
//! the texts are snapshots.

use crate::repo_path;
use emx::input;

fn error_of(name: &str) -> String {
    let rel = format!("tests/data/polycube-errors/{name}.txt");
    let err = input::load(&repo_path(&rel), Some(input::InputFormat::Polycube), 1).unwrap_err();
    // Paths in snapshots are relative to the repository.
    err.to_string().replace(&repo_path("").display().to_string(), "")
}

crate::error_snapshots!(
    "polycube_error_";
    unknown_directive,
    missing_d,
    bad_number,
    layout_outside_box,
    duplicate_name,
    overlapping_stationary,
    volume_mismatch,
    unterminated_l,
    unterminated_d,
    empty,
    only_comments,
    bad_type,
    short_coordinate,
    fits_nowhere,
    oneside_3d,
    stray_end_l,
    too_large,
);
