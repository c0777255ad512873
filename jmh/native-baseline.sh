#!/usr/bin/env bash
# Builds and runs the C baseline of PinBenchmark: the bare sched_setaffinity/getaffinity/getcpu syscalls.
# Usage: jmh/native-baseline.sh [iterations] [runs]   (default 1000000 iterations, 3 runs; mean and median ns/op per run;
# pin_restore runs a tenth of the iterations)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/target/native"
mkdir -p "$out"
gcc -O2 -Wall -Wextra -o "$out/pin_baseline" "$here/src/main/c/pin_baseline.c"
iterations="${1:-1000000}"
runs="${2:-3}"
for _ in $(seq "$runs"); do
    "$out/pin_baseline" "$iterations"
done
