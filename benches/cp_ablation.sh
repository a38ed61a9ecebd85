#!/usr/bin/env bash
# cp's ablation through `emx bench` (issue 5): on each puzzle, scan, DLX, CP-SAT,
# cp with its defaults, then cp with each component switched off (or, for those
# off by default, on), every solution enumerated and verified, one table.
#
# Usage: benches/cp_ablation.sh [--emx PATH] [--time-limit S] [--runs R] [--format table|csv|json] [FILE ...]
#   default puzzles: set-2 6x6 and the generated 8x8 K=8 s1, 8x8 K=9 s2, 9x9 K=11 s1,
#   10x10 K=13 s1 and 10x10 K=12 s4 (`emx generate edgematch --size N --colors K --seed S`),
#   60 s per run, 1 run.
#
# The table's "vs first" column is each row against scan (the first backend). A row
# `no-X` is `emx solve FILE --backend cp --cp no-X`; `basic` is the paper's BasicCP
# (every component off). Read the nodes of cp's rows as its decisions, or, where cp's
# default walks the board from the filtered root (`--cp bottom=auto`, docs/engines.md), as
# that walk's placements.
set -euo pipefail

emx=""
limit=60
runs=1
format=table
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --emx) emx="$2"; shift 2 ;;
        --time-limit) limit="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --format) format="$2"; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        -*) echo "cp_ablation.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "$emx" ]; then
    cargo build --release --quiet --bin emx
    emx="$root/target/release/emx"
fi
if [ ${#files[@]} -eq 0 ]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/emx-cp-ablation.XXXXXX")"
    files=("$root/instances/edgematch/brendan_set2/pieces_06x06.txt")
    for g in 8:8:1 8:9:2 9:11:1 10:13:1 10:12:4; do
        IFS=: read -r n k s <<<"$g"
        "$emx" generate edgematch --size "$n" --colors "$k" --seed "$s" -o "$dir/g${n}k${k}s${s}.txt"
        files+=("$dir/g${n}k${k}s${s}.txt")
    done
fi

variants=(--variant "cp=--backend cp")
for c in edge-filter symmetry singletons refutation tile-branching neighbour-ties preemption \
    shared-edges cycles instantiation backjump older-cells; do
    variants+=(--variant "no-$c=--backend cp --cp no-$c")
done
for c in shaving patterns confined; do
    variants+=(--variant "$c=--backend cp --cp $c")
done
variants+=(--variant "basic=--backend cp --cp basic")

exec "$emx" bench "${files[@]}" --count --time-limit "$limit" --runs "$runs" --format "$format" \
    --backends scan,dlx,cpsat "${variants[@]}"
