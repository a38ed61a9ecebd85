//! Classic polyomino and polycube puzzles with known counts: every
//! configuration that runs fast agrees with plain DLX, `auto` gives the
//! published counts, and `auto` picks the schedules docs/engines.md
//! describes for them ("`--schedule auto`").

use crate::poly::{base, check_all, counts, load, sched};
use emx::backend::{self, BackendConfig};
use emx::input::Instance;
use emx::ir::Equivalence;
use emx::poly::filters::redundancy::RedundancyMode;
use emx::poly::PolyConfig;

const NONE: Equivalence = Equivalence::None;
const ROT: Equivalence = Equivalence::Rotations;
const MIRROR: Equivalence = Equivalence::RotationsAndMirrors;

/// `auto`'s description of its engine for `inst`.
fn auto_describe(inst: &Instance) -> String {
    backend::make("poly", inst, &BackendConfig { poly: base(), ..BackendConfig::default() }).unwrap().describe()
}

/// Plain DLX gives `expected` (`(equivalence, reported, fixed-box)`).
fn dlx_agrees(inst: &Instance, expected: &[(Equivalence, u64, u64)]) {
    for &(eq, reported, found) in expected {
        assert_eq!(counts(inst, "dlx", base(), eq), (reported, found), "dlx on {} under {eq:?}", inst.file);
    }
}

/// `auto` gives `expected`.
fn auto_agrees(inst: &Instance, expected: &[(Equivalence, u64, u64)]) {
    for &(eq, reported, found) in expected {
        assert_eq!(counts(inst, "poly", base(), eq), (reported, found), "auto on {} under {eq:?}", inst.file);
    }
}

/// The 12 pentominoes in 20x3: 2 solutions up to rotation and reflection
/// (Wikipedia, "Pentomino"), every configuration and plain DLX agree.
#[test]
fn pentominoes_20x3_every_configuration() {
    let inst = load("pentominoes_20x3_def.txt");
    let expected = [(NONE, 8, 8), (ROT, 2, 8), (MIRROR, 2, 8)];
    check_all(&inst, &expected, &["redundancy off", "identical", "bdlx"]);
    dlx_agrees(&inst, &expected);
}

/// The 12 pentominoes in 15x4: 368 (Wikipedia, "Pentomino").
#[test]
fn pentominoes_15x4() {
    let inst = load("pentominoes_15x4_def.txt");
    let expected = [(ROT, 368, 1472), (MIRROR, 368, 1472)];
    auto_agrees(&inst, &expected);
    for s in ["debruijn", "dlx:min-fit,emch+6@11", "mch"] {
        let cfg = PolyConfig { schedule: sched(s), ..base() };
        assert_eq!(counts(&inst, "poly", cfg, ROT), (368, 1472), "{s}");
    }
}

/// Dana Scott's 8x8 board with a 2x2 hole in the centre: 65 up to
/// rotation and reflection (Scott 1958, in Gardner). `auto` takes X as the
/// constrained piece and, the board being wide, EMCH after DLX's first
/// pieces: DLX places I second under the two X images on a mirror line
/// (each class then searched once); without that second piece (`@11`)
/// the counts are the same.
#[test]
fn pentominoes_8x8_centre_hole() {
    let inst = load("pentominoes_8x8_centre_hole_def.txt");
    let describe = auto_describe(&inst);
    assert!(
        describe.contains("dlx:min-fit,emch+6@10")
            && describe.contains("redundancy on X")
            && describe.contains("a second piece constrained under 2 of them (I)"),
        "{describe}"
    );
    let expected = [(NONE, 520, 520), (ROT, 65, 520), (MIRROR, 65, 520)];
    auto_agrees(&inst, &expected);
    for s in ["debruijn", "dlx:min-fit,debruijn@11", "dlx:min-fit,emch+6@11"] {
        let cfg = PolyConfig { schedule: sched(s), ..base() };
        assert_eq!(counts(&inst, "poly", cfg, ROT), (65, 520), "{s}");
    }
    let static_choice = PolyConfig { redundancy: Some(RedundancyMode::parse("mirror:I").unwrap()), ..base() };
    assert_eq!(counts(&inst, "poly", static_choice, MIRROR), (65, 520));
}

