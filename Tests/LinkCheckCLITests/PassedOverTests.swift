import Foundation
import LinkCheckTestSupport
import Testing

/// What a walk passes over is said: symbolic links leading out of the tree
/// (counted, named with `--verbose`, followed with `--follow-symlinks`) and
/// folders nested too deep (named, once per reason, before the summary).
@Suite struct PassedOverTests {
    /// `tree/lib.so`, and `tree/elsewhere → ../outside` holding another ELF
    /// library, `libout.so`.
    static func treeWithALinkOut() throws -> (TemporaryDirectory, outside: String) {
        let directory = try Fixtures.temporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(at: directory.path("tree"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.path("outside"), withIntermediateDirectories: true)
        try manager.copyItem(atPath: FailedWriteTests.library, toPath: directory.path("tree/lib.so").path)
        try manager.copyItem(atPath: FailedWriteTests.library, toPath: directory.path("outside/libout.so").path)
        try manager.createSymbolicLink(atPath: directory.path("tree/elsewhere").path, withDestinationPath: "../outside")
        let outside = try #require(
            realpath(directory.path("outside").path, nil).map { path in
                defer { free(path) }
                return String(cString: path)
            })
        return (directory, outside)
    }

    @Test func aDirectoryLinkOutOfTheTreeIsNotFollowed() throws {
        let (directory, outside) = try Self.treeWithALinkOut()
        let run = { (arguments: [String]) in
            try Command.capture(Fixtures.linkcheckExecutable, ["check"] + arguments + ["tree"], currentDirectory: directory.url)
        }
        let plain = try run([])
        #expect(plain.status == 0)
        #expect(
            plain.standardOutput
                == "linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 0 files skipped, 0 files failed, 1 link not followed\n")

