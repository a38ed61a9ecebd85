#!/usr/bin/env bash
# Runs one fuzz target for RUNS executions (default 1,000,000) or SECONDS of
# wall time (default: no time bound), whichever comes first, niced, on the
# binaries built by
#   cargo fuzz build -s none -O -a        (stable toolchain: no sanitizer)
# and prints libFuzzer's final statistics. Crashes land in
# fuzz/artifacts/TARGET/. Usage: fuzz/run.sh TARGET [RUNS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1
runs=${2:-1000000}
seconds=${3:-0}
bin=fuzz/target/x86_64-unknown-linux-gnu/release/$target
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target" fuzz/logs
nice -n 2 "$bin" "fuzz/corpus/$target" -runs="$runs" -max_total_time="$seconds" \
    -max_len=2048 -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="fuzz/artifacts/$target/" -print_final_stats=1 > "fuzz/logs/$target.log" 2>&1 || true
grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|Done|ERROR|SUMMARY|crash-|timeout-|oom-" \
    "fuzz/logs/$target.log" | head -20
