import LinkCheckCodeIndex
import LinkCheckImage

extension OwnFindings {
    /// The findings of the image's read-only strings that rules match
    /// (`string` matchers, the `SEL001`–`SEL003` selector names among them).
    ///
    /// In a Mach-O image a selector name held as a string is a use by name
    /// (``isUseByName(kind:subject:)``) unless the call sites show
    /// otherwise. Where they were analysed, it is one only when code makes a
    /// selector of it: passes it to a selector maker
    /// (``ObjCByName/selectorMakers``: `NSSelectorFromString`,
    /// `sel_registerName`) or as a key-value coding key
    /// (``ObjCByName/keyValueSelectors``); those calls are its call sites,
    /// and what guards them its guards. A string the code only loads for
    /// something else (an `NSLog` argument) stays the rule's review risk,
    /// no use by name, with the functions that load it as its call sites,
    /// and a note where only the containing app runs the image. An image
    /// read only in part (``BinaryImage/warnings``) may hide the code that
    /// does: its string stays a use by name.
    /// A selector that a method reached by name already names
    /// (`sentByName`, from ``objcByNameFindings()``) is that finding's, so
    /// its string makes none.
    func stringFindings(sentByName: Set<String>) -> [Finding] {
        var findings: [Finding] = []
        for text in image.stringLiterals {
            for match in rules.rules(matchingString: text) {
                let selector = match.matcher.pattern
                var finding = finding(
                    match, kind: .stringLiteral, subject: selector, demangled: nil,
                    detail: .holdsString(selector))
                if finding.byName != nil, sentByName.contains(selector) { continue }
                if finding.byName != nil, let code, image.warnings.isEmpty {
                    let made = (selectorsMade(passing: [selector], in: code)[selector]?.sites ?? []).sorted { $0.address < $1.address }
                    if made.isEmpty {
                        finding.byName = nil
                        let loads = (code.literalLoads[selector] ?? []).sorted { $0.address < $1.address }
                        finding.remark(loads.isEmpty ? .noCodeLoadsString : .loadMakesNoSelector)
                        locator.locate(&finding, sites: loads, in: code, api: selector)
                        severity.applyRole(toSelectorString: &finding, on: index)
                    } else {
                        locator.locate(&finding, sites: made, in: code, api: selector)
                        finding.byName?.guards = byNameGuards(at: made, of: selector, in: code)
                    }
                }
                findings.append(finding)
            }
        }
        return findings
    }
}
