import Foundation
import LinkCheckImage
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
        #expect(discovery.errors.isEmpty, "a loop met in a folder is passed over")
        #expect(
            discovery.skipped == [
                SkippedEntry(path: directory.path("one").path, reason: "a symbolic link loop", kind: .link),
                SkippedEntry(path: directory.path("two").path, reason: "a symbolic link loop", kind: .link),
            ])
    }

    /// `d/dangling → /nonexistent` was opened and failed the run, while a
    /// link out of the tree was only not followed.
    @Test func aDanglingLinkInAWalkedFolderIsPassedOverNotAnError() throws {
        let directory = try Fixtures.temporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory.path("lib.so").path, contents: Data("x".utf8))
        try FileManager.default.createSymbolicLink(atPath: directory.path("dangling").path, withDestinationPath: "/nonexistent")
        try FileManager.default.createSymbolicLink(atPath: directory.path("through-a-file").path, withDestinationPath: "lib.so/x")
        for following in [false, true] {
            let discovery = Discovery(paths: [directory.url.path], followingSymbolicLinks: following)
            #expect(discovery.files == [directory.path("lib.so").path])
            #expect(discovery.errors.isEmpty)
            #expect(
                discovery.skipped == [
                    SkippedEntry(
                        path: directory.path("dangling").path, reason: "a symbolic link to /nonexistent, which does not exist", kind: .link),
                    SkippedEntry(
                        path: directory.path("through-a-file").path, reason: "a symbolic link to lib.so/x, which does not exist",
                        kind: .link),
                ])
        }
    }

    @Test func aDanglingLinkOrALoopGivenAsAPathIsAnError() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory.path("dangling").path, withDestinationPath: "/nonexistent")
        try FileManager.default.createSymbolicLink(atPath: directory.path("loop").path, withDestinationPath: "loop")
        let discovery = Discovery(paths: [directory.path("dangling").path, directory.path("loop").path])
        #expect(
            discovery.errors == [
                .unreadable(path: directory.path("dangling").path, errno: ENOENT),
                .unreadable(path: directory.path("loop").path, errno: ELOOP),
            ])
        #expect(discovery.skipped.isEmpty)
    }

    /// `check "$(printf 'bad\xffutf.so')"` said "No such file or directory"
    /// for a file that exists: Swift strings repair the name to U+FFFD.
    @Test func aNameThatIsNotUTF8IsAnErrorSayingSo() throws {
        let directory = try Fixtures.temporaryDirectory()
        let raw = Array(directory.url.path.utf8) + Array("/bad".utf8) + [0xff] + Array("utf.so".utf8)
        let descriptor = open(raw.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        close(descriptor)
        let repaired = directory.path("bad\u{FFFD}utf.so").path
        #expect(!FileManager.default.fileExists(atPath: repaired), "the repaired name names no file")
        let walked = Discovery(paths: [directory.url.path])
        #expect(walked.errors == [.invalidFileName(path: repaired)])
        #expect(walked.files.isEmpty)
        #expect(Discovery(paths: [repaired]).errors == [.invalidFileName(path: repaired)])
        #expect(
            InspectionError.invalidFileName(path: repaired).description
                == "\(repaired): the file name is not valid UTF-8, which linkcheck cannot open")
        // A name that holds U+FFFD itself is valid UTF-8, and read as such.
        _ = FileManager.default.createFile(atPath: repaired, contents: Data("x".utf8))
        #expect(Discovery(paths: [repaired]).files == [repaired])
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
        let outside = try #require(
            realpath(directory.path("outside").path, nil).map { path in
                defer { free(path) }
                return String(cString: path)
            })

        let discovery = Discovery(paths: [directory.path("tree").path])
        #expect(discovery.files == [directory.path("tree/libin.so").path])
        #expect(
            discovery.skipped == [
                SkippedEntry(
                    path: directory.path("tree/elsewhere").path, reason: "a symbolic link to \(outside), outside the given paths",
                    kind: .link),
                SkippedEntry(
                    path: directory.path("tree/libout.so").path, reason: "a symbolic link to \(outside)/libout.so, outside the given paths",
                    kind: .link),
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
        #expect(
            discovery.skipped == [
                SkippedEntry(path: deepest.deletingLastPathComponent().path, reason: "nested deeper than 64 directories", kind: .folder)
            ])
    }

    @Test func missingPathsAreErrors() {
        let discovery = Discovery(paths: ["/nonexistent/linkcheck-test"])
        #expect(discovery.errors == [.unreadable(path: "/nonexistent/linkcheck-test", errno: ENOENT)])
    }
}
