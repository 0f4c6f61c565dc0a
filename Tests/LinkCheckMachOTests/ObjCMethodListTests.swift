import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// The Objective-C methods read from method lists (``MachOImage/objcMethods``)
/// against the symbols clang gives them, as `llvm-nm` prints them
/// (`-[CLActivity applicationOf:]`, `+[UIApplication(CLCurrent)
/// cl_current]`): on fixtures with pointer and relative method lists, and on
/// the corpus.
@Suite struct ObjCMethodListTests {
    /// Files and the slice to read (`nil`: a thin file).
    static let files: [(String, String?)] = [
        ("fixture:callers", "arm64"), ("fixture:callers", "x86_64"), ("fixture:callersChained", nil),
        ("jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD", "arm64"),
        ("jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD", "x86_64"),
        ("techery-pods-mirror__carthage-test/Carthage/Build/iOS/MBProgressHUD.framework/MBProgressHUD", "arm64"),
        ("techery-pods-mirror__carthage-test/Carthage/Build/iOS/MBProgressHUD.framework/MBProgressHUD", "x86_64"),
    ]

    static func path(_ file: String) throws -> URL {
        if file.hasPrefix("fixture:") { return try #require(MachOFixture(rawValue: String(file.dropFirst(8)))).path() }
        return Fixtures.corpusDirectory.appendingPathComponent("macho").appendingPathComponent(file)
    }

    /// `llvm-nm -m`'s defined Objective-C method symbols, by address.
    static func methodSymbols(_ path: URL, arch: String?) throws -> [UInt64: String] {
        let output = try MachOOracle.nm(["-m", "--defined-only"], path, arch: arch)
        var symbols: [UInt64: String] = [:]
        for line in output.split(separator: "\n") {
            // 0000000000004018 (__TEXT,__text) non-external +[UIApplication(CLCurrent) cl_current]
            let fields = line.split(separator: " ", maxSplits: 3)
            guard fields.count == 4, fields[1] == "(__TEXT,__text)", let address = UInt64(fields[0], radix: 16) else { continue }
            let name = String(fields[3])
            if name.hasPrefix("-[") || name.hasPrefix("+[") { symbols[address] = name }
        }
        return symbols
    }

    @Test(arguments: files)
    func methodListsNameTheMethodsAsTheirSymbols(file: String, arch: String?) throws {
        let path = try Self.path(file)
        let image = try #require(try MachOFile(path: path.path).images.first { arch == nil || $0.cpu.name == arch })
        let ours = Dictionary(image.objcMethods.map { ($0.address, $0.name) }, uniquingKeysWith: { first, _ in first })
        let symbols = try Self.methodSymbols(path, arch: arch)
        #expect(symbols.count >= 2)
        #expect(ours == symbols)
    }

    /// Both kinds of list and a category's: what the fixtures are built
    /// to hold, so that the comparison covers them (the chained fixups'
    /// linker puts relative method lists in `__TEXT,__objc_methlist`).
    @Test func theFixturesHoldACategoryInPointerAndRelativeLists() throws {
        for fixture in [MachOFixture.callers, .callersChained] {
            let image = try #require(try MachOFile(path: fixture.path().path).images.first { $0.cpu.name == "arm64" })
            #expect(Set(image.objcMethods.map(\.name)) == ["-[CLActivity applicationOf:]", "+[UIApplication(CLCurrent) cl_current]"])
        }
        #expect(try MachOOracle.sections(MachOFixture.callersChained.path()).contains("__objc_methlist"))
        #expect(try !MachOOracle.sections(MachOFixture.callers.path(), arch: "arm64").contains("__objc_methlist"))
    }
}
