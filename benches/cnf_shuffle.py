#!/usr/bin/env python3
"""Shuffle a DIMACS CNF (rename variables, reorder clauses and the literals
in each clause, with a seed), and map a solver's model of the shuffled
formula back to the original variables.

A CDCL solver's first decisions follow variable numbers; a formula whose
numbering happens to follow a known solution (emx numbers variables in
option order, and Heule's em_* puzzles list their tiles in solved order)
is then solved by luck. cnf_vs_heule.sh solves every encoding on the same
number of shuffles so that no encoding profits from its numbering.

  cnf_shuffle.py shuffle SEED IN.cnf OUT.cnf PERM      (IN may be .gz)
  cnf_shuffle.py unshuffle PERM MODEL_IN MODEL_OUT

PERM holds one line per original variable v (1-based): its new number.
The header of OUT states the exact clause count (Heule's headers may be
upper bounds). Polarities are kept.
"""
import gzip
import random
import sys


def read_cnf(path):
    opener = gzip.open if path.endswith(".gz") else open
    n_vars = 0
    clauses = []
    cur = []
    with opener(path, "rt") as f:
        for line in f:
            if not line or line[0] in "c%":
                continue
            if line[0] == "p":
                n_vars = max(n_vars, int(line.split()[2]))
                continue
            for tok in line.split():
                lit = int(tok)
                if lit == 0:
                    clauses.append(cur)
                    cur = []
                else:
                    n_vars = max(n_vars, abs(lit))
                    cur.append(lit)
    if cur:
        clauses.append(cur)
    return n_vars, clauses


def shuffle(seed, src, dst, perm_path):
    n_vars, clauses = read_cnf(src)
    rng = random.Random(seed)
    new = list(range(1, n_vars + 1))
    rng.shuffle(new)
    rng.shuffle(clauses)
    with open(dst, "w") as out:
        out.write(f"c shuffled (seed {seed}) from {src}\np cnf {n_vars} {len(clauses)}\n")
        for c in clauses:
            lits = [new[abs(l) - 1] if l > 0 else -new[abs(l) - 1] for l in c]
            rng.shuffle(lits)
            out.write(" ".join(map(str, lits)) + " 0\n")
    with open(perm_path, "w") as p:
        p.write("\n".join(map(str, new)) + "\n")


def unshuffle(perm_path, model_in, model_out):
    with open(perm_path) as p:
        new = [int(x) for x in p.read().split()]
    old_of = {n: o + 1 for o, n in enumerate(new)}
    status = []
    values = []
    with open(model_in) as f:
        for line in f:
            if line.startswith("s "):
                status.append(line)
            elif line.startswith("v "):
                values.extend(int(t) for t in line.split()[1:])
    lits = [old_of[abs(l)] * (1 if l > 0 else -1) for l in values if l != 0]
    lits.sort(key=abs)
    with open(model_out, "w") as out:
        out.writelines(status)
        if lits or values:
            out.write("v " + " ".join(map(str, lits)) + " 0\n")


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "shuffle":
        shuffle(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 5 and sys.argv[1] == "unshuffle":
        unshuffle(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
