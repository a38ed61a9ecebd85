#!/usr/bin/env bash
# cadical on emx's CNF encodings against cadical on Heule's 2008 encodings of
# the same edge-matching puzzles, in one run, with the same cadical binary.
#
#   benches/cnf_vs_heule.sh [--limit SEC] [--seeds "1 2 3"] [--instances "em_7_3_6 ..."]
#                           [--configs main|all|NAME,NAME...] [--heule all,cmp,exp,fbc|none]
#                           [--log FILE] [--keep DIR]
#
# Every encoding is solved on the same shuffles of its CNF (benches/cnf_shuffle.py:
# variables renamed, clauses and literals reordered, seed s). Heule's em_*
# puzzles list their tiles in solved order and emx numbers its variables in
# option order, so an unshuffled emx CNF is solved by cadical's first
# decisions, at once; shuffling takes numbering luck out of the
# comparison. Seed 0 means "the file as written" (Heule's anchor run).
#
# Per run: `ulimit -t LIMIT` (CPU seconds; the machine is shared, so wall
# time is not the solver's) and a wall-clock guard of 4 x LIMIT. Times are
# cadical's own "total process time" (CPU) and the wall time around it.
# emx's SAT answers are mapped back through the shuffle and checked with
# `emx decode --model` (exit 0 = a verified board); Heule's answers are taken
# as the solver's status only (his variable numbering has no map here).
#
# --log FILE appends one tab-separated line per run: instance, encoding, seed,
# status, cpu s, wall s, variables, clauses, cadical's conflict count.
#
# Output: one table row per (instance, encoding): variables, clauses (counted,
# not the header's upper bound), results over the seeds, median CPU and wall
# seconds and median conflicts (a timeout counts as the limit; the median is
# "> LIMIT" when half or more timed out), and the CPU time of each seed
# ("+" marks a timeout). CPU seconds and conflicts hardly depend on the load;
# wall seconds do.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

# Defaults: one run in about 20 minutes on a shared 2-core machine (~7 CPU
# minutes): the anchor em_7_3_6 and em_8_4_5, Heule's best encoding (`all`;
# his `cmp` does not finish em_7_4_8 and em_8_4_5 in the limit), five shuffles.
LIMIT=60
SEEDS="1 2 3 4 5"
INSTANCES="em_7_3_6 em_8_4_5"
CONFIGS=main
HEULE=all
LOG=""
KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --limit) LIMIT=$2; shift 2 ;;
        --seeds) SEEDS=$2; shift 2 ;;
        --instances) INSTANCES=$2; shift 2 ;;
        --configs) CONFIGS=$2; shift 2 ;;
        --heule) HEULE=$2; shift 2 ;;
        --log) LOG=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

HEULE_CNF=${HEULE_CNF:-/work/shared/seeds-data/edgematching/heule2008-cnf}
PUZZLES=$ROOT/instances/edgematch/heule2008
SHUFFLE="python3 $ROOT/benches/cnf_shuffle.py"

if ! command -v cadical >/dev/null 2>&1; then
    echo "cnf_vs_heule: cadical not found; installing it with apt-get (Debian package cadical)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get install -y -qq cadical >/dev/null
fi
CADICAL=${CADICAL:-$(command -v cadical)}
if [ -z "${EMX:-}" ]; then
    echo "cnf_vs_heule: building emx (cargo build --bin emx)" >&2
    cargo build -q --bin emx
    EMX=$ROOT/target/debug/emx
fi
[ -d "$HEULE_CNF" ] || { echo "cnf_vs_heule: no Heule CNFs in $HEULE_CNF (set HEULE_CNF)" >&2; exit 2; }

