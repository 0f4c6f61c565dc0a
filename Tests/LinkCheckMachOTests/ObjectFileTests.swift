import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// `MH_OBJECT` files compiled (not linked) from Objective-C at test time for
/// four architectures, put in static archives (llvm-ar) and a fat file of
/// them (its header written here): their
/// selector and class references are relocations (external ones against
/// `l_OBJC_METH_VAR_NAME_*` on arm64 and x86_64, section-relative ones on
/// armv7 and i386), their imports the symbol table's undefined symbols.
@Suite(.enabled(if: ObjectFileTools.available, "needs the toolchain's clang, llvm-ar and llvm-objdump"))
struct ObjectFileTests {
    static let archiver = ObjectFileTools.archiver
    /// Targets with their `cputype` and `cpusubtype`.
    static let targets: [(triple: String, cpu: Int32, subtype: Int32)] = [
        ("arm64-apple-ios15.0", 0x0100_000c, 0), ("x86_64-apple-ios15.0-simulator", 0x0100_0007, 3),
        ("armv7-apple-ios9.0", 12, 9), ("i386-apple-ios9.0-simulator", 7, 3),
    ]
    static let source = """
        __attribute__((objc_root_class)) @interface UIApplication
        + (id)sharedApplication;
        - (void)openURL:(id)url;
        @end
        __attribute__((objc_root_class)) @interface Local
        + (id)make;
        @end
        @implementation Local
        + (id)make { return 0; }
        @end
        const char *label = "TRUEPREDICATE";
        void use(void) {
            id app = [UIApplication sharedApplication];
            [app openURL:0];
            [Local make];
        }
        """

    /// The fat archive of the four objects (one thin archive each).
    static func fatArchive(in directory: TemporaryDirectory) throws -> URL {
        let sourceFile = directory.path("use.m")
        try source.write(to: sourceFile, atomically: true, encoding: .utf8)
        var archs: [(cpu: Int32, subtype: Int32, offset: UInt32, size: UInt32)] = []
        var slices: [(offset: Int, bytes: [UInt8])] = []
        var offset = 0x1000
        for target in targets {
            let object = directory.path("use-\(target.triple).o").path
            try Command.run(Fixtures.clang, ["-target", target.triple, "-fobjc-runtime=ios-15.0", "-c", sourceFile.path, "-o", object])
            let archive = directory.path("libuse-\(target.triple).a")
            try Command.run(archiver, ["rcs", "--format=darwin", archive.path, object])
            let bytes = [UInt8](try Data(contentsOf: archive))
            archs.append((target.cpu, target.subtype, UInt32(offset), UInt32(bytes.count)))
            slices.append((offset, bytes))
            offset = (offset + bytes.count + 0xfff) / 0x1000 * 0x1000
        }
        let fat = directory.path("libuse.a")
        try Data(HandMade.fat(archs: archs, size: offset, slices: slices)).write(to: fat)
        return fat
    }

    @Test func referencesOfObjectFilesInAFatArchiveAreReadThroughTheirRelocations() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fat = try Self.fatArchive(in: directory)
        let file = try MachOFile(path: fat.path, strings: ["TRUEPREDICATE", "PREDICATE", "sharedApplication"])
        #expect(file.container == .fat)
        #expect(file.warnings.isEmpty)
        #expect(Set(file.slices.compactMap { $0.cpu?.name }) == ["arm64", "x86_64", "armv7", "i386"])
        for slice in file.slices {
            guard case .archive(let archive) = slice.contents else {
                Issue.record("\(slice.cpu?.name ?? "?"): not an archive")
                continue
            }
            let label = slice.cpu?.name ?? "?"
            #expect(archive.warnings.isEmpty, "\(label): \(archive.warnings)")
            let member = try #require(archive.members.first)
            #expect(archive.members.count == 1)
            #expect(member.archiveMember?.hasPrefix("use-") == true && member.archiveMember?.hasSuffix(".o") == true, "\(label)")
            #expect(member.fileType == .object)
            #expect(member.fixupFormat == .none)
            #expect(member.warnings.isEmpty, "\(label): \(member.warnings)")
            #expect(!member.relocations.isEmpty)
            // The selectors sent, each from its own selref slot.
            #expect(Set(member.selectorReferences.map(\.selector)) == ["sharedApplication", "openURL:", "make"], "\(label)")
            #expect(Set(member.selectorReferences.map(\.address)).count == 3)
            // UIApplication comes from elsewhere (an undefined symbol), Local is
            // the object's own.
            let classes = Dictionary(member.classReferences.map { ($0.className, $0.isImported) }, uniquingKeysWith: { $0 || $1 })
            #expect(classes == ["UIApplication": true, "Local": false], "\(label)")
            // Imports: the symbol table's undefined externals (no library:
            // objects are not two-level).
            let imports = Set(member.imports.map(\.name))
            #expect(imports.isSuperset(of: ["_OBJC_CLASS_$_UIApplication", "_objc_msgSend"]), "\(label): \(imports)")
            #expect(member.imports.allSatisfy { $0.source == .symbolTable && $0.library == .flatLookup })
            #expect(member.exports.map(\.name).contains("_use"), "\(label)")
            // "PREDICATE" follows a letter and "sharedApplication" is in
            // __objc_methname, not a string-literal section.
            #expect(member.readOnlyStrings == ["TRUEPREDICATE"], "\(label)")
            let bytes = [UInt8](try Data(contentsOf: fat))
            #expect(member.readOnlyStrings(matching: ["use", "TRUEPREDICATE", "", "ATE"], inFile: bytes) == ["TRUEPREDICATE"], "\(label)")
            #expect(member.stringLiteralRanges.map(\.section).contains("__TEXT,__cstring"))
        }
    }

    @Test func archiveMemberNamesEqualObjdumpArchiveHeaders() throws {
        let directory = try Fixtures.temporaryDirectory()
        let fat = try Self.fatArchive(in: directory)
        let corpusArchives = MachOCorpus.truthFiles.filter { ($0["kind"] as? String)?.hasSuffix("archive") == true }.map {
            MachOCorpus.path($0)
        }
        #expect(!corpusArchives.isEmpty)
        for path in [fat.path] + corpusArchives {
            let file = try MachOFile(path: path)
            for slice in file.slices {
                guard case .archive(let archive) = slice.contents else { continue }
                let arch = Oracle.arch(of: slice, in: file)
                // "mode uid/gid size Www Mmm dd hh:mm:ss yyyy name", the
                // symbol table's too.
                let names = try Oracle.objdump(path, arch: arch, ["--archive-headers"]).compactMap { line -> String? in
                    guard line.hasPrefix("-"), let time = line.range(of: #"\d\d:\d\d:\d\d \d{4} "#, options: .regularExpression) else {
                        return nil
                    }
                    return String(line[time.upperBound...])
                }.filter { !$0.hasPrefix("__.SYMDEF") }
                #expect(archive.members.compactMap(\.archiveMember) == names, "\(path) \(arch ?? "")")
            }
        }
    }
}