/// Slothouber-Graatsma: six 1x2x2 blocks and three unit cubes in 3x3x3,
/// one solution up to rotation and reflection (Wikipedia). No piece is
/// uniquely shaped, so no redundancy filter applies.
#[test]
fn slothouber_graatsma_every_configuration() {
    let inst = load("slothouber_graatsma_def.txt");
    let expected = [(NONE, 8, 8), (ROT, 1, 8), (MIRROR, 1, 8)];
    check_all(&inst, &expected, &["redundancy rot", "redundancy mirror", "force first"]);
    dlx_agrees(&inst, &expected);
}

/// The 8 tetracubes in 4x4x2: 1390 up to rotation (not published; emx and
/// plain DLX agree).
#[test]
fn tetracubes_4x4x2_every_configuration() {
    let inst = load("tetracubes_4x4x2_def.txt");
    let expected = [(ROT, 1390, 11120), (MIRROR, 695, 11120)];
    check_all(&inst, &expected, &["redundancy off", "identical", "bdlx", "dlx:"]);
    dlx_agrees(&inst, &expected);
}

/// Seconds in a debug build: the 12 pentominoes in 12x5, 1010
/// (Wikipedia, "Pentomino").
#[test]
#[ignore]
fn pentominoes_12x5() {
    let inst = load("pentominoes_12x5_def.txt");
    let expected = [(ROT, 1010, 4040), (MIRROR, 1010, 4040)];
    auto_agrees(&inst, &expected);
    dlx_agrees(&inst, &[(ROT, 1010, 4040)]);
    let emch = PolyConfig { schedule: sched("dlx:min-fit,emch+6@11"), ..base() };
    assert_eq!(counts(&inst, "poly", emch, ROT), (1010, 4040));
}

/// Conway's puzzle in 5x5x5 (not published; emx and plain DLX agree).
/// Above 64 cells `auto` runs EMCH from the second piece, no MCH.
#[test]
#[ignore]
fn conway_5x5x5() {
    let inst = load("conway_5x5x5_def.txt");
    let describe = auto_describe(&inst);
    assert!(describe.contains("dlx:min-fit,emch+6@17"), "{describe}");
    let expected = [(ROT, 1144, 27456), (MIRROR, 572, 27456)];
    auto_agrees(&inst, &expected);
    dlx_agrees(&inst, &expected);
    let mch = PolyConfig { schedule: sched("dlx:min-fit,mch@17,emch+6@8"), ..base() };
    assert_eq!(counts(&inst, "poly", mch, ROT), (1144, 27456));
}

/// The 12 pentominoes and the square tetromino in 8x8 (16146, not
/// published; emx and plain DLX agree). `auto` takes X, not the static
/// choice I (a far smaller tree), and EMCH after DLX's first piece; DLX
/// places I second under the X images with a symmetric stabiliser.
#[test]
#[ignore]
fn pentominoes_8x8_square() {
    let inst = load("pentominoes_8x8_square_def.txt");
    let describe = auto_describe(&inst);
    assert!(
        describe.contains("dlx:min-fit,emch+6@11")
            && describe.contains("redundancy on X")
            && describe.contains("second piece constrained under 3 of them (I)"),
        "{describe}"
    );
    let expected = [(ROT, 16146, 129168), (MIRROR, 16146, 129168)];
    auto_agrees(&inst, &expected);
    dlx_agrees(&inst, &[(MIRROR, 16146, 129168)]);
    let de_bruijn = PolyConfig {
        schedule: sched("dlx:min-fit,debruijn@12"),
        redundancy: Some(RedundancyMode::parse("mirror:I").unwrap()),
        ..base()
    };
    assert_eq!(counts(&inst, "poly", de_bruijn, MIRROR), (16146, 129168));
}

/// Plain DLX (no redundancy filter: seconds in release, minutes in a debug
/// build) agrees on the 15x4 and Scott's 8x8.
#[test]
#[ignore]
fn dlx_agrees_on_15x4_and_centre_hole() {
    dlx_agrees(&load("pentominoes_15x4_def.txt"), &[(ROT, 368, 1472)]);
    dlx_agrees(&load("pentominoes_8x8_centre_hole_def.txt"), &[(ROT, 65, 520)]);
}
