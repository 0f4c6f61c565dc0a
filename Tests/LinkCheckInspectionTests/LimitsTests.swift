import Foundation
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// Large and awkward inputs: extended section numbering, many files, files
/// replaced while scanned, unreadable files.
@Suite struct LimitsTests {
    @Test func extendedSectionNumbering() throws {
        // 66,000 functions, each in its own section: more than SHN_LORESERVE
        // (0xff00) sections, so e_shnum is 0 and the count is in section 0,
        // and symbols in the high sections carry SHN_XINDEX.
        let directory = try Fixtures.temporaryDirectory()
        let source = (0..<66_000).map { "int f\($0)(void) { return \($0); }" }.joined(separator: "\n")
        let object = try Fixtures.compile("many.c", code: source, to: directory.path("many.o"), flags: ["-c", "-ffunction-sections", "-O0"])
        let image = try ImageInspector.inspect(path: object.path)
        #expect(image.symbolTable == .symtab)
        #expect(image.exports.count == 66_000)
        #expect(image.exports.last?.name == "f65999")
        #expect(image.warnings.isEmpty)
    }

    @Test func tenThousandFilesThatAreNotELF() throws {
        let directory = try Fixtures.temporaryDirectory()
        for index in 0..<10_000 {
            _ = FileManager.default.createFile(atPath: directory.path("note-\(index).txt").path, contents: Data("not ELF \(index)".utf8))
        }
        let discovery = Discovery(paths: [directory.url.path])
        #expect(discovery.files.count == 10_000)
        var notELF = 0
        for path in discovery.files {
            do {
                _ = try ImageInspector.inspect(path: path)
            } catch InspectionError.notELF {
                notELF += 1
            }
        }
        #expect(notELF == 10_000)
    }

    @Test func aFileReplacedWhileItIsScanned() throws {
        // Build tools replace outputs by renaming a new file over the old
        // one; the inspector keeps reading the file it opened.
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dep.c", to: directory.path("libdep.so"))
        let other = try Fixtures.compile("versioned.c", to: directory.path("libother.so"), flags: ["-shared"])
        let folder = directory.url
        let replacer = Thread {
            for round in 0..<200 {
                let staging = folder.appendingPathComponent("staging-\(round).so")
                try? FileManager.default.copyItem(at: round.isMultiple(of: 2) ? other : library, to: staging)
                _ = rename(staging.path, library.path)
            }
        }
        replacer.start()
        for _ in 0..<200 {
            let image = try ImageInspector.inspect(path: library.path)
            #expect(image.machine.name == "x86_64")
        }
        while replacer.isExecuting { usleep(1000) }
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file; the check needs an ordinary user"))
    func anUnreadableFileIsAnErrorNamingIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dep.c", to: directory.path("libdep.so"))
        chmod(library.path, 0)
        #expect(throws: InspectionError.unreadable(path: library.path, errno: EACCES)) { try ImageInspector.inspect(path: library.path) }
    }
}