/// An archive may hold two members of one name (`ar q` of `a/util.o` and
/// `b/util.o`): each is its own image, the second named `util.o#2`, with
/// the symbols `llvm-nm` gives for it.
@Suite(.enabled(if: ObjectFileTools.available, "needs the toolchain's clang, llvm-ar and llvm-nm"))
struct DuplicateMemberTests {
    @Test func twoMembersOfOneNameAreTwoImages() throws {
        let directory = try Fixtures.temporaryDirectory()
        var objects: [String] = []
        for (folder, function) in [("a", "first_copy"), ("b", "second_copy")] {
            let source = directory.path("\(folder).c")
            try "int \(function)(int x) { return x + 1; }\n".write(to: source, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
            let object = directory.path("\(folder)/util.o").path
            try Command.run(Fixtures.clang, ["-target", "arm64-apple-ios15.0", "-c", source.path, "-o", object])
            objects.append(object)
        }
        let archive = directory.path("libutil.a")
        try Command.run(ObjectFileTools.archiver, ["qc", "--format=darwin", archive.path] + objects)
        let images = try MachOReader.read(path: archive.path)
        #expect(images.map(\.identity.member) == ["util.o", "util.o#2"])
        #expect(Set(images.map(\.identity)).count == 2)
        #expect(images.map { $0.exports.map(\.name) } == [["first_copy"], ["second_copy"]])
        let listing = try MachOOracle.nm(["-g", "--defined-only"], archive)
        #expect(listing.contains("_first_copy") && listing.contains("_second_copy"))
    }
}

/// The functions an object keeps to itself: a static one (non-external)
/// and a hidden one (private external), as `llvm-nm -m` lists them in
/// `__TEXT,__text`, without the leading `_`; the exported one and data are
/// not among them.
@Suite(.enabled(if: ObjectFileTools.available, "needs the toolchain's clang and llvm-nm"))
struct LocalDefinitionTests {
    @Test func staticAndHiddenFunctionsAreDefinitionsNotExports() throws {
        let directory = try Fixtures.temporaryDirectory()
        let source = directory.path("local.c")
        try """
        __attribute__((noinline)) static int helper(int x) { return x * 3; }
        __attribute__((visibility("hidden"))) int hidden_api(int x) { return helper(x) + 1; }
        int exported_api(int x) { return hidden_api(x); }
        int table = 4;
        """.write(to: source, atomically: true, encoding: .utf8)
        let object = directory.path("local.o")
        try Command.run(Fixtures.clang, ["-target", "arm64-apple-ios15.0", "-O1", "-c", source.path, "-o", object.path])
        let listing = try MachOOracle.nm(["-m"], object)
        let oracle = listing.split(separator: "\n").compactMap { line -> String? in
            // "0000000000000018 (__TEXT,__text) non-external _helper"
            guard line.contains("(__TEXT,__text) non-external _") || line.contains("(__TEXT,__text) private external _"),
                let name = line.split(separator: " ").last
            else { return nil }
            return String(name.dropFirst())
        }
        #expect(Set(oracle) == ["helper", "hidden_api"])
        let image = try #require(try MachOReader.read(path: object.path).first)
        #expect(Set(image.definitions.map(\.name)) == Set(oracle))
        #expect(image.exports.map(\.name).contains("exported_api"))
        #expect(!image.definitions.map(\.name).contains("exported_api"))
    }
}

enum ObjectFileTools {
    static let archiver = "/opt/swift/usr/bin/llvm-ar"
    static var available: Bool {
        [Fixtures.clang, archiver].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } && MachOOracle.isAvailable
    }
}
