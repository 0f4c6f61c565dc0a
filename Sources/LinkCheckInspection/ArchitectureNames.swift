import LinkCheckELF
import LinkCheckImage

/// The architecture names linkcheck knows, for checking a user's spelling
/// (`--require-arch`, `requiredArchitectures`).
public enum ArchitectureNames {
    /// Apple's names for Mach-O `cputype`/`cpusubtype` pairs.
    static let apple: Set<String> = ["arm64", "arm64e", "arm64_32", "x86_64", "x86_64h", "armv7", "armv7s", "armv7k", "i386"]

    /// Every family (``Architecture/family(of:)``) the ELF and Mach-O
    /// readers give.
    public static let known: Set<String> = Set(Machine.standardNames.map(Architecture.family(of:)))
        .union(apple.map(Architecture.family(of:)))

    /// Whether `spelling` names a known architecture (`arm64` and
    /// `aarch64` alike).
    public static func isKnown(_ spelling: String) -> Bool {
        known.contains(Architecture.family(of: spelling))
    }

    /// The names to list after an unknown one: ELF's and Apple's.
    public static var listed: [String] { Machine.standardNames.union(apple).sorted() }
}
