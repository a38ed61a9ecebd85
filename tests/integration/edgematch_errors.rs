//! Every malformed edge-matching file gets `file:line[:col]: what was
//! expected` (exit code 2 through the CLI); the texts are snapshots. Files
//! are named `<format>_<mistake>.txt` and read in that format.

use crate::repo_path;
use emx::input::{self, InputFormat};
use std::process::Command;

fn error_of(name: &str) -> String {
    let rel = format!("tests/data/edgematch-errors/{name}.txt");
    let format = name.split('_').next().and_then(InputFormat::from_name);
    let err = input::load(&repo_path(&rel), format, 1).unwrap_err();
    err.to_string().replace(&repo_path("").display().to_string(), "")
}

crate::error_snapshots!(
    "edgematch_error_";
    empty,
    emx_bad_size,
    emx_clue_bad_rotation,
    emx_clue_grey_inside,
    emx_clue_missing_tile,
    emx_clue_outside,
    emx_clue_twice,
    emx_colour_too_large,
    emx_no_size,
    emx_numeric_colour_name,
    emx_square_count,
    emx_three_colours,
    emx_tile_before_size,
    emx_too_many_tiles,
    emx_unknown_colour,
    emx_unknown_directive,
    emx_zero_size,
    heule_bad_hint,
    heule_hint_outside,
    heule_hint_rotation,
    heule_missing_hints,
    heule_no_board_size,
    heule_no_pieces,
    heule_short_piece,
    meta_bad_header,
    meta_five_colours,
    meta_grey_inside,
    meta_grey_opposite,
    meta_negative_colour,
    meta_no_header,
    meta_short_tile,
    meta_too_few_tiles,
    meta_too_large,
    meta_too_many_tiles,
    meta_wrong_kind_count,
);

#[test]
fn crlf_and_a_hint_are_read() {
    let inst = input::load(&repo_path("tests/data/edgematch/heule_crlf_hint.txt"), None, 1).unwrap();
    let input::InstanceKind::EdgeMatch(e) = inst.kind else { panic!("not edge matching") };
    assert_eq!((e.puzzle.rows, e.puzzle.cols, e.puzzle.clues.len()), (3, 3, 1));
}

#[test]
fn cli_exits_2_with_the_position() {
    let out = Command::new(env!("CARGO_BIN_EXE_emx"))
        .args(["solve", "tests/data/edgematch-errors/emx_unknown_colour.txt"])
        .current_dir(repo_path(""))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("emx_unknown_colour.txt:11:"), "{err}");
}

/// Random edits of valid files never make a reader (or the IR builder on
/// what a reader accepts) panic.
#[test]
fn mutated_files_never_panic() {
    use emx::edgematch::generate::SeededRng;
    use emx::frontend::edgematch::parse_board;
    use emx::frontend::format::parse_puzzle;
    let seeds = [
        std::fs::read_to_string(repo_path("instances/edgematch/brendan_set2/pieces_04x04.txt")).unwrap(),
        std::fs::read_to_string(repo_path("tests/data/edgematch/heule_crlf_hint.txt")).unwrap(),
        "# c\nname x\nsize 3 3\ncolors a b\n0 a a 0\n0 a b a\n0 0 a a\na b a 0\nb a b b\na 0 b a\na b 0 0\nb b 0 b\nb 0 0 b\nclue 5 1 1 2\n".to_string(),
        "1/0 2/3 .\n4/1 5/2 6/0\n".to_string(),
    ];
    let alphabet: Vec<char> = "0123456789 -\n\r#/.xabgilnorstuz".chars().collect();
    let mut rng = SeededRng::new(99);
    let mut accepted = 0;
    for round in 0..3000 {
        let mut text: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(text.len() as u64 + 1) as usize;
            match rng.below(3) {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 => text.insert(at, alphabet[rng.below(alphabet.len() as u64) as usize]),
                _ if at < text.len() => text[at] = alphabet[rng.below(alphabet.len() as u64) as usize],
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        for format in [InputFormat::Meta, InputFormat::Heule, InputFormat::Emx] {
            if let Ok(p) = parse_puzzle(&text, format, "f", "n") {
                accepted += 1;
                p.validate().unwrap_or_else(|e| panic!("accepted an invalid puzzle ({e}):\n{text}"));
                if emx::edgematch::ir::option_bound(&p) < 100_000 {
                    let _ = emx::edgematch::ir::to_problem(&p);
                }
            }
        }
        let _ = parse_board(&text, "f");
        let _ = InputFormat::detect(&text);
    }
    assert!(accepted > 50, "only {accepted} mutants were valid puzzles; the test exercises little");
}
