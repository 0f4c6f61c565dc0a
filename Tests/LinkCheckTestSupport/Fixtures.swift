import Foundation

/// Paths and tools the tests share.
public enum Fixtures {
    /// The repository root (three levels above this file).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpus` beside the repository: real ELF files, read-only.
    public static let corpusDirectory = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus")

    /// `../shared/reference` beside the repository: the platform facts the
    /// rule packs rest on, among them the SDK inventory
    /// `sdk-extension-markings.tsv`.
    public static let referenceDirectory = repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/reference")

    /// `Tests/Fixtures`: C sources compiled at test time.
    public static let sourceDirectory = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The `linkcheck` executable that `swift build`/`swift test` put beside
    /// the test bundle.
    public static var linkcheckExecutable: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("linkcheck").path
    }

    /// The toolchain's clang (it has lld and every target the tests use).
    public static var clang: String {
        let candidates = ["/opt/swift/usr/bin/clang", "/usr/bin/clang"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "clang"
    }

    /// The toolchain's swiftc.
    public static var swiftc: String {
        let candidates = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swiftc"
    }

    /// A new empty directory under the system's temporary directory; the
    /// caller removes it (``TemporaryDirectory``).
    public static func temporaryDirectory() throws -> TemporaryDirectory {
        try TemporaryDirectory()
    }

    /// Compiles `Tests/Fixtures/<source>` (or `source` text when `code` is
    /// given) with clang into `output`, as a shared object unless `flags`
    /// says otherwise.
    ///
    /// - Throws: ``CommandFailure`` when clang fails.
    @discardableResult
    public static func compile(
        _ source: String, code: String? = nil, to output: URL, target: String = "x86_64-linux-gnu",
        flags: [String] = ["-shared"]
    ) throws -> URL {
        var input = sourceDirectory.appendingPathComponent(source).path
        if let code {
            let file = output.deletingLastPathComponent().appendingPathComponent(source)
            try code.write(to: file, atomically: true, encoding: .utf8)
            input = file.path
        }
        try Command.run(
            clang,
            [
                "--target=\(target)", "-fuse-ld=lld", "-nostdlib", "-fPIC", "-O1",
            ] + flags + [input, "-o", output.path])
        return output
    }

    /// The Samples' images, built once per test run with `Samples/build.sh`.
    public static func sampleImages() throws -> URL {
        try SampleBuild.shared.images.get()
    }
}

/// Builds `Samples/` once per process.
final class SampleBuild: Sendable {
    static let shared = SampleBuild()
    let images: Result<URL, SampleBuildFailure>

    private init() {
        let script = Fixtures.repositoryRoot.appendingPathComponent("Samples/build.sh").path
        do {
            let output = try Command.run("/bin/bash", [script])
            images = .success(URL(fileURLWithPath: output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        } catch {
            images = .failure(SampleBuildFailure(description: "\(error)"))
        }
    }
}

/// Samples/build.sh failed; `description` has its output.
public struct SampleBuildFailure: Error, CustomStringConvertible {
    public var description: String
}

/// A directory removed when ``remove()`` is called or the value is released.
public final class TemporaryDirectory {
    public let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("linkcheck-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// `url/name`.
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }
}
