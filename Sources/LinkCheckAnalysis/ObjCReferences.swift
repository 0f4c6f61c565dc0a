import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// A finding per rule whose `objc` matcher the image's class and
    /// selector references satisfy: in a Swift or Objective-C iOS binary
    /// `UIApplication.shared` is a message send (`ldr x1,
    /// selref(sharedApplication); bl _objc_msgSend`), so no symbol shows it.
    /// The message sends of the selector to the class (``CodeIndex/messageSends(of:to:classMethod:)``)
    /// are its call sites.
    func objcFindings() -> [Finding] {
        matches.objc.map { match in
            guard case .objc(let name) = match.matcher else { preconditionFailure("an objc match has an objc matcher") }
            let what = name.selector.map { selector in
                name.isProtocolMethod
                    ? "the selector \(selector) of the protocol \(name.className)"
                    : "the class \(name.className) and the selector \(selector)"
            } ?? "the class \(name.className)"
            var finding = finding(
                match, kind: .objcReference, subject: name.description, demangled: nil,
                detail: "references \(name) (\(what))")
            finding.message += unanalysedMachine
            if let code, let selector = name.selector {
                let sends = code.messageSends(of: selector, to: name.className, classMethod: name.isClassMethod)
                locator.locate(&finding, sites: sends, in: code, api: name.description)
            }
            return finding
        }
    }
}
