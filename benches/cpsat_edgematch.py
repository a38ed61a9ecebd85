#!/usr/bin/env python3
"""Enumerate all solutions of edge-matching puzzles with OR-tools CP-SAT.

The reference CP model of the CP bench (benches/cp.rs): per cell a tile
variable and one colour variable per side, tied by a table constraint over
the (tile, colours) combinations of the tile rotations that fit the cell's
border; adjacent cells share the colour variable of their join; the tile
variables are all different. One worker, all solutions enumerated. A tile's
rotations that look the same are one table row, so each board counts once,
as in emx.

Usage: python3 benches/cpsat.py [--time-limit S] FILE...   (META format)
Prints one JSON object per file:
  {"file", "solutions", "complete", "time_s", "branches", "status"}
or, when ortools is missing, {"skipped": "<reason>"} and exit code 0.
Install: pip install ortools
"""

import json
import sys
import time


def read_meta(path):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    cols, rows = int(lines[0][0]), int(lines[0][1])
    tiles = [tuple(int(x) for x in l[:4]) for l in lines[1:]]
    if len(tiles) != rows * cols:
        raise SystemExit(f"{path}: {len(tiles)} tiles for a {cols}x{rows} board")
    return rows, cols, tiles


def rotated(t, r):
    # r clockwise quarter turns: the new North is the old West (emx's convention).
    return tuple(t[(i - r) % 4] for i in range(4))


def solve(path, time_limit):
    from ortools.sat.python import cp_model

    rows, cols, tiles = read_meta(path)
    n_colors = max(max(t) for t in tiles) + 1
    m = cp_model.CpModel()
    # Join colour variables: h[r][c] between (r,c) and (r,c+1), v[r][c] below.
    h = [[m.NewIntVar(1, n_colors - 1, f"h{r}_{c}") for c in range(cols - 1)] for r in range(rows)]
    v = [[m.NewIntVar(1, n_colors - 1, f"v{r}_{c}") for c in range(cols)] for r in range(rows - 1)]
    tile_var = []
    for r in range(rows):
        for c in range(cols):
            border = [r == 0, c == cols - 1, r == rows - 1, c == 0]
            sides = [
                v[r - 1][c] if r > 0 else None,
                h[r][c] if c + 1 < cols else None,
                v[r][c] if r + 1 < rows else None,
                h[r][c - 1] if c > 0 else None,
            ]
            t_var = m.NewIntVar(0, len(tiles) - 1, f"t{r}_{c}")
            tile_var.append(t_var)
            open_sides = [s for s in range(4) if sides[s] is not None]
            table = set()
            for ti, t in enumerate(tiles):
                for q in range(4):
                    col = rotated(t, q)
                    if all((col[s] == 0) == border[s] for s in range(4)):
                        table.add((ti,) + tuple(col[s] for s in open_sides))
            m.AddAllowedAssignments([t_var] + [sides[s] for s in open_sides], sorted(table))
    m.AddAllDifferent(tile_var)

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.count = 0

        def on_solution_callback(self):
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    counter = Counter()
    start = time.monotonic()
    status = solver.Solve(m, counter)
    elapsed = time.monotonic() - start
    name = solver.StatusName(status)
    return {
        "file": path,
        "solutions": counter.count,
        "complete": name in ("OPTIMAL", "INFEASIBLE"),
        "time_s": round(elapsed, 3),
        "branches": solver.NumBranches(),
        "status": name,
    }


def main():
    args = sys.argv[1:]
    time_limit = None
    if args[:1] == ["--time-limit"]:
        time_limit = float(args[1])
        args = args[2:]
    if not args:
        raise SystemExit(__doc__)
    try:
        import ortools  # noqa: F401
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError as e:
        print(json.dumps({"skipped": f"ortools is not installed ({e}); pip install ortools"}))
        return
    for path in args:
        print(json.dumps(solve(path, time_limit)), flush=True)


if __name__ == "__main__":
    main()
