#!/usr/bin/env python3
"""Solve emx's MILP export (Salassa et al.) of an edge-matching puzzle to
optimality with HiGHS and write the solution for `emx decode --lp-solution`.

usage: highs_optimum.py EMX PUZZLE SOLUTION
Prints `optimum K seconds S`, K the least number of unmatched inner joins
(the MILP's objective), and writes SOLUTION as `NAME VALUE` lines. Prints a
line starting `SKIP:` and exits 0 when highspy is not installed
(`pip install highspy`); exits 1 on any failure.
"""
import os
import subprocess
import sys
import tempfile
import time

try:
    import highspy
except ImportError:
    print("SKIP: highspy is not installed (pip install highspy)")
    sys.exit(0)

emx, puzzle, solution = sys.argv[1], sys.argv[2], sys.argv[3]
with tempfile.TemporaryDirectory() as tmp:
    lp = os.path.join(tmp, "model.lp")
    subprocess.run([emx, "encode", puzzle, "--to", "lp", "-o", lp], check=True, capture_output=True)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    if h.readModel(lp) != highspy.HighsStatus.kOk:
        sys.exit("HiGHS could not read " + lp)
    start = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - start
    status = h.modelStatusToString(h.getModelStatus())
    if status != "Optimal":
        sys.exit(f"HiGHS: {status}, expected Optimal")
    objective = h.getInfo().objective_function_value
    if abs(objective - round(objective)) > 1e-6:
        sys.exit(f"HiGHS: objective {objective} is not an integer")
    with open(solution, "w") as f:
        for name, value in zip(h.getLp().col_names_, h.getSolution().col_value):
            f.write(f"{name} {value}\n")
print(f"optimum {round(objective)} seconds {seconds:.3f}")
