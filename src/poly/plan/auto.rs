//! `--schedule auto` and the other automatic choices: engines, thresholds
//! and filters picked from the puzzle's size, dimension and piece
//! complexity.

use crate::dlx::Heuristic;
use crate::ir::Problem;
use crate::poly::filters::redundancy::{self, Redundancy, RedundancyMode};
use crate::poly::model::{CellOrder, Images};
use crate::poly::plan::schedule::{Schedule, ScheduleSpec, Stage, Widen};
use crate::poly::{FitFilter, Plan, PolyConfig, Threshold};

/// Whether the puzzle is flat (one cell thick on some axis).
pub fn is_flat(images: &Images) -> bool {
    images.dims.contains(&1)
}

/// The threshold of `auto`'s wider EMCH on 3-D puzzles (`emch+T`).
const WIDEN_EMCH: u32 = 6;

/// Most free cells for which `auto` has DLX place the second piece of a
/// 3-D puzzle (above, EMCH from the second piece on). The name is the
/// one of the stage's older role: an MCH stage followed DLX there, as it
/// still does in the piece choice's estimates ([`estimate_config`]).
pub const MCH_MAX_CELLS: usize = 64;

/// The schedule `auto` picks before the filters run (for a flat puzzle,
/// [`flat_schedule`] replaces it once the redundancy filter has run).
///
/// On 3-D puzzles DLX places the first piece (its min-fit choice runs over
/// the pieces as well as the holes, which a hole engine cannot), or the
/// first two up to [`MCH_MAX_CELLS`] cells with [`SECOND_DLX_FROM`] pieces
/// or more, where the second min-fit choice cuts the tree most; widened
/// EMCH ([`WIDEN_EMCH`]) places the rest, its hole choice nearly as good
/// as MCH's at a fraction of the counting. Every figure behind these
/// choices: docs/tried/poly.md.
pub fn schedule(images: &Images) -> Schedule {
    let n = images.n_pieces();
    if n <= 2 {
        Schedule::single(Stage::DeBruijn)
    } else if is_flat(images) {
        Schedule::dlx_then(Heuristic::MinFit, Stage::DeBruijn, n - 1)
    } else {
        let dlx = if images.n_cells > MCH_MAX_CELLS || n < SECOND_DLX_FROM { 1 } else { 2 };
        solid(n, dlx)
    }
}

/// Pieces from which `auto`'s 3-D schedule has DLX place the second
/// piece (up to 64 cells).
const SECOND_DLX_FROM: u32 = 10;

/// `auto`'s 3-D schedule for `n` pieces: DLX for the first `dlx`, widened
/// EMCH for the rest.
fn solid(n: u32, dlx: u32) -> Schedule {
    Schedule::dlx_then(Heuristic::MinFit, Stage::Emch(Widen { threshold: WIDEN_EMCH, levels: 1 }), n - dlx)
}

/// `auto`'s 3-D schedule with DLX for the third piece too (`emch+6@N-3`), for
/// a puzzle whose redundancy filter constrains a third piece under a pair
/// of kept images ([`crate::poly::filters::redundancy::Nested`]): DLX alone
/// can place that piece at depth 2, and the tree shrinks (the solid
/// pentominoes in 3x4x5: docs/tried/poly.md, "Symmetry and the constrained
/// piece", a third piece under symmetric pairs). `None` on flat puzzles,
/// above [`MCH_MAX_CELLS`] cells (where `auto`'s DLX places one piece
/// only), or where the pieces are too few for three DLX depths before
/// EMCH.
pub fn third_piece_schedule(images: &Images) -> Option<Schedule> {
    /// Fewest pieces for a third DLX depth: the hole stage then still
    /// starts above the bottom 8 pieces. The bound was set for an MCH
    /// stage that had to start there, and kept for the EMCH stage.
    const THIRD_DLX_FROM: u32 = 12;
    let n = images.n_pieces();
    if is_flat(images) || images.n_cells > MCH_MAX_CELLS || n < 4 {
        return None;
    }
    (n >= THIRD_DLX_FROM).then(|| solid(n, 3))
}

