import Foundation
import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// Mach-O call sites, checked against what LLVM's tools show
/// (``MachOCallOracle``) on fixtures built from `Tests/Fixtures/MachO` and
/// the PhotosApp sample, and on the corpus.
@Suite struct MachOCallSiteTests {
    /// The fixtures' slices, by architecture name.
    static let fixtureSlices: [(MachOFixture, String)] = [
        (.callSites, "arm64"), (.callSites, "x86_64"), (.callSitesChained, "arm64"), (.callSitesChained, "x86_64"),
    ]

    static let corpus = Fixtures.corpusDirectory.appendingPathComponent("macho")

    /// Corpus slices of linked arm64 and x86_64 images: Objective-C
    /// (SVProgressHUD, MBProgressHUD), Swift 2 and Swift 5 (Cartography,
    /// SnapKit), bind opcodes and chained fixups, a symbol table out of sync
    /// with the bind opcodes (RxRelay's x86_64 slice).
    static let corpusSlices: [(String, String?)] = [
        ("jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD", "arm64"),
        ("jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD", "x86_64"),
        ("techery-pods-mirror__carthage-test/Carthage/Build/iOS/MBProgressHUD.framework/MBProgressHUD", "arm64"),
        ("techery-pods-mirror__carthage-test/Carthage/Build/iOS/MBProgressHUD.framework/MBProgressHUD", "x86_64"),
        ("jpsim__CardsAgainst/Carthage/Build/iOS/Cartography.framework/Cartography", "arm64"),
        ("jpsim__CardsAgainst/Carthage/Build/iOS/Cartography.framework/Cartography", "x86_64"),
        ("kkoless__LocationsApp/Carthage/Build/tvOS/SnapKit.framework/SnapKit", nil),
        ("kkoless__LocationsApp/Carthage/Build/SnapKit.xcframework/macos-arm64_x86_64/SnapKit.framework/Versions/A/SnapKit", "arm64"),
        ("kkoless__LocationsApp/Carthage/Build/SnapKit.xcframework/macos-arm64_x86_64/SnapKit.framework/Versions/A/SnapKit", "x86_64"),
        (
            "stotic-dev__SampleSearchBookAppByMoya/Carthage/Build/RxRelay.xcframework/ios-arm64_x86_64-maccatalyst/RxRelay.framework/RxRelay",
            "arm64"
        ),
        (
            "stotic-dev__SampleSearchBookAppByMoya/Carthage/Build/RxRelay.xcframework/ios-arm64_x86_64-maccatalyst/RxRelay.framework/RxRelay",
            "x86_64"
        ),
    ]

    /// The image of `path` for the slice `arch` (`nil`: a thin file's
    /// image).
    static func image(_ path: URL, arch: String?) throws -> BinaryImage {
        try #require(try MachOReader.read(path: path.path).first { $0.identity.slice == arch })
    }

    static func analysis(_ path: URL, arch: String?) throws -> CodeAnalysis {
        try #require(try CodeIndex.callSites(of: image(path, arch: arch)))
    }

    static func index(_ path: URL, arch: String?) throws -> CodeIndex {
        try #require(try CodeIndex.analyze(image(path, arch: arch), interest: .everything, mode: .full))
    }

    /// The function a call site is in, as objdump labels code: our last
    /// function at or before it that starts at a label (objdump labels the
    /// symbol table's symbols, not function starts or the exports trie),
    /// under the label objdump shows there when its name is one of the
    /// labels of that address.
    static func label(_ site: CallSite, _ analysis: CodeAnalysis, _ reading: MachOCallOracle.Reading) -> String? {
        guard let function = analysis.functions.last(where: { $0.address <= site.address && reading.labels[$0.address] != nil }),
            let labels = reading.labels[function.address]
        else { return nil }
        return labels.contains(function.name) ? labels.last : function.name
    }

    /// Our calls to imports in the oracle's terms, by address.
    static func ours(_ analysis: CodeAnalysis, _ reading: MachOCallOracle.Reading) -> [UInt64: MachOCallOracle.Call] {
        var calls: [UInt64: MachOCallOracle.Call] = [:]
        for site in analysis.callSites {
            guard case .imported(let name) = site.callee else { continue }
            calls[site.address] = MachOCallOracle.Call(
                address: site.address, function: label(site, analysis, reading), callee: name, isTailCall: site.isTailCall,
                selector: site.selector, receiverClass: site.receiverClass, firstArgument: site.firstArgument)
        }
        return calls
    }

