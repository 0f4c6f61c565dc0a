#!/usr/bin/env bash
# Builds PhotosApp, an iOS app with a share extension and embedded
# frameworks, from source into OUTPUT/Photos.app, with no Apple SDK: the
# toolchain's clang compiles against the stand-in SDK in SDK/, and LLVM's
# Mach-O linker links against its .tbd stubs.
#
# Usage:
#   Samples/PhotosApp/build.sh OUTPUT       # OUTPUT is emptied first
#
# Output:
#   OUTPUT/Photos.app/Photos, Info.plist                  the containing app
#   OUTPUT/Photos.app/Frameworks/X.framework/X, Info.plist
#       X = Uploader SyncKit ImageKit Legacy Sneaky Plugin
#   OUTPUT/Photos.app/PlugIns/PhotosShare.appex/PhotosShare, Info.plist
#       the share extension; its Info.plist is a binary plist, as Xcode
#       writes them
# Objects go to a temporary folder, removed at exit. Samples/README.md
# lists what each image is and what linkcheck should find in it.
#
# Environment:
#   CLANG     the C compiler (default: the clang next to `swift` on PATH)
#   LD64_LLD  the linker for chained fixups (default: the ld64.lld next to
#             CLANG). Swift's build of lld refuses input files that name
#             iOS, so what it links is compiled to assembly and assembled
#             without the .build_version directive; it still writes
#             LC_BUILD_VERSION for -platform_version.
#   LLVM_BIN  Debian's LLVM 14 (default: /usr/lib/llvm-14/bin, packages
#             lld-14 and llvm-14): its ld64.lld links with bind opcodes
#             (LC_DYLD_INFO_ONLY) and reads the dylibs built here, its
#             llvm-lipo makes fat files
#   PLUTIL    writes the binary plist (default: the plutil next to CLANG)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
sdk="$here/SDK"
if [ $# -ne 1 ]; then
    echo "usage: $0 OUTPUT" >&2
    exit 2
fi
output=$1

if [ -z "${CLANG:-}" ]; then
    CLANG="$(dirname "$(readlink -f "$(command -v swift)")")/clang"
fi
toolchain_bin="$(dirname "$CLANG")"
chained_ld=${LD64_LLD:-$toolchain_bin/ld64.lld}
llvm_bin=${LLVM_BIN:-/usr/lib/llvm-14/bin}
opcodes_ld="$llvm_bin/ld64.lld"
lipo="$llvm_bin/llvm-lipo"
plutil=${PLUTIL:-$toolchain_bin/plutil}

objects="$(mktemp -d)"
trap 'rm -rf "$objects"' EXIT

# build_image TARGET LINKER SAFETY OUTPUT SOURCE... -- LINKER-ARGUMENT...
#   TARGET  arm64 (an iOS device) or x86_64-simulator
#   LINKER  opcodes: lld 14, bind opcodes (LC_DYLD_INFO_ONLY)
#           chained: Swift's lld with -fixup_chains (LC_DYLD_CHAINED_FIXUPS)
#   SAFETY  extension-safe: compiled with -fapplication-extension and linked
#           with -application_extension, as Xcode does for "Require Only
#           App-Extension-Safe API" (dylibs get MH_APP_EXTENSION_SAFE);
#           any: neither
# Links with the SDK's libobjc and libSystem, and finds the frameworks
# built before it in the app's Frameworks folder (-F).
build_image() {
    local target=$1 linker=$2 safety=$3 image=$4
    shift 4
    local sources=()
    while [ "$1" != "--" ]; do
        sources+=("$1")
        shift
    done
    shift

    local triple arch platform
    case $target in
        arm64) triple=arm64-apple-ios15.0 arch=arm64 platform=ios ;;
        x86_64-simulator) triple=x86_64-apple-ios15.0-simulator arch=x86_64 platform=ios-simulator ;;
    esac
    local cflags=(-target "$triple" -isysroot "$sdk" -I "$here/Frameworks" -Os -Wall -Wextra -Wno-unused-parameter -Werror)
    local ldflags=(-arch "$arch" -platform_version "$platform" 15.0 17.0 -syslibroot "$sdk" -F "$frameworks" -lobjc -lSystem)
    if [ "$safety" = extension-safe ]; then
        cflags+=(-fapplication-extension)
        ldflags+=(-application_extension)
    fi

    local folder
    folder="$(mktemp -d "$objects/$(basename "$image").XXXX")"
    local inputs=() source object
    for source in "${sources[@]}"; do
        object="$folder/$(basename "$source").o"
        if [ "$linker" = chained ]; then
            "$CLANG" "${cflags[@]}" -S -o "$object.s" "$here/$source"
            sed -i '/^[[:space:]]*\.build_version[[:space:]]/d' "$object.s"
            "$CLANG" -cc1as -triple "$arch-apple-darwin" -filetype obj -o "$object" "$object.s"
        else
            "$CLANG" "${cflags[@]}" -c -o "$object" "$here/$source"
        fi
        inputs+=("$object")
    done

    mkdir -p "$(dirname "$image")"
    if [ "$linker" = chained ]; then
        "$chained_ld" -fixup_chains "${ldflags[@]}" "$@" -o "$image" "${inputs[@]}"
    else
        "$opcodes_ld" "${ldflags[@]}" "$@" -o "$image" "${inputs[@]}"
    fi
}