/// The configuration the piece choice's estimates run under when `auto`'s
/// `schedule` widens EMCH or has DLX place the second piece: the same with
/// plain EMCH, and the hole engine from the second piece (`None` when
/// neither applies or the user gave the schedule). On the Tetris Cube the
/// estimates under plain EMCH rank the pieces as the real trees do (L
/// first, both ways); under `emch+6` they put E first, whose tree is about
/// half again as large as L's (docs/tried/poly.md, "MCH and EMCH", the
/// piece choice's estimates under plain EMCH). DLX at the second piece
/// would make each probe cover and uncover the root's column in the matrix
/// and count DLX's choice unmemoised, several times the piece choice's
/// cost; with MCH there the estimates are the ones the choice was tuned
/// on.
pub fn estimate_config(config: &PolyConfig, schedule: &Schedule, n_pieces: u32) -> Option<PolyConfig> {
    if !matches!(config.schedule, None | Some(ScheduleSpec::Auto)) {
        return None;
    }
    let fixed =
        |stages| Some(PolyConfig { schedule: Some(ScheduleSpec::Fixed(Schedule { stages })), ..config.clone() });
    let dlx_places_two = matches!(
        schedule.stages.as_slice(),
        [(None, Stage::Dlx(_)), (Some(t), Stage::Mch | Stage::Emch(_)), ..] if *t + 1 < n_pieces
    );
    if dlx_places_two {
        // MCH from the second piece and plain EMCH from 8 left, also where
        // DLX placed a second or third piece: the estimates the piece
        // choice was tuned on (probes through DLX at depth 1 cost the
        // piece choice several times its time, and under plain EMCH from
        // the second piece the Tetris Cube's estimates put E first, whose
        // tree is larger than L's).
        let emch = ESTIMATE_EMCH_FROM.min(n_pieces - 2);
        return fixed(vec![
            schedule.stages[0].clone(),
            (Some(n_pieces - 1), Stage::Mch),
            (Some(emch), Stage::Emch(Widen::default())),
        ]);
    }
    let widened = |s: &Stage| matches!(s, Stage::Emch(w) if w.levels > 0);
    if !schedule.stages.iter().any(|(_, s)| widened(s)) {
        return None;
    }
    let plain = |s: &Stage| if widened(s) { Stage::Emch(Widen::default()) } else { s.clone() };
    fixed(schedule.stages.iter().map(|(t, s)| (*t, plain(s))).collect())
}

/// Pieces left from which the piece choice's estimates run plain EMCH
/// (below MCH) when DLX places more than one piece.
const ESTIMATE_EMCH_FROM: u32 = 8;

/// The schedule `auto` picks for a flat puzzle once the redundancy filter
/// has run (`constrained`: the group it constrained, indexing
/// `images.groups`; `nested`: the filter constrains a second piece under
/// some kept image, [`crate::poly::filters::redundancy::Nested`]).
///
/// On a wide board with a second piece, DLX places two pieces, since only
/// DLX can place it right after the first (a smaller tree on the 8x8 with
/// the square tetromino).
///
/// On a wide board (both sides at least [`WIDE_FLAT`] cells) DLX places
/// the first piece and wider EMCH the rest, as on 3-D puzzles: de Bruijn
/// fills from the first cell along a frontier as long as the board's short
/// side, and on a wide board leaves long ragged fronts that EMCH avoids by
/// going to the most enclosed holes: on the 12 pentominoes and the square
/// tetromino in 8x8 a tree several times smaller, on the hexomino box in a
/// diamond a first solution soon where de Bruijn finds none in a long run
/// (docs/tried/poly.md, "de Bruijn's loop", wide flat boards). On narrow
/// boxes de Bruijn wins (the 12x5), or ties (the 10x6, which keeps de
/// Bruijn).
///
/// Otherwise DLX places the first piece (its min-fit choice, the
/// constrained piece when few of its images are left) and de Bruijn the
/// rest only when the filter confined that piece to the first three
/// quarters of de Bruijn's order: otherwise de Bruijn fills from the first
/// cell, and must search every arrangement of the cells before the last
/// place the piece could go without it. Plain de Bruijn from the start is
/// better everywhere else because its dead-state cache is shared by the
/// whole search, not split by the first piece's placements. Both rules
/// were measured in whole-run instructions on the 10x6, the one-sided
/// 30x3, the 12x5 and the 15x4 (docs/tried/poly.md, "de Bruijn's loop",
/// the piece the redundancy filter confines placed first by DLX).
pub fn flat_schedule(images: &Images, constrained: Option<u16>, nested: bool) -> Schedule {
    let n = images.n_pieces();
    let emch = Stage::Emch(Widen { threshold: WIDEN_EMCH, levels: 1 });
    if n > 3 && nested && is_wide_flat(images) {
        Schedule::dlx_then(Heuristic::MinFit, emch, n - 2)
    } else if n > 2 && is_wide_flat(images) {
        Schedule::dlx_then(Heuristic::MinFit, emch, n - 1)
    } else if n > 2 && constrained.is_some_and(|g| confined(images, g)) {
        Schedule::dlx_then(Heuristic::MinFit, Stage::DeBruijn, n - 1)
    } else {
        Schedule::single(Stage::DeBruijn)
    }
}

