/// The Objective-C runtime's message-send functions (`<objc/message.h>`)
/// and the registers they take the receiver and selector in.
public enum MessageSend {
    /// Where a message-send function takes its receiver and selector.
    struct Arguments {
        /// Argument index of the receiver (`self`), or for the `Super`
        /// variants of the `objc_super` structure.
        var receiver: Int
        /// Argument index of the selector (`_cmd`).
        var selector: Int
        /// A send to `super` (`objc_msgSendSuper`, `objc_msgSendSuper2`):
        /// the receiver argument is no class reference.
        var toSuper: Bool
    }

    /// The arguments of `name` (C-level, no leading `_`) when it is
    /// `objc_msgSend` or a variant (`_stret`, `_fpret`, `_fp2ret`,
    /// `objc_msgSendSuper`, `objc_msgSendSuper2`, and their `_stret`
    /// forms), else `nil`. On x86_64 the `_stret` variants take the address
    /// of the returned structure first, so receiver and selector come one
    /// argument later; arm64 has no `_stret` variants (that address goes in
    /// `x8`).
    static func arguments(of name: String, on instructionSet: Disassembler.InstructionSet) -> Arguments? {
        guard functions.contains(name) else { return nil }
        let shift = instructionSet == .x86_64 && name.hasSuffix("_stret") ? 1 : 0
        return Arguments(receiver: shift, selector: 1 + shift, toSuper: name.hasPrefix("objc_msgSendSuper"))
    }

    /// Whether a call to `name` returns its first argument when that is a
    /// class object: `objc_opt_self` (`[cls self]`) and `objc_opt_class`
    /// (`[cls class]`), which Swift and clang emit before class messages.
    static func returnsClassArgument(_ name: String) -> Bool {
        name == "objc_opt_self" || name == "objc_opt_class"
    }

    /// The runtime functions that make a selector from its name
    /// (Foundation's `NSSelectorFromString`, `<objc/runtime.h>`'s
    /// `sel_registerName` and `sel_getUid`), by C-level name.
    public static let selectorMakers: Set<String> = ["NSSelectorFromString", "sel_registerName", "sel_getUid"]

    private static let functions: Set<String> = [
        "objc_msgSend", "objc_msgSend_stret", "objc_msgSend_fpret", "objc_msgSend_fp2ret",
        "objc_msgSendSuper", "objc_msgSendSuper_stret", "objc_msgSendSuper2", "objc_msgSendSuper2_stret",
    ]
}
