#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import CMappedFileGuard
import Foundation
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

@testable import LinkCheckELF

/// Large and awkward inputs: extended section numbering, many files, files
/// replaced or truncated while scanned, unreadable files.
@Suite struct LimitsTests {
    @Test func extendedSectionNumbering() throws {
        // 66,000 functions, each in its own section: more than SHN_LORESERVE
        // (0xff00) sections, so e_shnum is 0 and the count is in section 0,
        // and symbols in the high sections carry SHN_XINDEX.
        let directory = try Fixtures.temporaryDirectory()
        let source = (0..<66_000).map { "int f\($0)(void) { return \($0); }" }.joined(separator: "\n")
        let object = try Fixtures.compile(
            "many.c", code: source, to: directory.path("many.o"), flags: ["-c", "-ffunction-sections", "-O0"])
        let image = try ELFReader.read(path: object.path)
        #expect(image.facts.elf?.symbolTable == .symtab)
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
                _ = try ELFReader.read(path: path)
            } catch InspectionError.notAnImage {
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
            let image = try ELFReader.read(path: library.path)
            #expect(image.architecture.name == "x86_64")
        }
        while replacer.isExecuting { usleep(1000) }
    }

    @Test func aGuardedReadSeesZerosPastTheEndOfATruncatedFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.path("three-pages").path
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        try Data(repeating: 0x5a, count: 3 * pageSize).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDWR)
        defer { close(fd) }
        let mapping = try #require(mmap(nil, 3 * pageSize, PROT_READ, MAP_PRIVATE, fd, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(mapping, 3 * pageSize) }
        linkcheck_guard_begin()
        defer { linkcheck_guard_end() }
        let before = linkcheck_guard_faults()
        #expect(mapping.load(fromByteOffset: 2 * pageSize, as: UInt8.self) == 0x5a)
        #expect(ftruncate(fd, off_t(pageSize)) == 0)
        // Outside a guarded read, these reads raise SIGBUS and end the process.
        #expect(mapping.load(fromByteOffset: 2 * pageSize + 7, as: UInt8.self) == 0)
        #expect(mapping.load(fromByteOffset: pageSize, as: UInt8.self) == 0)
        #expect(mapping.load(fromByteOffset: 0, as: UInt8.self) == 0x5a, "the page still in the file is untouched")
        #expect(linkcheck_guard_faults() - before == 2)
    }

    @Test func aFileRewrittenInPlaceWhileItIsScannedIsAnErrorNotACrash() throws {
        // `cp` over a file, or a linker writing its output in place, first
        // truncates it: what inspection reads with pread ends early, and
        // pages a reader has mapped vanish under it (the inspection of a
        // large file, and code analysis, map it).
        let directory = try Fixtures.temporaryDirectory()
        let source = (0..<3_000).map { "int f\($0)(int x) { return x * \($0) + dlopen_count(); }" }.joined(separator: "\n")
        let library = try Fixtures.compile("big.c", code: "int dlopen_count(void);\n" + source, to: directory.path("libbig.so"))
        let contents = try Data(contentsOf: library)
        let functions = try #require(try CallSiteAnalyzer.analyze(path: library.path)).functions.count
        let rewriter = Thread {
            for _ in 0..<400 {
                let fd = open(library.path, O_WRONLY)
                ftruncate(fd, 4096)
                usleep(200)
                _ = contents.withUnsafeBytes { pwrite(fd, $0.baseAddress, contents.count, 0) }
                close(fd)
                usleep(200)
            }
        }
        rewriter.start()
        var outcomes: [String: Int] = [:]
        func record(_ what: String, _ read: () throws(InspectionError) -> Bool) {
            do {
                // A file opened while it was partly written is read as the
                // truncated file it was then (with warnings, or no code).
                outcomes["\(what) " + (try read() ? "read" : "read as truncated"), default: 0] += 1
            } catch .changedWhileRead(library.path) {
                outcomes["\(what) changed", default: 0] += 1
            } catch .malformed(library.path, _, _, _), .notAnImage(library.path) {
                outcomes["\(what) opened truncated", default: 0] += 1
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
        while rewriter.isExecuting || outcomes.isEmpty {
            record("inspect") { () throws(InspectionError) in
                let image = try ELFReader.read(path: library.path)
                #expect(image.exports.count == 3_000 || !image.warnings.isEmpty)
                return image.warnings.isEmpty
            }
            record("inspect mapped") { () throws(InspectionError) in
                try ELFFile.read(library.path, access: .mapped) { file throws(InspectionError) in
                    var warnings = ReadWarnings()
                    let exports = file.symbolTable(sections: try file.sections(), selection: .all, warnings: &warnings).exports
                    // Pages that vanished read as zeros; the read then throws.
                    return exports.count == 3_000
                }
            }
            record("call sites") { () throws(InspectionError) in
                let count = try CallSiteAnalyzer.analyze(path: library.path)?.functions.count ?? 0
                #expect(count == functions || count == 0)
                return count == functions
            }
        }
        print("rewritten in place while scanned: \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes["inspect changed", default: 0] > 0)
        #expect(outcomes["inspect mapped changed", default: 0] > 0)
        #expect(outcomes["call sites changed", default: 0] > 0)
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file; the check needs an ordinary user"))
    func anUnreadableFileIsAnErrorNamingIt() throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile("dep.c", to: directory.path("libdep.so"))
        chmod(library.path, 0)
        #expect(throws: InspectionError.unreadable(path: library.path, errno: EACCES)) { try ELFReader.read(path: library.path) }
    }
}
#endif
