//! Building [`Scan`]'s tables: the cell order, the candidate lists per
//! cell and key (border class, clue block, or a restricted state's own
//! block), the symmetry pivot.

use super::*;

impl Scan {
    /// [`Scan::with_config`] and [`Scan::restricted`]: `placements` as
    /// there, `pivot` the symmetry breaking given the map of the puzzle's
    /// cells to the searched board's.
    pub(super) fn build(
        puzzle: &EdgePuzzle,
        placements: &[(u32, u32, u8)],
        short_rows: bool,
        pivot: PivotOf,
        allowed: Option<&dyn Fn(usize, usize, u8) -> bool>,
    ) -> Result<Scan, String> {
        let config = ScanConfig { symmetry: false, short_rows };
        // The board searched: rows along the shorter side.
        let turned = turns(puzzle, config);
        let turned_puzzle;
        let board = if turned {
            turned_puzzle = puzzle.quarter_turn();
            &turned_puzzle
        } else {
            puzzle
        };
        let to_board = |cell: usize| if turned { puzzle.quarter_turn_cell(cell) } else { cell };
        let (rows, cols) = (board.rows, board.cols);
        let n = rows * cols;
        if puzzle.tiles.len() > 1 << 16 {
            return Err(format!("{} tiles; scan handles at most 65536", puzzle.tiles.len()));
        }
        // Dense colours, grey first.
        let mut dense: HashMap<u16, u16> = HashMap::from([(GREY, 0)]);
        for t in &puzzle.tiles {
            for k in t.0 {
                let next = dense.len() as u16;
                dense.entry(k).or_insert(next);
            }
        }
        let nc = dense.len();
        if nc > MAX_SCAN_COLORS {
            return Err(format!("{nc} colours; the scan table is built for at most {MAX_SCAN_COLORS}"));
        }
        let block = nc * nc;
        let clued: HashMap<usize, &crate::edgematch::Clue> = board.clues.iter().map(|c| (c.tile, c)).collect();
        let key_of = |base: usize, look: [u16; 4]| {
            let d = look.map(|k| dense[&k] as usize);
            let cand = Cand { east_key: (d[1] * nc) as u32, south: d[2] as u16, tile: 0 };
            (base + d[3] * nc + d[0], cand)
        };
        // Every distinct look of every free tile, keyed; then the clues,
        // each in its own block after the four class blocks.
        let mut keyed: Vec<(usize, Cand, u8)> = Vec::new();
        let mut clue_base = vec![None; n];
        for (k, clue) in board.clues.iter().enumerate() {
            let base = (4 + k) * block;
            clue_base[board.cell(clue.row, clue.col)] = Some(base as u32);
            let (key, cand) = key_of(base, puzzle.tiles[clue.tile].rotated(clue.rotation));
            keyed.push((key, Cand { tile: clue.tile as u16, ..cand }, clue.rotation));
        }
        // The cell of the puzzle at each cell of the searched board.
        let mut from_board = vec![0; n];
        for cell in 0..n {
            from_board[to_board(cell)] = cell;
        }
        let class_of = |cell: usize| (cell % cols + 1 == cols) as usize + 2 * (cell / cols + 1 == rows) as usize;
        // Every distinct look of every free tile, in (tile, rotation) order.
        let mut looks: Vec<(usize, u8, [u16; 4], usize)> = Vec::new();
        for (t, tile) in puzzle.tiles.iter().enumerate() {
            if clued.contains_key(&t) {
                continue;
            }
            for r in 0..4u8 {
                let look = tile.rotated(r);
                if !(0..r).any(|q| tile.rotated(q) == look) {
                    let class = (look[1] == GREY) as usize + 2 * (look[2] == GREY) as usize;
                    looks.push((t, r, look, class));
                }
            }
        }
        // With a restriction, the cells whose lists must differ from their
        // class's get a block of their own (after the clues' blocks); the
        // others share their class's block, which then holds every look
        // allowed in some cell of the class. A cell reads only the keys
        // whose west and north greys match its place (grey west only in
        // the first column, grey north only in the first row), so it can
        // share when, among the looks with its place's greys, it allows
        // exactly those its class's block holds.
        let mut own_base: Vec<Option<usize>> = vec![None; n];
        let mut in_class = vec![[false; 4]; looks.len()];
        let mut grid = Vec::new();
        if let Some(allowed) = allowed {
            let free_cells: Vec<usize> = (0..n).filter(|&c| clue_base[c].is_none()).collect();
            // grid[i * n + cell]: look i allowed in the cell (the rotation
            // on the puzzle as given: the turned board shows one more
            // quarter turn).
            grid = vec![false; looks.len() * n];
            for (i, &(t, r, _, class)) in looks.iter().enumerate() {
                let r_puzzle = (r + 4 - turned as u8) % 4;
                for &cell in free_cells.iter().filter(|&&c| class_of(c) == class) {
                    if allowed(from_board[cell], t, r_puzzle) {
                        grid[i * n + cell] = true;
                        in_class[i][class] = true;
                    }
                }
            }
            let mut next = 4 + puzzle.clues.len();
            for &cell in &free_cells {
                let (class, place) = (class_of(cell), (cell % cols == 0, cell / cols == 0));
                let differs = looks.iter().enumerate().any(|(i, &(_, _, look, k))| {
                    k == class && (look[3] == GREY, look[0] == GREY) == place && grid[i * n + cell] != in_class[i][k]
                });
                if differs {
                    own_base[cell] = Some(next * block);
                    next += 1;
                }
            }
        }
        let blocks = 4 + puzzle.clues.len() + own_base.iter().filter(|b| b.is_some()).count();
        if blocks * block > MAX_SCAN_KEYS {
            return Err(format!(
                "{nc} colours and {} clues{} make {} candidate lists; scan builds at most {MAX_SCAN_KEYS}",
                puzzle.clues.len(),
                if allowed.is_some() { " with a block per restricted cell" } else { "" },
                blocks * block
            ));
        }
        for (i, &(t, r, look, class)) in looks.iter().enumerate() {
            let (key, cand) = key_of(0, look);
            let cand = Cand { tile: t as u16, ..cand };
            if allowed.is_none() || in_class[i][class] {
                keyed.push((class * block + key, cand, r));
            }
            if allowed.is_some() {
                for cell in (0..n).filter(|&c| grid[i * n + c]) {
                    if let Some(base) = own_base[cell] {
                        keyed.push((base + key, cand, r));
                    }
                }
            }
        }
        // Pushed by tile, then rotation (a clue alone in its lists): what
        // `Table::new` needs.
        let n_keys = blocks * block;
        // With a pivot, one case per corner it may take: that corner's list
        // holds only the pivot, the pivot is dropped from the other corners.
        // A corner look (two adjacent grey sides) fits one corner cell only.
        // The pivot is found on the puzzle as given (its images are option
        // maps of `problem`), its allowed corners the first of their orbits
        // on the searched board; they are moved to that board.
        let pivot = pivot(&to_board);
        let mut tables = match &pivot {
            None => vec![Table::new(&keyed, n_keys)],
            Some(pv) => {
                let mut allowed = vec![false; n];
                for cell in (0..n).filter(|&c| pv.allowed[c]) {
                    allowed[to_board(cell)] = true;
                }
                let corner_of = |look: [u16; 4]| match look.map(|k| k == GREY) {
                    [true, _, _, true] => Some(0),
                    [true, true, _, _] => Some(cols - 1),
                    [_, true, true, _] => Some(n - 1),
                    [_, _, true, true] => Some((rows - 1) * cols),
                    _ => None,
                };
                (0..n)
                    .filter(|&a| allowed[a])
                    .map(|a| {
                        let case: Vec<_> = keyed
                            .iter()
                            .copied()
                            .filter(|&(k, c, r)| {
                                let corner = corner_of(puzzle.tiles[c.tile as usize].rotated(r));
                                if c.tile as u32 == pv.tile {
                                    corner == Some(a)
                                } else {
                                    k >= 4 * block || corner != Some(a)
                                }
                            })
                            .collect();
                        Table::new(&case, n_keys)
                    })
                    .collect()
            }
        };
        let cells = (0..n)
            .map(|cell| {
                let (r, c) = (cell / cols, cell % cols);
                let own = own_base[cell].unwrap_or(class_of(cell) * block);
                CellInfo {
                    base: clue_base[cell].unwrap_or(own as u32),
                    west: if c == 0 { n } else { cell - 1 } as u32,
                    north: if r == 0 { n } else { cell - cols } as u32,
                }
            })
            .collect::<Vec<_>>();
        for table in &mut tables {
            table.fast = fast::FastTable::new(table, &cells, cols, nc, puzzle.tiles.len());
        }
        let option_of = OptionTable::new(puzzle, placements, &to_board, turned as u8);
        Ok(Scan {
            rows,
            cols,
            turned,
            nc,
            tables,
            cells,
            option_of,
            tiles: puzzle.tiles.len(),
            name: puzzle.name.clone(),
            threads: 1,
            pivot,
        })
    }
}
