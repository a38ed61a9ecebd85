#!/usr/bin/env python3
"""Alternated timing of emx runs: the figures in docs/*.md are medians from this.

Each run is a child spawned with os.posix_spawn (stdout to /dev/null) and
reaped with os.wait4, so its CPU time (user + sys) is the child's alone. The
variants are run in turn, round after round, so that a change of machine
speed during the call (another process, frequency) falls on all of them
alike; compare only figures from one call.

Modes (BIN is a path to an emx binary; ARGS one shell-quoted string):

  alt.py bins BIN1,BIN2,... N "ARGS"        one argument string, several binaries
  alt.py args BIN N "ARGS1" "ARGS2" ...     one binary, several argument strings
  alt.py wall N "BIN ARGS" "BIN ARGS" ...   whole commands; wall time as well as CPU
  alt.py env BIN N "ARGS" "K=V ..." ...     one binary and arguments, several environments

Prints, per variant, the median (least) CPU ms over N runs (and wall ms in
`wall` mode), and the exit codes seen. The older names of this script in the
docs (`/tmp/alt3.py`, `/tmp/altargs.py`, `/tmp/altwall.py`, `/tmp/altenv.py`)
are the `bins`, `args`, `wall` and `env` modes.
"""

import os
import shlex
import statistics
import sys
import time


def run(argv, env):
    """One child run: (wall ms, CPU ms, exit code)."""
    start = time.perf_counter()
    devnull = [(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)]
    pid = os.posix_spawn(argv[0], argv, env, file_actions=devnull)
    _, status, usage = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1000
    return wall, (usage.ru_utime + usage.ru_stime) * 1000, os.waitstatus_to_exitcode(status)


def alternate(variants, n):
    """variants: list of (label, argv, env). Runs them in turn n times."""
    results = {label: [] for label, _, _ in variants}
    for _ in range(n):
        for label, argv, env in variants:
            results[label].append(run(argv, env))
    return results


def report(results, n, wall):
    for label, runs in results.items():
        cpu = [r[1] for r in runs]
        codes = sorted({r[2] for r in runs})
        line = f"{label}: CPU median {statistics.median(cpu):.2f} ms (least {min(cpu):.2f})"
        if wall:
            w = [r[0] for r in runs]
            line += f", wall median {statistics.median(w):.2f} ms (least {min(w):.2f})"
        print(f"{line}, n={n}, exit {','.join(map(str, codes))}")


def usage():
    print(__doc__.strip(), file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) < 3:
        usage()
    mode = argv[0]
    env = dict(os.environ)
    try:
        if mode == "bins":
            bins, n, args = argv[1].split(","), int(argv[2]), shlex.split(argv[3])
            variants = [(b, [b] + args, env) for b in bins]
        elif mode == "args":
            binary, n = argv[1], int(argv[2])
            variants = [(a, [binary] + shlex.split(a), env) for a in argv[3:]]
        elif mode == "wall":
            n = int(argv[1])
            variants = [(c, shlex.split(c), env) for c in argv[2:]]
        elif mode == "env":
            binary, n, args = argv[1], int(argv[2]), shlex.split(argv[3])
            variants = []
            for spec in argv[4:]:
                extra = dict(kv.split("=", 1) for kv in shlex.split(spec))
                variants.append((spec, [binary] + args, {**env, **extra}))
        else:
            usage()
    except (IndexError, ValueError) as err:
        print(f"alt.py: bad arguments ({err})", file=sys.stderr)
        usage()
    if not variants or n < 1:
        usage()
    report(alternate(variants, n), n, mode == "wall")


if __name__ == "__main__":
    main(sys.argv[1:])
