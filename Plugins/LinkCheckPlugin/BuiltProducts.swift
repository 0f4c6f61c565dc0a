import Foundation

/// Where a build puts the products the plugin checks, in whatever format the
/// platform builds: the plugin takes the path the build reports for the
/// products it asked for (`builtArtifacts`), and looks for the dependency
/// packages' dynamic libraries, which the build does not report, under each
/// platform's names beside them. Nothing here assumes ELF's `lib*.so`.
enum BuiltProducts {
    /// What linkcheck is given for a product the build reports at `path`:
    /// the `.framework` bundle that holds it when it is a framework's
    /// executable (as Xcode's build system makes a dynamic library), so
    /// that the bundle's `Info.plist` is read with it; else the file itself
    /// (`lib<name>.so`, `lib<name>.dylib`, an executable).
    static func checkedPath(ofArtifact path: String) -> String {
        var folder = URL(fileURLWithPath: path)
        while folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
            if folder.pathExtension == "framework" { return folder.path }
        }
        return path
    }

    /// The folder the build put its products in, from one product's path
    /// as ``checkedPath(ofArtifact:)`` gives it: the folder that holds the
    /// file or the framework bundle.
    static func productsFolder(of checkedPath: String) -> URL {
        URL(fileURLWithPath: checkedPath).deletingLastPathComponent()
    }

    /// The names a dynamic library product `name` is built as, one per
    /// platform: `lib<name>.so` (ELF: Linux), `lib<name>.dylib` (Mach-O:
    /// SwiftPM on macOS), `<name>.framework` (a framework bundle: Xcode's
    /// build system), `<name>.dll` (Windows).
    static func fileNames(ofLibrary name: String) -> [String] {
        ["lib\(name).so", "lib\(name).dylib", "\(name).framework", "\(name).dll"]
    }

    /// The dynamic libraries `libraries` (product names) that were built
    /// into `folder`, under any of their ``fileNames(ofLibrary:)``.
    static func builtLibraries(_ libraries: [String], in folder: URL) -> [String] {
        libraries.flatMap { fileNames(ofLibrary: $0) }.map { folder.appendingPathComponent($0).path }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }
}
