#!/usr/bin/env bash
# Fuzzes the binary inspector with libFuzzer for SECONDS (default 60),
# seeded from ../shared/corpus. Inputs that crash it are kept in
# .build/fuzz/crashes/; copy each into Tests/LinkCheckInspectionTests/Regressions/
# with a line in its README on what it exercises.
#
#   Fuzz/run.sh [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=${1:-60}
work="$root/.build/fuzz"
mkdir -p "$work/corpus" "$work/crashes"
cp -n "$root"/../shared/corpus/*/* "$work/corpus/" 2>/dev/null || true
cp -n "$root"/Tests/LinkCheckInspectionTests/Regressions/*.elf "$work/corpus/" 2>/dev/null || true

echo "==> building the fuzzer (swiftc -sanitize=fuzzer,address)" >&2
clang -c -O2 -fsanitize=address -I "$root/Sources/CMappedFileGuard/include" \
    "$root/Sources/CMappedFileGuard/mapped_file_guard.c" -o "$work/mapped_file_guard.o"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name LinkCheckInspection \
    -I "$root/Sources/CLibELF" -I "$root/Sources/CCapstone" -I "$root/Sources/CMappedFileGuard/include" \
    "$root"/Sources/LinkCheckInspection/*.swift "$root/Fuzz/InspectorFuzzer.swift" "$work/mapped_file_guard.o" \
    -lelf -lcapstone -o "$work/inspector-fuzzer" 2> >(grep -v "Cannot export local symbol" >&2)

echo "==> fuzzing for $seconds s" >&2
"$work/inspector-fuzzer" "$work/corpus" -max_total_time="$seconds" -max_len=65536 \
    -artifact_prefix="$work/crashes/" -print_final_stats=1
