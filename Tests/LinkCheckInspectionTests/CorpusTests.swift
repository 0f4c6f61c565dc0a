import Foundation
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// Every file of `../shared/corpus` (ELF and Mach-O) is inspected or
/// rejected with an error that names it; never a crash.
@Suite struct CorpusTests {
    /// The corpus's binaries: every file but its documentation, ground
    /// truth and scripts (`.md`, `.json`, `.py`) and the bundles' property
    /// lists.
    static var corpusFiles: [String] {
        Discovery(paths: [Fixtures.corpusDirectory.path]).files.filter { path in
            ![".md", ".json", ".py", ".plist"].contains { path.hasSuffix($0) }
        }
    }

    @Test func everyCorpusFileIsInspectedOrRejectedByName() throws {
        let files = Self.corpusFiles
        try #require(files.count > 100, "the corpus is missing: \(Fixtures.corpusDirectory.path)")
        var inspected = 0
        for path in files {
            do {
                let images = try ImageInspector.inspect(path: path)
                #expect(!images.isEmpty && images.allSatisfy { $0.path == path }, "\(path)")
                inspected += 1
            } catch {
                #expect(error.path == path)
                #expect(error.description.hasPrefix(path + ": "))
            }
        }
        #expect(inspected == files.count, "\(files.count - inspected) corpus files were rejected")
    }

    @Test(.enabled(if: Readelf.isAvailable, "needs readelf (Debian binutils)"))
    func machineNamesEqualReadelfs() throws {
        var compared = 0
        for path in Self.corpusFiles {
            guard let header = Readelf.header(path), let image = try? ImageInspector.inspect(path: path).first else { continue }
            let expected = Readelf.standardMachineName(readelfMachine: header.machine, elfClass: header.elfClass, data: header.data)
            if let expected {
                #expect(image.architecture.name == expected, "\(path): readelf says \(header.machine)")
            } else {
                #expect(image.architecture.name.hasPrefix("unknown("), "\(path): readelf says \(header.machine)")
            }
            #expect("ELF\(image.architecture.is64Bit ? 64 : 32)" == header.elfClass, "\(path)")
            compared += 1
        }
        #expect(compared > 100)
    }

    @Test func knownCorpusFilesHaveTheirMachines() throws {
        let corpus = Fixtures.corpusDirectory
        let expectations = [
            "pyelftools/aarch64_be_gnu_hash.so.elf": "aarch64_be",
            "pyelftools/simple_mipsel.elf": "mipsel",
            "pyelftools/exe_solaris64_cc.sparc.elf": "sparcv9",
            "pyelftools/powerpc64-relocs-le.o.elf": "ppc64le",
            "pyelftools/s390x-relocs.o.elf": "s390x",
            "pyelftools/simple_gcc.elf.riscv": "riscv64",
            "object-testfiles/base-loongarch64": "loongarch64",
            "object-testfiles/base-mips64el": "mips64el",
            "object-testfiles/base-relr-i686": "i386",
            "pyelftools/simple_armeb_gcc.o.elf": "armv7eb",
            "object-testfiles/bpf.o": "bpf",
        ]
        for (file, machine) in expectations {
            let images = try ImageInspector.inspect(path: corpus.appendingPathComponent(file).path)
            #expect(images.map(\.architecture.name) == [machine], "\(file)")
        }
    }

    /// The rule of thumb for parsing: what `readelf -a` reads without error
    /// (exit status 0), linkcheck inspects without error.
    @Test(.enabled(if: Readelf.isAvailable, "needs readelf (Debian binutils)"))
    func whatReadelfReadsIsInspected() throws {
        var compared = 0
        for path in Self.corpusFiles {
            guard let output = try? Command.capture("readelf", ["-a", "-W", path]), output.status == 0 else { continue }
            compared += 1
            #expect(throws: Never.self, "\(path)") { try ImageInspector.inspect(path: path) }
        }
        #expect(compared > 100)
    }

    @Test func aBogusSectionHeaderTableIsIgnoredWithAWarning() throws {
        let path = Fixtures.corpusDirectory.appendingPathComponent("pyelftools/section_header_bogus_size.elf").path
        let image = try #require(try ImageInspector.inspect(path: path).first)
        #expect(image.architecture.name == "none")
        #expect(image.facts.elf?.osABI == "FreeBSD")
        #expect(image.warnings.map(\.description) == ["the section header table is unreadable (invalid ELF file data), so it was ignored"])
    }
}
