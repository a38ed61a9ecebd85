//! The pictures several commands draw: a puzzle's pieces or tiles, and a
//! list of solutions, as SVG.

use emx::edgematch::{Board, Placed};
use emx::input::{Instance, InstanceKind};
use emx::ir::Solution;
use emx::render::svg;

/// The error for a problem without geometry.
pub fn nothing_to_draw(instance: &Instance) -> anyhow::Error {
    crate::usage::UsageError(format!(
        "{} is a bare exact-cover problem: it has no board or pieces to draw (use --format text or json)",
        instance.file
    ))
    .into()
}

/// The picture of a puzzle without a solution: polycube pieces one by one,
/// edge-matching tiles in file order with their numbers.
pub fn puzzle_picture(instance: &Instance, title: &str) -> anyhow::Result<String> {
    Ok(match &instance.kind {
        InstanceKind::Cover(_) => return Err(nothing_to_draw(instance)),
        InstanceKind::Polycube(_) => {
            let geo = instance.problem().geometry.as_ref().expect("front-ends attach geometry");
            svg::piece_catalogue(geo, title)
        }
        InstanceKind::EdgeMatch(e) => {
            let p = &e.puzzle;
            let mut board = Board::empty(p.rows, p.cols);
            for (k, cell) in board.cells.iter_mut().enumerate() {
                *cell = Some(Placed { tile: k as u32, rotation: 0 });
            }
            svg::board(p, &board, title, &svg::BoardStyle::tile_set())
        }
    })
}

/// A picture of solutions (option ids) of `instance`.
pub fn solutions_picture(instance: &Instance, title: &str, solutions: &[Solution]) -> anyhow::Result<String> {
    Ok(match &instance.kind {
        InstanceKind::Cover(_) => return Err(nothing_to_draw(instance)),
        InstanceKind::Polycube(_) => {
            let geo = instance.problem().geometry.as_ref().expect("front-ends attach geometry");
            let options: Vec<&[u32]> = solutions.iter().map(|s| s.options.as_slice()).collect();
            svg::solutions(geo, title, &options)
        }
        InstanceKind::EdgeMatch(e) => {
            let boards: Vec<Board> =
                solutions.iter().map(|s| emx::edgematch::ir::board_of(&e.puzzle, &e.problem, &s.options)).collect();
            svg::boards(&e.puzzle, &boards, title, &svg::BoardStyle::solution())
        }
    })
}
