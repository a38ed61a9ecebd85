//! Entry points of the fuzz targets (`fuzz/fuzz_targets/*.rs`, run with
//! `cargo fuzz`), kept in the library so that the regression tests replay
//! every crash the fuzzers found (`tests/data/fuzz/TARGET/*`) through
//! exactly the same code. Each entry takes arbitrary bytes, runs one reader
//! and whatever consumes its result (building the IR under a small size
//! cap, a few hundred search nodes, verification, a write/re-read round
//! trip), and panics only on a bug: readers must return errors.

use crate::edgematch::generate::{generate, GenerateSpec, Style};
use crate::edgematch::EdgePuzzle;
use crate::frontend::edgematch as edge_formats;
use crate::input::{self, InputFormat, Instance, InstanceKind, LoadOptions};
use crate::ir::Solution;
use crate::search::{Flow, Limits};
use crate::size_cap::SizeCap;
use std::sync::OnceLock;

/// The fuzz targets, one per reader.
pub const TARGETS: &[&str] = &[
    "polycube",
    "meta",
    "heule",
    "emx",
    "board",
    "bucas",
    "cnf",
    "model",
    "clique",
    "graph",
    "dlx",
    "lp_solution",
    "input",
];

/// The IR cap of the fuzz entries: small, so every execution is fast.
const FUZZ_IR_CAP: u64 = 64 << 10;
/// Search nodes each engine gets on a fuzzed instance.
const FUZZ_NODES: u64 = 100;

/// Runs the entry of `target` on `data`. Panics on an unknown target.
pub fn run(target: &str, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    match target {
        "polycube" => load(text, InputFormat::Polycube),
        "meta" => edge_puzzle(text, InputFormat::Meta),
        "heule" => edge_puzzle(text, InputFormat::Heule),
        "emx" => edge_puzzle(text, InputFormat::Emx),
        "board" => board(text),
        "bucas" => bucas(text),
        "cnf" => cnf(text),
        "model" => model(text),
        "clique" => clique(text),
        "graph" => {
            let _ = emx_encoders::graph::read_graph(text);
        }
        "dlx" => load(text, InputFormat::Dlx),
        "lp_solution" => lp_solution(text),
        "input" => {
            if let Some(format) = InputFormat::detect(text) {
                load(text, format);
            }
        }
        other => panic!("unknown fuzz target `{other}`: expected one of {TARGETS:?}"),
    }
}

/// Loads `text` as `format` with the small cap; a loaded instance is
/// searched briefly by every applicable back-end, each solution verified.
fn load(text: &str, format: InputFormat) {
    let opts = LoadOptions { max_size: SizeCap::new(FUZZ_IR_CAP), ..LoadOptions::default() };
    let Ok(instance) = input::load_text(text, "fuzz", "fuzz", Some(format), 1, &opts) else { return };
    search_briefly(&instance);
}

fn search_briefly(instance: &Instance) {
    for name in ["dlx", "scan"] {
        let Ok(mut engine) = crate::backend::make(name, instance, &Default::default()) else { continue };
        let limits = Limits { max_nodes: Some(FUZZ_NODES), ..Limits::default() };
        engine.run(&limits, &mut |options| {
            let solution = Solution { options: options.to_vec() };
            if let Err(e) = instance.verify(&solution) {
                panic!("{name} reported an invalid solution: {e}");
            }
            Flow::Continue
        });
    }
}

/// An edge-matching reader; a puzzle it accepts must survive a write and
/// re-read in its own format unchanged, and is then built and searched.
fn edge_puzzle(text: &str, format: InputFormat) {
    let Ok(puzzle) = crate::frontend::format::parse_puzzle(text, format, "fuzz", "fuzz") else { return };
    let written = match format {
        InputFormat::Meta => edge_formats::write_meta(&puzzle),
        InputFormat::Heule => edge_formats::write_heule(&puzzle),
        _ => edge_formats::write_emx(&puzzle, &[]),
    };
    let again = crate::frontend::format::parse_puzzle(&written, format, "fuzz", "fuzz")
        .unwrap_or_else(|e| panic!("a written puzzle does not read back: {e}\n{written}"));
    assert_eq!(
        (again.rows, again.cols, &again.tiles, &again.clues),
        (puzzle.rows, puzzle.cols, &puzzle.tiles, &puzzle.clues),
        "write/read round trip changed the puzzle"
    );
    load(text, format);
}

