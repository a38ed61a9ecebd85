//! Unit tests of the polycube front-end: parsing, identical pieces,
//! orientations and images, the puzzle-level verifier and its memo, and the
//! box symmetries against a direct computation.

use super::*;
use crate::dlx;
use crate::ir::{Equivalence, Solution, UniqueFilter};
use crate::search::{Flow, Limits};

fn puzzle(text: &str) -> Puzzle {
    parse(text, "test").unwrap().remove(0)
}

fn count(p: &Puzzle, grouped: bool) -> (u64, u64, u64) {
    let built = build_grouped(p, "t", grouped).unwrap();
    let pr = &built.problem;
    let mut rot = UniqueFilter::new(&pr.symmetries, Equivalence::Rotations);
    let mut mir = UniqueFilter::new(&pr.symmetries, Equivalence::RotationsAndMirrors);
    let stats = dlx::Dlx::new(pr).search(&Limits::none(), |s| {
        verify_solution(p, pr, &Solution { options: s.to_vec() }).unwrap();
        rot.insert(s);
        mir.insert(s);
        Flow::Continue
    });
    (stats.solutions, rot.classes() as u64, mir.classes() as u64)
}

#[test]
fn parses_coordinates_and_layouts() {
    let p = puzzle(
        "# comment\nD:xDim=3:yDim=2:zDim=1\nC:name=I:layout=0 0 0, 1 0 0, 2 0 0 # trailing\nL\nAa Aa Aa\n~L\n~D\n",
    );
    assert_eq!(p.dims, [3, 2, 1]);
    assert_eq!(p.pieces.len(), 2);
    assert_eq!(p.pieces[1].name, "Aa");
    assert_eq!(p.pieces[1].cells, vec![[0, 1, 0], [1, 1, 0], [2, 1, 0]]);
    assert_eq!((p.pieces[1].line, p.pieces[1].col), (5, 1));
}

#[test]
fn layers_and_stationary() {
    let p = puzzle("D:xDim=2:yDim=1:zDim=2\nL:stationary=S\nA S , A A\n~L\n~D\n");
    let s = p.pieces.iter().find(|d| d.name == "S").unwrap();
    assert!(s.stationary);
    assert_eq!(s.cells, vec![[1, 0, 0]]);
    let a = p.pieces.iter().find(|d| d.name == "A").unwrap();
    assert_eq!(a.cells, vec![[0, 0, 0], [0, 0, 1], [1, 0, 1]]);
    let built = build(&p, "t").unwrap();
    assert_eq!(built.problem.n_primary(), 3 + 1);
    assert_eq!(count(&p, true).0, 1);
}

#[test]
fn several_puzzles_per_file() {
    let ps = parse("D:xDim=1:yDim=1:zDim=1\nL\nA\n~L\n~D\nD:xDim=2:yDim=1:zDim=1\nL\nB B\n~L\n~D\n", "f").unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[1].name, "#2");
}

#[test]
fn identical_pieces_are_counted_once() {
    // Six 2x2x1 slabs and three unit cubes in a 3x3x3 box.
    let mut text = String::from("D:xDim=3:yDim=3:zDim=3\n");
    for k in 0..6 {
        text.push_str(&format!("C:name=S{k}:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0\n"));
    }
    for k in 0..3 {
        text.push_str(&format!("C:name=U{k}:layout=0 0 0\n"));
    }
    text.push_str("~D\n");
    let p = puzzle(&text);
    let built = build(&p, "t").unwrap();
    assert_eq!(built.groups.len(), 2);
    assert_eq!(built.groups[0].names.len(), 6);
    let (grouped, _, _) = count(&p, true);
    let (distinct, _, _) = count(&p, false);
    assert!(grouped > 0 && grouped < 100, "grouped count {grouped}");
    assert_eq!(distinct, grouped * 720 * 6);
}

#[test]
fn orientations_and_images() {
    // Busche: flat pieces in a zDim=1 box get their mirror images by rotation.
    let text = "D:xDim=3:yDim=2:zDim=1\nL\nL L L\nL . .\n\nm\n\nn\n~L\n~D\n";
    let built = build(&puzzle(text), "t").unwrap();
    assert_eq!(built.groups[0].orientations.len(), 24);
    assert_eq!(built.groups[0].images, 4);
    assert_eq!(built.groups[1].names, vec!["m", "n"]);
    let one = puzzle(&text.replace("zDim=1", "zDim=1:oneSide"));
    let built = build(&one, "t").unwrap();
    assert_eq!(built.groups[0].orientations.len(), 4);
    assert_eq!(built.groups[0].images, 2);
}