# framework_info NAME: the framework's Info.plist, from Frameworks/Info.plist.
framework_info() {
    sed "s/\$(PRODUCT_NAME)/$1/g" "$here/Frameworks/Info.plist" > "$frameworks/$1.framework/Info.plist"
}

rm -rf "$output"
app="$output/Photos.app"
frameworks="$app/Frameworks"
appex="$app/PlugIns/PhotosShare.appex"
mkdir -p "$frameworks" "$appex"

sdk_frameworks=(-framework UIKit -framework Foundation -framework CoreFoundation)
dylib() { echo -dylib -install_name "@rpath/$1.framework/$1"; }

# Not flagged, and unsafe: +[UIApplication sharedApplication] and -openURL:.
build_image arm64 opcodes any "$frameworks/Uploader.framework/Uploader" \
    Frameworks/Uploader/UPUploader.m Frameworks/Uploader/UPLogin.m -- \
    $(dylib Uploader) "${sdk_frameworks[@]}"
framework_info Uploader

# Flagged and safe itself, but links Uploader (lld warns that it is unsafe).
build_image arm64 opcodes extension-safe "$frameworks/SyncKit.framework/SyncKit" \
    Frameworks/SyncKit/SKSyncEngine.m -- \
    $(dylib SyncKit) "${sdk_frameworks[@]}" -framework Uploader
framework_info SyncKit

# Flagged and safe; fat: arm64 for the device, x86_64 for the simulator.
for target in arm64 x86_64-simulator; do
    build_image "$target" opcodes extension-safe "$objects/ImageKit-$target" \
        Frameworks/ImageKit/ImageKit.m -- \
        $(dylib ImageKit) "${sdk_frameworks[@]}"
done
mkdir -p "$frameworks/ImageKit.framework"
"$lipo" -create "$objects/ImageKit-arm64" "$objects/ImageKit-x86_64-simulator" \
    -output "$frameworks/ImageKit.framework/ImageKit"
framework_info ImageKit

# Not flagged, but safe in fact.
build_image arm64 opcodes any "$frameworks/Legacy.framework/Legacy" \
    Frameworks/Legacy/LGSettingsMigrator.m -- \
    $(dylib Legacy) -framework Foundation -framework CoreFoundation
framework_info Legacy

# Flagged, yet reaches sharedApplication and openURL: by name.
build_image arm64 opcodes extension-safe "$frameworks/Sneaky.framework/Sneaky" \
    Frameworks/Sneaky/SNKLinkOpener.m -- \
    $(dylib Sneaky) -framework Foundation -framework CoreFoundation
framework_info Sneaky

# Not flagged, camera capture; chained fixups. Loaded only by dlopen.
build_image arm64 chained any "$frameworks/Plugin.framework/Plugin" \
    Frameworks/Plugin/Plugin.m -- \
    $(dylib Plugin) -framework AVFoundation -framework Foundation -framework CoreFoundation
framework_info Plugin

# The containing app: uses sharedApplication itself and dlopens Plugin.
build_image arm64 opcodes any "$app/Photos" \
    Photos/main.m Photos/PHAppDelegate.m Photos/PluginLoader.c -- \
    -execute -rpath @executable_path/Frameworks "${sdk_frameworks[@]}" \
    -framework SyncKit -framework Uploader -framework ImageKit -framework Legacy
cp "$here/Photos/Info.plist" "$app/Info.plist"

# The share extension: NSExtensionMain is its entry point.
build_image arm64 opcodes extension-safe "$appex/PhotosShare" \
    PhotosShare/PSShareViewController.m -- \
    -execute -e _NSExtensionMain -rpath @executable_path/Frameworks -rpath @executable_path/../../Frameworks \
    "${sdk_frameworks[@]}" -framework SyncKit -framework ImageKit -framework Legacy -framework Sneaky
"$plutil" -convert binary1 -o "$appex/Info.plist" "$here/PhotosShare/Info.plist"
