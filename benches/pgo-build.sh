#!/usr/bin/env bash
# Build a profile-guided (PGO) release binary of emx: target/pgo/emx.
#
#   benches/pgo-build.sh            # portable binary (baseline x86-64, like `cargo build --release`)
#   benches/pgo-build.sh --native   # also -C target-cpu=native: target/pgo/emx-native (this CPU only)
#   benches/pgo-build.sh --cpu=x86-64-v3   # any -C target-cpu: target/pgo/emx-x86-64-v3
#
# Steps: find (or apt-get install) an llvm-profdata whose LLVM major matches
# rustc's; build an instrumented emx in target/pgo/instrumented; run the
# training workload below (well under 2 minutes); merge the raw profiles; build
# the optimised emx in target/pgo/optimized with -Cprofile-use; copy it to
# target/pgo/emx (temp name, then rename). The normal target/release is not
# touched. Re-runnable: each run trains afresh, so the profile follows the code.
# See docs/build.md.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)

CPU=""
for arg in "$@"; do
    case "$arg" in
        --native) CPU=native ;;
        --cpu=?*) CPU=${arg#--cpu=} ;;
        -h | --help)
            sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "pgo-build: unknown argument '$arg' (expected --native, --cpu=CPU or --help)" >&2
            exit 2
            ;;
    esac
done

say() { echo "pgo-build: $*" >&2; }
die() {
    say "error: $*"
    exit 1
}

command -v cargo >/dev/null || die "cargo not found on PATH"
command -v rustc >/dev/null || die "rustc not found on PATH"

# --- llvm-profdata with rustc's LLVM major ------------------------------------
LLVM_MAJOR=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
[ -n "$LLVM_MAJOR" ] || die "could not read the LLVM version from 'rustc -vV'"
HOST=$(rustc -vV | sed -n 's/^host: //p')

profdata_major() { "$1" --version 2>/dev/null | sed -n 's/.*LLVM version \([0-9]*\).*/\1/p' | head -n1; }

find_profdata() {
    local sysroot c
    sysroot=$(rustc --print sysroot)
    for c in "llvm-profdata-$LLVM_MAJOR" "/usr/lib/llvm-$LLVM_MAJOR/bin/llvm-profdata" \
        "$sysroot/lib/rustlib/$HOST/bin/llvm-profdata" llvm-profdata; do
        if command -v "$c" >/dev/null 2>&1 && [ "$(profdata_major "$c")" = "$LLVM_MAJOR" ]; then
            command -v "$c"
            return 0
        fi
    done
    return 1
}

if ! PROFDATA=$(find_profdata); then
    say "no llvm-profdata for LLVM $LLVM_MAJOR (rustc's); installing llvm-$LLVM_MAJOR with apt-get"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null && SUDO="sudo"
    fi
    if command -v apt-get >/dev/null 2>&1 &&
        $SUDO apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "llvm-$LLVM_MAJOR" >/dev/null; then
        :
    else
        say "could not install llvm-$LLVM_MAJOR."
    fi
    PROFDATA=$(find_profdata) ||
        die "need llvm-profdata from LLVM $LLVM_MAJOR (the LLVM of $(rustc -V)); install the
    Debian/Ubuntu package llvm-$LLVM_MAJOR, or 'rustup component add llvm-tools', and re-run"
fi
say "using $PROFDATA (LLVM $LLVM_MAJOR, as rustc)"

# --- directories ---------------------------------------------------------------
PGO="$ROOT/target/pgo"
mkdir -p "$PGO"
SUFFIX=""
CPU_FLAGS=""
if [ -n "$CPU" ]; then
    SUFFIX="-$CPU"
    CPU_FLAGS="-Ctarget-cpu=$CPU"
fi
PROFRAW="$PGO/profraw$SUFFIX"
TRAIN="$PGO/train$SUFFIX"
# --target keeps RUSTFLAGS off build scripts and proc macros (host artefacts).
CARGO_BUILD=(cargo build --release --locked --bin emx --target "$HOST")
BASE_FLAGS="${RUSTFLAGS:-} $CPU_FLAGS"

# --- 1. instrumented build -------------------------------------------------------
say "building the instrumented emx (target/pgo/instrumented$SUFFIX)"
CARGO_TARGET_DIR="$PGO/instrumented$SUFFIX" \
    RUSTFLAGS="$BASE_FLAGS -Cprofile-generate=$PROFRAW" \
    "${CARGO_BUILD[@]}"
INSTR="$PGO/instrumented$SUFFIX/$HOST/release/emx"

# --- 2. training workload ----------------------------------------------------------
rm -rf "$PROFRAW" "$TRAIN"
mkdir -p "$PROFRAW" "$TRAIN"
export LLVM_PROFILE_FILE="$PROFRAW/emx-%p-%m.profraw"

# Run one training command; exit codes 0, 1 (no solution) and 3 (a limit hit)
# are expected, anything else stops the script.
run() {
    local rc=0
    "$INSTR" "$@" >/dev/null 2>&1 || rc=$?
    case $rc in
        0 | 1 | 3) ;;
        *) die "training run failed (exit $rc): emx $*" ;;
    esac
}

