import LinkCheckCodeIndex
import LinkCheckImage
import LinkCheckRules

extension OwnFindings {
    /// A finding per rule whose `objc` matcher the image's class and
    /// selector references satisfy: in a Swift or Objective-C iOS binary
    /// `UIApplication.shared` is a message send (`ldr x1,
    /// selref(sharedApplication); bl _objc_msgSend`), so no symbol shows it.
    /// The message sends of the selector to the class (``CodeIndex/messageSends(of:to:classMethod:)``)
    /// are its call sites, with the loads of its selector references in the
    /// functions that do not send it (``CodeIndex/selectorLoadsNotSent(_:)``:
    /// `[object performSelector:@selector(sharedApplication)]`), in address
    /// order. A class the image defines counts as a reference
    /// to its superclasses (``BinaryImage/objcSuperclasses``): `[MyApp
    /// sharedApplication]`, or `[self sharedApplication]` in a method of
    /// `MyApp`, where `MyApp : UIApplication`, is a use of `+[UIApplication
    /// sharedApplication]` (the sends to `self`, whose class is not known,
    /// are call sites), and the finding names the subclass.
    func objcFindings() -> [Finding] {
        matches.objc.map { match in
            guard case .objc(let name) = match.matcher else { preconditionFailure("an objc match has an objc matcher") }
            let subclasses = image.objcSuperclasses.filter { $0.value.contains(name.className) }.keys.sorted()
            let viaSubclass = !subclasses.isEmpty && !image.objcClassReferences.contains(name.className)
            var finding = finding(
                match, kind: .objcReference, subject: name.description, demangled: nil,
                detail: .references(name, subclasses: viaSubclass ? subclasses : []))
            if let unanalysedMachine { finding.remark(unanalysedMachine) }
            if let code, let selector = name.selector {
                let sends = code.messageSends(of: selector, to: Set([name.className] + subclasses), classMethod: name.isClassMethod)
                let sites: [any CodeLocation] = sends + code.selectorLoadsNotSent(selector)
                locator.locate(&finding, sites: sites.sorted { $0.address < $1.address }, in: code, api: name.description)
            }
            return finding
        }
    }
}