        let verbose = try run(["--verbose"])
        #expect(
            verbose.standardOutput == """
                tree/elsewhere: note: not followed: a symbolic link to \(outside), outside the given paths
                linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 0 files skipped, 0 files failed, 1 link not followed

                """)

        let following = try run(["--follow-symlinks"])
        #expect(following.standardOutput == "linkcheck: 2 images, 0 errors, 0 warnings, 0 notes; 0 files skipped, 0 files failed\n")

        let json = try run(["--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary["linksNotFollowed"] == 1)
        #expect(summary["skipped"] == 0)
        #expect(
            document["skipped"] as? [[String: String]] == [
                ["path": "tree/elsewhere", "reason": "a symbolic link to \(outside), outside the given paths", "kind": "link"]
            ])

        let graph = try Command.capture(Fixtures.linkcheckExecutable, ["graph", "--verbose", "tree"], currentDirectory: directory.url)
        #expect(graph.status == 0)
        #expect(graph.standardError == "tree/elsewhere: note: not followed: a symbolic link to \(outside), outside the given paths\n")
        #expect(graph.standardOutput.components(separatedBy: "[label=").count == 2, "one node")
    }

    @Test func foldersPassedOverAreNamedInText() throws {
        let directory = try Fixtures.temporaryDirectory()
        let nested = Array(repeating: "d", count: 64).joined(separator: "/")
        for top in ["a", "b"] {
            try FileManager.default.createDirectory(at: directory.path("\(top)/\(nested)"), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: FailedWriteTests.library, toPath: directory.path("a/lib.so").path)
        _ = FileManager.default.createFile(atPath: directory.path("a/README").path, contents: Data("x".utf8))
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "a", "b"], currentDirectory: directory.url)
        #expect(output.status == 2, "folders not walked are inputs not read")
        // The 64th folder down is the first one not walked.
        #expect(
            output.standardOutput == """
                linkcheck: note: passed over 2 folders nested deeper than 64 directories, whose files are not read (exit status 2): a/\(nested), b/\(nested)
                linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 1 file skipped, 0 files failed

                """)
        let verbose = try Command.capture(Fixtures.linkcheckExecutable, ["check", "--verbose", "a", "b"], currentDirectory: directory.url)
        #expect(
            verbose.standardOutput.hasPrefix("a/README: note: skipped: not an ELF or Mach-O file\nlinkcheck: note: passed over 2 folders"))
    }

    /// In a bundle, files that are not code (`Info.plist`, resources) are
    /// neither read nor counted as skipped; the bundle's executable, or a
    /// library in its `Frameworks` folder, that is neither ELF nor Mach-O
    /// is an input that could not be read: an error, exit status 2.
    @Test func aBundlesResourcesAreNotSkippedButABadExecutableIsAnError() throws {
        let directory = try Fixtures.temporaryDirectory()
        let app = directory.path("Shop.app")
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: app)
        _ = FileManager.default.createFile(atPath: app.appendingPathComponent("Assets.car").path, contents: Data("x".utf8))
        let intact = try Command.capture(Fixtures.linkcheckExecutable, ["check", "Shop.app"], currentDirectory: directory.url)
        #expect(intact.standardOutput.hasSuffix("; 0 files skipped, 0 files failed\n"), "\(intact.standardOutput)")

        try Data("#!/bin/sh\n".utf8).write(to: app.appendingPathComponent("PlugIns/Share.appex/Share"))
        _ = FileManager.default.createFile(
            atPath: app.appendingPathComponent("Frameworks/libnotes.dylib").path, contents: Data("notes".utf8))
        _ = FileManager.default.createFile(atPath: app.appendingPathComponent("Frameworks/notes.txt").path, contents: Data("notes".utf8))
        let broken = try Command.capture(Fixtures.linkcheckExecutable, ["check", "Shop.app"], currentDirectory: directory.url)
        #expect(broken.status == 2)
        let errors = broken.standardOutput.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(
            errors == [
                "Shop.app/Frameworks/libnotes.dylib: error: cannot inspect: not an ELF or Mach-O file",
                "Shop.app/PlugIns/Share.appex/Share: error: cannot inspect: not an ELF or Mach-O file",
            ])
        #expect(broken.standardOutput.hasSuffix("; 0 files skipped, 2 files failed\n"), "\(broken.standardOutput)")
    }

    /// A file named on the command line was asked for: one that is neither
    /// ELF nor Mach-O cannot be inspected (exit status 2), while the same
    /// file met in a folder is passed over and counted.
    @Test func aFileNamedOnTheCommandLineThatIsNoImageFailsTheRun() throws {
        let directory = try Fixtures.temporaryDirectory()
        try FileManager.default.createDirectory(at: directory.path("tree"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: FailedWriteTests.library, toPath: directory.path("tree/lib.so").path)
        try Data("notes\n".utf8).write(to: directory.path("tree/README"))
        let named = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "tree/lib.so", "tree/README"], currentDirectory: directory.url)
        #expect(named.status == 2)
        #expect(
            named.standardOutput == """
                tree/README: error: cannot inspect: not an ELF or Mach-O file
                linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 0 files skipped, 1 file failed

                """)
        let walked = try Command.capture(Fixtures.linkcheckExecutable, ["check", "tree"], currentDirectory: directory.url)
        #expect(walked.status == 0)
        #expect(walked.standardOutput == "linkcheck: 1 image, 0 errors, 0 warnings, 0 notes; 1 file skipped, 0 files failed\n")
    }

    @Test(.enabled(if: JSONSchema.isAvailable, "needs Python's jsonschema"))
    func whatIsPassedOverMatchesTheSchema() throws {
        let (directory, _) = try Self.treeWithALinkOut()
        try FileManager.default.createDirectory(
            at: directory.path("tree/" + Array(repeating: "d", count: 65).joined(separator: "/")), withIntermediateDirectories: true)
        let output = try Command.capture(
            Fixtures.linkcheckExecutable, ["check", "--format", "json", "tree"], currentDirectory: directory.url)
        #expect(output.status == 2, "a folder passed over for its depth is an input not read")
        try output.standardOutput.write(to: directory.path("report.json"), atomically: true, encoding: .utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect((document["summary"] as? [String: Int])?["foldersPassedOver"] == 1)
        #expect((document["summary"] as? [String: Int])?["exitStatus"] == 2)
        let validation = try JSONSchema.validate(
            directory.path("report.json").path, against: JSONSchema.documented("check-report.schema.json"))
        #expect(validation.status == 0, "\(validation.standardError)")
    }

    /// A dangling link in a walked folder was a failed file (exit 2), a
    /// link out of the tree only not followed: both are links not followed.
    @Test func aDanglingLinkInAWalkedFolderIsALinkNotFollowed() throws {
        let (directory, _) = try Self.treeWithALinkOut()
        try FileManager.default.createSymbolicLink(atPath: directory.path("tree/dangling").path, withDestinationPath: "/nonexistent")
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "--verbose", "tree"], currentDirectory: directory.url)
        #expect(output.status == 0, "\(output)")
        #expect(
            output.standardOutput.hasPrefix("tree/dangling: note: not followed: a symbolic link to /nonexistent, which does not exist\n"))
        #expect(output.standardOutput.hasSuffix("0 files failed, 2 links not followed\n"))
        let given = try Command.capture(Fixtures.linkcheckExecutable, ["check", "tree/dangling", "tree"], currentDirectory: directory.url)
        #expect(given.status == 2, "a path given that dangles is an input that cannot be read")
        #expect(given.standardOutput.contains("tree/dangling: error: cannot inspect: cannot read: No such file or directory\n"))
    }

    @Test func aFileNameThatIsNotUTF8FailsTheRunSayingWhy() throws {
        let directory = try Fixtures.temporaryDirectory()
        let raw = Array(directory.url.path.utf8) + Array("/bad".utf8) + [0xff] + Array("utf.so".utf8)
        try Data(contentsOf: URL(fileURLWithPath: FailedWriteTests.library)).withUnsafeBytes { bytes in
            let descriptor = open(raw.map { CChar(bitPattern: $0) } + [0], O_CREAT | O_WRONLY, 0o644)
            #expect(descriptor >= 0)
            #expect(write(descriptor, bytes.baseAddress, bytes.count) == bytes.count)
            close(descriptor)
        }
        let output = try Command.capture(Fixtures.linkcheckExecutable, ["check", "."], currentDirectory: directory.url)
        #expect(output.status == 2)
        #expect(
            output.standardOutput.contains(
                "./bad\u{FFFD}utf.so: error: cannot inspect: the file name is not valid UTF-8, which linkcheck cannot open\n"),
            "\(output.standardOutput)")
        // Given on the command line, through a shell that passes the bytes.
        let given = try Command.capture(
            "/bin/sh", ["-c", #""$0" check "$(printf 'bad\377utf.so')""#, Fixtures.linkcheckExecutable],
            currentDirectory: directory.url)
        #expect(given.status == 2)
        #expect(
            given.standardOutput.hasPrefix(
                "bad\u{FFFD}utf.so: error: cannot inspect: the file name is not valid UTF-8, which linkcheck cannot open\n"),
            "\(given.standardOutput)")
    }
}
