import Foundation
import LinkCheckInspection

/// Resolves DT_NEEDED the way the dynamic loader does (`ld.so(8)`), with the
/// scanned images standing in for the loader's cache:
///
/// 1. a name with a `/` is a path (relative to the working directory);
/// 2. DT_RPATH (only when there is no DT_RUNPATH), `LD_LIBRARY_PATH` (only
///    when enabled), DT_RUNPATH, each with `$ORIGIN`/`${ORIGIN}` expanded to
///    the needing image's directory, then the extra search paths;
/// 3. the scanned images, by SONAME or file name;
/// 4. the system directories (`/etc/ld.so.conf` and its includes, then
///    `/lib`, `/usr/lib` and their multiarch folders), unless excluded.
///
/// Only a library of the same machine, class and data encoding counts as a
/// match, as for the loader. Libraries found outside the scanned images are
/// inspected and added (once each; their own DT_NEEDED are resolved too), so
/// that transitivity holds through them.
public struct LinkResolver: Sendable {
    public var searchPaths: [String]
    public var useLDLibraryPath: Bool
    public var includeSystem: Bool

    public init(searchPaths: [String] = [], useLDLibraryPath: Bool = false, includeSystem: Bool = true) {
        self.searchPaths = searchPaths
        self.useLDLibraryPath = useLDLibraryPath
        self.includeSystem = includeSystem
    }

    /// Resolves the DT_NEEDED of `scanned` and of every library found for
    /// them. `inspect` reads a library outside the scanned set (`nil` when
    /// it is not a readable ELF file).
    ///
    /// - Returns: the graph over `scanned` followed by the libraries found
    ///   outside it (`external`, in the order found).
    public func resolve(
        _ scanned: [BinaryImage], inspect: (String) -> BinaryImage?
    ) -> (graph: LinkGraph, external: [BinaryImage]) {
        var images = scanned
        var byName: [String: [Int]] = [:]
        var byPath: [String: Int] = [:]
        for (index, image) in scanned.enumerated() {
            byName[image.linkName, default: []].append(index)
            if image.dynamic.soname != nil && image.dynamic.soname != image.fileName {
                byName[image.fileName, default: []].append(index)
            }
            byPath[Self.canonical(image.path)] = index
        }
        var unreadable = Set<String>()
        var edges: [[Int]] = []
        var mismatches: [LinkGraph.Mismatch] = []
        var missing: [LinkGraph.Missing] = []
        let ldLibraryPath = useLDLibraryPath
            ? (ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"] ?? "").split(separator: ":").map(String.init) : []

        /// The image at `path` if it is compatible with `image`, inspecting
        /// it (once) when it is not scanned.
        func load(_ path: String, for image: BinaryImage) -> Int? {
            let key = Self.canonical(path)
            if let index = byPath[key] {
                return LinkGraph.compatible(images[index], image) ? index : nil
            }
            guard !unreadable.contains(key), FileManager.default.fileExists(atPath: key),
                  let library = inspect(key)
            else {
                unreadable.insert(key)
                return nil
            }
            images.append(library)
            byPath[key] = images.count - 1
            return LinkGraph.compatible(library, image) ? images.count - 1 : nil
        }

        func firstLoaded(_ name: String, in directories: [String], for image: BinaryImage) -> Int? {
            for directory in directories {
                if let index = load((directory as NSString).appendingPathComponent(name), for: image) { return index }
            }
            return nil
        }

        var current = 0
        while current < images.count {
            let image = images[current]
            var targets: [Int] = []
            let origin = (image.path as NSString).deletingLastPathComponent
            let expand = { (directory: String) in
                directory.replacingOccurrences(of: "${ORIGIN}", with: origin).replacingOccurrences(of: "$ORIGIN", with: origin)
            }
            let rpath = image.dynamic.runpath.isEmpty ? image.dynamic.rpath : []
            let projectDirectories = (rpath + ldLibraryPath + image.dynamic.runpath).map(expand) + searchPaths
            for needed in image.dynamic.needed {
                var found: Int?
                if needed.contains("/") {
                    found = load(needed, for: image)
                } else {
                    found = firstLoaded(needed, in: projectDirectories, for: image)
                        ?? (byName[needed] ?? []).first { $0 != current && LinkGraph.compatible(images[$0], image) }
                    if found == nil && includeSystem {
                        found = firstLoaded(needed, in: SystemLibraryDirectories.for(image.machine, image.elfClass), for: image)
                    }
                }
                if let found {
                    if found != current && !targets.contains(found) { targets.append(found) }
                } else if let other = (byName[needed] ?? []).first(where: { $0 != current }) {
                    mismatches.append(LinkGraph.Mismatch(image: current, needed: needed, candidate: other))
                } else if includeSystem || needed.contains("/") || !projectDirectories.isEmpty {
                    let searched = projectDirectories + (includeSystem ? SystemLibraryDirectories.for(image.machine, image.elfClass) : [])
                    missing.append(LinkGraph.Missing(image: current, needed: needed, searched: searched))
                }
            }
            edges.append(targets)
            current += 1
        }
        return (LinkGraph(count: images.count, edges: edges, mismatches: mismatches, missing: missing),
                Array(images[scanned.count...]))
    }

    /// `path` with symbolic links resolved, so one file has one key.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// The loader's default directories for a machine: those of
/// `/etc/ld.so.conf` (following `include` globs), then the trusted
/// directories `/lib` and `/usr/lib` with the Debian multiarch folder
/// (`/lib/x86_64-linux-gnu`) and, for 64-bit machines, `lib64`.
public enum SystemLibraryDirectories {
    /// The multiarch triple Debian uses for a machine.
    static func multiarch(_ machine: Machine, _ elfClass: ELFClass) -> String? {
        switch machine.name {
        case "x86_64": "x86_64-linux-gnu"
        case "aarch64": "aarch64-linux-gnu"
        case "i386": "i386-linux-gnu"
        case "armv7": "arm-linux-gnueabihf"
        case "riscv64": "riscv64-linux-gnu"
        case "ppc64le": "powerpc64le-linux-gnu"
        case "s390x": "s390x-linux-gnu"
        case "mips64el": "mips64el-linux-gnuabi64"
        case "loongarch64": "loongarch64-linux-gnu"
        default: nil
        }
    }

    /// The configured directories (`/etc/ld.so.conf`), read once per run.
    static let configured: [String] = readConfiguration("/etc/ld.so.conf", depth: 0)

    public static func `for`(_ machine: Machine, _ elfClass: ELFClass) -> [String] {
        var directories = configured
        let triple = multiarch(machine, elfClass)
        for base in ["/lib", "/usr/lib"] {
            if let triple { directories.append("\(base)/\(triple)") }
            if elfClass == .elf64 { directories.append("\(base)64") }
            directories.append(base)
        }
        var seen = Set<String>()
        return directories.filter { seen.insert($0).inserted }
    }

    /// Directories listed in an `ld.so.conf` file: one per line, `#`
    /// comments, `include GLOB` lines (bounded nesting).
    static func readConfiguration(_ path: String, depth: Int) -> [String] {
        guard depth < 8, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var directories: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("include ") {
                let pattern = line.dropFirst("include ".count).trimmingCharacters(in: .whitespaces)
                let absolute = pattern.hasPrefix("/") ? pattern : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(pattern)
                for file in expand(absolute).sorted() {
                    directories += readConfiguration(file, depth: depth + 1)
                }
            } else if line.hasPrefix("/") {
                directories.append(line)
            }
        }
        return directories
    }

    /// The files a glob names (`glob(3)`).
    static func expand(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }
    }
}
