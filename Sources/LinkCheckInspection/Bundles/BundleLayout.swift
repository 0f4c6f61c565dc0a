import Foundation
import LinkCheckImage
import LinkCheckRules

/// The bundles around the files discovery found: per file, its
/// ``BundlePlacement``, and the bundles that cannot be checked whole.
///
/// A bundle is a folder named `*.app`, `*.appex`, `*.framework` or
/// `*.xcframework` on a file's path; its `Info.plist` is looked for where
/// its layout puts it (``BundleFolder/Layout``). An `.xcarchive` is not a
/// bundle: its `Products/Applications/*.app` are.
public struct BundleLayout: Sendable, Equatable {
    /// Placements by file path, as discovery gives it.
    public private(set) var placements: [String: BundlePlacement] = [:]
    /// The private folders archives were unpacked into.
    public private(set) var unpacked: [ArchiveFolder] = []
    /// The bundles walked that cannot be checked whole, by path: those whose
    /// executable cannot be found
    /// (``InspectionError/bundleExecutable(path:problem:)``: missing, named
    /// otherwise than `CFBundleExecutable` says, or a symbolic link that
    /// dangles or leads out of the bundle), and the xcframeworks whose
    /// `Info.plist` lists a library that is not there
    /// (``InspectionError/xcframeworkLibraryMissing(path:identifier:libraryPath:)``),
    /// and those whose `Info.plist` cannot be read or is malformed
    /// (``InspectionError/infoPlist(path:reason:)``: the bundle is taken as
    /// if it had none).
    public private(set) var incompleteBundles: [InspectionError] = []

    public init() {}

    /// Places each of `files` (paths as discovery gives them), some of them
    /// in the `unpacked` folders of archives, and looks for the executable
    /// of each bundle folder in `bundleFolders` (the `.app`, `.appex` and
    /// `.framework` folders discovery walked) and the library of each
    /// `AvailableLibraries` entry of the `.xcframework` folders: one that
    /// cannot be found is in ``incompleteBundles``.
    public init(files: [String], bundleFolders: [String] = [], unpacked: [ArchiveFolder] = []) {
        self.unpacked = unpacked
        var folders: [String: FoundFolder] = [:]
        for file in files {
            if let placement = place(file, folders: &folders) { placements[file] = placement }
        }
        for path in bundleFolders {
            guard let kind = Self.kinds[(path as NSString).pathExtension] else { continue }
            var found = folders.values.filter { $0.folder.path == path }
            if kind == .xcframework {
                let folder = found.first?.folder ?? self.folder(path, kind: kind, next: nil, version: nil)
                incompleteBundles += Self.missingLibraries(of: folder)
                continue
            }
            if found.isEmpty {
                let folder = folder(path, kind: kind, next: nil, version: nil)
                found = [FoundFolder(folder: folder, executable: folder.findExecutable(version: nil))]
            }
            // A versioned framework has its executable when one of its
            // versions has.
            let failures = found.sorted { ($0.version ?? "") < ($1.version ?? "") }.compactMap { folder -> BundleExecutableProblem? in
                guard case .failure(let problem)? = folder.executable else { return nil }
                return problem
            }
            if failures.count == found.count, let problem = failures.first {
                incompleteBundles.append(.bundleExecutable(path: path, problem: problem))
            }
        }
        incompleteBundles.sort { $0.path < $1.path }
    }

    /// The libraries `xcframework`'s `Info.plist` lists
    /// (`AvailableLibraries`: `LibraryIdentifier/LibraryPath`, as
    /// `ios-arm64/Kit.framework`) that are not in the folder, in the
    /// `Info.plist`'s order.
    private static func missingLibraries(of xcframework: BundleFolder) -> [InspectionError] {
        (xcframework.info?.libraries ?? []).compactMap { library in
            guard let libraryPath = library.libraryPath else { return nil }
            let place = library.identifier + "/" + libraryPath
            var info = stat()
            guard lstat(xcframework.path + "/" + place, &info) != 0 else { return nil }
            return .xcframeworkLibraryMissing(path: xcframework.path, identifier: library.identifier, libraryPath: libraryPath)
        }
    }

