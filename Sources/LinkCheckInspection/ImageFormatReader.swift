import LinkCheckELF
import LinkCheckImage
import LinkCheckLiterals
import LinkCheckMachO

/// What a reader of one binary format offers the inspect stage, as gimli
/// `object`'s `Object` trait does for its formats: it names its format,
/// recognises the format's magic, and reads a file into the
/// ``BinaryImage`` values it holds, with what it could not read as
/// ``ReadWarning``s. ``ImageInspector`` dispatches through its
/// ``ImageInspector/readers``.
///
/// A new format is a new reader (a module beside `LinkCheckELF` and
/// `LinkCheckMachO`) conforming here, listed in
/// ``ImageInspector/readers``, and a new case of ``BinaryFormat``: the
/// compiler then points at every `switch` that chooses by format.
public protocol ImageFormatReader: Sendable {
    /// The format the reader reads.
    static var format: BinaryFormat { get }

    /// Whether a file that starts with `leadingBytes` (its first
    /// ``ImageInspector/leadingByteCount`` bytes, fewer in a shorter file)
    /// is one this reader reads.
    static func recognises(leadingBytes: ArraySlice<UInt8>) -> Bool

    /// The images in the file at `path`, read for `strings` (the literals
    /// to look for in read-only data) and keeping the symbols `symbols`
    /// selects.
    ///
    /// - Throws: ``InspectionError`` when the file cannot be read, is not of
    ///   the format after all, a structure it cannot be read without is
    ///   malformed, or it changed while it was read.
    static func images(
        atPath path: String, strings: LiteralPatterns, symbols: SymbolSelection
    ) throws(InspectionError) -> [BinaryImage]
}

extension ELFReader: ImageFormatReader {}

extension MachOReader: ImageFormatReader {}
