#!/usr/bin/env bash
# Fuzzes the binary readers with libFuzzer for SECONDS (default 60), seeded
# from ../shared/corpus and with DWARF-carrying Mach-O files built here
# (Fuzz/dwarf-seeds.sh: objects with DWARF 4 and 5, a static archive, a dylib
# with its debug map, its dSYM, the dylib with its own __DWARF). Each input
# goes to the ELF inspector, the Mach-O reader, and the DWARF readers of the
# Mach-O source lines: as a dSYM or image with __DWARF, as a debug map's
# object file or archive, as an image with a debug map (what is fed to each:
# Fuzz/InspectorFuzzer.swift). Inputs that crash them are kept in
# .build/fuzz/crashes/; turn each into a regression test named after the case
# (hand-made bytes in Swift, as Tests/LinkCheckMachOTests/HandMadeTests.swift
# does, or built from source; no binaries).
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

"$root/Fuzz/dwarf-seeds.sh" "$work/dwarf-seeds" "$work/corpus" 2> >(grep -v -e "^warning: " -e "^note: " >&2)

swift_flags=(-O -sanitize=fuzzer,address -parse-as-library)
echo "==> building the fuzzer (swiftc -sanitize=fuzzer,address)" >&2
c_objects=()
for target in CMappedFileGuard CByteScan; do
    clang -c -O2 -fsanitize=address -I "$root/Sources/$target/include" "$root/Sources/$target"/*.c -o "$work/$target.o"
    c_objects+=("$work/$target.o")
done
# The engine's modules the fuzz target imports, in dependency order, each
# built as a module of its own (as SwiftPM builds them).
includes=(-I "$work")
for target in CLibELF CLibDW CCapstone CArchive CDemangle; do includes+=(-I "$root/Sources/$target"); done
for target in CMappedFileGuard CByteScan; do includes+=(-I "$root/Sources/$target/include"); done
objects=()
for module in SystemInterface LinkCheckImage LinkCheckLiterals LinkCheckMachO LinkCheckELF LinkCheckRules LinkCheckInspection \
    LinkCheckCodeIndex LinkCheckSourceLines; do
    sources=()
    while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "$root/Sources/$module" -name '*.swift' -print0 | sort -z)
    swiftc "${swift_flags[@]}" -wmo -module-name "$module" -package-name linkcheck "${includes[@]}" -emit-module \
        -emit-module-path "$work/$module.swiftmodule" -c "${sources[@]}" -o "$work/$module.o" \
        2> >(grep -v "Cannot export local symbol" >&2)
    objects+=("$work/$module.o")
done
swiftc "${swift_flags[@]}" -module-name InspectorFuzzer -package-name linkcheck "${includes[@]}" \
    "$root/Fuzz/InspectorFuzzer.swift" "${objects[@]}" "${c_objects[@]}" \
    -lelf -ldw -lcapstone -larchive -lstdc++ -o "$work/inspector-fuzzer" 2> >(grep -v "Cannot export local symbol" >&2)

echo "==> fuzzing for $seconds s" >&2
"$work/inspector-fuzzer" "$work/corpus" -max_total_time="$seconds" -max_len=262144 \
    -artifact_prefix="$work/crashes/" -print_final_stats=1
