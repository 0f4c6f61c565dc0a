import LinkCheckImage

/// Images described in code, for tests of the stages after the readers.
public enum TestImages {
    /// x86_64, 64-bit, little-endian ELF (`EM_X86_64`).
    public static let x86_64 = Architecture(name: "x86_64", is64Bit: true, byteOrder: .little, loaderMachine: "e_machine 62")

    /// An ELF image at `path` with the given SONAME, DT_NEEDED and symbols
    /// (global functions).
    public static func elf(
        _ path: String, soname: String? = nil, needs: [String] = [], imports: [String] = [], exports: [String] = [],
        executable: Bool = false, architecture: Architecture = x86_64
    ) -> BinaryImage {
        BinaryImage(
            identity: ImageIdentity(path: path), format: .elf, architecture: architecture,
            fileType: executable ? .executable : .sharedLibrary, declaredName: soname,
            dependencies: needs.map { Dependency(name: $0) },
            imports: imports.map { Symbol(name: $0, binding: .global, type: .function) },
            exports: exports.map { Symbol(name: $0, binding: .global, type: .function) },
            facts: .elf(ELFFacts(fileType: executable ? "ET_EXEC" : "ET_DYN")))
    }
}
