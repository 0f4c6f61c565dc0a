import Foundation
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

@Suite struct DiscoveryTests {
    @Test func walksRecursivelyInSortedOrder() throws {
        let directory = try Fixtures.temporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(at: directory.path("b/c"), withIntermediateDirectories: true)
        for name in ["z.so", "b/a.so", "b/c/x.so"] {
            _ = manager.createFile(atPath: directory.path(name).path, contents: Data("x".utf8))
        }
        let discovery = Discovery(paths: [directory.url.path])
        #expect(discovery.files == ["b/a.so", "b/c/x.so", "z.so"].map { directory.path($0).path })
        #expect(discovery.errors.isEmpty)
    }

    @Test func symbolicLinksAreFollowedOnceAndLoopsEnd() throws {
        let directory = try Fixtures.temporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(at: directory.path("lib"), withIntermediateDirectories: true)
        _ = manager.createFile(atPath: directory.path("lib/libfoo.so.1.2").path, contents: Data("x".utf8))
        try manager.createSymbolicLink(atPath: directory.path("lib/libfoo.so.1").path, withDestinationPath: "libfoo.so.1.2")
        try manager.createSymbolicLink(atPath: directory.path("lib/libfoo.so").path, withDestinationPath: "libfoo.so.1")
        // A directory loop: lib/again → .. (the top directory).
        try manager.createSymbolicLink(atPath: directory.path("lib/again").path, withDestinationPath: "..")
        // A link loop: one → two → one.
        try manager.createSymbolicLink(atPath: directory.path("one").path, withDestinationPath: "two")
        try manager.createSymbolicLink(atPath: directory.path("two").path, withDestinationPath: "one")

        let discovery = Discovery(paths: [directory.url.path])
        #expect(discovery.files == [directory.path("lib/libfoo.so.1.2").path], "the file itself, once")
        #expect(Set(discovery.errors) == [
            .unreadable(path: directory.path("one").path, errno: ELOOP),
            .unreadable(path: directory.path("two").path, errno: ELOOP),
        ])
    }

    @Test func fifosAreSkippedWithoutOpening() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.path("pipe.so").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let discovery = Discovery(paths: [directory.url.path])
        #expect(discovery.files.isEmpty)
        #expect(discovery.skipped == [SkippedEntry(path: fifo, reason: "not a regular file")])
    }

    /// `ln -s / d/root; linkcheck check d` scanned the whole machine.
    @Test func aDirectoryLinkOutOfTheTreeIsNotFollowed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(at: directory.path("tree"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.path("outside"), withIntermediateDirectories: true)
        _ = manager.createFile(atPath: directory.path("tree/libin.so").path, contents: Data("x".utf8))
        _ = manager.createFile(atPath: directory.path("outside/libout.so").path, contents: Data("x".utf8))
        try manager.createSymbolicLink(atPath: directory.path("tree/elsewhere").path, withDestinationPath: "../outside")
        try manager.createSymbolicLink(atPath: directory.path("tree/libout.so").path, withDestinationPath: "../outside/libout.so")
        let outside = try #require(realpath(directory.path("outside").path, nil).map { path in
            defer { free(path) }
            return String(cString: path)
        })

        let discovery = Discovery(paths: [directory.path("tree").path])
        #expect(discovery.files == [directory.path("tree/libin.so").path])
        #expect(discovery.skipped == [
            SkippedEntry(path: directory.path("tree/elsewhere").path, reason: "a symbolic link to \(outside), outside the given paths", kind: .link),
            SkippedEntry(path: directory.path("tree/libout.so").path, reason: "a symbolic link to \(outside)/libout.so, outside the given paths", kind: .link),
        ])
        #expect(discovery.errors.isEmpty)

        // Given as a root too, the folder is inside the given paths.
        let both = Discovery(paths: [directory.path("tree").path, directory.path("outside").path])
        #expect(both.files == [directory.path("outside/libout.so").path, directory.path("tree/libin.so").path])
        #expect(both.skipped.isEmpty)
        // --follow-symlinks.
        let following = Discovery(paths: [directory.path("tree").path], followingSymbolicLinks: true)
        #expect(following.files == [directory.path("tree/elsewhere/libout.so").path, directory.path("tree/libin.so").path])
        #expect(following.skipped.isEmpty)
        // A link given as a path is taken wherever it points.
        #expect(Discovery(paths: [directory.path("tree/libout.so").path]).files == [directory.path("tree/libout.so").path])
    }

    /// Framework bundles link `Versions/Current` to `A`, and the binary at the
    /// top to `Versions/Current/…`: followed, each file once.
    @Test func aVersionsCurrentLinkInsideTheTreeIsFollowed() throws {
        let directory = try Fixtures.temporaryDirectory()
        let manager = FileManager.default
        let framework = directory.path("Frameworks/Kit.framework")
        try manager.createDirectory(at: framework.appendingPathComponent("Versions/A"), withIntermediateDirectories: true)
        _ = manager.createFile(atPath: framework.appendingPathComponent("Versions/A/Kit").path, contents: Data("x".utf8))
        try manager.createSymbolicLink(atPath: framework.appendingPathComponent("Versions/Current").path, withDestinationPath: "A")
        try manager.createSymbolicLink(atPath: framework.appendingPathComponent("Kit").path, withDestinationPath: "Versions/Current/Kit")
        // A link to a sibling folder of the framework, still inside the tree.
        try manager.createSymbolicLink(atPath: directory.path("Frameworks/Alias.framework").path, withDestinationPath: "Kit.framework")

        let discovery = Discovery(paths: [directory.path("Frameworks").path])
        #expect(discovery.files == [framework.appendingPathComponent("Versions/A/Kit").path])
        #expect(discovery.skipped.isEmpty)
        #expect(discovery.errors.isEmpty)
        // Walking the framework alone: its own links are inside it.
        #expect(Discovery(paths: [framework.path]).files == [framework.appendingPathComponent("Versions/A/Kit").path])
    }

    @Test func foldersNestedTooDeepArePassedOverAsFolders() throws {
        let directory = try Fixtures.temporaryDirectory()
        let deepest = directory.path(Array(repeating: "d", count: 65).joined(separator: "/"))
        try FileManager.default.createDirectory(at: deepest, withIntermediateDirectories: true)
        let discovery = Discovery(paths: [directory.url.path])
        // The 64th folder down is the first one not walked.
        #expect(discovery.skipped == [SkippedEntry(path: deepest.deletingLastPathComponent().path, reason: "nested deeper than 64 directories", kind: .folder)])
    }

    @Test func missingPathsAreErrors() {
        let discovery = Discovery(paths: ["/nonexistent/linkcheck-test"])
        #expect(discovery.errors == [.unreadable(path: "/nonexistent/linkcheck-test", errno: ENOENT)])
    }
}
