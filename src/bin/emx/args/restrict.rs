//! `--pin-first-corner` and `--break-symmetry`: the restrictions of an
//! encoding that `emx encode` writes and `emx decode` must know to number
//! the nodes of a clique graph the same way.

use emx::encode::restrict::{self, Restriction};
use emx::input::{Instance, InstanceKind};

/// The restriction the flags ask for, if any.
pub fn restriction(instance: &Instance, pin: bool, break_symmetry: bool) -> anyhow::Result<Option<Restriction>> {
    let problem = instance.problem();
    if pin && break_symmetry {
        crate::usage_bail!("--pin-first-corner and --break-symmetry both break the board's symmetry: use one of them");
    }
    if pin {
        let InstanceKind::EdgeMatch(e) = &instance.kind else {
            crate::usage_bail!("--pin-first-corner applies to edge-matching puzzles only");
        };
        return Ok(Some(restrict::pin_first_corner(&e.puzzle, problem).map_err(|e| crate::usage_error!("{e}"))?));
    }
    let mut out = None;
    if break_symmetry {
        let Some((_, r, _)) = restrict::break_symmetry(problem) else {
            crate::usage_bail!(
                "--break-symmetry: the puzzle lists no symmetry group acting freely on one piece's placements"
            );
        };
        out = Some(r);
    }
    Ok(out)
}
