#!/usr/bin/env bash
# Builds every sample from source and collects the images linkcheck runs on.
#
# Usage:
#   Samples/build.sh            # from any directory; safe to run again
#
# Output (all under Samples/.build/, which git ignores):
#   images/PhotoEditor/        the Swift sample's shared libraries and app
#                              executable (host machine, debug build)
#   images/arch/<triple>/      the C libraries, one folder per target triple
#   images/PhotosApp/          Photos.app: the Mach-O iOS app, its share
#                              extension and frameworks (PhotosApp/build.sh)
#   symbol-graphs/             the Swift modules' symbol graphs (for rules extract)
#   swiftpm/, stubs/           build state and link-time stubs (never scanned)
#
# Progress goes to stderr; stdout is only the images directory, printed last,
# so scripts can use `images=$(Samples/build.sh)`.
#
# Environment:
#   SWIFT   the swift driver (default: `swift` on PATH)
#   CLANG   the C compiler (default: the clang next to that swift driver,
#           which has lld and all the targets below built in)
# and those PhotosApp/build.sh reads (LLVM_BIN: Debian's LLVM 14, for its
# Mach-O linker and llvm-lipo).
set -euo pipefail

samples="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$samples/.build"
images="$build/images"

swift=${SWIFT:-swift}
toolchain_bin="$(dirname "$(readlink -f "$(command -v "$swift")")")"
clang=${CLANG:-$toolchain_bin/clang}

log() { printf '==> %s\n' "$*" >&2; }

# Start from an empty images directory so that nothing stale is scanned;
# the Swift build state under swiftpm/ is kept and builds incrementally.
rm -rf "$images" "$build/stubs"
mkdir -p "$images"

# --- PhotoEditor: an app, its share extension and their frameworks ---------

log "Building PhotoEditor (swift build, debug)"
photo_editor="$samples/PhotoEditor"
scratch="$build/swiftpm/PhotoEditor"
# The symbol graphs (one per module, dependencies included) carry the
# project's own @available(iOSApplicationExtension, unavailable) annotations,
# which `linkcheck rules extract` turns into rules. A module's graph is
# written when it is compiled, so the folder is kept across builds.
mkdir -p "$build/symbol-graphs"
"$swift" build --package-path "$photo_editor" --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$build/symbol-graphs" >&2
bin="$("$swift" build --package-path "$photo_editor" --scratch-path "$scratch" --show-bin-path)"

mkdir -p "$images/PhotoEditor"
for image in \
    libUIKit.so libAVFoundation.so \
    libImageFilters.so libShareKit.so libLegacyLoader.so libEditorKit.so libAnalytics.so \
    libPhotoEditorExtension.so libPhotoEffects.so \
    PhotoEditorApp; do
    cp "$bin/$image" "$images/PhotoEditor/$image"
done

# --- arch: C libraries for other machines -----------------------------------

# Builds one shared library with no C runtime: build_c_library TRIPLE OUTDIR
# NAME SOURCE [LINKER-ARGS...] makes OUTDIR/libNAME.so with SONAME libNAME.so
# and RUNPATH $ORIGIN (its dependencies are looked up in its own folder).
build_c_library() {
    local triple=$1 outdir=$2 name=$3 source=$4
    shift 4
    mkdir -p "$outdir"
    "$clang" --target="$triple" -nostdlib -shared -fPIC -fuse-ld=lld -O2 \
        -Wall -Wextra -Werror \
        -Wl,-soname,"lib$name.so" -Wl,-rpath,'$ORIGIN' \
        -o "$outdir/lib$name.so" "$samples/arch/$source" "$@"
}

log "Building arch samples (clang -nostdlib, lld)"
arch="$images/arch"
for triple in aarch64-linux-gnu x86_64-linux-gnu i386-linux-gnu armv7-linux-gnueabihf; do
    build_c_library "$triple" "$arch/$triple" codec codec.c
done
for triple in aarch64-linux-gnu x86_64-linux-gnu; do
    build_c_library "$triple" "$arch/$triple" pluginhost pluginhost.c
done
build_c_library x86_64-linux-gnu "$arch/x86_64-linux-gnu" fastpath fastpath.c
build_c_library x86_64-linux-gnu "$arch/x86_64-linux-gnu" transcode transcode.c \
    -L"$arch/x86_64-linux-gnu" -lfastpath
# The aarch64 libtranscode needs an aarch64 libfastpath.so to link against;
# the stub stays out of the images, so among them libfastpath is x86_64 only.
build_c_library aarch64-linux-gnu "$build/stubs/aarch64-linux-gnu" fastpath fastpath.c
build_c_library aarch64-linux-gnu "$arch/aarch64-linux-gnu" transcode transcode.c \
    -L"$build/stubs/aarch64-linux-gnu" -lfastpath

# --- PhotosApp: a Mach-O iOS app, its share extension and frameworks ---------

log "Building PhotosApp (clang for arm64-apple-ios, ld64.lld, stand-in SDK)"
CLANG="$clang" "$samples/PhotosApp/build.sh" "$images/PhotosApp" >&2

log "Images:"
(cd "$images" && find . -type f | sort | sed 's|^\./|    |') >&2
echo "$images"
