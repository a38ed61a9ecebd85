#!/usr/bin/env python3
"""Calibration sweep for cp's `bottom=auto` and `--backend auto` (docs/tried/cp.md).

Usage: benches/cp_auto_sweep.py EMX OUT.csv TIME_LIMIT SEEDS SIZE:COLOURS ...
  SEEDS: N (seeds 1..N) or FIRST-LAST.

For every generated puzzle (`emx generate edgematch --size N --colors K --seed S`)
it enumerates all solutions once with each variant, one after the other:
  scan     --backend scan
  cp       --backend cp                       (the default, bottom=auto)
  search   --backend cp --cp bottom=60%       (cp's search with its completion walker)
  walk     --backend cp --cp bottom=100%,bottom-order=row   (the root walk forced)
and asks `--backend auto` for its pick (`--time-limit 0.0001`: the pick, then stop).
Each run is a child reaped with os.wait4: CPU ms = user + sys of the child. A run
stopped by `--time-limit` is marked `limit` (its time is then a lower bound).
Appends one CSV row per run: puzzle, variant, cpu_ms, nodes, status, walk_est (/cp's search estimate when made), walked, note.
"""
import csv, os, re, subprocess, sys, time

def run(argv):
    r, w = os.pipe()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_DUP2, w, 2), (os.POSIX_SPAWN_CLOSE, r)])
    os.close(w)
    out = b""
    with os.fdopen(r, "rb") as f:
        out = f.read()
    _, status, usage = os.wait4(pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1000, os.waitstatus_to_exitcode(status), out.decode(errors="replace")

VARIANTS = [
    ("scan", ["--backend", "scan"]),
    ("cp", ["--backend", "cp"]),
    ("search", ["--backend", "cp", "--cp", "bottom=60%"]),
    ("walk", ["--backend", "cp", "--cp", "bottom=100%,bottom-order=row"]),
]

def main():
    emx, out, limit, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    first, last = map(int, seeds.split("-")) if "-" in seeds else (1, int(seeds))
    groups = sys.argv[5:]
    os.makedirs("/tmp/pauto23/puzzles", exist_ok=True)
    new = not os.path.exists(out)
    with open(out, "a", newline="") as fh:
        wr = csv.writer(fh)
        if new:
            wr.writerow(["puzzle", "variant", "cpu_ms", "nodes", "status", "walk_est", "walked", "note"])
        for g in groups:
            n, k = g.split(":")
            for s in range(first, last + 1):
                name = f"g{n}k{k}s{s}"
                f = f"/tmp/pauto23/puzzles/{name}.txt"
                if not os.path.exists(f):
                    subprocess.run([emx, "generate", "edgematch", "--size", n, "--colors", k, "--seed", str(s), "-o", f],
                                   check=True, stdout=subprocess.DEVNULL)
                cpu, code, text = run([emx, "solve", f, "--backend", "auto", "--time-limit", "0.0001"])
                m = re.search(r"note: (auto picked .*)", text)
                wr.writerow([name, "autopick", f"{cpu:.1f}", "", "", "", "", m.group(1) if m else ""])
                for label, args in VARIANTS:
                    cpu, code, text = run([emx, "solve", f, "-q", "--time-limit", limit] + args)
                    m = re.search(r"search: .*?, (\d+) nodes", text)
                    nodes = m.group(1) if m else ""
                    status = "limit" if re.search(r"time limit", text, re.I) else ("ok" if code == 0 else f"exit{code}")
                    m = re.search(r"root walk estimate (\d+)", text)
                    est = m.group(1) if m else ""
                    m = re.search(r"root search estimate (\d+)", text)
                    est += f"/{m.group(1)}" if m else ""
                    m = re.search(r"root walk (\d)", text)
                    walked = m.group(1) if m else ""
                    m = re.search(r"solutions: (\d+)", text)
                    sols = m.group(1) if m else ""
                    wr.writerow([name, label, f"{cpu:.1f}", nodes, status, est, walked, f"solutions {sols}"])
                    fh.flush()
                    print(name, label, f"{cpu:.1f}", nodes, status, est, walked, sols, flush=True)

main()
