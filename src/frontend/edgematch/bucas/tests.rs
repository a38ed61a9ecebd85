use super::*;
use crate::edgematch::Tile;

/// A solved 2x2 puzzle, its tiles out of order: joins 1 (top), 2
/// (bottom), 3 (left), 4 (right); solved board `abda aaeb dcaa eaac`.
fn two_by_two() -> EdgePuzzle {
    let tiles = [[4, 0, 0, 2], [0, 1, 3, 0], [3, 2, 0, 0], [0, 0, 4, 1]];
    EdgePuzzle { name: "two by two".into(), rows: 2, cols: 2, tiles: tiles.map(Tile).to_vec(), clues: vec![] }
}

const SOLVED: &str = "abdaaaebdcaaeaac";

fn one(text: &str, puzzle: &EdgePuzzle) -> Result<(String, Board), String> {
    parse_bucas(text, "f", puzzle).map(|mut b| b.remove(0)).map_err(|e| e.to_string())
}

#[test]
fn the_three_forms_read_the_same_board_and_write_it_back() {
    let p = two_by_two();
    let (name, bare) = one(SOLVED, &p).unwrap();
    assert_eq!(name, "");
    let tiles: Vec<(u32, u8)> = bare.cells.iter().map(|c| c.map(|p| (p.tile, p.rotation)).unwrap()).collect();
    assert_eq!(tiles, [(1, 0), (3, 0), (2, 0), (0, 0)]);
    assert_eq!(bare.score(&p).matched, 4);
    assert_eq!(edge_string(&p, &bare).unwrap(), SOLVED);
    let line = bucas_line(&p.name, &p, &bare).unwrap();
    assert_eq!(line, format!("two_by_two jblackwood {SOLVED}\n"));
    assert_eq!(one(&line, &p).unwrap(), ("two_by_two".to_string(), bare.clone()));
    let url = viewer_url("two by two", &p, &bare).unwrap();
    assert_eq!(
        url,
        format!(
            "https://e2.bucas.name/#puzzle=two_by_two&board_w=2&board_h=2&board_edges={SOLVED}&motifs_order=jblackwood"
        )
    );
    assert_eq!(one(&format!("# a comment\n\n  {url}  # the viewer\n"), &p).unwrap(), ("two_by_two".into(), bare));
}

#[test]
fn a_turned_tile_is_found_in_its_rotation_and_empty_cells_stay_empty() {
    let mut p = two_by_two();
    p.tiles[1] = Tile(p.tiles[1].rotated(1));
    let (_, b) = one("abdaaaaadcaaaaaa", &p).unwrap();
    assert_eq!(b.cells[0], Some(Placed { tile: 1, rotation: 3 }));
    assert_eq!((b.cells[1], b.cells[3]), (None, None));
    assert_eq!(edge_string(&p, &b).unwrap(), "abdaaaaadcaaaaaa");
}

#[test]
fn the_viewer_letter_orders() {
    // Heule's numbering: the viewer's default `l` is colour 3; its
    // motifs_order=jef `rgou` is tile 208 of Eternity II turned 3 times.
    assert_eq!(Order::Viewer.colour(b'l'), Some(3));
    assert_eq!(Order::Viewer.colour(b'x'), None);
    let rgou: Vec<_> = b"rgou".iter().map(|&l| Order::ViewerJef.colour(l).unwrap()).collect();
    assert_eq!(rgou, [22, 3, 11, 19]);
    assert_eq!(Order::Jblackwood.colour(b'z'), Some(25));
    assert_eq!(Order::Jblackwood.colour(b'A'), None);
    // The 2x2 board in the viewer's default letters (no motifs_order).
    let p = two_by_two();
    let viewer: String = SOLVED
        .bytes()
        .map(|l| char::from(b'a' + VIEWER.iter().position(|&c| c == (l - b'a') as Color).unwrap() as u8))
        .collect();
    let url = format!("https://e2.bucas.name/#board_w=2&board_h=2&board_edges={viewer}");
    assert_eq!(one(&url, &p).unwrap().1, one(SOLVED, &p).unwrap().1);
    assert_eq!(one(&format!("x jef {viewer}"), &p).unwrap().1, one(SOLVED, &p).unwrap().1);
}

