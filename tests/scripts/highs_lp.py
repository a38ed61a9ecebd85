#!/usr/bin/env python3
"""Solve emx's MILP export (Salassa et al.) of an edge-matching puzzle with
HiGHS and decode the solution back through `emx decode --lp-solution`.

usage: highs_lp.py EMX PUZZLE
Exit 0 with a line starting `SKIP:` when highspy is not installed
(`pip install highspy`); exit 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile

try:
    import highspy
except ImportError:
    print("SKIP: highspy is not installed (pip install highspy)")
    sys.exit(0)

emx, puzzle = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    lp = os.path.join(tmp, "model.lp")
    subprocess.run([emx, "encode", puzzle, "--to", "lp", "-o", lp], check=True)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    if h.readModel(lp) != highspy.HighsStatus.kOk:
        sys.exit("HiGHS could not read " + lp)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    objective = h.getInfo().objective_function_value
    print(f"HiGHS: {status}, objective {objective}")
    if status != "Optimal" or abs(objective) > 1e-6:
        sys.exit("expected an optimal solution with no unmatched join")
    names = h.getLp().col_names_
    values = h.getSolution().col_value
    sol = os.path.join(tmp, "model.sol")
    with open(sol, "w") as f:
        for name, value in zip(names, values):
            f.write(f"{name} {value}\n")
    out = subprocess.run([emx, "decode", puzzle, "--lp-solution", sol], capture_output=True, text=True)
    print(out.stdout, end="")
    if out.returncode != 0 or "verified solution" not in out.stdout:
        sys.exit(f"emx decode failed ({out.returncode}): {out.stderr}")
print("OK: the HiGHS solution decodes to a verified board")