/// The shortest side (in cells) from which a flat board counts as wide
/// for [`flat_schedule`]: measured at 6 (the 10x6, a tie: de Bruijn kept)
/// and 8 (the 8x8 boards and the hexomino box, EMCH far ahead).
pub const WIDE_FLAT: u32 = 7;

/// Most images for which a wide flat board gets EMCH: its neighbour-keyed
/// cover lists grow with the images, and on the 108 heptominoes (451 578
/// images, no solution found either way) they added a large share to de
/// Bruijn's set-up time and memory for nothing. The hexomino box, where
/// EMCH wins, has 21 220.
pub const WIDE_FLAT_MAX_IMAGES: usize = 100_000;

/// Whether a flat puzzle's box has both sides of at least [`WIDE_FLAT`]
/// cells (and at most [`WIDE_FLAT_MAX_IMAGES`] images).
pub fn is_wide_flat(images: &Images) -> bool {
    is_flat(images)
        && images.len() <= WIDE_FLAT_MAX_IMAGES
        && images.dims.iter().filter(|&&d| d > 1).all(|&d| d >= WIDE_FLAT)
}

/// Most images times piece groups for which `auto` tries every uniquely
/// shaped piece as the constrained piece of a flat puzzle (one filter run
/// per piece: the pentomino boxes, about 23 000 to 35 000; not the
/// hexomino box, 743 000, nor the heptominoes, 49 M).
pub const FLAT_PIECE_TRIALS: usize = 100_000;

/// Whether every image of group `g` has its root (least cell) in the first
/// three quarters of de Bruijn's cell order.
pub fn confined(images: &Images, g: u16) -> bool {
    confined_kept(images, None, g)
}

/// [`confined`] on the images `k` with `keep[k]` (all of them for `None`).
fn confined_kept(images: &Images, keep: Option<&[bool]>, g: u16) -> bool {
    let last_root = (0..images.len())
        .filter(|&k| images.group[k] == g && !matches!(keep, Some(keep) if !keep[k]))
        .map(|k| images.cells[k][0] as usize)
        .max();
    last_root.is_some_and(|r| 4 * r < 3 * images.n_cells)
}

/// Whether `auto` turns the parity trigger on for a 3-D puzzle: when at
/// most half of the pieces (copies counted) have a non-zero parity (black
/// minus white cells). Then the other pieces fill cells without changing
/// the parity, and the few that carry it are tied to the empty cells'
/// balance from the first placements on, so the trigger cuts nodes (the
/// Soma cube, 3 of 7 pieces with a parity; Conway's 5x5x5, 3 of 18). When
/// nearly every piece carries a parity the remaining ones reach almost any
/// balance until the last pieces, whose dead ends EMCH's fit counts find
/// anyway: the trigger saves almost no nodes and its checks cost more
/// than that (the Tetris Cube, 11 of 12; the solid pentominoes, 12 of 12).
/// Measured: docs/tried/poly.md, "MCH and EMCH", the parity trigger only
/// where at most half of the pieces carry a parity.
pub fn parity_is_tight(images: &Images) -> bool {
    let mut magnitude = vec![0u32; images.groups.len()];
    for (k, &g) in images.group.iter().enumerate() {
        magnitude[g as usize] = images.parity(k).unsigned_abs();
    }
    let with_parity: u32 = images.groups.iter().zip(&magnitude).filter(|(_, &m)| m > 0).map(|(g, _)| g.count).sum();
    2 * with_parity <= images.n_pieces()
}