#[test]
fn verifier_rejects_wrong_tilings() {
    let p = puzzle("D:xDim=2:yDim=2:zDim=1\nL\nA A\nA B\n~L\n~D\n");
    assert!(verify_cells(&p, &[vec![[0, 0, 0], [0, 1, 0], [1, 1, 0]], vec![[1, 0, 0]]]).is_ok());
    assert!(verify_cells(&p, &[vec![[0, 0, 0], [1, 0, 0], [1, 1, 0]], vec![[1, 0, 0]]]).is_err());
    assert!(verify_cells(&p, &[vec![[0, 0, 0], [0, 1, 0], [1, 1, 0]]]).is_err());
    assert!(verify_cells(&p, &[vec![[0, 0, 0], [0, 1, 0], [1, 1, 0]], vec![[2, 0, 0]]]).is_err());
    assert!(verify_cells(&p, &[vec![[0, 0, 0], [0, 1, 0], [1, 0, 0]], vec![[1, 1, 0]]]).is_ok());
    let bad = Solution { options: vec![] };
    let built = build(&p, "t").unwrap();
    assert!(verify_solution(&p, &built.problem, &bad).is_err());
}

#[test]
fn small_box_unique_counts() {
    // Two L trominoes in a 3x2 box: 4 fixed tilings, 1 up to rotation... of
    // the 4 box rotations (flips included, flat pieces) all are equivalent.
    let p = puzzle("D:xDim=3:yDim=2:zDim=1\nL\nA A\nA .\n\nB B\nB .\n~L\n~D\n");
    let (fixed, rot, mir) = count(&p, true);
    assert_eq!(fixed, 2);
    assert_eq!(rot, 1);
    assert_eq!(mir, 1);
}

#[test]
fn verifier_memo_agrees_with_the_full_check() {
    let p = puzzle("D:xDim=2:yDim=2:zDim=1\nL\nA A\nA B\n~L\n~D\n");
    let built = build(&p, "t").unwrap();
    let geo = built.problem.geometry.as_ref().unwrap();
    let v = Verifier::new(&p);
    let cells = |o: u32| -> Vec<[i32; 3]> {
        geo.placements[o as usize].cells.iter().map(|&c| geo.coords(c).map(|x| x as i32)).collect()
    };
    let n = geo.placements.len() as u32;
    let mut accepted = 0;
    // Twice over, so that the second round reads the memo.
    for _ in 0..2 {
        for a in 0..n {
            for b in 0..n {
                let s = Solution { options: vec![a, b] };
                let by_memo = v.verify_solution(&built.problem, &s).is_ok();
                assert_eq!(by_memo, a != b && v.verify_cells(&[cells(a), cells(b)]).is_ok(), "options {a} {b}");
                accepted += by_memo as u32;
            }
        }
    }
    assert!(accepted > 0);
    // A problem of another box: the memo's facts do not apply to it.
    let other = puzzle("D:xDim=3:yDim=2:zDim=1\nL\nA A\nA .\n\nB B\nB .\n~L\n~D\n");
    let other_built = build(&other, "t").unwrap();
    let own = Verifier::new(&other);
    let m = other_built.problem.n_options() as u32;
    let tiling = (0..m)
        .flat_map(|a| (0..m).map(move |b| Solution { options: vec![a, b] }))
        .find(|s| own.verify_solution(&other_built.problem, s).is_ok())
        .expect("the 3x2 box has a tiling");
    assert!(v.verify_solution(&other_built.problem, &tiling).is_err());
}

#[test]
fn one_sided_verifier_rejects_mirrored_pieces() {
    // Two L tetrominoes in a 4x2 box: as free pieces they tile it both as
    // two copies of one hand and as a piece and its mirror image; a
    // one-sided verifier accepts the first kind only, by the memo and by
    // the full check alike, with the full check's error text.
    let text = "D:xDim=4:yDim=2:zDim=1\nL\nA A A\nA . .\n\nB B B\nB . .\n~L\n~D\n";
    let two = puzzle(text);
    let one = puzzle(&text.replace("zDim=1", "zDim=1:oneSide"));
    let built = build(&two, "t").unwrap();
    let geo = built.problem.geometry.as_ref().unwrap();
    let (v_one, v_two) = (Verifier::new(&one), Verifier::new(&two));
    let cells = |o: u32| -> Vec<[i32; 3]> {
        geo.placements[o as usize].cells.iter().map(|&c| geo.coords(c).map(|x| x as i32)).collect()
    };
    let n = geo.placements.len() as u32;
    let (mut by_one, mut by_two, mut mirrored) = (0, 0, 0);
    for _ in 0..2 {
        for a in 0..n {
            for b in 0..n {
                let s = Solution { options: vec![a, b] };
                let one_ok = v_one.verify_solution(&built.problem, &s);
                let full = if a == b { None } else { Some(v_one.verify_cells(&[cells(a), cells(b)])) };
                if let Some(full) = &full {
                    assert_eq!(one_ok.is_ok(), full.is_ok(), "options {a} {b}");
                }
                let two_ok = v_two.verify_solution(&built.problem, &s).is_ok();
                assert!(one_ok.is_err() || two_ok, "options {a} {b}");
                if let (true, Err(e)) = (two_ok, &one_ok) {
                    assert_eq!(Some(&one_ok), full.as_ref(), "the same error as the full check");
                    assert!(e.0.contains("match no unused piece"));
                    mirrored += 1;
                }
                by_one += one_ok.is_ok() as u32;
                by_two += two_ok as u32;
            }
        }
    }
    assert!(by_one > 0 && mirrored > 0 && by_one + mirrored == by_two, "{by_one} {mirrored} {by_two}");
}