#[test]
fn board_pieces_picks_among_identical_tiles() {
    let p = EdgePuzzle {
        name: "pair".into(),
        rows: 1,
        cols: 2,
        tiles: vec![Tile([0, 1, 0, 0]), Tile([0, 0, 0, 1])],
        clues: vec![],
    };
    let cells = |text: &str| one(text, &p).unwrap().1.cells;
    let plain = cells("abaaaaab");
    assert_eq!(plain, [Some(Placed { tile: 0, rotation: 0 }), Some(Placed { tile: 1, rotation: 0 })]);
    let picked = cells("#board_edges=abaaaaab&board_pieces=002001&motifs_order=jblackwood");
    assert_eq!(picked, [Some(Placed { tile: 1, rotation: 2 }), Some(Placed { tile: 0, rotation: 2 })]);
    // A clue's cell gets the clue's tile, not its identical twin.
    let clued =
        EdgePuzzle { clues: vec![crate::edgematch::Clue { tile: 1, row: 0, col: 0, rotation: 2 }], ..p.clone() };
    let (_, b) = one("abaaaaab", &clued).unwrap();
    assert_eq!(b.cells, [Some(Placed { tile: 1, rotation: 2 }), Some(Placed { tile: 0, rotation: 2 })]);
    // A malformed board_pieces is refused.
    let e = one("#board_edges=abaaaaab&board_pieces=00200x&motifs_order=jblackwood", &p).unwrap_err();
    assert!(e.starts_with("f:1:41: board_pieces has 6 characters: expected 6 digits"), "{e}");
}

#[test]
fn forged_boards_are_refused_saying_where_and_what() {
    let p = two_by_two();
    let e = one("abdaaaebdcaaeaa", &p).unwrap_err();
    assert_eq!(e, "f:1:1: 15 letters for a 2 x 2 board: expected 16 (4 per cell, N E S W)");
    let e = one("b jblackwood abdaaaebdcAaeaac", &p).unwrap_err();
    assert_eq!(e, "f:1:24: bad letter `A` (letter 11 of the edge string, cell (row 2, column 1)): expected a-z (jblackwood letters)");
    let e = one("#board_edges=abdaaaebdcaaeaax", &p).unwrap_err();
    assert!(e.ends_with("expected a-w (the viewer's default letters)"), "{e}");
    let e = one("https://e2.bucas.name/#board_w=3&board_h=2&board_edges=abdaaaebdcaaeaac", &p).unwrap_err();
    assert!(e.starts_with("f:1:32: the URL's board is 3 x 2 (board_w x board_h), but the puzzle is 2 x 2"), "{e}");
    let e = one("abdaaaebdcaaeaaf", &p).unwrap_err();
    assert_eq!(
        e,
        "f:1:13: cell (row 2, column 2) shows `eaaf` (colours 4 0 0 5, N E S W), which no tile of the puzzle shows in any rotation"
    );
    let e = one("abdaabdadcaaeaac", &p).unwrap_err();
    assert!(
        e.starts_with("f:1:5: cell (row 1, column 2) shows `abda` (colours 0 1 3 0, N E S W), but every tile showing them (tile 2) is already placed, the last at cell (row 1, column 1)"),
        "{e}"
    );
    let e = one("x blue abdaaaebdcaaeaac", &p).unwrap_err();
    assert_eq!(e, "f:1:3: unknown letter order `blue`: expected jblackwood or jef");
    let e = one("#board_edges=abdaaaebdcaaeaac&motifs_order=red", &p).unwrap_err();
    assert!(e.starts_with("f:1:44: unknown motifs_order `red`"), "{e}");
    let e = one("https://e2.bucas.name/#puzzle=x&board_w=2 extra", &p).unwrap_err();
    assert!(e.starts_with("f:1:43: text after the URL"), "{e}");
    let e = one("https://e2.bucas.name/#puzzle=x&board_w=2", &p).unwrap_err();
    assert!(e.starts_with("f:1:1: no board_edges parameter"), "{e}");
    let e = one("a b", &p).unwrap_err();
    assert!(e.starts_with("f:1:1: 2 fields: expected `NAME ORDER EDGES`"), "{e}");
    let e = one("# nothing\n", &p).unwrap_err();
    assert!(e.contains("no board"), "{e}");
}

#[test]
fn what_counts_as_bucas() {
    assert!(is_bucas("# c\nabda\n"));
    assert!(is_bucas("x jef abda"));
    assert!(is_bucas("https://e2.bucas.name/#board_edges=abda"));
    assert!(!is_bucas("1/0 2/0\n"));
    assert!(!is_bucas("1/0 . 3/1\n"));
    assert!(!is_bucas(".\n"));
    assert!(!is_bucas("# only a comment\n"));
}

#[test]
fn colours_past_z_have_no_letter() {
    let mut p = two_by_two();
    p.tiles[0] = Tile([26, 0, 0, 2]);
    let b = one(SOLVED, &two_by_two()).unwrap().1;
    assert_eq!(edge_string(&p, &b), Err(BucasError::NoLetter(26)));
}
