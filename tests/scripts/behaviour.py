#!/usr/bin/env python3
"""Prints what every backend finds on every bundled instance: the behaviour
snapshot that a restructuring must leave identical.

Usage (from the repository root, after `cargo build --release`):

    python3 tests/scripts/behaviour.py --emx target/release/emx > /tmp/now.txt
    python3 tests/scripts/behaviour.py --emx target/release/emx --check snapshots/behaviour.txt

One line per case: the file, the flags, then what `emx solve --format json`
reports: solutions found, solutions counted (fixed box), search nodes, why the
search stopped, and the engine's own description. Long searches run under a
node limit, so the node count there is the limit as the engine polls it and
the counts are those found within it; every case is single-threaded unless it
says `--threads`, where only the counts are printed (the node count of a
split search depends on which worker takes which task), and of a threaded
run stopped by a limit only the stop. `--estimate` and
`--sample` cases print their figures, which depend only on the seed.

`--check FILE` compares against a stored snapshot and prints the differing
lines; exit 1 when any differs.
"""

import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import time

TIMES = None

POLY_LIMIT = "5000000"
EDGE_SCAN_LIMIT = "3000000"
EDGE_CP_LIMIT = "100000"
EDGE_DLX_LIMIT = "100000"

# Schedules that put each bit-field stage (and the DLX heuristics) on the
# critical path at least once.
SCHEDULES = [
    "dlx:min-fit",
    "dlx:x",
    "dlx:R",
    "dlx:a@0",
    "bdlx",
    "mch",
    "emch",
    "emch+6/2",
    "debruijn",
    "dlx:min-fit,mch@11,emch@6,debruijn@4",
    "dlx:min-fit,bdlx@7,debruijn@3",
]

# Puzzles of tens of thousands of images, where a node costs up to 40 us in
# some schedules: a smaller node limit keeps each case to seconds.
LARGE_POLY = {
    "heptominoes_33x23_def.txt",
    "hexominoes_box_in_a_diamond_def.txt",
    "hexominoes_parallelogram_15x14_def.txt",
}

SMALL_POLY = {
    "somacube_def.txt",
    "tetracubes_4x4x2_def.txt",
    "slothouber_graatsma_def.txt",
    "pentominoes_20x3_def.txt",
    "pentominoes_15x4_def.txt",
    "pentominoes_12x5_def.txt",
    "pentominoes_8x8_centre_hole_def.txt",
    "solid_pentominoes_2x3x10_def.txt",
}

SMALL_EDGE = {
    "pieces_03x03.txt",
    "pieces_04x04.txt",
    "pieces_05x03.txt",
    "pieces_05x04.txt",
    "pieces_05x05.txt",
    "pieces_06x04.txt",
    "pieces_06x06.txt",
    "pieces_08x03.txt",
}


def cases():
    out = []
    for f in sorted(glob.glob("instances/polycube/*_def.txt")):
        base = os.path.basename(f)
        large = base in LARGE_POLY
        lim = ["--node-limit", "200000" if large else POLY_LIMIT]
        out.append((f, lim))
        out.append((f, ["--unique"] + lim))
        out.append((f, ["--unique=mirror"] + lim))
        out.append((f, ["--redundancy", "off"] + lim))
        out.append((f, ["--backend", "dlx", "--node-limit", "100000" if large else "2000000"]))
        for s in SCHEDULES:
            # Whole searches in DLX place far fewer nodes a second.
            dlx_only = "," not in s and s.startswith("dlx")
            n = "100000" if large else "1000000" if dlx_only else POLY_LIMIT
            out.append((f, ["--backend", "poly", "--schedule", s, "--node-limit", n]))
        out.append((f, ["--parity-trigger", "3", "--volume-trigger", "3"] + lim))
        # The fit filter runs before the search, outside the node limit:
        # minutes on the large puzzles.
        if not large:
            out.append((f, ["--fit-filter", "fixpoint", "--parity-filter", "9", "--volume-filter", "9"] + lim))
        out.append((f, ["--cell-order", "xyz"] + lim))
        out.append((f, ["--estimate", "30,7" if large else "300,7"]))
        out.append((f, ["--sample", "20,4,3", "--node-limit", "300000"] if large else ["--sample", "200,4,3"]))
        out.append((f, ["--threads", "2", "--node-limit", "2000000" if large else "60000000"]))
        if base in SMALL_POLY:
            out.append((f, ["--backend", "sat", "--first", "1"]))
            out.append((f, ["--all"]))
    edge = sorted(glob.glob("instances/edgematch/*/*.txt"))
    edge = [f for f in edge if "/boards/" not in f and not f.endswith(".board.txt") and not f.endswith(".bucas.txt")]
    for f in edge:
        base = os.path.basename(f)
        out.append((f, ["--backend", "scan", "--node-limit", EDGE_SCAN_LIMIT]))
        out.append((f, ["--backend", "cp", "--node-limit", EDGE_CP_LIMIT]))
        out.append((f, ["--node-limit", EDGE_CP_LIMIT]))
        if "brendan_set2" not in f or base in SMALL_EDGE:
            out.append((f, ["--backend", "scan", "--scan", "no-symmetry", "--node-limit", EDGE_SCAN_LIMIT]))
            out.append((f, ["--backend", "cp", "--cp", "basic", "--node-limit", EDGE_CP_LIMIT]))
            out.append((f, ["--backend", "cp", "--cp", "bottom=0", "--node-limit", EDGE_CP_LIMIT]))
            out.append((f, ["--backend", "dlx", "--node-limit", EDGE_DLX_LIMIT]))
            out.append((f, ["--backend", "cp", "--estimate", "200,5"]))
            out.append((f, ["--backend", "scan", "--estimate", "200,5"]))
            out.append((f, ["--unique", "--node-limit", EDGE_CP_LIMIT]))
        if base in SMALL_EDGE:
            out.append((f, ["--backend", "cp", "--threads", "2"]))
            out.append((f, ["--backend", "scan", "--threads", "2"]))
            out.append((f, ["--backend", "sat", "--first", "1"]))
    return out


