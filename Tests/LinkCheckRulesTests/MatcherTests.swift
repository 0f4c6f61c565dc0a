import Foundation
import LinkCheckRules
import LinkCheckTestSupport
import Testing

@Suite struct MatcherTests {
    static func ruleSet(_ matchers: [Matcher], demangler: Demangler = Demangler()) -> RuleSet {
        let rule = Rule(
            id: "TST001", api: "api", category: .unavailableAPI, severity: .error, matchers: matchers,
            message: "m", fixit: "f", source: "s")
        return RuleSet.build(packs: [RulePack(path: "t.json", name: "t", version: "1", rules: [rule])], demangler: demangler).0
    }

    static func matches(_ matcher: Matcher, _ symbol: String) -> Bool {
        !ruleSet([matcher]).rules(matchingSymbol: symbol).isEmpty
    }

    // Real mangled names from the Samples' stand-in UIKit.
    static let sharedGetter = "$s5UIKit13UIApplicationC6sharedACvgZ"
    static let sharedDescriptor = "$s5UIKit13UIApplicationC6sharedACvpZMV"
    static let openThunk = "$s5UIKit13UIApplicationC4openySbSSFTj"
    static let openDescriptor = "$s5UIKit13UIApplicationC4openySbSSFTq"

    @Test func exactSymbol() {
        #expect(Self.matches(.symbol("dlopen"), "dlopen"))
        #expect(!Self.matches(.symbol("dlopen"), "dlopen_ext"))
    }

    @Test func glob() {
        #expect(Self.matches(.glob("OBJC_CLASS_$_UI*"), "OBJC_CLASS_$_UIApplication"))
        #expect(Self.matches(.glob("dl[ms]ym"), "dlsym"))
        #expect(!Self.matches(.glob("dl[ms]ym"), "dlvsym"))
    }

