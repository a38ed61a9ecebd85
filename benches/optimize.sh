#!/usr/bin/env bash
# Long local-search benchmarks for `emx optimize` (not run by CI): the META
# 2010 instances within the time limits of Salassa et al., Table 5 (10x10:
# 20 min, 12x12: 30, 14x14: 40, 16x16: 60) and the official Eternity II with
# its centre clue for 60 minutes, one core each. Prints the best score at
# 1 and 5 minutes and at the end, from each run's trace.
#
# usage: benches/optimize.sh [OUTDIR]
# environment:
#   CLOCK=cpu|wall   what the budgets measure (default cpu: fair on a shared machine)
#   SCALE=F          multiply every budget by F (e.g. 0.1 for a quick check)
#   BUDGET=S         give every run S seconds instead of the paper's limit
#   NICE=N           niceness of the runs (default 10)
#   SEED=N           seed (default 1)
#   PARALLEL=1       run the five instances at once (default: one after another)
#   METHOD=breaks    any --method of emx optimize (the default, breaks)
#   EXTRA="..."      more emx optimize arguments
#   EMX=PATH         the emx binary to run (default: the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/optimize-bench}
clock=${CLOCK:-cpu}
scale=${SCALE:-1}
seed=${SEED:-1}
method=${METHOD:-breaks}
mkdir -p "$out"
cargo build --release --quiet
emx=${EMX:-./target/release/emx}

runs=(
  "meta10x10 instances/edgematch/meta2010/pieces_10x10.txt 1200"
  "meta12x12 instances/edgematch/meta2010/pieces_12x12.txt 1800"
  "meta14x14 instances/edgematch/meta2010/pieces_14x14.txt 2400"
  "meta16x16 instances/edgematch/meta2010/pieces_16x16.txt 3600"
  "e2centre instances/edgematch/eternity2/e2_centre.txt 3600"
)

one() {
  local name=$1 file=$2 secs=$3
  local t
  t=$(awk -v s="${BUDGET:-$secs}" -v f="$scale" 'BEGIN { printf "%g", s * f }')
  # shellcheck disable=SC2086
  nice -n "${NICE:-10}" "$emx" optimize "$file" --method "$method" --time "$t" --clock "$clock" --seed "$seed" \
    -o "$out/$name.board.txt" --trace "$out/$name.trace.csv" --format json ${EXTRA:-} >"$out/$name.json"
}

for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  if [ "${PARALLEL:-0}" = 1 ]; then one $r & else one $r; fi
done
wait

# Score at 60 s and 300 s of the clock used, and at the end.
col=2 # cpu_seconds
[ "$clock" = wall ] && col=1
printf "%-10s %8s %8s %8s %10s\n" instance "@60s" "@300s" final "cpu_s"
for r in "${runs[@]}"; do
  set -- $r
  awk -F, -v c=$col -v name="$1" -v json="$out/$1.json" '
    NR > 1 { if ($c <= 60) a = $3; if ($c <= 300) b = $3; z = $3 }
    END {
      getline line < json; match(line, /"cpu_s":[0-9.]+/); cpu = substr(line, RSTART + 8, RLENGTH - 8)
      printf "%-10s %8s %8s %8s %10.0f\n", name, a, b, z, cpu
    }' "$out/$1.trace.csv"
done