/// A small fixed puzzle for the readers that need one (boards, bucas, LP
/// solutions, models, cliques).
fn small_instance() -> &'static Instance {
    static INSTANCE: OnceLock<Instance> = OnceLock::new();
    INSTANCE.get_or_init(|| {
        let spec = GenerateSpec { rows: 4, cols: 4, style: Style::Uniform { colors: 3 }, seed: 7 };
        let puzzle = generate(&spec).expect("valid spec").puzzle;
        let problem = crate::edgematch::ir::to_problem(&puzzle);
        Instance {
            file: "fuzz".into(),
            kind: InstanceKind::EdgeMatch(Box::new(input::EdgeInstance { puzzle, problem })),
        }
    })
}

fn small_puzzle() -> &'static EdgePuzzle {
    match &small_instance().kind {
        InstanceKind::EdgeMatch(e) => &e.puzzle,
        _ => unreachable!("small_instance is edge matching"),
    }
}

fn board(text: &str) {
    let Ok(board) = edge_formats::parse_board(text, "fuzz") else { return };
    let puzzle = small_puzzle();
    if board.rows == puzzle.rows && board.cols == puzzle.cols {
        let _ = crate::edgematch::score::score(&board, puzzle);
        let _ = board.check_solution(puzzle);
    }
}

fn bucas(text: &str) {
    let _ = edge_formats::is_bucas(text);
    let puzzle = small_puzzle();
    let Ok(boards) = edge_formats::parse_bucas(text, "fuzz", puzzle) else { return };
    for (name, b) in boards {
        let _ = crate::edgematch::score::score(&b, puzzle);
        // Written back as a line and as a URL, the board reads back with
        // the same colours in every cell.
        let Ok(line) = edge_formats::bucas_line(&name, puzzle, &b) else { continue };
        let url = edge_formats::viewer_url(&name, puzzle, &b).expect("the line was written");
        for again in [line, url] {
            let back = edge_formats::parse_bucas(&again, "fuzz", puzzle)
                .unwrap_or_else(|e| panic!("a written bucas board does not read back: {e}: {again}"));
            let looks =
                |b: &crate::edgematch::Board| (0..b.cells.len()).map(|i| b.colours(puzzle, i)).collect::<Vec<_>>();
            assert_eq!(looks(&back[0].1), looks(&b), "bucas round trip changed the board: {again}");
        }
    }
}

fn cnf(text: &str) {
    let Ok(cnf) = emx_encoders::dimacs::read_cnf(text) else { return };
    let mut out = Vec::new();
    emx_encoders::dimacs::write_cnf(&mut out, &cnf, "fuzz").expect("writing to memory");
    let again = emx_encoders::dimacs::read_cnf(&String::from_utf8(out).expect("DIMACS is ASCII"))
        .unwrap_or_else(|e| panic!("a written CNF does not read back: {e}"));
    assert_eq!(again.n_clauses(), cnf.n_clauses());
    assert!(again.clauses().eq(cnf.clauses()), "write/read round trip changed the CNF");
}

fn model(text: &str) {
    let Ok(answer) = emx_encoders::model::read_answer(text) else { return };
    let instance = small_instance();
    let s = crate::encode::cnf::solution_of(instance.problem(), &answer);
    let _ = instance.verify(&s);
}

fn clique(text: &str) {
    let instance = small_instance();
    let problem = instance.problem();
    let _ = crate::encode::clique::read_map(text, problem);
    let g = crate::encode::clique::graph(problem, &[]).expect("edge matching has no multiplicities");
    let Ok(cliques) = emx_encoders::graph::read_cliques(text, g.n_nodes()) else { return };
    for c in cliques {
        let _ = instance.verify(&crate::encode::clique::solution_of(g.nodes(), &c));
    }
}

fn lp_solution(text: &str) {
    let instance = small_instance();
    let puzzle = small_puzzle();
    let Ok(board) = crate::encode::lp::read_solution(text, "fuzz", puzzle) else { return };
    let _ = board.check_solution(puzzle);
    let s = crate::encode::lp::options_of_board(puzzle, instance.problem(), &board);
    let _ = instance.verify(&s);
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_target_accepts_empty_and_sample_input() {
        for t in super::TARGETS {
            super::run(t, b"");
            super::run(t, b"D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 0\nC:name=b:layout=0 0 0\n~D\n");
            super::run(t, b"2 2\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n");
        }
    }
}
