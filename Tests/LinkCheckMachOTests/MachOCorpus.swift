import Foundation
import LinkCheckMachO
import LinkCheckTestSupport

/// The public Mach-O corpus (`../shared/corpus/macho`), its `truth.json`, and
/// the oracle parameters of `make_truth.py` that produced it.
enum MachOCorpus {
    static let directory = Fixtures.corpusDirectory.appendingPathComponent("macho")

    /// `truth.json`'s `files`, read with Foundation.
    static var truthFiles: [[String: Any]] {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("truth.json")),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let files = object["files"] as? [[String: Any]]
        else { return [] }
        return files
    }

    /// The absolute path of a file of the corpus.
    static func path(_ file: [String: Any]) -> String {
        directory.appendingPathComponent(file["path"] as? String ?? "").path
    }

    /// A Python list of strings assigned to `name` in `make_truth.py`
    /// (`SELS_OF_INTEREST`, `LOADER_SYMBOLS`): the names the truth was
    /// recorded for.
    static func truthParameter(_ name: String) -> [String] {
        guard let script = try? String(contentsOf: directory.appendingPathComponent("make_truth.py"), encoding: .utf8),
            let start = script.range(of: "\n\(name) = [")
        else { return [] }
        let rest = script[start.upperBound...]
        guard let end = rest.firstIndex(of: "]") else { return [] }
        return rest[..<end].split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The short name llvm-objdump and llvm-nm print for a library
    /// (`guessLibraryShortName`): `UIKit` for `…/UIKit.framework/UIKit`,
    /// `libSystem` for `/usr/lib/libSystem.B.dylib`.
    static func shortName(_ installName: String) -> String {
        let components = installName.split(separator: "/").map(String.init)
        if let framework = components.firstIndex(where: { $0.hasSuffix(".framework") }) {
            return String(components[framework].dropLast(".framework".count))
        }
        var name = components.last ?? installName
        if name.hasSuffix(".dylib") { name.removeLast(".dylib".count) }
        for suffix in ["_debug", "_profile"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        if let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }
        return name
    }

    /// The slices of a corpus file that truth.json records, with our slice
    /// of the same architecture (`nil` when the reader has none).
    static func slices(of file: [String: Any], in read: MachOFile) -> [(truth: [String: Any], slice: MachOSlice?)] {
        let truths = file["slices"] as? [[String: Any]] ?? []
        return truths.map { truth in
            let arch = truth["arch"] as? String
            let slice = arch == nil ? read.slices.first : read.slices.first { $0.cpu?.name == arch }
            return (truth, slice)
        }
    }
}

/// How llvm-objdump and llvm-nm name an import's library.
extension MachOImage {
    /// The library name `llvm-objdump --bind`/`--chained-fixups` prints for
    /// `library`: the dependency's short name, or `this-image`,
    /// `main-executable`, `flat-namespace`, `weak`.
    func objdumpLibraryName(_ library: LibraryOrdinal) -> String {
        switch library {
        case .image: "this-image"
        case .mainExecutable: "main-executable"
        case .flatLookup: "flat-namespace"
        case .weakLookup: "weak"
        case .dylib, .invalid: dependency(for: library).map { MachOCorpus.shortName($0.installName) } ?? "\(library)"
        }
    }

    /// What `llvm-nm -m` prints in parentheses after an undefined symbol of
    /// the symbol table: `from X` (two-level images), `dynamically looked
    /// up`, `from executable`; `nil` when it prints nothing.
    func nmLibraryName(_ symbol: NlistSymbol) -> String? {
        guard header.flags.contains(.twoLevel) else { return nil }
        switch symbol.libraryOrdinal {
        case 0: return nil
        case 0xfe: return "dynamically looked up"
        case 0xff: return "from executable"
        default:
            return dependency(for: .dylib(Int(symbol.libraryOrdinal))).map { "from " + MachOCorpus.shortName($0.installName) }
                ?? "from bad library ordinal \(symbol.libraryOrdinal)"
        }
    }

    /// The undefined externals of the symbol table, as llvm-nm lists them.
    var nlistUndefined: [NlistSymbol] { symbols.filter(\.isUndefinedExternal) }
}
