#!/usr/bin/env python3
"""How much of scan's tree lies under prefixes cp's filtering refutes or thins
(docs/tried/cp.md): a multi-stage sample of `emx split` parts.

    cp_prefix_sample.py EMX SPLIT_DIR LEVELS N K SEED [CP_SPEC]

SPLIT_DIR is the output of `emx split PUZZLE --depth D` (its parts fix the
first D cells in scan's order). Stage 1 samples N of its parts uniformly;
each further stage (LEVELS - 1 of them) splits every sampled part 7 more
cells deep (`emx split PART --depth 7`, into PART_s/, kept for reuse) and
samples K of its subparts, except the last stage, which keeps all of them.
On every part of the last stage it runs `scan` and `cp --cp CP_SPEC`
(default `bottom=100%,bottom-order=row`: cp's root fixpoint on the part's
prefix, then scan's walk restricted to cp's domains), checks that both
find the same number of boards, and prints the totals projected to the
whole tree (each part weighted by its inverse sampling probability):
prefixes at that depth, scan's nodes under them, cp's placements, their
ratio, and the prefixes cp's root refutes (no placement) with the scan
nodes under those.
"""

import json
import os
import random
import subprocess
import sys


def parts(d):
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.startswith("part-") and f.endswith(".txt"))


def split(emx, f):
    out = f[:-4] + "_s"
    if not os.path.exists(os.path.join(out, "manifest.json")):
        subprocess.run([emx, "split", f, "--depth", "7", "--out", out], capture_output=True, check=True)
    return parts(out)


def solve(emx, args):
    # Exit code 1 means no board; the JSON says so too.
    out = subprocess.run([emx, "solve"] + args + ["-q", "--format", "json"], capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    emx, top_dir, levels, n, k, seed = sys.argv[1:7]
    levels, n, k = int(levels), int(n), int(k)
    spec = sys.argv[7] if len(sys.argv) > 7 else "bottom=100%,bottom-order=row"
    rng = random.Random(int(seed))
    top = parts(top_dir)
    frontier = [(f, len(top) / n) for f in rng.sample(top, min(n, len(top)))]
    for stage in range(1, levels):
        deeper = []
        for f, w in frontier:
            subs = split(emx, f)
            if not subs:
                continue
            pick = subs if stage == levels - 1 else rng.sample(subs, min(k, len(subs)))
            deeper += [(s, w * len(subs) / len(pick)) for s in pick]
        frontier = deeper
    prefixes = scan_nodes = cp_nodes = refuted = refuted_scan = 0.0
    for f, w in frontier:
        s = solve(emx, [f, "--backend", "scan"])
        c = solve(emx, [f, "--backend", "cp", "--cp", spec])
        if s["found"] != c["found"]:
            sys.exit(f"{f}: scan found {s['found']} boards, cp {c['found']}")
        prefixes += w
        scan_nodes += w * s["nodes"]
        cp_nodes += w * c["nodes"]
        if c["nodes"] == 0 and s["nodes"] > 0:
            refuted += w
            refuted_scan += w * s["nodes"]
    print(
        f"{len(frontier)} parts run; projected: prefixes {prefixes:.3e}, scan nodes {scan_nodes:.3e}, "
        f"cp placements {cp_nodes:.3e}, ratio {cp_nodes / scan_nodes:.3f}; refuted by cp's root "
        f"{refuted:.3e} prefixes holding {refuted_scan:.3e} scan nodes ({refuted_scan / scan_nodes:.1%})"
    )


if __name__ == "__main__":
    main()
