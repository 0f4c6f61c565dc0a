import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// Calls to a function this image defines that an unsafe rule matches,
    /// from code that is not the API's own: the API's code was linked in
    /// statically (SwiftPM links the targets of a package into each of its
    /// products), so no import shows the call. One image can hold both the
    /// API and its callers, so this is decided per call:
    ///
    /// - Swift rules: a call is a finding unless the calling function belongs
    ///   to the module that defines the API
    ///   (``SwiftDeclarationPath/owningModule(ofMangled:demangled:)``, which
    ///   counts the API's closures and thunks as its own, and a member of an
    ///   extension another module declares as that module's). A call from
    ///   code no symbol names (a stripped image) counts as another module's
    ///   unless the image is named after the API's module
    ///   (`libAnalytics.so` for `Analytics`).
    /// - C, C++ and glob rules: every call to an internal (not exported)
    ///   copy. C names carry no module, and an image that exports the symbol
    ///   is taken as its provider.
    ///
    /// The definitions themselves are the provider's
    /// (``providedAPIFindings()``), never a finding here.
    func staticCallFindings() -> [Finding] {
        guard let code else { return [] }
        var findings: [Finding] = []
        for (position, function) in code.functions.enumerated() {
            let sites = (code.callsToFunction[position] ?? []).filter { $0.caller != position }
            guard !sites.isEmpty else { continue }
            let matches = rules.rules(matchingSymbol: function.name, unsafeOnly: true)
            guard !matches.isEmpty else { continue }
            let demangled = rules.demangler.any(function.name)
            let apiModule = owningModule(function.name)
            let imageIsTheModule = apiModule.map(names.contains) ?? false
            for match in matches {
                let calls: [CallSite]
                if case .swift = match.matcher {
                    calls = sites.filter { site in
                        guard let caller = site.caller else { return !imageIsTheModule }
                        return owningModule(code.functions[caller].name) != apiModule
                    }
                } else {
                    calls = function.isExported ? [] : sites
                }
                guard !calls.isEmpty else { continue }
                var finding = finding(
                    match, kind: .staticCall, subject: function.name, demangled: demangled,
                    detail: .callsLinkedInCopy(function: function.name, demangled: demangled))
                locator.locate(&finding, sites: calls, in: code, api: finding.api ?? function.name)
                findings.append(finding)
            }
        }
        return findings
    }
}
