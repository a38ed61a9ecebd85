#!/usr/bin/env python3
"""Solve an emx exact-cover-with-colours problem with OR-tools CP-SAT.

Used by `emx bench --backends cpsat` (which embeds this script and writes
the problem with `emx::bench::external::write_ir_json`); it can also be run
by hand on such a file:

    python3 benches/cpsat.py problem.json [--count] [--time-limit S] [--workers N]

Model: a Boolean per option; each primary item covered exactly
`multiplicity` times; for each secondary item, a Boolean per colour used
on it (true exactly when some chosen option gives the item that colour),
and at most one of {its colours, its uncoloured options}.

Output: one line `v o1 o2 ...` (0-based option ids) per solution found,
then one line `s STATUS solutions=N branches=B complete=0|1 version=V`.
"""

import argparse
import json
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("problem")
    ap.add_argument("--count", action="store_true", help="enumerate every solution")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds")
    ap.add_argument("--workers", type=int, default=1, help="search workers (1 when counting)")
    args = ap.parse_args()

    import ortools
    from ortools.sat.python import cp_model

    with open(args.problem) as f:
        problem = json.load(f)
    items = problem["items"]
    options = problem["options"]

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"o{k}") for k in range(len(options))]
    primary = {}
    plain = {}
    coloured = {}
    for k, entries in enumerate(options):
        for item, colour in entries:
            if items[item]["primary"]:
                primary.setdefault(item, []).append(x[k])
            elif colour == 0:
                plain.setdefault(item, []).append(x[k])
            else:
                coloured.setdefault(item, {}).setdefault(colour, []).append(x[k])
    for item, meta in enumerate(items):
        if meta["primary"]:
            model.add(sum(primary.get(item, [])) == meta["multiplicity"])
    for item in set(plain) | set(coloured):
        uses = list(plain.get(item, []))
        for colour, xs in sorted(coloured.get(item, {}).items()):
            y = model.new_bool_var(f"i{item}c{colour}")
            for v in xs:
                model.add_implication(v, y)
            model.add_bool_or(xs + [y.Not()])
            uses.append(y)
        if len(uses) > 1:
            model.add_at_most_one(uses)

    solver = cp_model.CpSolver()
    if args.time_limit is not None:
        solver.parameters.max_time_in_seconds = args.time_limit
    solver.parameters.num_workers = 1 if args.count else max(1, args.workers)
    if args.count:
        solver.parameters.enumerate_all_solutions = True

    out = sys.stdout

    class Printer(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.n = 0

        def on_solution_callback(self):
            self.n += 1
            chosen = [str(k) for k, v in enumerate(x) if self.value(v)]
            out.write("v " + " ".join(chosen) + "\n")
            if not args.count:
                self.stop_search()

    printer = Printer()
    status = solver.solve(model, printer)
    name = solver.status_name(status)
    if args.count:
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    else:
        complete = printer.n > 0 or status == cp_model.INFEASIBLE
    out.write(
        f"s {name} solutions={printer.n} branches={solver.num_branches} "
        f"complete={int(complete)} version={ortools.__version__}\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