    @Test func swiftPathMatchesEveryPartOfTheDeclaration() {
        let path = Matcher.swift("UIKit.UIApplication.shared")
        #expect(Self.matches(path, Self.sharedGetter), "getter")
        #expect(Self.matches(path, Self.sharedDescriptor), "property descriptor")
        #expect(Self.matches(path, "$s5UIKit13UIApplicationC6sharedACvsZ"), "setter")
        #expect(Self.matches(path, "$s5UIKit13UIApplicationC6sharedACvMZ"), "modify coroutine")
        #expect(Self.matches(.swift("UIKit.UIApplication.open"), Self.openThunk), "dispatch thunk")
        #expect(Self.matches(.swift("UIKit.UIApplication.open"), Self.openDescriptor), "method descriptor")
        #expect(Self.matches(.swift("UIKit.UIApplication"), "$s5UIKit13UIApplicationCMa"), "a type path covers its metadata accessor")
        #expect(
            Self.matches(.swift("AVFoundation.AVCaptureSession.init"), "$s12AVFoundation16AVCaptureSessionCACycfC"),
            "__allocating_init counts as init")
    }

    @Test func swiftPathDoesNotMatchALongerNameOrAParameterType() {
        // static UIKit.UIApplication.sharedFoo.getter
        #expect(!Self.matches(.swift("UIKit.UIApplication.shared"), "$s5UIKit13UIApplicationC9sharedFooACvgZ"))
        // UIKit.UIApplication.openURL(Swift.String) is not UIKit.UIApplication.open
        #expect(!Self.matches(.swift("UIKit.UIApplication.open"), "$s5UIKit13UIApplicationC7openURLyySSF"))
        // ShareKit.Sharer.use(UIKit.UIApplication) -> () takes the type as a parameter only.
        #expect(!Self.matches(.swift("UIKit.UIApplication"), "$s8ShareKit6SharerV3useyy5UIKit13UIApplicationCF"))
    }

    @Test func swiftPathDemanglesLazily() {
        let demangler = Demangler()
        let rules = Self.ruleSet([.swift("UIKit.UIApplication.shared")], demangler: demangler)
        for symbol in [
            "$s10Foundation6BundleC4loadSbyF", "$s10Foundation17NSClassFromStringyyXlXpSgSSF",
            "$sSS5countSivg", "_ZN2ns5Class6methodEv", "dlopen",
        ] {
            #expect(rules.rules(matchingSymbol: symbol).isEmpty)
        }
        #expect(demangler.demangledCount == 0, "no symbol outside module UIKit may be demangled")
        #expect(!rules.rules(matchingSymbol: Self.sharedGetter).isEmpty)
        #expect(demangler.demangledCount == 1)
    }

    /// ``RuleSet/symbolLeads(including:)``'s flag for `name`'s first two
    /// bytes (0 for a byte a short name does not have).
    static func leadAllows(_ rules: RuleSet, _ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return rules.symbolLeads(including: [])[Int(bytes.first ?? 0) << 8 | Int(bytes.count > 1 ? bytes[1] : 0)]
    }

    @Test func thePreFilterOnRawNamesRulesOutWhatNoMatcherCanMatch() {
        let rules = Self.ruleSet([
            .symbol("dlopen"), .glob("OBJC_CLASS_$_UI*"), .swift("UIKit.UIApplication.shared"), .cxx("ns::Widget::draw"),
        ])
        func mayMatch(_ name: String) -> Bool {
            Array(name.utf8).withUnsafeBufferPointer(rules.mayMatchSymbol)
        }
        for name in ["dlopen", "OBJC_CLASS_$_UIApplication", Self.sharedGetter, "_ZNK2ns6Widget4drawEi"] {
            #expect(!rules.rules(matchingSymbol: name).isEmpty && mayMatch(name) && Self.leadAllows(rules, name), "\(name)")
        }
        // Ruled out by the first two bytes alone, unless named.
        for name in ["", "printf", "_ITM_registerTMCloneTable", "OXYZ", "x"] {
            #expect(!Self.leadAllows(rules, name), "\(name)")
        }
        let named = rules.symbolLeads(including: ["printf", "x"])
        #expect(named[RuleSet.leadKey("pr")] && named[RuleSet.leadKey("x")] && !named[RuleSet.leadKey("xy")])
        for name in [
            "", "printf", "dlopen_ext", "dlsym", "OBJC_CLASS_$_NSObject", "$s10Foundation6BundleC4loadSbyF", "$sSS5countSivg",
            "_ZN2ns3BoxIiE3putEi", "_ZN2ns6Widget7drawAllEv",
        ] {
            #expect(!mayMatch(name), "\(name)")
        }
        // Same module, so it is left to the matcher (which demangles it).
        #expect(mayMatch("$s5UIKit6UIViewC5frameSo6CGRectVvg"))
    }

    /// Every name a default rule matches passes the pre-filter; of modules
    /// no Swift-path rule names, almost nothing does. (libFoundation.so's
    /// own names all pass: module Foundation has Swift-path rules, so its
    /// names are left to the matcher.)
    @Test(.enabled(if: Readelf.isAvailable, "needs readelf (Debian binutils)"))
    func thePreFilterPassesEveryNameTheDefaultPacksMatch() throws {
        let rules = try ShippedRules.ruleSet()
        func names(_ path: String) throws -> Set<String> {
            let symbols = try Readelf.dynamicSymbolNames(path)
            return symbols.imports.union(symbols.exports)
        }
        func mayMatch(_ name: String) -> Bool {
            Array(name.utf8).withUnsafeBufferPointer(rules.mayMatchSymbol)
        }
        let toolchain = "/opt/swift/usr/lib/swift/linux"
        let others = try names("\(toolchain)/libswiftCore.so").union(names("\(toolchain)/libFoundationEssentials.so"))
            .union(names("/usr/lib/x86_64-linux-gnu/libc.so.6"))
        let all = try others.union(names("\(toolchain)/libFoundation.so"))
        var matched = 0
        for name in all where !rules.rules(matchingSymbol: name).isEmpty {
            matched += 1
            #expect(mayMatch(name), "\(name) matches a rule")
        }
        #expect(matched >= 5, "libc's loader functions and Foundation's Bundle.load, NSClassFromString, …")
        // The first two bytes never rule out a name the pre-filter passes;
        // of C and C++ names (no Swift mangling), they rule out most.
        let cNames = try names("/usr/lib/x86_64-linux-gnu/libc.so.6").union(names("/usr/lib/x86_64-linux-gnu/libstdc++.so.6"))
        #expect(all.union(cNames).filter(mayMatch).isSubset(of: all.union(cNames).filter { Self.leadAllows(rules, $0) }))
        let leadsPassed = cNames.filter { Self.leadAllows(rules, $0) }
        #expect(leadsPassed.count * 10 < cNames.count, "\(leadsPassed.count) of \(cNames.count) names pass their first two bytes")
        let passed = others.filter(mayMatch)
        #expect(others.count > 20_000)
        #expect(passed.count * 100 < others.count, "\(passed.count) of \(others.count) names pass: \(passed.sorted().prefix(20))")
    }

    @Test func mangledModuleNames() {
        #expect(SwiftDeclarationPath.moduleName(ofMangled: Self.sharedGetter) == "UIKit")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$s10Foundation6BundleC4loadSbyF") == "Foundation")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$sSo8NSObjectCMa") == "__C")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$sSS5countSivg") == "Swift")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "dlopen") == nil)
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$s12345ABCDEFGHIJKL") == nil, "at most four digits")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$s5UIK") == nil, "shorter than its length")
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "$s0UIKit") == nil)
        #expect(SwiftDeclarationPath.moduleName(ofMangled: "_T05UIKit3FooV") == "UIKit")
    }

    /// Names swiftc 6 gave functions of a module `Analytics` and of a module
    /// `Ext` that links it in (`nm libExt.so`).
    @Test(arguments: [
        ("$s9AnalyticsAAO12logAppLaunch7optionsySDyS2SG_tFZ", "Analytics"),
        ("$s9AnalyticsAAO10viaClosureyyFZySiXEfU_", "Analytics"),  // a closure inside the API's module
        ("$s9AnalyticsAAO10viaClosureyyFZySiXEfU_TA", "Analytics"),  // its partial-apply forwarder
        ("$s3Ext5shareyyF", "Ext"),
        ("$s3Ext1SV2goyyFySiXEfU_", "Ext"),
        ("$s9AnalyticsAAO3ExtE7startupyyFZ", "Ext"),  // static (extension in Ext):Analytics.Analytics.startup()
        ("$s9AnalyticsAAO3ExtE7startupyyFZyycfU_", "Ext"),  // a closure in it
        ("$sSD9AnalyticsSSRszrlE5logItyyF", "Analytics"),  // (extension in Analytics):Swift.Dictionary<…>.logIt()
        ("$sSo8NSObjectC3ExtE5helloyyF", "Ext"),  // (extension in Ext):__C.NSObject.hello()
        ("$sSa12_endMutationyyF", "Swift"),
    ])
    func owningModuleOfAFunction(symbol: String, module: String) {
        let demangled = Demangler().swift(symbol)
        #expect(demangled != nil)
        #expect(SwiftDeclarationPath.owningModule(ofMangled: symbol, demangled: demangled) == module)
    }

    @Test func owningModuleWithoutADemangling() {
        #expect(
            SwiftDeclarationPath.owningModule(ofMangled: "$s9AnalyticsAAO3ExtE7startupyyFZ", demangled: nil) == "Analytics",
            "the extended type's module")
        #expect(SwiftDeclarationPath.owningModule(ofMangled: "kit_shared", demangled: nil) == nil)
    }

    @Test func cxxQualifiedName() {
        // ns::Widget::draw(int) const, and a template member.
        #expect(Self.matches(.cxx("ns::Widget::draw"), "_ZNK2ns6Widget4drawEi"))
        #expect(Self.matches(.cxx("ns::Widget"), "_ZNK2ns6Widget4drawEi"), "a class covers its members")
        #expect(Self.matches(.cxx("ns::Box::put"), "_ZN2ns3BoxIiE3putEi"), "template arguments are ignored")
        #expect(!Self.matches(.cxx("ns::Widget::draw"), "_ZN2ns6Widget7drawAllEv"))
        #expect(CxxQualifiedName.of(demangled: "void ns::f<int>(int)") == "ns::f")
    }

    @Test func stringLiteral() {
        let rules = Self.ruleSet([.string("TRUEPREDICATE")])
        #expect(rules.rules(matchingString: "TRUEPREDICATE").map(\.rule.id) == ["TST001"])
        #expect(rules.rules(matchingString: "TRUEPREDICATES").isEmpty)
        #expect(rules.stringPatterns == ["TRUEPREDICATE"], "what the inspector is asked to find")
    }

    @Test func objcClassAndMethodMatchers() throws {
        let sharedApplication = try #require(ObjCName("+[UIApplication sharedApplication]"))
        let openURL = try #require(ObjCName("-[UIApplication openURL:options:completionHandler:]"))
        let session = try #require(ObjCName("AVCaptureSession"))
        #expect(
            sharedApplication.className == "UIApplication" && sharedApplication.selector == "sharedApplication"
                && sharedApplication.isClassMethod)
        #expect(openURL.selector == "openURL:options:completionHandler:" && !openURL.isClassMethod)
        #expect(session.selector == nil && session.description == "AVCaptureSession")
        for bad in [
            "+[UIApplication]", "-[UIApplication open URL:]", "[UIApplication sharedApplication]", "9Class", "+[UIApplication openURL::x]",
            "",
        ] {
            #expect(ObjCName(bad) == nil, "\(bad)")
        }
        let rules = Self.ruleSet([.objc(sharedApplication), .objc(openURL), .objc(session)])
        // A method needs both its class and its selector referenced.
        #expect(rules.rules(matchingClasses: ["UIApplication"], selectors: ["sharedApplication"]).count == 1)
        #expect(rules.rules(matchingClasses: ["UIApplication"], selectors: ["openURL:"]).isEmpty, "a shorter selector is another method")
        #expect(
            rules.rules(matchingClasses: ["UIScreen"], selectors: ["sharedApplication"]).isEmpty, "another class's selector of that name")
        #expect(rules.rules(matchingClasses: ["AVCaptureSession"], selectors: []).map(\.matcher) == [.objc(session)])
    }

    /// A protocol has no class to reference: its method matches on the
    /// selector reference alone.
    @Test func objcProtocolMethodMatcher() throws {
        let read = try #require(ObjCName("-[id<NFCISO15693Tag> readMultipleBlocksWithConfiguration:completionHandler:]"))
        #expect(read.isProtocolMethod && read.className == "NFCISO15693Tag" && !read.isClassMethod)
        #expect(read.description == "-[id<NFCISO15693Tag> readMultipleBlocksWithConfiguration:completionHandler:]")
        for bad in ["+[id<NFCISO15693Tag> x]", "-[id<> x]", "-[id<A B> x]", "-[<NFCISO15693Tag> x]"] {
            #expect(ObjCName(bad) == nil, "\(bad)")
        }
        let rules = Self.ruleSet([.objc(read)])
        #expect(
            rules.rules(matchingClasses: [], selectors: ["readMultipleBlocksWithConfiguration:completionHandler:"]).map(\.matcher) == [
                .objc(read)
            ])
        #expect(
            rules.rules(matchingClasses: ["NFCISO15693Tag"], selectors: ["readSingleBlockWithRequestFlags:blockNumber:completionHandler:"])
                .isEmpty)
    }

    @Test func neededLibrary() {
        let rules = Self.ruleSet([.library("libInFieldCollection*")])
        #expect(rules.rules(matchingLibrary: "libInFieldCollection.so.1").map(\.rule.id) == ["TST001"])
        #expect(rules.rules(matchingLibrary: "libc.so.6").isEmpty)
    }

    /// The literal run a library pattern's pre-filter searches for is one
    /// every match holds: none before a `[` or `\` is taken, so a bracket's
    /// or an escape's characters never count as literal.
    @Test func theLongestLiteralRunOfAGlob() {
        #expect(Glob.longestLiteral(in: "*/libCoreKE.*") == Array("/libCoreKE.".utf8))
        #expect(Glob.longestLiteral(in: "lib?ab*xyz") == Array("lib".utf8))
        #expect(Glob.longestLiteral(in: "ab[xyzw]") == Array("ab".utf8))
        #expect(Glob.longestLiteral(in: "a\\*longer") == Array("a".utf8))
        #expect(Glob.longestLiteral(in: "*").isEmpty)
        let patterns = ["*/libCoreKE.*", "lib[CX]oreKE.so", "lib\\CoreKE*", "*KE.so*"]
        let rules = Self.ruleSet(patterns.map(Matcher.library))
        for name in ["libCoreKE.so", "/System/libCoreKE.dylib", "libXoreKE.so", "libCoreKE.so.1", "libcore.so"] {
            #expect(
                rules.rules(matchingLibrary: name).map(\.matcher) == patterns.filter { Glob.matches($0, name) }.map(Matcher.library),
                "\(name)")
        }
    }

    @Test func globValidation() {
        #expect(Glob.problem(in: "foo*") == nil)
        #expect(Glob.problem(in: "[]x]") == nil)
        #expect(Glob.problem(in: "foo[") == "unclosed '[' at offset 3")
        #expect(Glob.problem(in: "foo\\") == "trailing backslash")
        #expect(Glob.problem(in: "") == "empty pattern")
    }
}
