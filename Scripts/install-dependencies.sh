#!/usr/bin/env bash
# Installs the Debian packages linkcheck needs, when they are missing:
#   libelf-dev   libelf/gelf, through which linkcheck reads every ELF file
#   pkg-config   how SwiftPM finds libelf
#   binutils     readelf, the oracle the tests compare the inspector with
# Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(libelf-dev pkg-config binutils)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "==> installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
