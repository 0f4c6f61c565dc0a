import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckReports
import LinkCheckRules
import Testing

/// A finding's typed detail in the words every output gives
/// (``FindingDetail/words``), and the message made of them.
@Suite struct FindingWordingTests {
    @Test func eachDetailHasItsWords() {
        let sharedApplication = ObjCName("+[UIApplication sharedApplication]")!
        let cases: [(FindingDetail, String)] = [
            (.imports(symbol: "kit_open", demangled: nil), "imports 'kit_open'"),
            (.imports(symbol: "$s3Kit4openyyF", demangled: "Kit.open()"), "imports 'Kit.open()' ($s3Kit4openyyF)"),
            (.callsLinkedInCopy(function: "kit_open", demangled: "kit_open"), "calls 'kit_open', whose code is linked into this image"),
            (
                .references(sharedApplication, subclasses: []),
                "references +[UIApplication sharedApplication] (the class UIApplication and the selector sharedApplication)"
            ),
            (
                .references(sharedApplication, subclasses: ["A", "B"]),
                "references +[UIApplication sharedApplication] (the classes A, B, subclasses of UIApplication, and the selector sharedApplication)"
            ),
            (
                .references(ObjCName("UIApplication")!, subclasses: ["A"]),
                "references UIApplication (the class A, a subclass of UIApplication)"
            ),
            (
                .references(ObjCName("-[id<UIApplicationDelegate> application:openURL:]")!, subclasses: []),
                "references -[id<UIApplicationDelegate> application:openURL:] (the selector application:openURL: of the protocol UIApplicationDelegate)"
            ),
            (
                .looksUpByName(
                    className: "UIApplication", selector: "openURL:", lookUps: ["NSClassFromString", "objc_getClass"], selectorMakers: nil),
                "looks up UIApplication by name (NSClassFromString, objc_getClass) and sends openURL: (a selector reference)"
            ),
            (
                .mayLookUpByName(
                    className: "UIApplication", selector: "openURL:", selectorHeldAsString: false, lookUps: ["NSClassFromString"],
                    unknownBecause: "its call sites were not analysed", namesUnused: true),
                "holds the string \"UIApplication\", references the selector openURL: and imports NSClassFromString, so it may look up"
                    + " UIApplication by name and send openURL:; a warning at most, since its call sites were not analysed;"
                    + " no code that uses these names was found"
            ),
            (.holdsString("openURL:"), "read-only data holds the string \"openURL:\""),
            (.links(library: "libUIKit.so", format: .elf), "links libUIKit.so (DT_NEEDED)"),
            (.links(library: "@rpath/UIKit.framework/UIKit", format: .macho), "links @rpath/UIKit.framework/UIKit (LC_LOAD_DYLIB)"),
        ]
        for (detail, words) in cases { #expect(detail.words == words) }
    }

    @Test func theMessageIsTheDetailThenTheRuleThenTheRemarks() {
        var finding = Finding(
            rule: "AEX001", severity: .error, category: .unavailableAPI, kind: .stringLiteral, image: "Kit",
            statement: .detail(.holdsString("openURL:"), ruleMessage: "The selector name", remarks: ""))
        #expect(finding.message == "read-only data holds the string \"openURL:\": The selector name")
        finding.remark(" (no code loads it)")
        #expect(finding.statement == .detail(.holdsString("openURL:"), ruleMessage: "The selector name", remarks: " (no code loads it)"))
        #expect(finding.message == "read-only data holds the string \"openURL:\": The selector name (no code loads it)")
        let words = Finding(rule: "ARCH002", severity: .error, category: .architecture, kind: .architecture, image: "Kit", message: "w: r")
        #expect(words.message == "w: r")
    }
}
