/// What an `objc` matcher names: a class (`NFCNDEFMessage`), a class method
/// (`+[UIApplication sharedApplication]`), an instance method
/// (`-[UIApplication openURL:]`), or a method of a protocol
/// (`-[id<NFCISO15693Tag> sendCustomCommandWithConfiguration:completionHandler:]`),
/// as Objective-C spells them.
///
/// In a Mach-O image a class is used through a class reference
/// (`__objc_classrefs`, bound to `_OBJC_CLASS_$_Name`) and a method through
/// a selector reference (`__objc_selrefs`); a class's method matches when
/// the image references both the class and the selector (for an instance
/// method the receiver is usually got from the class, as `[[UIApplication
/// sharedApplication] openURL:…]`). A protocol has no class to reference, so
/// its method matches on the selector reference alone.
public struct ObjCName: Sendable, Hashable, CustomStringConvertible {
    /// The class, or for a protocol's method the protocol.
    public var className: String
    /// `nil` for a class matcher.
    public var selector: String?
    /// `+[…]` rather than `-[…]`.
    public var isClassMethod: Bool
    /// `-[id<Protocol> …]`: a method of a protocol, matched by its selector.
    public var isProtocolMethod: Bool

    /// Parses `Class`, `+[Class selector]`, `-[Class selector:with:]` or
    /// `-[id<Protocol> selector:]`; `nil` when `text` is none of them.
    public init?(_ text: String) {
        if let body = text.dropPrefix("+[") ?? text.dropPrefix("-["), body.hasSuffix("]") {
            let parts = body.dropLast().split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count == 2, Self.isSelector(parts[1]) else { return nil }
            isClassMethod = text.hasPrefix("+")
            if parts[0].hasPrefix("id<") && parts[0].hasSuffix(">") {
                let name = parts[0].dropFirst(3).dropLast()
                guard !isClassMethod, Self.isIdentifier(name) else { return nil }
                className = String(name)
                isProtocolMethod = true
            } else {
                guard Self.isIdentifier(parts[0]) else { return nil }
                className = String(parts[0])
                isProtocolMethod = false
            }
            selector = String(parts[1])
        } else {
            guard Self.isIdentifier(Substring(text)) else { return nil }
            className = text
            selector = nil
            isClassMethod = false
            isProtocolMethod = false
        }
    }

    public var description: String {
        guard let selector else { return className }
        return "\(isClassMethod ? "+" : "-")[\(isProtocolMethod ? "id<\(className)>" : className) \(selector)]"
    }

    /// Letters, digits and `_`, not starting with a digit.
    static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, !first.isNumber else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// `name` or `name:with:` (identifiers, each followed by `:` or none).
    static func isSelector(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        if pieces.count == 1 { return isIdentifier(text) }
        return pieces.last == ""
            && pieces.dropLast().enumerated().allSatisfy { index, piece in
                isIdentifier(piece) || (index > 0 && piece.isEmpty)
            }
    }
}

extension String {
    /// The rest after `prefix`, or `nil` when the string does not start
    /// with it.
    func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