    /// Where our calls to imports and objdump's differ: every call objdump
    /// shows must be ours as it shows it (the function may be any symbol of
    /// its address); a call objdump does not show must go to a stub the
    /// indirect symbol table does not name, and reach a symbol the image
    /// binds.
    static func disagreements(_ path: URL, arch: String?) throws -> (count: Int, differences: [String]) {
        let analysis = try analysis(path, arch: arch)
        let reading = try MachOCallOracle.read(path, arch: arch)
        let bound = Set(
            try MachOOracle.bindings(path, arch: arch).map { $0.symbol.hasPrefix("_") ? String($0.symbol.dropFirst()) : $0.symbol })
        var differences: [String] = []
        for (address, call) in ours(analysis, reading).sorted(by: { $0.key < $1.key }) {
            guard let expected = reading.calls[address] else {
                if !reading.unnamedStubCalls.contains(address) || !bound.contains(call.callee) {
                    differences.append("ours only: \(call)")
                }
                continue
            }
            if call != expected { differences.append("ours \(call) | objdump \(expected)") }
        }
        let found = Set(analysis.callSites.map(\.address))
        differences += reading.calls.filter { !found.contains($0.key) }.sorted { $0.key < $1.key }.map { "objdump only: \($0.value)" }
        return (reading.calls.count, differences)
    }

    // MARK: - Against objdump

    @Test(arguments: fixtureSlices)
    func fixtureCallsToImportsEqualObjdumps(fixture: MachOFixture, arch: String) throws {
        let path = try fixture.path()
        let reading = try MachOCallOracle.read(path, arch: arch)
        // What the fixture is built to hold, so that the comparison covers it.
        var expectedCallees: Set<String> = ["dlopen", "objc_msgSend", "objc_msgSendSuper2", "objc_alloc_init", "objc_opt_self"]
        if arch == "x86_64" { expectedCallees.insert("objc_msgSend_stret") }
        #expect(Set(reading.calls.values.map(\.callee)) == expectedCallees)
        #expect(reading.calls.values.contains { $0.receiverClass == "UIApplication" && $0.selector == "sharedApplication" })
        let (_, differences) = try Self.disagreements(path, arch: arch)
        #expect(differences == [])
    }

    /// The aarch64 byte scan gives the same calls and call paths whether
    /// it tests 32, 16 or 4 bytes at a time.
    @Test(arguments: corpusSlices.filter { $0.1 == "arm64" })
    func theByteScanFindsTheSameAtEveryBlockWidth(file: String, arch: String?) throws {
        try BlockWidths.expectTheSameAnswers(of: try Self.image(Self.corpus.appendingPathComponent(file), arch: arch), atLeast: 100)
    }

    @Test(arguments: corpusSlices)
    func corpusCallsToImportsEqualObjdumps(file: String, arch: String?) throws {
        let (count, differences) = try Self.disagreements(Self.corpus.appendingPathComponent(file), arch: arch)
        #expect(count > 50)
        #expect(differences == [])
    }

    /// SVProgressHUD's `+[UIApplication sharedApplication]` sends, per
    /// function, as objdump shows them; both slices, built from one source,
    /// send it from the same functions.
    @Test func svProgressHUDsSharedApplicationSendsPerFunction() throws {
        let path = Self.corpus.appendingPathComponent("jpsim__CardsAgainst/Carthage/Build/iOS/SVProgressHUD.framework/SVProgressHUD")
        var callers: [String: Set<String>] = [:]
        for arch in ["arm64", "x86_64"] {
            let index = try Self.index(path, arch: arch)
            let sends = index.callsToSelector["sharedApplication"] ?? []
            let expected = try MachOCallOracle.read(path, arch: arch).calls.values.filter { $0.selector == "sharedApplication" }
            #expect(Set(sends.map(\.address)) == Set(expected.map(\.address)), "\(arch)")
            #expect(sends.allSatisfy { $0.receiverClass == "UIApplication" } && expected.allSatisfy { $0.receiverClass == "UIApplication" })
            callers[arch] = Set(sends.compactMap { $0.caller.map { index.functions[$0].name } })
            #expect(callers[arch] == Set(expected.compactMap(\.function)), "\(arch)")
        }
        #expect(callers["arm64"] == callers["x86_64"])
        #expect(callers["arm64"]?.contains("-[SVProgressHUD positionHUD:]") == true)
    }

    @Test(arguments: fixtureSlices.map { ($0.0, $0.1) } + [(MachOFixture.uploader, "")])
    func functionsAreTheSymbolsAndFunctionStarts(fixture: MachOFixture, arch: String) throws {
        let path = try fixture.path()
        let slice = arch.isEmpty ? nil : arch
        let analysis = try Self.analysis(path, arch: slice)
        let listed = try MachOCallOracle.functions(path, arch: slice)
        #expect(Set(analysis.functions.map(\.address)) == Set(listed.symbols.keys).union(listed.starts))
        for function in analysis.functions {
            let names = listed.symbols[function.address] ?? ["sub_" + String(function.address, radix: 16)]
            #expect(names.contains(function.name), "\(function)")
            #expect(function.isExported == listed.exported.contains(function.address), "\(function)")
        }
        // Each runs to the next (the last to the end of __TEXT,__text).
        for (function, next) in zip(analysis.functions, analysis.functions.dropFirst()) {
            #expect(function.address + function.size == next.address)
        }
    }

