import LinkCheckImage

/// `LC_FUNCTION_STARTS` (`linkedit_data_command`): the start address of
/// each function, ULEB128-coded as deltas from the previous one, the first
/// from the start of `__TEXT`, ending at a 0 delta.
enum FunctionStarts {
    /// The virtual addresses, in increasing order; a truncated or
    /// overflowing delta ends the list with a warning.
    static func read(_ data: ByteReader, textAddress: UInt64, warnings: inout ReadWarnings) -> [UInt64] {
        var addresses: [UInt64] = []
        var offset = 0
        var address = textAddress
        while offset < data.count {
            let start = offset
            guard let delta = data.uleb128(at: &offset) else {
                warnings.add("LC_FUNCTION_STARTS", at: data.fileOffset + start, "a delta runs past the data or overflows; the rest skipped")
                break
            }
            if delta == 0 { break }
            let (next, overflow) = address.addingReportingOverflow(delta)
            guard !overflow else {
                warnings.add("LC_FUNCTION_STARTS", at: data.fileOffset + start, "an address past 2^64; the rest skipped")
                break
            }
            address = next
            addresses.append(address)
        }
        return addresses
    }
}