def timed(key):
    """Whether a JSON key holds a time or a rate, which no snapshot can hold."""
    return key in ("seconds", "elapsed") or key.endswith(("_s", "_per_s", "_per_sec", "per_sec"))


def run(emx, case):
    f, args = case
    cmd = [emx, "solve", f, "--format", "json", "-q"] + args
    start = time.monotonic()
    label = f"{f} {' '.join(args)}"
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return f"{label} | timeout"
    if TIMES:
        print(f"{time.monotonic() - start:8.2f} s  {label}", file=TIMES, flush=True)
    if p.returncode not in (0, 1, 3):
        err = (p.stderr.strip().splitlines() or [""])[-1]
        return f"{label} | exit {p.returncode}: {err}"
    try:
        d = json.loads(p.stdout)
    except json.JSONDecodeError:
        return f"{label} | exit {p.returncode}: no JSON"
    threaded = "--threads" in args
    if "--estimate" in args or "--sample" in args:
        keep = {k: v for k, v in d.items() if k not in ("file", "solution_list") and not timed(k)}
        for k in list(keep):
            if isinstance(keep[k], dict):
                keep[k] = {a: b for a, b in keep[k].items() if not timed(a)}
        return f"{label} | exit {p.returncode} | {json.dumps(keep, sort_keys=True)}"
    nodes = "-" if threaded else d.get("nodes")
    if threaded and d.get("stopped") is not None:
        # Which worker searched what when the limit struck varies from run
        # to run: only the stop is reproducible.
        return f"{label} | exit {p.returncode} stopped {d.get('stopped')} | {d.get('engine')}"
    return (
        f"{label} | exit {p.returncode} found {d.get('found')} solutions {d.get('solutions')} "
        f"nodes {nodes} stopped {d.get('stopped')} | {d.get('engine')}"
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emx", default="target/release/emx")
    ap.add_argument("--check")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="substring a case's line must contain")
    ap.add_argument("--times", help="file to which each case's wall time is appended")
    a = ap.parse_args()
    global TIMES
    if a.times:
        TIMES = open(a.times, "a")
    todo = cases()
    if a.only:
        todo = [c for c in todo if a.only in f"{c[0]} {' '.join(c[1])}"]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        lines = []
        for line in pool.map(lambda c: run(a.emx, c), todo):
            lines.append(line)
            if not a.check:
                print(line, flush=True)
    if not a.check:
        return 0
    with open(a.check) as fh:
        want = fh.read().splitlines()
    if a.only:
        want = [w for w in want if a.only in w.split(" | ")[0]]
    bad = 0
    for got, exp in zip(lines, want):
        if got != exp:
            bad += 1
            print(f"- {exp}\n+ {got}")
    if len(lines) != len(want):
        bad += 1
        print(f"{len(lines)} cases against {len(want)} in {a.check}")
    print(f"{len(lines) - bad} of {len(lines)} cases identical", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
