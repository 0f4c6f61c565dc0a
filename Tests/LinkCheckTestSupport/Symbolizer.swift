import Foundation
import LinkCheckSourceLines

/// `llvm-symbolizer` (the toolchain's), the oracle for the source of an
/// address: `--obj=FILE --no-demangle ADDRESS` prints the address's frames,
/// innermost first, each a function line and a `file:line:column` line.
public enum Symbolizer {
    /// The tool's path, beside the toolchain's clang.
    public static var tool: String {
        URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent().appendingPathComponent("llvm-symbolizer").path
    }

    /// What the symbolizer says of `address` (a virtual address) in the
    /// image at `path`, as an ``AddressSource``: the first frame's function
    /// and place, the others as the calls it was inlined into; `nil` when it
    /// knows no line (`??:0:0`).
    ///
    /// - Throws: ``CommandFailure`` when the tool fails.
    public static func source(of address: UInt64, in path: String) throws -> AddressSource? {
        try sources(of: [address], in: path)[address]
    }

    /// What the symbolizer says of each of `addresses` in the file at
    /// `path` (an image, or a dSYM's DWARF file), as ``source(of:in:)``
    /// gives it, asking for a few thousand addresses at once; an address it
    /// knows no line of is left out.
    ///
    /// - Throws: ``CommandFailure`` when the tool fails.
    public static func sources(of addresses: [UInt64], in path: String) throws -> [UInt64: AddressSource] {
        var sources: [UInt64: AddressSource] = [:]
        for start in stride(from: 0, to: addresses.count, by: 2000) {
            let batch = Array(addresses[start..<min(start + 2000, addresses.count)])
            let output = try Command.run(tool, ["--obj=\(path)", "--no-demangle"] + batch.map { "0x" + String($0, radix: 16) })
            // Each address's frames, then an empty line.
            let blocks = output.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
                .split(separator: "", omittingEmptySubsequences: true)
            for (address, block) in zip(batch, blocks) {
                sources[address] = source(Array(block).map(String.init))
            }
        }
        return sources
    }

    /// One address's frames, each a function line and a place line, as an
    /// ``AddressSource``.
    private static func source(_ lines: [String]) -> AddressSource? {
        let frames = stride(from: 0, to: lines.count - 1, by: 2).map { (function: lines[$0], place: position(lines[$0 + 1])) }
        guard let innermost = frames.first, let place = innermost.place else { return nil }
        return AddressSource(
            location: place, function: innermost.function == "??" ? nil : innermost.function,
            inlinedInto: frames.dropFirst().map { AddressSource.InlinedCall(function: $0.function, location: $0.place) })
    }

    /// `file:line:column` as the symbolizer prints it; `nil` for `??:0:0`.
    private static func position(_ text: String) -> SourcePosition? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]), line > 0 else {
            return nil
        }
        return SourcePosition(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column > 0 ? column : nil)
    }
}
