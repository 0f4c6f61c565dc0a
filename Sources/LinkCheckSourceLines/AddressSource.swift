/// Where the instruction at one address of an image was written: the line
/// table's row for it, and, when the compiler inlined the code that holds
/// it, the chain of functions it was inlined into (the DWARF
/// `DW_TAG_inlined_subroutine` entries around the address), out to the
/// function the image's symbols name.
///
/// For a call written on line 3 of `helper`, which was inlined into `f` on
/// line 10: ``location`` is line 3, ``function`` is `helper`, and
/// ``inlinedInto`` is one frame, `f` at line 10, the caller the report names.
public struct AddressSource: Sendable, Hashable {
    /// The line table's row for the address: the call's own line.
    public var location: SourcePosition
    /// The function whose code holds the address, as its debug information
    /// names it (`DW_AT_linkage_name`, else `DW_AT_name`): the inlined
    /// function when ``inlinedInto`` is not empty; `nil` when no function
    /// entry covers the address or it has no name.
    public var function: String?
    /// The functions the code was inlined into, innermost first: each one's
    /// ``InlinedCall/location`` is where it calls the function before it
    /// (``function`` for the first). Empty when the code was not inlined.
    public var inlinedInto: [InlinedCall]

    public init(location: SourcePosition, function: String?, inlinedInto: [InlinedCall] = []) {
        (self.location, self.function, self.inlinedInto) = (location, function, inlinedInto)
    }

    /// The call of an inlined function, in the function it was inlined into.
    public struct InlinedCall: Sendable, Hashable {
        /// The function the code was inlined into (`DW_AT_linkage_name`,
        /// else `DW_AT_name`), `nil` when its entry has no name.
        public var function: String?
        /// Where that function calls the inlined one (`DW_AT_call_file`,
        /// `DW_AT_call_line`, `DW_AT_call_column`); `nil` when the entry does
        /// not say.
        public var location: SourcePosition?

        public init(function: String?, location: SourcePosition?) {
            (self.function, self.location) = (function, location)
        }
    }
}
