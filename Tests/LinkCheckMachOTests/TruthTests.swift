import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// The reader agrees with `truth.json` (recorded from llvm-objdump, llvm-nm
/// and llvm-lipo by `make_truth.py`) on every file and slice of the corpus.
@Suite struct TruthTests {
    static var files: [[String: Any]] { MachOCorpus.truthFiles }
    static let selectorsOfInterest = MachOCorpus.truthParameter("SELS_OF_INTEREST")
    static let loaderSymbols = MachOCorpus.truthParameter("LOADER_SYMBOLS")
    static let loaderSelectors = MachOCorpus.truthParameter("LOADER_SELECTORS")

    @Test func theCorpusAndItsOracleParametersAreThere() {
        #expect(Self.files.count >= 17, "truth.json missing or short: \(MachOCorpus.directory.path)")
        #expect(Self.selectorsOfInterest.contains("sharedApplication"))
        #expect(Self.loaderSymbols.contains("_dlopen"))
        #expect(Self.loaderSelectors.contains("bundleWithPath:"))
    }

    @Test(arguments: files.map { $0["path"] as? String ?? "" })
    func fileAgreesWithTruth(_ relativePath: String) throws {
        let file = try #require(Self.files.first { $0["path"] as? String == relativePath })
        let read = try MachOFile(path: MachOCorpus.path(file))
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        #expect(read.size == file["size"] as? Int)
        let archs = file["archs"] as? [String] ?? []
        if !archs.isEmpty { #expect(read.slices.map { $0.cpu?.name ?? "?" } == archs) }
        switch file["kind"] as? String {
        case "fat", "fat-archive": #expect(read.container == .fat)
        case "archive": #expect(read.container == .archive)
        default: #expect(read.container == .thin)
        }
        for (truth, slice) in MachOCorpus.slices(of: file, in: read) {
            let label = "\(relativePath) [\(truth["arch"] as? String ?? "-")]"
            guard let slice = slice else {
                Issue.record("\(label): no slice")
                continue
            }
            switch slice.contents {
            case .image(let image): checkImage(image, truth, label)
            case .archive(let archive): checkArchive(archive, truth, label)
            }
        }
    }

    /// One image against its slice's truth.
    func checkImage(_ image: MachOImage, _ truth: [String: Any], _ label: String) {
        #expect(image.warnings.isEmpty, "\(label): \(image.warnings)")
        #expect(truth["container"] as? String == "image", "\(label)")
        #expect(image.fileType.description == truth["filetype"] as? String, "\(label)")
        #expect(objdumpFlagNames(image.header.flags) == truth["flags"] as? [String], "\(label)")
        #expect(image.appExtensionSafe == truth["appExtensionSafe"] as? Bool, "\(label)")
        #expect(image.header.flags.contains(.nlistOutOfSyncWithDyldInfo) == truth["nlistOutOfSyncWithDyldInfo"] as? Bool, "\(label)")
        checkPlatform(image.platforms, truth, label)
        #expect(image.fixupFormat.rawValue == truth["fixups"] as? String, "\(label)")
        #expect(image.installName == truth["dylibId"] as? String, "\(label)")
        #expect(image.dependencies.map(\.installName) == truth["dylibs"] as? [String], "\(label)")
        #expect(image.dependencies.filter { $0.kind == .weak }.map(\.installName) == truth["weakDylibs"] as? [String], "\(label)")
        #expect(image.rpaths == truth["rpaths"] as? [String], "\(label)")
        #expect(image.loadCommands.count == truth["loadCommandCount"] as? Int, "\(label)")
        #expect(image.isEncrypted == truth["encrypted"] as? Bool, "\(label)")
        #expect(image.hasCodeSignature == truth["codeSignature"] as? Bool, "\(label)")
        #expect(image.hasBitcode == truth["hasBitcode"] as? Bool, "\(label)")

        // What dyld binds, per library: each symbol once, with the library
        // of its first import (bind, then lazy bind, then weak bind, as
        // make_truth.py reads them); weak binds name no library.
        var bound: [String: String?] = [:]
        for entry in image.imports where bound[entry.name] == nil {
            bound[entry.name] = entry.source == .weakBind ? String?.none : image.objdumpLibraryName(entry.library)
        }
        if image.fixupFormat != .none {
            #expect(bound.count == truth["boundSymbolCount"] as? Int, "\(label)")
            #expect(Self.countByLibrary(bound.values.compactMap { $0 }) == truth["boundByLibrary"] as? [String: Int], "\(label)")
        }
        // The symbol table's undefined externals, as `llvm-nm -m -u --no-dyldinfo`.
        let undefined = image.nlistUndefined
        #expect(undefined.count == truth["undefinedCountNlistOnly"] as? Int, "\(label)")
        if !image.header.flags.contains(.nlistOutOfSyncWithDyldInfo) {
            let libraries = undefined.compactMap { image.nmLibraryName($0).map { $0.hasPrefix("from ") ? String($0.dropFirst(5)) : $0 } }
            let byLibrary = Self.countByLibrary(libraries.map { $0 == "from executable" || $0 == "executable" ? "executable" : $0 })
            #expect(byLibrary == truth["undefinedByLibrary"] as? [String: Int], "\(label)")
        }
        let referenced = Set(undefined.map(\.name)).union(image.imports.map(\.name))
        #expect(referenced.contains("_OBJC_CLASS_$_UIApplication") == truth["importsUIApplication"] as? Bool, "\(label)")
        checkSelectors(image.selectorReferences.map(\.selector), referenced: referenced, truth, label)
    }

    /// A static archive against its slice's truth (flags are the union over
    /// members, undefined symbols those undefined in some member and
    /// defined in none).
    func checkArchive(_ archive: StaticArchive, _ truth: [String: Any], _ label: String) {
        #expect(archive.warnings.isEmpty, "\(label): \(archive.warnings)")
        #expect(truth["container"] as? String == "archive", "\(label)")
        let members = archive.members
        #expect(members.count == truth["members"] as? Int, "\(label)")
        #expect(members.allSatisfy { $0.fileType == .object } == (truth["filetype"] as? String == "OBJECT"), "\(label)")
        #expect(members.allSatisfy { $0.warnings.isEmpty }, "\(label): \(members.map(\.warnings))")
        let flags = Set(members.flatMap { objdumpFlagNames($0.header.flags) }).sorted()
        #expect(flags == truth["flags"] as? [String], "\(label)")
        #expect(members.contains { $0.appExtensionSafe } == truth["appExtensionSafe"] as? Bool, "\(label)")
        // The most common platform and minimum OS among the members.
        let platforms = members.flatMap(\.platforms)
        let pairs = platforms.map { "\($0.platform) \($0.minimumOS)" }
        let common = Dictionary(grouping: pairs, by: { $0 }).max { $0.value.count < $1.value.count }?.key
        #expect(common == "\(truth["platform"] as? String ?? "nil") \(truth["minOS"] as? String ?? "nil")", "\(label)")
        let sdks = Set(platforms.map { $0.sdk?.description ?? "n/a" }).sorted()
        #expect(sdks.first == truth["sdk"] as? String, "\(label)")
        #expect(members.allSatisfy { $0.fixupFormat == .none } == (truth["fixups"] as? String == "none"), "\(label)")
        #expect(members.contains { $0.hasBitcode } == truth["hasBitcode"] as? Bool, "\(label)")
        #expect(members.flatMap(\.dependencies).isEmpty && truth["dylibs"] as? [String] == [], "\(label)")
        let defined = Set(members.flatMap { $0.symbols.filter { $0.isExternal && $0.kind != .undefined }.map(\.name) })
        var undefined: [String] = []
        for name in members.flatMap({ $0.nlistUndefined.map(\.name) }) where !defined.contains(name) && !undefined.contains(name) {
            undefined.append(name)
        }
        #expect(undefined.count == truth["undefinedCount"] as? Int, "\(label)")
        // Members are not linked: their imports are their undefined symbols.
        #expect(members.allSatisfy { $0.imports.map(\.name) == $0.nlistUndefined.map(\.name) }, "\(label)")
        checkSelectors(members.flatMap { $0.selectorReferences.map(\.selector) }, referenced: Set(undefined), truth, label)
    }

    func checkPlatform(_ platforms: [PlatformVersion], _ truth: [String: Any], _ label: String) {
        let first = platforms.first
        #expect(first?.platform.description == truth["platform"] as? String, "\(label)")
        #expect(first?.minimumOS.description == truth["minOS"] as? String, "\(label)")
        #expect((first?.sdk?.description ?? "n/a") == truth["sdk"] as? String, "\(label)")
        #expect(first?.source.rawValue == truth["platformSource"] as? String, "\(label)")
        if let all = truth["platformsAll"] as? [String] {
            #expect(platforms.map { "\($0.platform) \($0.minimumOS)" } == all, "\(label)")
        }
    }

    /// Selector references against `selrefCount`, `selrefs_of_interest` and
    /// `loaders`.
    func checkSelectors(_ selectors: [String], referenced: Set<String>, _ truth: [String: Any], _ label: String) {
        #expect(selectors.count == truth["selrefCount"] as? Int, "\(label)")
        let present = Set(selectors)
        #expect(Self.selectorsOfInterest.filter(present.contains) == truth["selrefs_of_interest"] as? [String], "\(label)")
        let loaders = Self.loaderSymbols.filter(referenced.contains) + Self.loaderSelectors.filter(present.contains)
        #expect(loaders == truth["loaders"] as? [String], "\(label)")
    }

    /// Header flags as `llvm-objdump --private-header` prints them: the
    /// names without `MH_`, except `MH_HAS_TLV_DESCRIPTORS`, which it prints
    /// whole.
    func objdumpFlagNames(_ flags: HeaderFlags) -> [String] {
        flags.names.map { $0 == "MH_HAS_TLV_DESCRIPTORS" ? $0 : String($0.dropFirst(3)) }
    }

    static func countByLibrary(_ libraries: [String]) -> [String: Int] {
        libraries.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
