/// Sections of one slice of a file, in a read-only mapping of the file
/// (``FileMapping``): what ``DWARFSegment/contents(of:)`` gives for a
/// slice's `__DWARF` sections, so that a lookup makes resident only the
/// pages it reads, never the whole of a large dSYM.
public struct MappedSections {
    /// The mapped file.
    public let mapping: FileMapping
    /// Each section's bytes as a range of offsets from the beginning of the
    /// file (its slice's offset plus the section's), by section name
    /// (`__debug_info`); all inside the file as mapped.
    public let ranges: [String: Range<Int>]

    /// Calls `body` with each section's bytes by section name, as one
    /// guarded read of the mapping (``FileMapping/read(_:)``); the bytes
    /// must not be used after `body` returns.
    ///
    /// - Throws: ``MachOError/changedWhileRead(path:)`` when the file was
    ///   truncated or rewritten while `body` read it.
    public func read<Value>(_ body: ([String: UnsafeRawBufferPointer]) -> Value) throws(MachOError) -> Value {
        try mapping.read { file in body(ranges.mapValues { UnsafeRawBufferPointer(rebasing: file[$0]) }) }
    }
}