    /// A bundle folder met on a file's path (of one version, for a
    /// versioned framework), and where its executable is.
    private struct FoundFolder {
        var folder: BundleFolder
        var version: String?
        /// ``BundleFolder/findExecutable(version:)``; `nil` for an
        /// xcframework, which has none.
        var executable: Result<String, BundleExecutableProblem>?
    }

    /// The archive entry the file or folder at `path` was unpacked from
    /// (`..` taken out of the path first); `nil` outside the unpacked
    /// folders.
    public func entry(forFile path: String) -> ArchiveEntry? {
        guard !unpacked.isEmpty else { return nil }
        let normal = Self.lexicallyNormal(path)
        for folder in unpacked where normal.hasPrefix(folder.folder + "/") {
            return ArchiveEntry(archive: folder.archive, entry: String(normal.dropFirst(folder.folder.count + 1)))
        }
        return nil
    }

    /// `image` with the archive entry its file was unpacked from
    /// (``ImageIdentity/unpackedFrom``), which names it in reports:
    /// `Photos.ipa:Payload/Photos.app/Photos`.
    public func named(_ image: BinaryImage) -> BinaryImage {
        var image = image
        image.identity.unpackedFrom = entry(forFile: image.path)
        return image
    }

    /// How reports name the file or folder at `path`: `archive:entry` in an
    /// unpacked archive (`Photos.ipa:Payload/Photos.app/Frameworks`), else
    /// `path` as it is.
    public func displayPath(of path: String) -> String {
        entry(forFile: path)?.description ?? path
    }