    @Test(arguments: corpusSlices)
    func corpusFunctionsAreTheSymbolsAndFunctionStarts(file: String, arch: String?) throws {
        let path = Self.corpus.appendingPathComponent(file)
        let analysis = try Self.analysis(path, arch: arch)
        let listed = try MachOCallOracle.functions(path, arch: arch)
        let text = try #require(
            try MachOFile(path: path.path).images.first { arch == nil || $0.cpu.name == arch }?.sections
                .first { $0.segmentName == "__TEXT" && $0.name == "__text" })
        let inText = analysis.functions.filter { $0.address >= text.address && $0.address - text.address < text.size }
        #expect(Set(inText.map(\.address)) == Set(listed.symbols.keys).union(listed.starts.filter { $0 - text.address < text.size }))
        #expect(inText.allSatisfy { (listed.symbols[$0.address] ?? ["sub_" + String($0.address, radix: 16)]).contains($0.name) })
    }

    /// SARIF points into the file: a call site's offset is in the whole
    /// (fat) file, where its instruction's bytes are.
    @Test(arguments: fixtureSlices)
    func fileOffsetsAreInTheWholeFile(fixture: MachOFixture, arch: String) throws {
        let path = try fixture.path()
        let bytes = [UInt8](try Data(contentsOf: path))
        let analysis = try Self.analysis(path, arch: arch)
        let reading = try MachOCallOracle.read(path, arch: arch)
        #expect(!reading.encodings.isEmpty)
        for site in analysis.callSites {
            guard let encoding = reading.encodings[site.address] else { continue }
            let start = Int(site.fileOffset)
            #expect(start + encoding.count <= bytes.count && Array(bytes[start..<start + encoding.count]) == encoding, "\(site)")
        }
        let slices = try MachOFile(path: path.path).slices
        let slice = try #require(slices.first { $0.cpu?.name == arch })
        #expect(slice.fileOffset > 0 || slices.count == 1)
        #expect(
            analysis.callSites.allSatisfy {
                $0.fileOffset >= UInt64(slice.fileOffset) && $0.fileOffset < UInt64(slice.fileOffset + slice.size)
            })
    }

    // MARK: - What the fixture's source says

    /// The message sends of `selector`, as (caller, callee, class).
    static func sends(_ index: CodeIndex, _ selector: String) -> Set<String> {
        Set(
            (index.callsToSelector[selector] ?? []).map { site in
                let callee = if case .imported(let name) = site.callee { name } else { "?" }
                return "\(site.caller.map { index.functions[$0].name } ?? "?") \(callee) \(site.receiverClass ?? "_")"
            })
    }

    @Test(arguments: fixtureSlices)
    func messageSendsAreAttributedToTheirSelectorAndClass(fixture: MachOFixture, arch: String) throws {
        let index = try Self.index(try fixture.path(), arch: arch)
        // UIApplication's own, an instance's (the result of +self), another
        // class's, and Swift's (through objc_opt_self).
        #expect(
            Self.sends(index, "sharedApplication") == [
                "cs_application objc_msgSend UIApplication", "cs_can_open objc_msgSend _", "cs_panel_width objc_msgSend CSPanel",
                "cs_swift_shared_application objc_msgSend UIApplication",
            ])
        #expect(Self.sends(index, "openURL:") == ["cs_present_login objc_msgSend _"])
        #expect(Self.sends(index, "self") == ["cs_can_open objc_msgSend UIApplication"])
        #expect(Self.sends(index, "init") == ["-[CSUploader init] objc_msgSendSuper2 _"])
        #expect(Self.sends(index, "URLWithString:") == ["-[CSUploader retry:] objc_msgSend NSURL"])
        // x86_64 returns the 32-byte structure through objc_msgSend_stret,
        // with the selector in rdx and the receiver in rsi.
        #expect(Self.sends(index, "frame") == ["cs_panel_width \(arch == "x86_64" ? "objc_msgSend_stret" : "objc_msgSend") _"])
        #expect(index.callsToImport["objc_msgSend"]?.contains { $0.selector == nil } == false)
    }

    @Test(arguments: fixtureSlices)
    func dlopenGetsItsLiteral(fixture: MachOFixture, arch: String) throws {
        let index = try Self.index(try fixture.path(), arch: arch)
        let loads = (index.callsToImport["dlopen"] ?? []).map {
            "\(index.functions[$0.caller!].name) \($0.throughGOT) \($0.firstArgument ?? "-")"
        }
        #expect(
            Set(loads) == [
                "cs_load_plugin false @rpath/Plugin.framework/Plugin", "cs_load_named false -",
                "cs_load_through_got true @rpath/Camera.framework/Camera",
            ])
    }

    /// `NSClassFromString(@"UIApplication")` passes a constant `CFString`
    /// (`__cfstring`), not a C string: its characters are the call's first
    /// argument, in both slices of the chained fixture, and as objdump's
    /// `Objc cfstring ref:` note names them in the sample's build with bind
    /// opcodes (objdump does not follow chained pointers to name them).
    @Test(arguments: ["arm64", "x86_64"])
    func aCFStringLiteralIsTheFirstArgument(arch: String) throws {
        let index = try Self.index(try MachOFixture.sneakyFatChained.path(), arch: arch)
        let arguments = { (callee: String) in (index.callsToImport[callee] ?? []).map { $0.firstArgument ?? "-" } }
        #expect(arguments("NSClassFromString") == ["UIApplication"])
        #expect(arguments("NSSelectorFromString").sorted() == ["openURL:", "sharedApplication"])
    }

    @Test func cfStringArgumentsEqualObjdumps() throws {
        let sneaky = try MachOFixtures.photosApp().appendingPathComponent("Frameworks/Sneaky.framework/Sneaky")
        let reading = try MachOCallOracle.read(sneaky, arch: nil)
        #expect(
            reading.calls.values.filter { $0.callee.hasSuffix("FromString") }.compactMap(\.firstArgument).sorted()
                == ["UIApplication", "openURL:", "sharedApplication"])
        let (_, differences) = try Self.disagreements(sneaky, arch: nil)
        #expect(differences == [])
    }

    /// The path from an Objective-C method, which the runtime calls, down
    /// to `+[UIApplication sharedApplication]`.
    @Test(arguments: fixtureSlices)
    func callPathStartsAtTheObjectiveCMethod(fixture: MachOFixture, arch: String) throws {
        let index = try Self.index(try fixture.path(), arch: arch)
        let site = try #require(index.callsToSelector["sharedApplication"]?.first { $0.receiverClass == "UIApplication" && $0.isTailCall })
        let path = index.pathFromExported(to: try #require(site.caller)).map { index.functions[$0].name }
        #expect(path == ["-[CSUploader retry:]", "cs_present_login", "cs_application"])
    }

    @Test func photosAppsUploaderPathIsRetryPresentLogin() throws {
        let uploader = try MachOFixtures.photosApp().appendingPathComponent("Frameworks/Uploader.framework/Uploader")
        let index = try Self.index(uploader, arch: nil)
        let sends = try #require(index.callsToSelector["sharedApplication"])
        #expect(sends.map(\.receiverClass) == ["UIApplication"])
        let path = index.pathFromExported(to: try #require(sends.first?.caller)).map { index.functions[$0].name }
        #expect(path == ["-[UPUploader retry:]", "present_login"])
        #expect(index.functions.first { $0.name == "present_login" }?.isExported == true)
        #expect(index.functions.first { $0.name == "-[UPUploader retry:]" }?.isExported == false)
    }

    /// Xcode 14's `objc_msgSend$sel` stubs (`__TEXT,__objc_stubs`): a call
    /// to one sends its selector.
    @Test func selectorStubsSendTheirSelector() throws {
        let path = try MachOFixture.selectorStubs.path()
        let index = try Self.index(path, arch: nil)
        let reading = try MachOCallOracle.read(path)
        #expect(Set(reading.calls.values.compactMap(\.selector)) == ["sharedApplication", "openURL:"])
        #expect(Self.sends(index, "sharedApplication") == ["current_application objc_msgSend UIApplication"])
        #expect(Self.sends(index, "openURL:") == ["open_in_application objc_msgSend _"])
        let (_, differences) = try Self.disagreements(path, arch: nil)
        #expect(differences == [])
    }

    // MARK: - Which images

    @Test func linkedARM64AndX86_64ImagesAreAnalysed() throws {
        for (fixture, arch) in Self.fixtureSlices {
            #expect(CodeIndex.supports(try Self.image(try fixture.path(), arch: arch)))
        }
        // 32-bit code, and object files (their code is not relocated).
        #expect(!CodeIndex.supports(try Self.image(try MachOFixture.codec32.path(), arch: nil)))
        let members = try MachOReader.read(path: try MachOFixture.staticFramework.path().path)
        #expect(members.count == 4 && members.allSatisfy { !CodeIndex.supports($0) })
        #expect(try CodeIndex.callSites(of: members[0]) == nil)
    }
}
