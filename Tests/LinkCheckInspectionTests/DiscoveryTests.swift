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

    @Test func missingPathsAreErrors() {
        let discovery = Discovery(paths: ["/nonexistent/linkcheck-test"])
        #expect(discovery.errors == [.unreadable(path: "/nonexistent/linkcheck-test", errno: ENOENT)])
    }
}
