import SystemInterface

/// Where the dSYM bundle of a Mach-O image may be, in the order looked at:
///
/// 1. the paths given (`--dsym PATH`, repeatable): a `.dSYM` bundle, a
///    folder of them, or the DWARF file itself;
/// 2. beside the image's bundle, as Xcode's build folders lay them out: for
///    each bundle the image is in (`X.framework`, `X.app`, `X.appex`,
///    `X.bundle`, `X.xpc`), innermost first, `<bundle>.dSYM` in the folder
///    of that bundle and of each bundle around it (a framework inside an app
///    has its `Foo.framework.dSYM` beside the app); for an image outside a
///    bundle (`libX.dylib`), `<file>.dSYM` beside it;
/// 3. the `dSYMs/` folder of an `.xcframework` library the image is in, as
///    `xcodebuild -create-xcframework -framework X.framework
///    -debug-symbols X.framework.dSYM` lays it out:
///    `X.xcframework/<library identifier>/dSYMs/X.framework.dSYM` beside
///    `X.xcframework/<library identifier>/X.framework`;
/// 4. the `dSYMs/` folder of an `.xcarchive` the image is in.
///
/// An image unpacked from a `.zip` is searched for in the folder it was
/// unpacked into, where `UnpackedArchive` put the `*.dSYM` bundles as the
/// zip lays them out (Carthage's `X.framework.zip`: `X.framework.dSYM`
/// beside `Carthage/Build/iOS/X.framework`; an xcframework's `dSYMs/`; an
/// `X.xcarchive.zip`'s `X.xcarchive/dSYMs/`).
///
/// Each bundle gives the DWARF files of `Contents/Resources/DWARF/`; which
/// of them belongs to the image is for the caller to say (by `LC_UUID`).
enum DSYMSearch {
    /// Bundle extensions whose dSYM is named after the bundle.
    static let bundleExtensions = [".framework", ".app", ".appex", ".bundle", ".xpc"]

    /// The DWARF files that may hold the debug information of the image at
    /// `imagePath`, given `explicit` (the `--dsym` paths), in the order
    /// above, each once; only files that exist.
    static func candidates(forImageAt imagePath: String, explicit: [String]) -> [String] {
        var found: [String] = []
        func add(_ files: [String]) {
            for file in files where !found.contains(file) { found.append(file) }
        }
        for path in explicit { add(dwarfFiles(at: path)) }
        let components = imagePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let bundles = components.indices.filter { index in
            index < components.count - 1 && bundleExtensions.contains { components[index].hasSuffix($0) }
        }
        let folder = { (end: Int) in components[..<end].joined(separator: "/") }
        for bundle in bundles.reversed() {
            for outer in ([bundle] + bundles.filter { $0 < bundle }.reversed()) {
                add(dwarfFiles(at: join(folder(outer), components[bundle] + ".dSYM")))
            }
        }
        if bundles.isEmpty, let name = components.last {
            add(dwarfFiles(at: join(folder(components.count - 1), name + ".dSYM")))
        }
        for index in components.indices where components[index].hasSuffix(".xcframework") && index + 2 < components.count {
            add(dwarfFiles(at: join(folder(index + 2), "dSYMs")))
        }
        for index in components.indices where components[index].hasSuffix(".xcarchive") {
            add(dwarfFiles(at: join(folder(index + 1), "dSYMs")))
        }
        return found
    }

    /// The DWARF files at `path`: the files of `Contents/Resources/DWARF/`
    /// of a `.dSYM` bundle, of each `.dSYM` bundle in a folder, or the file
    /// itself.
    static func dwarfFiles(at path: String) -> [String] {
        guard let kind = fileKind(path) else { return [] }
        if kind == S_IFREG { return [path] }
        guard kind == S_IFDIR else { return [] }
        if path.hasSuffix(".dSYM") || path.hasSuffix(".dSYM/") {
            let resources = join(path, "Contents/Resources/DWARF")
            return entries(of: resources).map { join(resources, $0) }.filter { fileKind($0) == S_IFREG }
        }
        return entries(of: path).filter { $0.hasSuffix(".dSYM") }.flatMap { dwarfFiles(at: join(path, $0)) }
    }

    /// `folder/name`, or `name` alone for the empty folder of a relative
    /// path.
    private static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `S_IFREG`, `S_IFDIR`, … of what `path` names (links followed); `nil`
    /// when nothing is there.
    private static func fileKind(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The names in the folder at `path`, sorted, without `.` and `..`.
    private static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
