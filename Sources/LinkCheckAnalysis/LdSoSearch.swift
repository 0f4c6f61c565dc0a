import Foundation
import LinkCheckImage
import LinkCheckInspection

/// How `ld.so(8)` looks for an ELF image's DT_NEEDED libraries.
enum LdSoSearch {
    /// Where the loader looks for the DT_NEEDED of `image`, in order: the
    /// project's folders (DT_RPATH unless there is DT_RUNPATH,
    /// `LD_LIBRARY_PATH`, DT_RUNPATH, with `$ORIGIN` expanded, then the
    /// extra search paths) and, after the scanned images, the system's.
    static func directories(
        for image: BinaryImage, ldLibraryPath: [String], searchPaths: [String]
    ) -> [String] {
        let expand = { (directory: String) in
            guard directory.utf8.contains(UInt8(ascii: "$")) else { return directory }
            return expandingOrigin(in: directory, with: self.directory(of: image.path))
        }
        let runpath = image.searchPaths.filter { $0.kind == .runpath }.map(\.path)
        let rpath = runpath.isEmpty ? image.searchPaths.filter { $0.kind == .rpath }.map(\.path) : []
        return (rpath + ldLibraryPath + runpath).map(expand) + searchPaths
    }

    /// `path` with symbolic links, `.` and `..` resolved (`realpath(3)`);
    /// `path` itself when that fails.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder of `path` (`.` for a bare name), as `$ORIGIN` names it.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// `directory` with each `${ORIGIN}`, and each `$ORIGIN` not followed by
    /// a letter, digit or `_`, replaced by `origin` (`ld.so(8)`, "Dynamic
    /// string tokens"; glibc's `is_dst`).
    static func expandingOrigin(in directory: String, with origin: String) -> String {
        var result = ""
        var rest = Substring(directory)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let token = rest[dollar...]
            let unbraced =
                token.hasPrefix("$ORIGIN")
                && !(token.dropFirst(7).first.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ?? false)
            if token.hasPrefix("${ORIGIN}") || unbraced {
                result += origin
                rest = token.dropFirst(unbraced ? 7 : 9)
            } else {
                result += "$"
                rest = token.dropFirst()
            }
        }
        return result + rest
    }
}

extension LdSoSearch: LoaderSearch {
    /// A scanned ELF image is found by its SONAME (else its file name) and,
    /// when it has a SONAME that is not its file name, by its file name too.
    static func scannedNames(of image: BinaryImage) -> [String] {
        image.declaredName != nil && image.declaredName != image.fileName ? [image.linkName, image.fileName] : [image.linkName]
    }

    /// A name with a `/` is a path (relative to the working directory);
    /// else the project's folders (``directories(for:ldLibraryPath:searchPaths:)``),
    /// then the scanned images by SONAME or file name, then the system's
    /// folders (unless excluded).
    static func locate(_ name: String, for index: Int, in session: inout LinkResolver.Session) -> LinkResolver.Session.Lookup {
        if name.utf8.contains(UInt8(ascii: "/")) {
            let path = path(ofNeeded: name)
            return session.load(path, for: index).map(LinkResolver.Session.Lookup.found)
                ?? .missing([], unreadable: session.unreadable[path].map { [$0] } ?? [])
        }
        let (project, system) = folders(for: index, in: &session)
        if let found = session.firstLoaded(name, in: project, for: index) { return .found(found) }
        if let found = session.scannedImage(named: name, for: index) { return .found(found) }
        if let found = session.firstLoaded(name, in: system, for: index) { return .found(found) }
        if let other = session.otherImage(named: name, for: index) { return .mismatch(other) }
        let searched = project + system
        return .missing(searched, unreadable: searched.compactMap { session.unreadable[LinkResolver.Session.join($0, name)] })
    }

    /// The first file that exists where ``locate(_:for:in:)`` looks.
    static func likelyFile(
        of name: String, for index: Int, in session: inout LinkResolver.Session
    ) -> (path: String, identity: FileIdentity)? {
        if name.utf8.contains(UInt8(ascii: "/")) {
            let path = path(ofNeeded: name)
            return session.identity(of: path).map { (path, $0) }
        }
        let (project, system) = folders(for: index, in: &session)
        return session.firstExisting(name, in: project)
            ?? (session.scannedImage(named: name, for: index) == nil ? session.firstExisting(name, in: system) : nil)
    }

    /// Nothing: an ELF image's DT_RUNPATH is its own.
    static func handDown(from index: Int, to targets: [Int], in session: inout LinkResolver.Session) -> [Int] {
        []
    }

    /// The folders ld.so searches for the DT_NEEDED of the image at
    /// `index`: the project's, before the scanned images, and the system's
    /// (none with `--no-system`), after them.
    private static func folders(for index: Int, in session: inout LinkResolver.Session) -> (project: [String], system: [String]) {
        let image = session.images[index]
        let project = directories(for: image, ldLibraryPath: session.ldLibraryPath, searchPaths: session.resolver.searchPaths)
        return (project, session.resolver.includeSystem ? session.systemDirectories(for: image) : [])
    }

    /// A DT_NEEDED name with a `/`: a path, relative to the working
    /// directory.
    private static func path(ofNeeded name: String) -> String {
        name.hasPrefix("/") ? name : URL(fileURLWithPath: name).path
    }
}

/// The loader's default directories for a machine: those of
/// `/etc/ld.so.conf` (following `include` globs), then the trusted
/// directories `/lib` and `/usr/lib` with the Debian multiarch folder
/// (`/lib/x86_64-linux-gnu`) and, for 64-bit machines, `lib64`.
public enum SystemLibraryDirectories {
    /// The multiarch triple Debian uses for a machine.
    static func multiarch(_ architecture: Architecture) -> String? {
        switch architecture.name {
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

    public static func `for`(_ architecture: Architecture) -> [String] {
        var directories = configured
        let triple = multiarch(architecture)
        for base in ["/lib", "/usr/lib"] {
            if let triple { directories.append("\(base)/\(triple)") }
            if architecture.is64Bit { directories.append("\(base)64") }
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
            let line =
                rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?
                .trimmingCharacters(in: .whitespaces) ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("include ") {
                let pattern = line.dropFirst("include ".count).trimmingCharacters(in: .whitespaces)
                let absolute = pattern.hasPrefix("/") ? pattern : LdSoSearch.directory(of: path) + "/" + pattern
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
