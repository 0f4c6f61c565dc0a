#!/usr/bin/env bash
# Checks that the Swift sources follow the checked-in .swift-format
# configuration, as CI does: swift-format's strict lint over Sources, Tests,
# Plugins and Package.swift. Prints each finding (FILE:LINE:COLUMN: [Rule]
# what to change) and exits 1 when there is one, 0 when there is none.
#
#   Scripts/lint-format.sh          # from any directory
#
# `swift-format format --in-place --recursive Sources Tests Plugins
# Package.swift` makes most of the changes the findings ask for.
#
# Environment:
#   SWIFT_FORMAT   the swift-format to run (default: the one next to
#                  `swift` on PATH, as the toolchain ships it)
set -euo pipefail
unset CDPATH

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
swift_format=${SWIFT_FORMAT:-"$(dirname "$(readlink -f "$(command -v swift)")")/swift-format"}
cd "$root"
"$swift_format" lint --strict --recursive --configuration .swift-format Sources Tests Plugins Package.swift