/// Fills in what `config` leaves open.
pub fn resolve(_problem: &Problem, images: &Images, config: &PolyConfig) -> Result<Plan, String> {
    let n = images.n_pieces();
    let flat = is_flat(images);
    let schedule = match &config.schedule {
        Some(ScheduleSpec::Fixed(s)) => s.clone(),
        Some(ScheduleSpec::Auto) | None => schedule(images),
    };
    if let (Some(t), stage) = &schedule.stages[0] {
        if *t < n {
            return Err(format!(
                "the schedule's first stage `{stage}@{t}` starts at {t} remaining pieces, but this puzzle has {n}: say which engine places the first pieces (drop `@{t}` or add a stage before it)"
            ));
        }
    }
    let get = |t: Option<Threshold>, auto: Option<u32>| match t {
        Some(t) => t.get(),
        None => auto,
    };
    let cell_order = config.cell_order.unwrap_or_else(|| default_cell_order(&schedule));
    Ok(Plan {
        schedule,
        redundancy: config.redundancy.clone().unwrap_or(RedundancyMode::Auto),
        force_first: config.force_first.unwrap_or(false),
        parity_trigger: get(config.parity_trigger, if flat || !parity_is_tight(images) { None } else { Some(1) }),
        volume_trigger: get(config.volume_trigger, None),
        parity_filter: get(config.parity_filter, None),
        volume_filter: get(config.volume_filter, if flat { Some(n) } else { None }),
        fit_filter: config.fit_filter.unwrap_or(FitFilter::Off),
        cell_order,
    })
}

/// The cell order when the user names none: where a DLX stage sweeps by
/// angle (`a@DEG`) and a bit-field stage follows it, the same sweep, so
/// de Bruijn goes on filling where DLX left off (on the box in a diamond,
/// `dlx:a@160,debruijn@21` samples several times as fast as DLX alone,
/// and with the cells numbered from another angle far slower:
/// docs/tried/poly.md, "de Bruijn's loop", an angular cell order);
/// otherwise the shortest axis fastest.
fn default_cell_order(schedule: &Schedule) -> CellOrder {
    let mut order = CellOrder::ShortAxisFirst;
    let mut angular = None;
    for (_, stage) in &schedule.stages {
        match stage {
            Stage::Dlx(Heuristic::Angular { degrees }) => angular = Some(*degrees),
            Stage::Dlx(_) => angular = None,
            _ => {
                if let Some(d) = angular {
                    order = CellOrder::Angular { degrees: d.round() as i32 };
                }
            }
        }
    }
    order
}

/// The redundancy filter's choice on a flat box (`keep` and `redundancy`:
/// what the filter's static choice kept of `all_images`, as in
/// [`redundancy::apply_flags`]; so is the answer).
///
/// A piece the filter confines to the first part of de Bruijn's order,
/// placed first by DLX, cuts the search most (the one-sided 30x3: X gives
/// a tree several times smaller than V, the static choice): the uniquely
/// shaped pieces are tried in order and the confined one with fewest kept
/// images wins (docs/tried/poly.md, "de Bruijn's loop", the piece the
/// redundancy filter confines placed first by DLX), on puzzles small
/// enough for the trials to be cheap ([`FLAT_PIECE_TRIALS`]). The static choice is a
/// candidate too (kept on ties) but not preferred for breaking every
/// symmetry: on the 8x8 board with the square tetromino it keeps I (8
/// images, none symmetric), where X (6 images, 3 on the diagonal, their
/// solutions searched twice) gives a tree less than half as large.
/// Otherwise the static choice stands.
pub fn flat_redundancy(
    problem: &Problem,
    all_images: &Images,
    keep: Option<Vec<bool>>,
    redundancy: Option<Redundancy>,
) -> (Option<Vec<bool>>, Option<Redundancy>) {
    let trials = all_images.len() * all_images.groups.len();
    let Some(chosen) = redundancy.as_ref().filter(|_| trials <= FLAT_PIECE_TRIALS) else {
        return (keep, redundancy);
    };
    let mirror = chosen.mirror;
    let mut fewest = if confined_kept(all_images, keep.as_deref(), chosen.group) { chosen.after } else { usize::MAX };
    // A piece keeps at least one image per orbit of the symmetry group, so
    // at least `images / order`: a piece that cannot beat `fewest` is not
    // tried (on the 10x6, X keeps 8 of 32 and every other piece has more
    // than 32 images: no other piece's filter runs).
    let order = chosen.group_order();
    let mut per_group = vec![0usize; all_images.groups.len()];
    for &g in &all_images.group {
        per_group[g as usize] += 1;
    }
    let mut best: Option<(Vec<bool>, Redundancy)> = None;
    for (k, g) in all_images.groups.iter().enumerate() {
        if g.count != 1 || g.name == chosen.piece || per_group[k].div_ceil(order) >= fewest {
            continue;
        }
        let piece = Some(g.names[0].clone());
        let mode = if mirror { RedundancyMode::Mirror { piece } } else { RedundancyMode::Rotations { piece } };
        if let Ok((Some(k), Some(red))) = redundancy::apply_flags(problem, all_images, &mode) {
            if confined_kept(all_images, Some(&k), red.group) && red.after < fewest {
                fewest = red.after;
                best = Some((k, red));
            }
        }
    }
    match best {
        Some((k, red)) => (Some(k), Some(red)),
        None => (keep, redundancy),
    }
}

