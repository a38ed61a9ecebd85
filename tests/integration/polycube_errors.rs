//! Every malformed definition file gets `file:line:col: what was expected`;
//! the texts are snapshots. Wrong solutions are rejected by the verifier.

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

/// The puzzle-level verifier is prepared at the first check, not at load:
/// whatever the first check is, a wrong solution first or a right one,
/// each gets the verdict it would get from a verifier made at load, and so
/// does a copy of the instance made after the verifier was prepared.
#[test]
fn the_verifier_prepared_on_first_use_gives_the_same_verdicts() {
    use emx::dlx::Dlx;
    use emx::ir::Solution;
    use emx::search::{Flow, Limits};
    let path = repo_path("instances/polycube/somacube_def.txt");
    let mut good = Vec::new();
    Dlx::new(input::load(&path, None, 1).unwrap().problem()).search(&Limits::none(), |s| {
        good.push(Solution { options: s.to_vec() });
        if good.len() == 3 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    assert_eq!(good.len(), 3);
    // One piece missing: not an exact cover.
    let short = Solution { options: good[0].options[1..].to_vec() };
    // A piece placed twice in place of another.
    let mut twice = good[0].options.clone();
    twice[1] = twice[0];
    let twice = Solution { options: twice };
    for wrong_first in [false, true] {
        let instance = input::load(&path, None, 1).unwrap();
        if wrong_first {
            assert!(instance.verify(&short).is_err());
        }
        for s in &good {
            assert_eq!(instance.verify(s), Ok(()));
        }
        assert!(instance.verify(&short).is_err());
        assert!(instance.verify(&twice).is_err());
        let copy = instance.clone();
        for s in &good {
            assert_eq!(copy.verify(s), Ok(()));
        }
        assert!(copy.verify(&twice).is_err());
    }
}
