#!/usr/bin/env bash
# Fuzzes the binary readers with libFuzzer for SECONDS (default 60), seeded
# from ../shared/corpus: each input goes to the ELF inspector and to the
# Mach-O reader. Inputs that crash them are kept in .build/fuzz/crashes/;
# turn each into a regression test named after the case (hand-made bytes in
# Swift, as Tests/LinkCheckMachOTests/HandMadeTests.swift does; no binaries).
#
#   Fuzz/run.sh [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=${1:-60}
work="$root/.build/fuzz"
mkdir -p "$work/corpus" "$work/crashes"
cp -n "$root"/../shared/corpus/*/* "$work/corpus/" 2>/dev/null || true
# The Mach-O corpus is nested (owner__repo/path/in/repo): one seed per file.
find "$root/../shared/corpus/macho" -type f ! -name '*.json' ! -name '*.md' ! -name '*.py' ! -name '*.plist' -print0 |
    while IFS= read -r -d '' file; do
        cp -n "$file" "$work/corpus/macho-$(basename "$file")-$(printf %s "$file" | cksum | cut -d' ' -f1)"
    done

swift_flags=(-O -sanitize=fuzzer,address -parse-as-library)
echo "==> building the fuzzer (swiftc -sanitize=fuzzer,address)" >&2
clang -c -O2 -fsanitize=address -I "$root/Sources/CMappedFileGuard/include" \
    "$root/Sources/CMappedFileGuard/mapped_file_guard.c" -o "$work/mapped_file_guard.o"
# The engine's modules the fuzz target imports, in dependency order, each
# built as a module of its own (as SwiftPM builds them).
includes=(-I "$work" -I "$root/Sources/CLibELF" -I "$root/Sources/CCapstone" -I "$root/Sources/CMappedFileGuard/include")
objects=()
for module in LinkCheckImage LinkCheckLiterals LinkCheckMachO LinkCheckELF LinkCheckInspection LinkCheckCodeIndex; do
    swiftc "${swift_flags[@]}" -wmo -module-name "$module" -package-name linkcheck "${includes[@]}" -emit-module \
        -emit-module-path "$work/$module.swiftmodule" -c "$root/Sources/$module"/*.swift -o "$work/$module.o" \
        2> >(grep -v "Cannot export local symbol" >&2)
    objects+=("$work/$module.o")
done
swiftc "${swift_flags[@]}" -module-name InspectorFuzzer -package-name linkcheck "${includes[@]}" \
    "$root/Fuzz/InspectorFuzzer.swift" "${objects[@]}" "$work/mapped_file_guard.o" \
    -lelf -lcapstone -o "$work/inspector-fuzzer" 2> >(grep -v "Cannot export local symbol" >&2)

echo "==> fuzzing for $seconds s" >&2
"$work/inspector-fuzzer" "$work/corpus" -max_total_time="$seconds" -max_len=65536 \
    -artifact_prefix="$work/crashes/" -print_final_stats=1