#[cfg(test)]
mod tests {
    use crate::poly::plan::auto::*;

    /// The schedules `auto` builds as values are the ones their grammar
    /// names (the engine descriptions print them in that grammar).
    #[test]
    fn schedules_are_the_ones_their_text_names() {
        let parse = |t: &str| Schedule::parse(t).unwrap();
        assert_eq!(solid(12, 2), parse("dlx:min-fit,emch+6@10"));
        assert_eq!(solid(12, 2).to_string(), "dlx:min-fit,emch+6@10");
        assert_eq!(Schedule::dlx_then(Heuristic::MinFit, Stage::DeBruijn, 11), parse("dlx:min-fit,debruijn@11"));
        assert_eq!(Schedule::single(Stage::DeBruijn), parse("debruijn"));
    }

    fn load(file: &str) -> (Problem, Images) {
        let text = std::fs::read_to_string(format!("instances/polycube/{file}_def.txt")).unwrap();
        let puzzle = crate::frontend::polycube::parse(&text, file).unwrap().remove(0);
        let built = crate::frontend::polycube::build(&puzzle, file).unwrap();
        let images = Images::from_problem(&built.problem, Default::default()).unwrap();
        (built.problem, images)
    }

    fn images(file: &str) -> Images {
        load(file).1
    }

    /// The parity trigger stays where few pieces carry a parity and goes
    /// where nearly all do (the puzzles the rule was measured on).
    #[test]
    fn parity_trigger_where_few_pieces_carry_a_parity() {
        for tight in ["somacube", "conway_5x5x5", "slothouber_graatsma", "tetracubes_4x4x2"] {
            assert!(parity_is_tight(&images(tight)), "{tight}");
        }
        for loose in ["tetriscube", "solid_pentominoes_3x4x5", "solid_pentominoes_2x5x6", "solid_pentominoes_2x3x10"] {
            assert!(!parity_is_tight(&images(loose)), "{loose}");
        }
    }

    /// `auto` resolves the trigger by the rule; a given `--parity-trigger`
    /// wins either way.
    #[test]
    fn resolve_follows_the_parity_rule_unless_given() {
        let plan = |file: &str, given: Option<Threshold>| {
            let config = PolyConfig { parity_trigger: given, ..PolyConfig::default() };
            let (problem, images) = load(file);
            resolve(&problem, &images, &config).unwrap().parity_trigger
        };
        assert_eq!(plan("somacube", None), Some(1));
        assert_eq!(plan("tetriscube", None), None);
        assert_eq!(plan("tetriscube", Some(Threshold::From(1))), Some(1));
        assert_eq!(plan("somacube", Some(Threshold::Off)), None);
    }

    /// Without `--cell-order`, a bit-field stage after a DLX stage that
    /// sweeps by angle continues that sweep; after any other DLX stage, or
    /// with no bit-field stage, the order is the shortest axis first. A
    /// given order wins.
    #[test]
    fn cell_order_follows_an_angular_dlx_stage() {
        let order = |schedule: &str, given: Option<CellOrder>| {
            let config = PolyConfig {
                schedule: Some(ScheduleSpec::Fixed(Schedule::parse(schedule).unwrap())),
                cell_order: given,
                ..PolyConfig::default()
            };
            let (problem, images) = load("pentominoes_10x6");
            resolve(&problem, &images, &config).unwrap().cell_order
        };
        let angular = |degrees| CellOrder::Angular { degrees };
        assert_eq!(order("dlx:a@160,debruijn@8", None), angular(160));
        assert_eq!(order("dlx:a@30,dlx:a@200@10,mch@8,debruijn@3", None), angular(200));
        assert_eq!(order("dlx:a@30,dlx:min-fit@9,debruijn@3", None), CellOrder::ShortAxisFirst);
        assert_eq!(order("dlx:a@30", None), CellOrder::ShortAxisFirst);
        assert_eq!(order("debruijn", None), CellOrder::ShortAxisFirst);
        assert_eq!(order("dlx:a@160,debruijn@8", Some(CellOrder::Xyz)), CellOrder::Xyz);
    }
}
