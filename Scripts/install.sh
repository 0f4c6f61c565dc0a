#!/usr/bin/env bash
# Installs the linkcheck CLI for CI machines: a release build with the Swift
# runtime and Foundation linked in (--static-swift-stdlib), so that it runs
# without a Swift toolchain, and the shipped rule packs beside it.
#
#   Scripts/install.sh PREFIX      # PREFIX/bin/linkcheck, PREFIX/share/linkcheck/Rules/
#
# The tool then needs only Debian's shared libraries (libelf1, libcapstone4,
# libarchive13, libgvc6, libstdc++6 and what they link); `linkcheck` finds its packs in
# PREFIX/share/linkcheck/Rules (or $LINKCHECK_RULES_DIR). Building needs what
# Scripts/install-dependencies.sh installs. The build has its own folder
# (.build/install), so it does not rebuild the development one.
set -euo pipefail
unset CDPATH

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: Scripts/install.sh PREFIX" >&2
    exit 2
fi
root="$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." >/dev/null && pwd)"
mkdir -p -- "$1"
prefix="$(cd -P -- "$1" >/dev/null && pwd)"
build=(swift build -c release --static-swift-stdlib --package-path "$root" --scratch-path "$root/.build/install" --product linkcheck)
"${build[@]}" >&2
binary="$("${build[@]}" --show-bin-path)/linkcheck"
install -d "$prefix/bin" "$prefix/share/linkcheck/Rules"
install -m 755 "$binary" "$prefix/bin/linkcheck"
install -m 644 "$root"/Rules/*.json "$root/Rules/README.md" "$prefix/share/linkcheck/Rules/"
echo "$prefix/bin/linkcheck"