# emx configurations are named by their non-default choices joined with `/`:
# an --amo name, a --colors name, options|sites (--exactly-one-over),
# at-most-one|exactly-one (--color-choice), totals|no-totals (--color-totals
# on|off), support|no-support (--color-support on|off), pin
# (--pin-first-corner), sym
# (--break-symmetry); `default` alone is emx's default encoding.
flags_of() {
    local tok out=""
    IFS=/ read -r -a toks <<<"$1"
    for tok in "${toks[@]}"; do
        case $tok in
            default) ;;
            pairwise|sequential|commander|product) out="$out --amo $tok" ;;
            variables|conflicts) out="$out --colors $tok" ;;
            options|sites) out="$out --exactly-one-over $tok" ;;
            at-most-one|exactly-one) out="$out --color-choice $tok" ;;
            totals|no-totals) out="$out --color-totals $([ "$tok" = totals ] && echo on || echo off)" ;;
            support|no-support) out="$out --color-support $([ "$tok" = support ] && echo on || echo off)" ;;
            pin) out="$out --pin-first-corner" ;;
            sym) out="$out --break-symmetry" ;;
            *) echo "cnf_vs_heule: unknown config part \`$tok' in $1" >&2; return 2 ;;
        esac
    done
    echo "$out"
}
ALL_CONFIGS=()
for amo in pairwise sequential commander product; do
    for sites in options sites; do
        for choice in at-most-one exactly-one; do
            for sym in "" /pin /sym; do
                ALL_CONFIGS+=("$amo/variables/$sites/$choice$sym")
            done
        done
        ALL_CONFIGS+=("$amo/conflicts/$sites" "$amo/conflicts/$sites/pin")
    done
done
# (`conflicts` is left out of `main`: many times the clauses of the others
# and the slowest of them; the figures are in docs/encoders.md.)
MAIN_CONFIGS=(default no-support sites/exactly-one sites/exactly-one/totals/no-support)
case "$CONFIGS" in
    all) SELECTED=("${ALL_CONFIGS[@]}") ;;
    main) SELECTED=("${MAIN_CONFIGS[@]}") ;;
    *) IFS=, read -r -a SELECTED <<<"$CONFIGS" ;;
esac
for c in "${SELECTED[@]}"; do flags_of "$c" >/dev/null || exit 2; done

WORK=${KEEP:-$(mktemp -d /tmp/cnf_vs_heule.XXXXXX)}
mkdir -p "$WORK"
[ -n "$KEEP" ] || trap 'rm -rf "$WORK"' EXIT

echo "# cnf_vs_heule: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# cadical $($CADICAL --version) ($CADICAL), limit ${LIMIT} s CPU per run, seeds: $SEEDS (0 = unshuffled)"
echo
printf '| %-9s | %-40s | %6s | %7s | %-20s | %9s | %9s | %9s | %s |\n' \
    instance encoding vars clauses result "cpu s" "wall s" conflicts "cpu s per seed"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ----------- ------------------------------------------ -------: --------: \
    ---------------------- ----------: ----------: ----------: ----------------

# median VALUES...: the middle value (the lower of the two middle ones).
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

# run_one CNF SEED: solves CNF shuffled by SEED; sets STATUS, CPU, WALL, MODEL.
run_one() {
    local cnf=$1 seed=$2 input perm=""
    if [ "$seed" = 0 ]; then
        input=$WORK/run.cnf
        case "$cnf" in *.gz) zcat "$cnf" >"$input" ;; *) cp "$cnf" "$input" ;; esac
    else
        input=$WORK/run.cnf; perm=$WORK/run.perm
        $SHUFFLE shuffle "$seed" "$cnf" "$input" "$perm"
    fi
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    # (in braces with stderr redirected: bash reports a run killed by the
    # CPU limit as "Killed" on stderr; the table says "timeout")
    { (ulimit -t "$LIMIT"; exec timeout $((4 * LIMIT)) "$CADICAL" -f "$input") >"$WORK/run.out" 2>&1 || rc=$?; } 2>/dev/null
    t1=$(date +%s.%N)
    WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b-a}')
    CPU=$(awk '/total process time since initialization/ {print $(NF-1)}' "$WORK/run.out")
    CONFLICTS=$(awk '/^c conflicts:/ {print $3; exit}' "$WORK/run.out")
    case $rc in
        10) STATUS=SAT ;;
        20) STATUS=UNSAT ;;
        *) STATUS=timeout ;;
    esac
    if [ "$STATUS" = timeout ] || [ -z "$CPU" ]; then CPU=$LIMIT; fi
    MODEL=""
    if [ "$STATUS" = SAT ]; then
        if [ -n "$perm" ]; then
            $SHUFFLE unshuffle "$perm" "$WORK/run.out" "$WORK/model.out"
        else
            grep -E '^[sv] ' "$WORK/run.out" >"$WORK/model.out"
        fi
        MODEL=$WORK/model.out
    fi
}