    /// `path` with `.` components dropped and each `..` taking the one
    /// before it away, without looking at the file system (for naming
    /// only: dyld's `@executable_path/../../Frameworks`).
    public static func lexicallyNormal(_ path: String) -> String {
        guard path.contains("/.") else { return path }
        var kept: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            if component == "." { continue }
            if component == "..", let last = kept.last, !last.isEmpty, last != ".." {
                kept.removeLast()
            } else {
                kept.append(component)
            }
        }
        return kept.joined(separator: "/")
    }

    /// The placement of the file at `path`, if it is in a bundle.
    public func placement(ofFile path: String) -> BundlePlacement? {
        placements[path]
    }

    /// Whether a bundle makes some image the containing app or an
    /// extension.
    public var assignsRoles: Bool {
        placements.values.contains { $0.role == .app || $0.isExtension }
    }

    /// The bundle folder kinds, by extension.
    static let kinds: [String: BundleFolder.Kind] = [
        "app": .app, "appex": .appExtension, "framework": .framework, "xcframework": .xcframework,
    ]

    /// The bundle folder extensions as a folder's name ends in them, in
    /// bytes: `.app`, `.appex`, `.framework`, `.xcframework`.
    private static let folderSuffixes: [[UInt8]] = kinds.keys.map { Array(".\($0)".utf8) }

    /// Whether a folder on `file`'s path has a name that ends in a bundle
    /// extension (`Photos.app/` in it), compared as bytes: asked of every
    /// file discovery found, most of which (a library folder's) are in no
    /// bundle.
    private static func hasBundleFolderName(_ file: String) -> Bool {
        var file = file
        return file.withUTF8 { bytes in
            bytes.indices.contains { slash in
                bytes[slash] == UInt8(ascii: "/")
                    && folderSuffixes.contains { suffix in
                        slash >= suffix.count && bytes[(slash - suffix.count)..<slash].elementsEqual(suffix)
                    }
            }
        }
    }

    private mutating func place(_ file: String, folders: inout [String: FoundFolder]) -> BundlePlacement? {
        guard Self.hasBundleFolderName(file) else { return nil }
        let components = file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var chain: [(folder: BundleFolder, executable: String?, index: Int, version: String?)] = []
        for index in components.indices.dropLast() {
            guard let kind = Self.kinds[(components[index] as NSString).pathExtension] else { continue }
            let path = components[...index].joined(separator: "/")
            let next = index + 1 < components.count - 1 ? components[index + 1] : nil
            let version = kind == .framework && next == "Versions" && index + 2 < components.count - 1 ? components[index + 2] : nil
            let key = path + "\u{0}" + (version ?? "")
            if folders[key] == nil {
                let folder = folder(path, kind: kind, next: next, version: version)
                folders[key] = FoundFolder(
                    folder: folder, version: version, executable: kind == .xcframework ? nil : folder.findExecutable(version: version))
            }
            let found = folders[key]!
            chain.append((found.folder, try? found.executable?.get(), index, version))
        }
        guard let outer = chain.first, let inner = chain.last(where: { $0.folder.kind != .xcframework }) ?? chain.last else { return nil }
        let inside = components[(inner.index + 1)...].joined(separator: "/")
        // A versioned framework's binary is also reached as the top-level
        // link `X.framework/X`, which a copy may have made a file; an
        // executable that is a link inside the bundle is its target.
        let isExecutable =
            inner.folder.kind != .xcframework
            && (inside == inner.folder.executablePath(version: inner.version)
                || inner.folder.layout == .versioned && inside == inner.folder.executableName
                || file == inner.executable)
        var library: XCFrameworkLibrary?
        if let xcframework = chain.last(where: { $0.folder.kind == .xcframework }), xcframework.index + 1 < components.count - 1 {
            let identifier = components[xcframework.index + 1]
            library = xcframework.folder.info?.libraries.first { $0.identifier == identifier } ?? XCFrameworkLibrary(folderName: identifier)
        }
        let role: BundleRole?
        if isExecutable && inner.folder.kind == .appExtension {
            role = .appExtension(type: inner.folder.info?.extensionPoint.flatMap(ExtensionPoints.type(of:)))
        } else if isExecutable && inner.folder.kind == .app {
            role = .app
        } else if chain.contains(where: { $0.folder.kind == .framework || $0.folder.kind == .xcframework })
            || (file as NSString).deletingLastPathComponent == inner.folder.frameworksFolder
        {
            role = .framework
        } else {
            role = nil
        }
        return BundlePlacement(
            outermost: outer.folder, innermost: inner.folder, containingApp: chain.last { $0.folder.kind == .app }?.folder,
            place: components[(outer.index + 1)...].joined(separator: "/"), isExecutable: isExecutable, role: role, library: library)
    }

    /// The bundle folder at `path`: its layout from the file's path (`next`,
    /// the component after the folder, and a framework's `version`) or the
    /// folders present, and its `Info.plist`.
    private mutating func folder(_ path: String, kind: BundleFolder.Kind, next: String?, version: String?) -> BundleFolder {
        let manager = FileManager.default
        let layout: BundleFolder.Layout =
            switch kind {
            case .app, .appExtension: next == "Contents" || manager.fileExists(atPath: path + "/Contents/Info.plist") ? .contents : .flat
            case .framework: next == "Versions" || manager.fileExists(atPath: path + "/Versions") ? .versioned : .flat
            case .xcframework: .flat
            }
        let candidates: [String] =
            switch layout {
            case .flat: [path + "/Info.plist"]
            case .contents: [path + "/Contents/Info.plist"]
            case .versioned:
                [path + "/Versions/\(version ?? "Current")/Resources/Info.plist", path + "/Resources/Info.plist"]
                    // Without the Current link (a copy that dropped it), the one version there is.
                    + ((try? manager.contentsOfDirectory(atPath: path + "/Versions")) ?? []).filter { $0 != "Current" }.sorted()
                    .map { path + "/Versions/\($0)/Resources/Info.plist" }
            }
        var info: InfoPlist?
        if let plist = candidates.first(where: manager.fileExists(atPath:)) {
            do {
                info = try InfoPlist(contentsOf: plist)
                info?.path = displayPath(of: plist)
            } catch {
                if !incompleteBundles.contains(where: { $0.path == plist }) {
                    incompleteBundles.append(.infoPlist(path: plist, reason: error.reason))
                }
            }
        }
        return BundleFolder(path: path, displayPath: displayPath(of: path), kind: kind, layout: layout, info: info)
    }
}
