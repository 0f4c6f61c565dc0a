import Foundation

/// GNU readelf (binutils) as an oracle for the inspector.
public enum Readelf {
    /// Whether `readelf` is installed.
    public static var isAvailable: Bool {
        (try? Command.capture("readelf", ["--version"]).status) == 0
    }

    /// The names of `.dynsym`'s imports (undefined, global or weak) and
    /// exports (defined, global/weak/unique, default or protected
    /// visibility) as `readelf --dyn-syms -W` prints them, without version
    /// suffixes.
    public static func dynamicSymbolNames(_ path: String) throws -> (imports: Set<String>, exports: Set<String>) {
        let output = try Command.run("readelf", ["--dyn-syms", "-W", path]).standardOutput
        var imports = Set<String>()
        var exports = Set<String>()
        for line in output.split(separator: "\n") {
            // "   12: 0000000000001139    22 FUNC    GLOBAL DEFAULT   14 name@@VER"
            var fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 8, fields[0].hasSuffix(":"), Int(fields[0].dropLast()) != nil else { continue }
            // Some machines print "[<other>: 88]" after the visibility.
            if let open = fields.firstIndex(where: { $0.hasPrefix("[") }), let close = fields.firstIndex(where: { $0.hasSuffix("]") }) {
                fields.removeSubrange(open...close)
            }
            guard fields.count >= 8 else { continue }
            let (binding, visibility, index) = (fields[4], fields[5], fields[6])
            let name = String(fields[7].prefix { $0 != "@" })
            guard !name.isEmpty else { continue }
            if index == "UND" {
                if binding == "GLOBAL" || binding == "WEAK" { imports.insert(name) }
            } else if ["GLOBAL", "WEAK", "UNIQUE"].contains(binding), ["DEFAULT", "PROTECTED"].contains(visibility) {
                exports.insert(name)
            }
        }
        return (imports, exports)
    }

    /// `readelf -h`'s class, data and machine lines, or `nil` when readelf
    /// rejects the file.
    /// Writes `bytes` at the start of `section` of the ELF file `library`
    /// (its file offset as `readelf -SW` gives it): damage to a section the
    /// tests choose.
    ///
    /// - Throws: ``CommandFailure`` when readelf fails, ``MissingSection``
    ///   when the file has no such section.
    public static func overwrite(section: String, of library: URL, with bytes: [UInt8]) throws {
        let sections = try Command.run("readelf", ["-SW", library.path]).standardOutput
        guard let line = sections.split(separator: "\n").first(where: { $0.contains(" \(section) ") }),
            let fields = line.split(separator: "]").last?.split(separator: " "), fields.count > 3,
            let offset = UInt64(fields[3], radix: 16)
        else { throw MissingSection(file: library.path, section: section) }
        let file = try FileHandle(forWritingTo: library)
        defer { try? file.close() }
        try file.seek(toOffset: offset)
        try file.write(contentsOf: bytes)
    }

    /// A section ``overwrite(section:of:with:)`` was asked to damage is
    /// not in the file.
    public struct MissingSection: Error, CustomStringConvertible {
        public var file, section: String
        public var description: String { "\(file) has no section \(section)" }
    }

    public static func header(_ path: String) -> (elfClass: String, data: String, machine: String)? {
        guard let output = try? Command.capture("readelf", ["-h", path]), output.status == 0 else { return nil }
        func field(_ name: String) -> String? {
            output.standardOutput.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + ":") }
                .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
        }
        guard let elfClass = field("Class"), let data = field("Data"), let machine = field("Machine") else { return nil }
        return (elfClass, data, machine)
    }

    /// linkcheck's standard machine name for readelf's `Machine:` text,
    /// given readelf's class (`ELF64`) and data (`…little endian`) lines;
    /// `nil` for machines linkcheck has no name for (it says `unknown(N)`).
    public static func standardMachineName(readelfMachine: String, elfClass: String, data: String) -> String? {
        let is64 = elfClass == "ELF64"
        let little = data.contains("little")
        switch readelfMachine {
        case "Advanced Micro Devices X86-64": return is64 ? "x86_64" : "x32"
        case "Intel 80386": return "i386"
        case "AArch64": return little ? "aarch64" : "aarch64_be"
        case "ARM": return little ? "armv7" : "armv7eb"
        case "RISC-V": return is64 ? "riscv64" : "riscv32"
        case "PowerPC64": return little ? "ppc64le" : "ppc64"
        case "PowerPC": return little ? "ppcle" : "ppc"
        case "IBM S/390": return is64 ? "s390x" : "s390"
        case "MIPS R3000": return is64 ? (little ? "mips64el" : "mips64") : (little ? "mipsel" : "mips")
        case "Sparc": return "sparc"
        case "Sparc v9": return "sparcv9"
        case "Sparc v8+": return "sparc32plus"
        case "LoongArch": return is64 ? "loongarch64" : "loongarch32"
        case "Linux BPF": return "bpf"
        case "None": return "none"
        default: return nil
        }
    }
}
