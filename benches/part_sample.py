#!/usr/bin/env python3
"""Firm figures for a big enumeration from a uniform sample of its `emx split` parts.

    part_sample.py SPLIT_DIR N SEED [--csv FILE] VARIANT ...

VARIANT is `LABEL=BIN ARGS` (one shell-quoted string): the binary and the
`emx solve` arguments that follow the part's file, e.g.

    part_sample.py /tmp/parts8 200 1 --csv /tmp/s.csv \\
        "scan=target/release/emx --backend scan" \\
        "cp=target/release/emx --backend cp"

SPLIT_DIR is the output of `emx split PUZZLE --depth D`. The script draws N of
its parts uniformly without replacement (random.Random(SEED).sample over the
sorted part files, so the same N and SEED give the same parts), runs
`BIN solve PART ARGS -q --format json` for every variant on every sampled part,
rotating the variants' order from part to part (a slow spell of the machine then
falls on all of them alike), and measures each run's CPU time as the child's
user + sys (os.wait4). A run must be complete (`"complete": true`) and every
variant must find the same number of boards on a part, or the script stops.

Estimates of the whole enumeration (the sum over all P parts): for a quantity
x per part (nodes, CPU seconds, boards), total = P * mean(x), with standard
error P * sd(x) / sqrt(N) * sqrt(1 - N/P) (sampling without replacement).
Each variant after the first is also compared with the first on the same parts:
the ratio of totals R = sum(x_v) / sum(x_1), standard error from the paired
residuals x_v - R x_1 (the ratio estimator), which is far tighter than the two
totals' errors because the parts' sizes cancel.

--csv FILE keeps one line per (part, variant) run and is read back on the next
call: runs already there are not repeated, so an interrupted sample resumes, and
a variant can be added to a finished one (the same N and SEED draw the same parts).
"""

import csv
import json
import math
import os
import random
import shlex
import sys
import tempfile


def parts(d):
    return sorted(f for f in os.listdir(d) if f.startswith("part-") and f.endswith(".txt"))


def run(argv):
    """One child run: (parsed JSON, CPU seconds)."""
    with tempfile.TemporaryFile() as out:
        pid = os.posix_spawn(
            argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1)]
        )
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    # Exit code 1 means no board (the JSON says so too); anything else is a failure.
    if code not in (0, 1):
        sys.exit(f"{' '.join(argv)}: exit code {code}")
    return json.loads(text), usage.ru_utime + usage.ru_stime


def total(xs, p):
    """Estimated sum over the p parts and its standard error."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    return p * mean, p * sd / math.sqrt(n) * math.sqrt(1 - n / p)


def ratio(ys, xs, p):
    """Ratio of totals sum(ys) / sum(xs) and its standard error (paired)."""
    n = len(xs)
    r = sum(ys) / sum(xs)
    resid = [y - r * x for x, y in zip(xs, ys)]
    mx = sum(xs) / n
    var = sum(e * e for e in resid) / (n - 1) if n > 1 else float("nan")
    return r, math.sqrt(var / n * (1 - n / p)) / mx


def main(argv):
    args, csv_path = [], None
    i = 0
    while i < len(argv):
        if argv[i] == "--csv":
            csv_path = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    split_dir, n, seed = args[0], int(args[1]), int(args[2])
    variants = []
    for v in args[3:]:
        label, _, cmd = v.partition("=")
        words = shlex.split(cmd)
        if not label or not words:
            sys.exit(f"variant {v!r}: expected LABEL=BIN ARGS")
        variants.append((label, words[0], words[1:]))
    all_parts = parts(split_dir)
    p = len(all_parts)
    if not 1 < n <= p:
        sys.exit(f"N = {n}: expected 2 to {p} (the parts in {split_dir})")
    sample = random.Random(seed).sample(all_parts, n)

    done = {}
    if csv_path and os.path.exists(csv_path):
        with open(csv_path) as f:
            for row in csv.DictReader(f):
                done[(row["part"], row["variant"])] = row
    writer, out = None, None
    if csv_path:
        fresh = not os.path.exists(csv_path)
        out = open(csv_path, "a", newline="")
        fields = ["part", "variant", "nodes", "boards", "cpu_s", "root_walk", "root_walk_estimate", "root_search_estimate"]
        writer = csv.DictWriter(out, fieldnames=fields)
        if fresh:
            writer.writeheader()

    rows = {label: [] for label, _, _ in variants}
    for k, part in enumerate(sample):
        order = variants[k % len(variants):] + variants[: k % len(variants)]
        boards = set()
        for label, binary, extra in order:
            row = done.get((part, label))
            if row is None:
                j, cpu = run([binary, "solve", os.path.join(split_dir, part)] + extra + ["-q", "--format", "json"])
                if not j.get("complete"):
                    sys.exit(f"{part} {label}: incomplete run (stopped: {j.get('stopped')})")
                c = j.get("counters", {})
                row = {
                    "part": part,
                    "variant": label,
                    "nodes": j["nodes"],
                    "boards": j["solutions"],
                    "cpu_s": f"{cpu:.4f}",
                    "root_walk": c.get("root_walk", ""),
                    "root_walk_estimate": c.get("root_walk_estimate", ""),
                    "root_search_estimate": c.get("root_search_estimate", ""),
                }
                if writer:
                    writer.writerow(row)
                    out.flush()
            boards.add(int(row["boards"]))
            rows[label].append(row)
        if len(boards) != 1:
            sys.exit(f"{part}: the variants disagree on the boards: {sorted(boards)}")
        print(f"\r{k + 1}/{n} parts", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    # Rows are in sample order for every variant, so index i is the same part.
    print(f"{n} of {p} parts of {split_dir} (seed {seed}); estimated totals +- standard error")
    first = variants[0][0]
    for label, _, _ in variants:
        r = rows[label]
        nodes = [float(x["nodes"]) for x in r]
        cpu = [float(x["cpu_s"]) for x in r]
        boards = [float(x["boards"]) for x in r]
        tn, en = total(nodes, p)
        tc, ec = total(cpu, p)
        tb, eb = total(boards, p)
        walks = sum(1 for x in r if str(x["root_walk"]) == "1")
        line = (
            f"{label}: nodes {tn:.4e} +- {en:.2e}, CPU {tc / 3600:.3f} h +- {ec / 3600:.3f}, "
            f"boards {tb:.0f} +- {eb:.0f}, sample CPU {sum(cpu):.2f} s, max part {max(cpu):.2f} s"
        )
        if any(str(x["root_walk"]) != "" for x in r):
            line += f", root walks {walks}/{n}"
        print(line)
        if label != first:
            rn, sn = ratio(nodes, [float(x["nodes"]) for x in rows[first]], p)
            rc, sc = ratio(cpu, [float(x["cpu_s"]) for x in rows[first]], p)
            print(f"  against {first} (paired): nodes x{rn:.4f} +- {sn:.4f}, CPU x{rc:.4f} +- {sc:.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])
