/// A place in a source file, as DWARF names it: a row of a line table
/// (`.debug_line`), or the call of an inlined function
/// (`DW_AT_call_file`, `DW_AT_call_line`, `DW_AT_call_column`).
public struct SourcePosition: Sendable, Hashable {
    /// The file's path as the debug information gives it: absolute when the
    /// compiler recorded its directory (the compilation directory joined
    /// with the file's name), else as written.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1; `nil` when the compiler recorded none (DWARF's
    /// column 0).
    public var column: Int?

    public init(file: String, line: Int, column: Int?) {
        (self.file, self.line, self.column) = (file, line, column)
    }
}