#[test]
fn verifier_memo_keeps_large_placements() {
    // A 9-cell piece: more cells than the memo keeps inline.
    let p = puzzle("D:xDim=3:yDim=3:zDim=1\nL\nA A A\nA A A\nA A A\n~L\n~D\n");
    let built = build(&p, "t").unwrap();
    let v = Verifier::new(&p);
    for _ in 0..2 {
        assert_eq!(v.verify_solution(&built.problem, &Solution { options: vec![0] }), Ok(()));
        assert!(v.verify_solution(&built.problem, &Solution { options: vec![] }).is_err());
    }
    let big = puzzle("D:xDim=3:yDim=4:zDim=1\nL\nA A A\nA A A\nA A A\n\nB B B\n~L\n~D\n");
    let big_built = build(&big, "t").unwrap();
    let tiling = (0..big_built.problem.n_options() as u32)
        .flat_map(|a| (0..big_built.problem.n_options() as u32).map(move |b| Solution { options: vec![a, b] }))
        .find(|s| Verifier::new(&big).verify_solution(&big_built.problem, s).is_ok())
        .expect("the 3x4 box has a tiling");
    assert!(v.verify_solution(&big_built.problem, &tiling).is_err());
}

/// A symmetry as (name, reflection, option map).
type SymRow = (String, bool, Vec<u32>);

/// The box symmetries of a built problem, recomputed from scratch: every
/// symmetry of the box mapping the stationary cells onto themselves and
/// every option onto the last option with the image cell set, of a group
/// with as many copies (`Built::rotations` and the like from the same).
fn symmetries_directly(p: &Puzzle, built: &Built) -> (Vec<SymRow>, usize, usize) {
    use crate::geometry::{BoxSymmetry, Transform};
    let geo = built.problem.geometry.as_ref().unwrap();
    let mut by_cells: std::collections::HashMap<Vec<u32>, u32> = Default::default();
    for (o, pl) in geo.placements.iter().enumerate() {
        let mut cs = pl.cells.clone();
        cs.sort_unstable();
        by_cells.insert(cs, o as u32);
    }
    let blocked: std::collections::HashSet<u32> = geo.fixed.iter().flat_map(|f| f.cells.iter().copied()).collect();
    let copies = |o: u32| built.groups[geo.placements[o as usize].piece as usize].names.len();
    let (mut out, mut rot, mut all) = (Vec::new(), 0, 0);
    'sym: for s in BoxSymmetry::of_box(p.dims, &Transform::all()) {
        let map = |c: u32| geo.cell(s.apply(geo.coords(c).map(|v| v as i32)).map(|v| v as u32));
        if blocked.iter().any(|&c| !blocked.contains(&map(c))) {
            continue;
        }
        let mut option_map = Vec::new();
        for (o, pl) in geo.placements.iter().enumerate() {
            let mut cs: Vec<u32> = pl.cells.iter().map(|&c| map(c)).collect();
            cs.sort_unstable();
            match by_cells.get(&cs) {
                Some(&to) if copies(to) == copies(o as u32) => option_map.push(to),
                _ => continue 'sym,
            }
        }
        all += 1;
        rot += usize::from(s.transform.is_rotation());
        if s.transform != Transform::IDENTITY {
            out.push((format!("{:?}", s.transform), !s.transform.is_rotation(), option_map));
        }
    }
    (out, rot, all)
}

#[test]
fn box_symmetries_equal_a_direct_computation() {
    let mut files = 0;
    for entry in std::fs::read_dir("instances/polycube").unwrap() {
        let path = entry.unwrap().path();
        if !path.to_string_lossy().ends_with("_def.txt") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let p = parse(&text, "t").unwrap().remove(0);
        if p.dims.iter().product::<u32>() > 200 {
            continue;
        }
        for grouped in [true, false] {
            let built = build_grouped(&p, "t", grouped).unwrap();
            let got: Vec<(String, bool, Vec<u32>)> =
                built.problem.symmetries.iter().map(|s| (s.name.clone(), s.reflection, s.option_map.clone())).collect();
            let (want, rot, all) = symmetries_directly(&p, &built);
            assert_eq!((got, built.rotations, built.rotations_and_mirrors), (want, rot, all), "{path:?} {grouped}");
        }
        files += 1;
    }
    assert!(files >= 12, "{files} files checked");
}
