import Foundation

/// A debug build of the sample's `Uploader` framework (`UPUploader.m`,
/// `UPLogin.m`, compiled with `-g`, linked by LLVM 14's `ld64.lld`, which
/// writes the debug map), laid out as Xcode's build folder lays it out:
///
/// - `Objects-<arch>/UPUploader.o`, `UPLogin.o`: the objects, kept, which the
///   images' debug maps name (`N_OSO`);
/// - `Uploader-<arch>`: each thin image (arm64 for iOS, x86_64 for the
///   simulator);
/// - `Products/Uploader.framework/Uploader`: the fat framework (`llvm-lipo`);
/// - `Uploader.framework.dSYM` (``makeDSYM(of:at:)``): `dsymutil`'s dSYM of
///   each slice, joined into one fat DWARF file by `llvm-lipo`, since LLVM
///   14's `dsymutil` calls a `lipo` this machine does not have.
public struct MachODebugBuild {
    /// The folder everything is in; removed with the value.
    public let directory: TemporaryDirectory
    /// The architectures built, in order: `arm64`, `x86_64`.
    public static let architectures = [MachOFixtures.Target.arm64, .x86_64Simulator]

    /// Builds the objects, the thin images and the fat framework;
    /// `optimization` (`-Os`, `-O0`) makes builds that differ, so their
    /// `LC_UUID`s differ too.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    public init(optimization: String = "-Os") throws {
        directory = try Fixtures.temporaryDirectory()
        var slices: [URL] = []
        for target in Self.architectures {
            let objects = try ["UPUploader", "UPLogin"].map { name in
                try MachOFixtures.compileObject(
                    MachOFixtures.photosAppSources("Frameworks/Uploader/\(name).m")[0], for: target, flags: ["-g", optimization],
                    to: objectPath(name, target.arch))
            }
            slices.append(
                try MachOFixtures.link(
                    MachOFixtures.Image(
                        sources: [], product: .dylib(installName: "@rpath/Uploader.framework/Uploader"), target: target,
                        frameworks: ["UIKit", "Foundation", "CoreFoundation"], inputs: objects),
                    to: thinImage(target.arch)))
        }
        try MachOFixtures.fat(slices, to: framework)
    }

    /// `Objects-<arch>/<name>.o`.
    public func objectPath(_ name: String, _ arch: String) -> URL {
        directory.path("Objects-\(arch)").appendingPathComponent("\(name).o")
    }

    /// `Uploader-<arch>`: the thin image of `arch`.
    public func thinImage(_ arch: String) -> URL { directory.path("Uploader-\(arch)") }

    /// `Products/Uploader.framework/Uploader`: the fat framework's binary.
    public var framework: URL { directory.path("Products/Uploader.framework/Uploader") }

    /// `Static-<arch>/libUploader.a`: the static archive of the objects of
    /// `arch` that ``linkFromStaticArchives()`` makes.
    public func staticArchive(_ arch: String) -> URL {
        directory.path("Static-\(arch)/libUploader.a")
    }

    /// Archives the objects of each architecture into
    /// ``staticArchive(_:)``, each member's `ar_date` its object's
    /// modification time, and links `Static/Uploader.framework/Uploader`,
    /// a fat framework, from them (`-all_load`): its debug map names the
    /// members (`…/libUploader.a(UPLogin.o)`), `N_OSO`'s `n_value` their
    /// `ar_date`. Returns the framework's binary.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    public func linkFromStaticArchives() throws -> URL {
        let slices = try Self.architectures.map { target in
            let archive = try MachOFixtures.staticArchive(
                ["UPUploader", "UPLogin"].map { objectPath($0, target.arch) }, to: staticArchive(target.arch), keepingDates: true)
            return try MachOFixtures.link(
                MachOFixtures.Image(
                    sources: [], product: .dylib(installName: "@rpath/Uploader.framework/Uploader"), target: target,
                    frameworks: ["UIKit", "Foundation", "CoreFoundation"], inputs: [archive], linkerFlags: ["-all_load"]),
                to: directory.path("Static-\(target.arch)/Uploader"))
        }
        return try MachOFixtures.fat(slices, to: directory.path("Static/Uploader.framework/Uploader"))
    }

    /// Makes the dSYM bundle `bundle` (`X.dSYM`) of the fat image `image`:
    /// `dsymutil --arch` for each slice, the DWARF files joined by
    /// `llvm-lipo -create` into `Contents/Resources/DWARF/<image's name>`.
    /// Returns the DWARF file's path.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    @discardableResult
    public static func makeDSYM(of image: URL, at bundle: URL) throws -> URL {
        let parts = try Fixtures.temporaryDirectory()
        let name = image.lastPathComponent
        let thin = try architectures.map { target in
            let part = parts.path("\(target.arch).dSYM")
            try Command.run(
                MachOFixtures.llvm14Bin.appendingPathComponent("dsymutil").path, [image.path, "--arch", target.arch, "-o", part.path])
            return part.appendingPathComponent("Contents/Resources/DWARF/\(name)")
        }
        let dwarf = bundle.appendingPathComponent("Contents/Resources/DWARF/\(name)")
        try MachOFixtures.fat(thin, to: dwarf)
        return dwarf
    }

    /// Links the arm64 object `object` (compiled with `-g`, and kept where
    /// it is: the debug map names it) into the dylib `lib<name>.dylib` in
    /// `directory` (`-undefined dynamic_lookup`: what it calls is
    /// imported), and makes its dSYM beside it (`dsymutil`); returns the
    /// dylib and the dSYM's DWARF file.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    public static func dylibWithDSYM(linking object: URL, name: String, in directory: TemporaryDirectory) throws -> (
        dylib: URL, dwarf: URL
    ) {
        let dylib = try MachOFixtures.link(
            MachOFixtures.Image(
                sources: [], product: .dylib(installName: "@rpath/lib\(name).dylib"), frameworks: [], libraries: ["System"],
                inputs: [object], linkerFlags: ["-undefined", "dynamic_lookup"]),
            to: directory.path("lib\(name).dylib"))
        let dSYM = directory.path("lib\(name).dylib.dSYM")
        try Command.run(MachOFixtures.llvm14Bin.appendingPathComponent("dsymutil").path, [dylib.path, "-o", dSYM.path])
        return (dylib, dSYM.appendingPathComponent("Contents/Resources/DWARF/lib\(name).dylib"))
    }

    /// The linked thin image `image` as an image that carries its own DWARF,
    /// at `output`: its debug map stripped (`llvm-strip -x`), and the
    /// `__debug_*` sections of `dwarf`, the thin dSYM DWARF file `dsymutil`
    /// made of it, copied into a `__DWARF` segment of its own
    /// (`llvm-objcopy --dump-section`, `--add-section`). Its addresses and
    /// `LC_UUID` stay. Returns `output`.
    ///
    /// - Throws: ``CommandFailure`` when a tool fails.
    @discardableResult
    public static func carryingOwnDWARF(_ image: URL, from dwarf: URL, to output: URL) throws -> URL {
        let parts = try Fixtures.temporaryDirectory()
        let objcopy = MachOFixtures.llvm14Bin.appendingPathComponent("llvm-objcopy").path
        let headers = try Command.run(MachOFixtures.llvm14Bin.appendingPathComponent("llvm-objdump").path, ["-h", dwarf.path])
        var additions: [String] = []
        for line in headers.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, Int(fields[0]) != nil, fields[1].hasPrefix("__debug_") else { continue }
            let contents = parts.path(String(fields[1])).path
            try Command.run(objcopy, ["--dump-section", "__DWARF,\(fields[1])=\(contents)", dwarf.path, parts.path("copy").path])
            additions += ["--add-section", "__DWARF,\(fields[1])=\(contents)"]
        }
        let stripped = parts.path("stripped")
        try Command.run(MachOFixtures.llvm14Bin.appendingPathComponent("llvm-strip").path, ["-x", image.path, "-o", stripped.path])
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(objcopy, additions + [stripped.path, output.path])
        return output
    }
}
