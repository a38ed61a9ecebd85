#!/usr/bin/env bash
# cp against scan over many generated edge-matching puzzles (issue 5: "cp is the
# fastest emx backend from 8x8 up"), not only the four in benches/cp.rs.
#
# Usage: benches/cp_sweep.sh [--emx PATH] [--seeds N] [--time-limit S] [--out DIR] [SIZE:COLOURS ...]
#   default sizes/colours: 8:8 8:9 8:10 9:10 9:11 10:12 10:13, seeds 1..6, 120 s per run.
#
# For every (size, colours, seed) it writes the puzzle with `emx generate edgematch`
# (Benoist-style: uniform random colours, few solutions), enumerates every solution
# with `emx bench --backends cp,scan --count` (each solution verified by emx), keeps
# the CSV (DIR/sweep.csv) and prints one line per puzzle and one per group: how many
# puzzles cp finished faster than scan, and the summed wall times. A run stopped by
# the time limit counts at the limit (so a sum with a timeout is a lower bound).
set -euo pipefail

emx=""
seeds=6
limit=120
out=""
groups=()
while [ $# -gt 0 ]; do
    case "$1" in
        --emx) emx="$2"; shift 2 ;;
        --seeds) seeds="$2"; shift 2 ;;
        --time-limit) limit="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *:*) groups+=("$1"); shift ;;
        *) echo "cp_sweep.sh: unexpected argument '$1' (expected SIZE:COLOURS or an option; see --help)" >&2; exit 2 ;;
    esac
done
[ ${#groups[@]} -gt 0 ] || groups=(8:8 8:9 8:10 9:10 9:11 10:12 10:13)
if [ -z "$emx" ]; then
    cargo build --release --quiet --bin emx
    emx="$(cd "$(dirname "$0")/.." && pwd)/target/release/emx"
fi
[ -n "$out" ] || out="$(mktemp -d "${TMPDIR:-/tmp}/emx-cp-sweep.XXXXXX")"
mkdir -p "$out"

files=()
for g in "${groups[@]}"; do
    n="${g%%:*}"
    k="${g##*:}"
    for s in $(seq 1 "$seeds"); do
        f="$out/g${n}_${k}_${s}.txt"
        "$emx" generate edgematch --size "$n" --colors "$k" --seed "$s" -o "$f" >/dev/null
        files+=("$f")
    done
done

"$emx" bench --backends cp,scan --count --time-limit "$limit" --format csv "${files[@]}" > "$out/sweep.csv.tmp"
mv "$out/sweep.csv.tmp" "$out/sweep.csv"
echo "CSV: $out/sweep.csv ($emx, time limit $limit s)"

python3 - "$out/sweep.csv" <<'PY'
import collections, csv, os, sys

rows = collections.defaultdict(dict)
order = []
for r in csv.DictReader(open(sys.argv[1])):
    name = os.path.basename(r["instance"]).removesuffix(".txt")
    if name not in rows:
        order.append(name)
    rows[name][r["backend"]] = r
print(f"{'puzzle':<12} {'solutions':>9} {'cp nodes':>11} {'cp s':>9} {'scan nodes':>13} {'scan s':>9} {'scan/cp':>8}")
groups = collections.defaultdict(lambda: [0, 0, 0.0, 0.0])
for name in order:
    cp, scan = rows[name]["cp"], rows[name]["scan"]
    tc, ts = float(cp["time_s"]), float(scan["time_s"])
    notes = "".join(f" ({b} stopped: {r['status']})" for b, r in (("cp", cp), ("scan", scan)) if r["status"] != "count")
    print(f"{name:<12} {cp['solutions']:>9} {cp['nodes']:>11} {tc:9.3f} {scan['nodes']:>13} {ts:9.3f} {ts / max(tc, 1e-4):8.1f}{notes}")
    g = groups[name.rsplit("_", 1)[0]]
    g[0] += 1
    g[1] += tc < ts
    g[2] += tc
    g[3] += ts
print()
print(f"{'group':<10} {'cp faster':>12} {'cp s':>9} {'scan s':>9}")
for name, (n, wins, tc, ts) in groups.items():
    print(f"{name:<10} {wins:>5} of {n:<4} {tc:9.2f} {ts:9.2f}")
PY
