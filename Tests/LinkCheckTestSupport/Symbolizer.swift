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
        let output = try Command.run(tool, ["--obj=\(path)", "--no-demangle", "0x" + String(address, radix: 16)])
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
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