P=instances/polycube
S2=instances/edgematch/brendan_set2
T0=$(date +%s)
say "training (polycube, edge matching, dlx, sat, local search, encoders)"
run generate edgematch --size 8 --colors 8 --seed 1 -o "$TRAIN/em8_k8_s1.txt"
run generate edgematch --size 7 --colors 8 --seed 4 -o "$TRAIN/em7_k8_s4.txt"
G8="$TRAIN/em8_k8_s1.txt"
G7="$TRAIN/em7_k8_s4.txt"

# Polycube engines (poly: DLX + MCH/EMCH/de Bruijn, filters, triggers, threads).
run solve "$P/tetriscube_def.txt" --unique -q --node-limit 5000000
run solve "$P/tetriscube_def.txt" --unique -q --node-limit 5000000 --threads 2
run solve "$P/pentominoes_10x6_def.txt" --unique -q
run solve "$P/pentominoes_10x6_def.txt" -q --count
run solve "$P/pentominoes_onesided_30x3_def.txt" --unique -q
run solve "$P/somacube_def.txt" --unique -q
run solve "$P/somacube_def.txt" --unique=mirror -q
run solve "$P/hexominoes_box_in_a_diamond_def.txt" -q --first 1 --node-limit 2000000
run solve "$P/tetriscube_def.txt" -q --estimate 200,1
run info "$P/tetriscube_def.txt"
# Plain DLX (Algorithm C).
run solve "$P/pentominoes_10x6_def.txt" --backend dlx -q --node-limit 400000
run solve "$P/somacube_def.txt" --backend dlx -q
run solve "$S2/pieces_05x05.txt" --backend dlx -q
# Edge matching: cp (default components) and the scan backtracker.
run solve "$S2/pieces_06x06.txt" --backend cp -q
run solve "$S2/pieces_06x06.txt" --backend scan -q --node-limit 15000000
run solve "$G8" --backend cp -q
run solve "$G8" --backend scan -q --node-limit 30000000
run solve "$G7" --backend cp -q
run solve "$G7" --backend scan -q
run solve "$S2/pieces_05x05.txt" --backend sat -q --first 1
# Local search (the default method and tabu), on a CPU clock so the amount of
# work does not depend on the machine's load.
run optimize instances/edgematch/meta2010/pieces_10x10.txt --time 3 --clock cpu --seed 1
run optimize instances/edgematch/meta2010/pieces_10x10.txt --time 1.5 --clock cpu --seed 1 --method tabu
# Encoders.
run encode "$S2/pieces_08x08.txt" --to cnf -o "$TRAIN/em8.cnf"
run encode "$S2/pieces_06x06.txt" --to clique -o "$TRAIN/em6.clq"
run encode "$P/pentominoes_10x6_def.txt" --to dlx -o "$TRAIN/p10x6.dlx"
unset LLVM_PROFILE_FILE
say "training took $(($(date +%s) - T0)) s"

# --- 3. merge ------------------------------------------------------------------------
shopt -s nullglob
RAWS=("$PROFRAW"/*.profraw)
shopt -u nullglob
[ ${#RAWS[@]} -gt 0 ] || die "training wrote no .profraw files in $PROFRAW"
"$PROFDATA" merge -o "$PGO/merged$SUFFIX.profdata.tmp" "${RAWS[@]}"
# The profile's hash is in its name, so a new profile changes RUSTFLAGS and
# cargo rebuilds every crate with it (cargo does not track the file's content).
HASH=$(cksum <"$PGO/merged$SUFFIX.profdata.tmp" | cut -d' ' -f1)
PROFILE="$PGO/emx-$HASH$SUFFIX.profdata"
mv -f "$PGO/merged$SUFFIX.profdata.tmp" "$PROFILE"
say "merged ${#RAWS[@]} raw profiles into $PROFILE"

# --- 4. optimised build -----------------------------------------------------------
say "building the PGO-optimised emx (target/pgo/optimized$SUFFIX)"
CARGO_TARGET_DIR="$PGO/optimized$SUFFIX" \
    RUSTFLAGS="$BASE_FLAGS -Cprofile-use=$PROFILE" \
    "${CARGO_BUILD[@]}"
# Profiles of earlier runs for the same CPU are no longer referenced.
for old in "$PGO"/emx-[0-9]*"$SUFFIX".profdata; do
    [ "$old" = "$PROFILE" ] && continue
    if [[ "$(basename "$old")" =~ ^emx-[0-9]+${SUFFIX}\.profdata$ ]]; then rm -f "$old"; fi
done

OUT="$PGO/emx$SUFFIX"
cp "$PGO/optimized$SUFFIX/$HOST/release/emx" "$OUT.tmp.$$"
mv -f "$OUT.tmp.$$" "$OUT"
say "done: $OUT"
echo "$OUT"
