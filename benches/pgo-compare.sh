#!/usr/bin/env bash
# Time emx binaries against each other on the figures of docs/build.md.
#
#   benches/pgo-compare.sh [-n RUNS] [-s SET] BIN_A BIN_B [BIN_C ...]
#
# SET is `main` (the instances of the speed targets, issues 3 and 5) or
# `heldout` (instances the PGO training never sees: the over-fitting check).
# Runs alternate between the binaries (A B C A B C ...), RUNS rounds (default
# 5); each cell is the median user CPU time (/usr/bin/time %U) over the rounds,
# plus the median wall time for multi-threaded runs. Cases that take a few ms
# are repeated R times inside one timing, and the time is divided by R.
# Each binary's "solutions:" line and node count must be identical to the
# first binary's, or the script stops.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=5
SET=main
while getopts "n:s:" opt; do
    case $opt in
        n) RUNS=$OPTARG ;;
        s) SET=$OPTARG ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}
BINS=("$@")
for b in "${BINS[@]}"; do [ -x "$b" ] || { echo "not executable: $b" >&2; exit 2; }; done

GEN=target/pgo/compare
mkdir -p "$GEN"
gen() { # size colours seed
    local f="$GEN/em$1_k$2_s$3.txt"
    [ -f "$f" ] || "${BINS[0]}" generate edgematch --size "$1" --colors "$2" --seed "$3" -o "$f" >/dev/null
    echo "$f"
}
pento() { # width height: the 12 free pentominoes in another box
    local f="$GEN/pentominoes_$1x$2_def.txt"
    [ -f "$f" ] || sed "s/^D:xDim=10:yDim=6:/D:xDim=$1:yDim=$2:/" \
        instances/polycube/pentominoes_10x6_def.txt >"$f"
    echo "$f"
}

P=instances/polycube
S6=instances/edgematch/brendan_set2/pieces_06x06.txt
# name | repeats | emx arguments
CASES=()
if [ "$SET" = main ]; then
    G88=$(gen 8 8 1) G89=$(gen 8 9 2) G911=$(gen 9 11 1) G1013=$(gen 10 13 1)
    CASES+=("tetris|1|solve $P/tetriscube_def.txt --unique -q")
    CASES+=("tetris-t2|1|solve $P/tetriscube_def.txt --unique -q --threads 2")
    CASES+=("10x6|10|solve $P/pentominoes_10x6_def.txt --unique -q")
    CASES+=("30x3-1s|20|solve $P/pentominoes_onesided_30x3_def.txt --unique -q")
    CASES+=("soma|40|solve $P/somacube_def.txt --unique -q")
    for f in "$S6" "$G88" "$G89" "$G911" "$G1013"; do
        n=$(basename "$f" .txt)
        r=1
        case $n in em9_* | em10_*) r=5 ;; esac
        CASES+=("$n-cp|$r|solve $f --backend cp -q")
        CASES+=("$n-scan|$r|solve $f --backend scan -q")
    done
elif [ "$SET" = heldout ]; then
    CASES+=("12x5|10|solve $(pento 12 5) --unique -q")
    CASES+=("15x4|10|solve $(pento 15 4) --unique -q")
    CASES+=("20x3|20|solve $(pento 20 3) --unique -q")
    CASES+=("hepto-33x23-3M|1|solve $P/heptominoes_33x23_def.txt -q --node-limit 3000000")
    for s in 3 6 7; do
        f=$(gen 8 9 "$s")
        CASES+=("em8_k9_s$s-cp|5|solve $f --backend cp -q")
        CASES+=("em8_k9_s$s-scan|1|solve $f --backend scan -q")
    done
    S7=instances/edgematch/brendan_set2/pieces_07x07.txt
    CASES+=("set2-7x7-cp-300k|1|solve $S7 --backend cp -q --node-limit 300000")
else
    echo "unknown set '$SET' (main or heldout)" >&2
    exit 2
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Outcome of one run: the solutions line and the node count, without timings.
# (Multi-threaded runs: the solutions line only.)
outcome() { grep -E "^solutions:${NODES:+|nodes}" "$1" | sed -E 's/.*(solutions:.*)/\1/; s/.*[ ,]([0-9]+) nodes.*/\1 nodes/' | tr '\n' ' '; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }

echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/'); runs=$RUNS set=$SET"
for i in "${!BINS[@]}"; do echo "# bin$i = ${BINS[$i]}"; done
printf "%-18s" case
for i in "${!BINS[@]}"; do printf " %12s" "bin$i user"; done
for ((i = 1; i < ${#BINS[@]}; i++)); do printf " %9s" "bin$i/bin0"; done
printf " %s\n" "wall (median, s)"

for c in "${CASES[@]}"; do
    IFS='|' read -r name reps args <<<"$c"
    NODES=1
    case $args in *--threads*) NODES= ;; esac
    for i in "${!BINS[@]}"; do : >"$TMP/u$i"; : >"$TMP/w$i"; done
    for ((r = 0; r < RUNS; r++)); do
        for i in "${!BINS[@]}"; do
            b=${BINS[$i]}
            # shellcheck disable=SC2086
            /usr/bin/time -o "$TMP/t" -f "%U %e" bash -c \
                "for ((k = 0; k < $reps; k++)); do \"$b\" $args >\"$TMP/out$i\" 2>&1 || [ \$? -le 3 ]; done"
            read -r u w <"$TMP/t"
            awk -v u="$u" -v n="$reps" 'BEGIN {printf "%.5f\n", u / n}' >>"$TMP/u$i"
            awk -v w="$w" -v n="$reps" 'BEGIN {printf "%.5f\n", w / n}' >>"$TMP/w$i"
            if [ "$i" -gt 0 ] && [ "$(outcome "$TMP/out$i")" != "$(outcome "$TMP/out0")" ]; then
                echo "MISMATCH on $name: bin0 '$(outcome "$TMP/out0")' vs bin$i '$(outcome "$TMP/out$i")'" >&2
                exit 1
            fi
        done
    done
    printf "%-18s" "$name"
    for i in "${!BINS[@]}"; do printf " %12s" "$(median <"$TMP/u$i")"; done
    u0=$(median <"$TMP/u0")
    for ((i = 1; i < ${#BINS[@]}; i++)); do
        printf " %9s" "$(awk -v a="$u0" -v b="$(median <"$TMP/u$i")" 'BEGIN {if (a > 0) printf "%.3f", b / a; else print "-"}')"
    done
    printf "  "
    for i in "${!BINS[@]}"; do printf " %s" "$(median <"$TMP/w$i")"; done
    printf "   [%s]\n" "$(outcome "$TMP/out0")"
done
