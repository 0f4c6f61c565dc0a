#!/usr/bin/env bash
# The main job: builds the samples and linkcheck, then checks the samples.
#
#   Samples/check.sh        # from any directory
#
# 1. PhotoEditor, with the roles and suppressions of its linkcheck.json, and
#    the rules extracted from the project's own annotations: the share
#    extension links ShareKit, which uses UIApplication.shared, and EditorKit,
#    which uses Analytics' app-only logAppLaunch, and calls PhotoLibrary's
#    app-only scheduleBackgroundSync, linked into its own image, so it is
#    unsafe;
#    LegacyLoader's dlopen is a conditional-loading path; the app may use
#    anything. The HTML report goes to Samples/.build/photoeditor-report.html.
# 2. arch, requiring arm64 (aarch64) and x86_64: the 32-bit i386 and armv7
#    builds, the module built only for x86_64, and the aarch64 library that
#    links an x86_64 one.
# 3. PhotosApp, the Mach-O iOS app, with the roles its bundle gives:
#    Photos.app's executable is the containing app, PlugIns/PhotosShare.appex
#    a share extension (its Info.plist's NSExtensionPointIdentifier),
#    everything in Frameworks/ a framework; no --extension or --app. The
#    extension links SyncKit (flagged MH_APP_EXTENSION_SAFE), which links
#    Uploader (not flagged), which sends +[UIApplication sharedApplication]
#    from -[UPUploader retry:] through present_login, so both and the
#    extension are unsafe; Legacy is not flagged but safe in fact; Sneaky
#    reaches sharedApplication only by name (NSClassFromString(@"UIApplication")
#    and NSSelectorFromString(@"sharedApplication") from -[SNKLinkOpener
#    openLink:]), which the compiler and the App Store accept: a warning, on
#    it and on the extension, and Sneaky needs review (with
#    --by-name-as-error, an error, and it is unsafe). The HTML report goes to
#    Samples/.build/photosapp-report.html.
#
# linkcheck exits 1 on error findings, which these samples have on purpose;
# this script exits 0 when every check ran, and 2 when one could not.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
images="$("$root/Samples/build.sh")"
echo "==> building linkcheck" >&2
swift build --package-path "$root" >&2
linkcheck="$(swift build --package-path "$root" --show-bin-path)/linkcheck"

run() {
    local status=0
    (cd "$images" && "$linkcheck" "$@") || status=$?
    [ "$status" -le 1 ] || exit "$status"
}

build="$(dirname "$images")"
echo
echo "== linkcheck rules extract --symbol-graph-dir symbol-graphs --output project-rules.json"
"$linkcheck" rules extract --symbol-graph-dir "$build/symbol-graphs" --output "$build/project-rules.json"
echo
echo "== linkcheck check --config PhotoEditor/linkcheck.json --rules project-rules.json --html photoeditor-report.html PhotoEditor"
run check --config "$root/Samples/PhotoEditor/linkcheck.json" --rules "$build/project-rules.json" \
    --html "$build/photoeditor-report.html" PhotoEditor
echo
echo "== linkcheck check --require-arch arm64 --require-arch x86_64 arch"
run check --require-arch arm64 --require-arch x86_64 arch

# --- 3. PhotosApp (Mach-O): the iOS app, its share extension and frameworks --
echo
echo "== linkcheck check --html photosapp-report.html PhotosApp/Photos.app"
run check --html "$build/photosapp-report.html" PhotosApp/Photos.app
