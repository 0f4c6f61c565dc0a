#!/usr/bin/env bash
# Builds the DWARF-carrying seeds of the fuzz corpus into OUTPUT (run by
# Fuzz/run.sh, at fuzz time: no binaries are committed), from
# Tests/Fixtures/SourceLines/lookup.c for arm64 iOS:
#
#   dwarf-lookup-dwarf4.o, dwarf-lookup-dwarf5.o   objects with DWARF 4 and 5 (-O2: inlined calls)
#   dwarf-lookup.a                                 a static archive of the DWARF 4 object
#   dwarf-liblookup.dylib                          a dylib linked by ld64.lld-14: its debug map names
#                                                  the DWARF 4 object, kept in WORK where it was linked
#   dwarf-liblookup.dylib.dwarf                    its dSYM's DWARF file (dsymutil-14; MH_DSYM)
#   dwarf-liblookup-own.dylib                      the dylib without its debug map, carrying the dSYM's
#                                                  sections in its own __DWARF segment (llvm-objcopy-14)
#
#   Fuzz/dwarf-seeds.sh WORK OUTPUT
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work=$1 output=$2
llvm14=/usr/lib/llvm-14/bin
sdk="$root/Samples/PhotosApp/SDK"
sources="$root/Tests/Fixtures/SourceLines"
mkdir -p "$work" "$output"

for version in 4 5; do
    clang -target arm64-apple-ios14.0 -isysroot "$sdk" -I "$sources/include" -g -gdwarf-$version -O2 \
        -c "$sources/lookup.c" -o "$work/lookup-dwarf$version.o"
done
rm -f "$work/lookup.a"
llvm-ar rcs --format=darwin "$work/lookup.a" "$work/lookup-dwarf4.o"
"$llvm14/ld64.lld" -arch arm64 -platform_version ios 14.0 17.0 -syslibroot "$sdk" -dylib \
    -install_name @rpath/liblookup.dylib -lSystem -undefined dynamic_lookup \
    -o "$work/liblookup.dylib" "$work/lookup-dwarf4.o"
rm -rf "$work/liblookup.dylib.dSYM"
"$llvm14/dsymutil" "$work/liblookup.dylib" -o "$work/liblookup.dylib.dSYM"
dwarf="$work/liblookup.dylib.dSYM/Contents/Resources/DWARF/liblookup.dylib"

# The image's own __DWARF: the debug map stripped (llvm-strip -x), the
# dSYM's sections added.
"$llvm14/llvm-strip" -x "$work/liblookup.dylib" -o "$work/liblookup-stripped.dylib"
sections=()
for section in $("$llvm14/llvm-objdump" -h "$dwarf" | awk '$2 ~ /^__debug_/ { print $2 }'); do
    "$llvm14/llvm-objcopy" --dump-section "__DWARF,$section=$work/$section" "$dwarf" /dev/null
    sections+=(--add-section "__DWARF,$section=$work/$section")
done
"$llvm14/llvm-objcopy" "${sections[@]}" "$work/liblookup-stripped.dylib" "$work/liblookup-own.dylib"

cp "$work/lookup-dwarf4.o" "$output/dwarf-lookup-dwarf4.o"
cp "$work/lookup-dwarf5.o" "$output/dwarf-lookup-dwarf5.o"
cp "$work/lookup.a" "$output/dwarf-lookup.a"
cp "$work/liblookup.dylib" "$output/dwarf-liblookup.dylib"
cp "$dwarf" "$output/dwarf-liblookup.dylib.dwarf"
cp "$work/liblookup-own.dylib" "$output/dwarf-liblookup-own.dylib"