# bench INSTANCE LABEL CNF PUZZLE_OR_EMPTY
bench() {
    local inst=$1 label=$2 cnf=$3 puzzle=$4
    local vars clauses
    read -r vars clauses < <(
        { case "$cnf" in *.gz) zcat "$cnf" ;; *) cat "$cnf" ;; esac; } |
            awk '/^p/ {v=$3; next} /^c/ {next} {for (i = 1; i <= NF; i++) if ($i == "0") n++} END {print v, n}'
    )
    local cpus=() walls=() confl=() sat=0 unsat=0 tout=0 bad=0 list=""
    for seed in $SEEDS; do
        run_one "$cnf" "$seed"
        case $STATUS in
            SAT)
                sat=$((sat + 1))
                if [ -n "$puzzle" ]; then
                    if ! "$EMX" decode "$puzzle" --model "$MODEL" >"$WORK/decode.out" 2>&1; then
                        bad=$((bad + 1))
                        echo "cnf_vs_heule: $inst $label seed $seed: model does not decode:" >&2
                        cat "$WORK/decode.out" >&2
                    fi
                fi ;;
            UNSAT) unsat=$((unsat + 1)) ;;
            *) tout=$((tout + 1)) ;;
        esac
        cpus+=("$CPU"); walls+=("$WALL"); confl+=("${CONFLICTS:-0}")
        list="$list ${CPU}"; [ "$STATUS" = timeout ] && list="$list+"
        [ -z "$LOG" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
            "$inst" "$label" "$seed" "$STATUS" "$CPU" "$WALL" "$vars" "$clauses" "${CONFLICTS:-}" >>"$LOG"
    done
    local n=$((sat + unsat + tout)) result
    if [ $bad -gt 0 ]; then result="DECODE FAIL $bad"
    elif [ $tout -eq 0 ] && [ $unsat -eq 0 ]; then result="SAT $sat/$n"
    elif [ $tout -eq 0 ] && [ $sat -eq 0 ]; then result="UNSAT $unsat/$n"
    else result="S$sat U$unsat T$tout"; fi
    if [ -n "$puzzle" ] && [ $sat -gt 0 ] && [ $bad -eq 0 ]; then result="$result verified"; fi
    local mc mw mk
    if [ $((2 * tout)) -ge "$n" ]; then mc="> $LIMIT"; mw="-"; mk="-"; else
        mc=$(median "${cpus[@]}"); mw=$(median "${walls[@]}"); mk=$(median "${confl[@]}"); fi
    printf '| %-9s | %-40s | %6s | %7s | %-20s | %9s | %9s | %9s |%s |\n' \
        "$inst" "$label" "$vars" "$clauses" "$result" "$mc" "$mw" "$mk" "$list"
}

for inst in $INSTANCES; do
    puzzle=$PUZZLES/$inst.txt
    [ -f "$puzzle" ] || { echo "cnf_vs_heule: no puzzle $puzzle" >&2; exit 2; }
    if [ "$HEULE" != none ]; then
        IFS=, read -r -a variants <<<"$HEULE"
        for v in "${variants[@]}"; do
            f=$HEULE_CNF/${inst}_$v.cnf.gz
            [ -f "$f" ] || continue
            bench "$inst" "heule $v" "$f" ""
        done
    fi
    for name in "${SELECTED[@]}"; do
        # shellcheck disable=SC2046
        "$EMX" encode "$puzzle" --to cnf $(flags_of "$name") -o "$WORK/emx.cnf" 2>/dev/null
        bench "$inst" "emx $name" "$WORK/emx.cnf" "$puzzle"
    done
done
echo
echo "# done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
