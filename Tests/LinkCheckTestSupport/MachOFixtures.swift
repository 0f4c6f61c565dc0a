import Foundation

/// Builds Mach-O images for the tests from C, Objective-C and assembly
/// sources, with no Apple SDK: the toolchain's clang compiles against the
/// stand-in iOS SDK in `Samples/PhotosApp/SDK` (headers, and `.tbd` stubs
/// for UIKit, Foundation, CoreFoundation, AVFoundation, libobjc and
/// libSystem), and one of two linkers (``Linker``) links. The same recipes,
/// in shell, build the PhotosApp sample (`Samples/PhotosApp/build.sh`).
///
/// ```swift
/// let directory = try Fixtures.temporaryDirectory()
/// let uploader = try MachOFixtures.link(MachOFixtures.Image(
///     sources: MachOFixtures.photosAppSources("Frameworks/Uploader/UPUploader.m", "Frameworks/Uploader/UPLogin.m"),
///     product: .dylib(installName: "@rpath/Uploader.framework/Uploader"),
///     linker: .chainedFixups, frameworks: ["UIKit", "Foundation", "CoreFoundation"]),
///     to: directory.path("Uploader"))
/// ```
public enum MachOFixtures {
    /// `Samples/PhotosApp/SDK`: the stand-in SDK (`-isysroot`, `-syslibroot`).
    public static let sdk = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotosApp/SDK")

    /// `Samples/PhotosApp`: the sample's sources, which fixtures reuse.
    public static let photosAppDirectory = Fixtures.repositoryRoot.appendingPathComponent("Samples/PhotosApp")

    /// `Tests/Fixtures/MachO`: sources only the tests build.
    public static let sourceDirectory = Fixtures.sourceDirectory.appendingPathComponent("MachO")

    /// The SDK version images record unless their recipe says otherwise
    /// (`-platform_version`'s last argument, `sdk` in `LC_BUILD_VERSION`).
    public static let sdkVersion = "17.0"

    /// Files of `Tests/Fixtures/MachO`.
    public static func sources(_ names: String...) -> [URL] {
        names.map { sourceDirectory.appendingPathComponent($0) }
    }

    /// Files of `Samples/PhotosApp`, by path inside it
    /// (`Frameworks/Uploader/UPUploader.m`).
    public static func photosAppSources(_ paths: String...) -> [URL] {
        paths.map { photosAppDirectory.appendingPathComponent($0) }
    }

    /// A platform and architecture to build for.
    public struct Target: Sendable, Hashable, CustomStringConvertible {
        /// The architecture as `-arch`, `llvm-lipo` and `llvm-objdump
        /// --arch` name it: `arm64`, `x86_64`, `armv7`.
        public let arch: String
        /// clang's `-target`.
        public let triple: String
        /// `-platform_version`'s platform: `ios` or `ios-simulator`
        /// (`LC_BUILD_VERSION` platform 2 or 7).
        public let platform: String
        /// The deployment target (`minos`).
        public let minimumOS: String

        public init(arch: String, triple: String, platform: String, minimumOS: String) {
            self.arch = arch
            self.triple = triple
            self.platform = platform
            self.minimumOS = minimumOS
        }

        /// An iOS device, 64-bit.
        public static let arm64 = Target(arch: "arm64", triple: "arm64-apple-ios15.0", platform: "ios", minimumOS: "15.0")
        /// The iOS simulator on Intel Macs.
        public static let x86_64Simulator = Target(
            arch: "x86_64", triple: "x86_64-apple-ios15.0-simulator", platform: "ios-simulator", minimumOS: "15.0")
        /// The iOS simulator on Apple silicon. It cannot share a fat file
        /// with ``arm64``: both slices would be arm64.
        public static let arm64Simulator = Target(
            arch: "arm64", triple: "arm64-apple-ios15.0-simulator", platform: "ios-simulator", minimumOS: "15.0")
        /// A 32-bit iOS device. lld links armv7 code only when it needs no
        /// relocation (leaf functions, no strings, no Objective-C): see
        /// `Tests/Fixtures/MachO/codec32.c`.
        public static let armv7 = Target(arch: "armv7", triple: "armv7-apple-ios10.0", platform: "ios", minimumOS: "10.0")

        public var description: String { triple }
    }

    /// Which linker, and so which kind of dyld information, an image gets.
    public enum Linker: Sendable {
        /// Debian's `ld64.lld` 14 (package `lld-14`): bind and rebase
        /// opcodes in `LC_DYLD_INFO_ONLY`. It reads dylibs built here, so
        /// images can link each other.
        case opcodes
        /// The toolchain's `ld64.lld -fixup_chains`:
        /// `LC_DYLD_CHAINED_FIXUPS` and `LC_DYLD_EXPORTS_TRIE`, relative
        /// method lists, and `objc_msgSend$sel` stubs for calls to them.
        /// Swift's build of lld refuses every input whose `LC_BUILD_VERSION`
        /// names iOS ("This version of lld does not support linking for
        /// platform iOS"), objects and dylibs alike; `.tbd` stubs pass. So
        /// sources are compiled to assembly and assembled without the
        /// `.build_version` directive, and an image linked this way can
        /// link only against `.tbd` stubs. The output still gets
        /// `LC_BUILD_VERSION` from `-platform_version`.
        case chainedFixups

        /// The linker's `ld64.lld`.
        public var executable: URL {
            switch self {
            case .opcodes: llvm14Bin.appendingPathComponent("ld64.lld")
            case .chainedFixups: toolchainBin.appendingPathComponent("ld64.lld")
            }
        }
    }

    /// What the linker makes.
    public enum Product: Sendable {
        /// `MH_DYLIB` with this install name (`LC_ID_DYLIB`).
        case dylib(installName: String)
        /// `MH_EXECUTE` (`-execute`), with `LC_MAIN` at `main` unless the
        /// image's `linkerFlags` name another entry (`-e _NSExtensionMain`).
        case executable
        /// `MH_BUNDLE` (`-bundle`): loadable, not linkable.
        case bundle
    }

    /// The recipe of one Mach-O image: its sources and how they are
    /// compiled and linked.
    public struct Image: Sendable {
        /// C (`.c`), Objective-C (`.m`) or assembly (`.s`) files.
        public var sources: [URL]
        public var product: Product
        public var target: Target
        public var linker: Linker
        /// Compile with `-fapplication-extension` (clang then rejects API
        /// the SDK marks `NS_EXTENSION_UNAVAILABLE_IOS`) and link with
        /// `-application_extension`, as Xcode does for "Require Only
        /// App-Extension-Safe API". Dylibs then get `MH_APP_EXTENSION_SAFE`;
        /// executables never do.
        public var applicationExtensionSafe: Bool
        /// `LC_RPATH` entries, in order.
        public var rpaths: [String]
        /// `-framework` names: the SDK's, or frameworks in
        /// ``frameworkSearchPaths``.
        public var frameworks: [String]
        /// `-l` names, found in the SDK's `usr/lib`.
        public var libraries: [String]
        /// `-F` folders for the linker.
        public var frameworkSearchPaths: [URL]
        /// More link inputs by path: `.tbd` stubs or (for ``Linker/opcodes``)
        /// dylibs.
        public var inputs: [URL]
        /// `-I` folders for the compiler, after the SDK's. The sample's
        /// `Frameworks` folder is always searched, so that
        /// `#import <Uploader/Uploader.h>` works.
        public var includePaths: [URL]
        /// Passed to the linker as they are (`-e _NSExtensionMain`).
        public var linkerFlags: [String]
        /// The SDK version `LC_BUILD_VERSION` records (`-platform_version`'s
        /// last argument).
        public var sdk: String
        /// More compiler flags, after the usual ones (`-fobjc-arc`).
        public var compilerFlags: [String]

        public init(
            sources: [URL], product: Product, target: Target = .arm64, linker: Linker = .opcodes,
            applicationExtensionSafe: Bool = false, rpaths: [String] = [], frameworks: [String] = ["Foundation", "CoreFoundation"],
            libraries: [String] = ["objc", "System"], frameworkSearchPaths: [URL] = [], inputs: [URL] = [],
            includePaths: [URL] = [], linkerFlags: [String] = [], sdk: String = MachOFixtures.sdkVersion,
            compilerFlags: [String] = []
        ) {
            self.sources = sources
            self.product = product
            self.target = target
            self.linker = linker
            self.applicationExtensionSafe = applicationExtensionSafe
            self.rpaths = rpaths
            self.frameworks = frameworks
            self.libraries = libraries
            self.frameworkSearchPaths = frameworkSearchPaths
            self.inputs = inputs
            self.includePaths = includePaths
            self.linkerFlags = linkerFlags
            self.sdk = sdk
            self.compilerFlags = compilerFlags
        }
    }

    // MARK: - Tools

    /// The folder of the toolchain's clang, which also holds its lld,
    /// llvm-objdump, llvm-nm, llvm-ar and plutil.
    static var toolchainBin: URL { URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent() }

    /// Debian's LLVM 14 (packages `lld-14` and `llvm-14`).
    static let llvm14Bin = URL(fileURLWithPath: "/usr/lib/llvm-14/bin")

    // MARK: - Recipes

    /// Compiles one source to an `MH_OBJECT` at `object` for `target`, with
    /// `LC_BUILD_VERSION` as any compiler writes it (the members of a
    /// static archive, or the input of the ``Linker/opcodes`` linker).
    ///
    /// - Throws: ``CommandFailure`` when clang fails.
    @discardableResult
    public static func compileObject(
        _ source: URL, for target: Target, applicationExtensionSafe: Bool = false, includePaths: [URL] = [], flags: [String] = [],
        to object: URL
    ) throws -> URL {
        try FileManager.default.createDirectory(at: object.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(
            Fixtures.clang,
            compilerArguments(target, applicationExtensionSafe, includePaths) + flags + [
                "-c", "-o", object.path, source.path,
            ])
        return object
    }

    /// Compiles `image`'s sources into a temporary folder and links them at
    /// `output` (its folder is created); returns `output`.
    ///
    /// - Throws: ``CommandFailure`` when a compiler or the linker fails.
    @discardableResult
    public static func link(_ image: Image, to output: URL) throws -> URL {
        let objects = try TemporaryDirectory()
        var inputs: [String] = []
        for (index, source) in image.sources.enumerated() {
            let object = objects.path("\(index)-\(source.lastPathComponent).o")
            switch image.linker {
            case .opcodes:
                try compileObject(
                    source, for: image.target, applicationExtensionSafe: image.applicationExtensionSafe,
                    includePaths: image.includePaths, flags: image.compilerFlags, to: object)
            case .chainedFixups:
                try assembleWithoutBuildVersion(source, image, to: object)
            }
            inputs.append(object.path)
        }

        var arguments = [
            "-arch", image.target.arch, "-platform_version", image.target.platform, image.target.minimumOS, image.sdk,
            "-syslibroot", sdk.path,
        ]
        switch image.product {
        case .dylib(let installName): arguments += ["-dylib", "-install_name", installName]
        case .executable: arguments += ["-execute"]
        case .bundle: arguments += ["-bundle"]
        }
        if image.applicationExtensionSafe { arguments.append("-application_extension") }
        arguments += image.rpaths.flatMap { ["-rpath", $0] }
        arguments += image.frameworkSearchPaths.flatMap { ["-F", $0.path] }
        arguments += image.libraries.map { "-l\($0)" }
        arguments += image.frameworks.flatMap { ["-framework", $0] }
        arguments += image.linkerFlags
        arguments += ["-o", output.path] + inputs + image.inputs.map(\.path)

        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(image.linker.executable.path, (image.linker == .chainedFixups ? ["-fixup_chains"] : []) + arguments)
        return output
    }

    /// A fat file of `slices` (thin images or static archives of distinct
    /// architectures) at `output`, made by `llvm-lipo -create`, which
    /// orders the slices itself (arm64 last).
    ///
    /// - Throws: ``CommandFailure`` when llvm-lipo fails (two slices of one
    ///   architecture, for instance).
    @discardableResult
    public static func fat(_ slices: [URL], to output: URL) throws -> URL {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(llvm14Bin.appendingPathComponent("llvm-lipo").path, ["-create"] + slices.map(\.path) + ["-output", output.path])
        return output
    }

    /// The `architecture` slice (`arm64`) of the fat file `fat`, as a thin
    /// file at `output`, made by `llvm-lipo -thin`: a corpus framework as
    /// a device app embeds it.
    ///
    /// - Throws: ``CommandFailure`` when llvm-lipo fails (no such slice).
    @discardableResult
    public static func thin(_ fat: URL, architecture: String, to output: URL) throws -> URL {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(llvm14Bin.appendingPathComponent("llvm-lipo").path, ["-thin", architecture, fat.path, "-output", output.path])
        return output
    }

    /// Removes the local symbols of the linked image at `image`, in place,
    /// as a release build strips a framework (`strip -x`, here Debian's
    /// `llvm-strip -x`): its static functions and Objective-C methods keep
    /// only their `LC_FUNCTION_STARTS` entries and method lists. Returns
    /// `image`.
    ///
    /// - Throws: ``CommandFailure`` when llvm-strip fails.
    @discardableResult
    public static func stripLocalSymbols(_ image: URL) throws -> URL {
        try Command.run(llvm14Bin.appendingPathComponent("llvm-strip").path, ["-x", image.path])
        return image
    }

    /// A static archive (`!<arch>`, with a `__.SYMDEF` symbol table) of
    /// `objects` at `output`, made by the toolchain's `llvm-ar` in Darwin
    /// format. Its members' `ar_date` is 0 (`llvm-ar`'s deterministic
    /// mode), or with `keepingDates` each object's modification time
    /// (`llvm-ar U`), as Apple's `libtool` writes it and a debug map's
    /// `N_OSO` then records it.
    ///
    /// - Throws: ``CommandFailure`` when llvm-ar fails.
    @discardableResult
    public static func staticArchive(_ objects: [URL], to output: URL, keepingDates: Bool = false) throws -> URL {
        try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(
            toolchainBin.appendingPathComponent("llvm-ar").path,
            [keepingDates ? "rcsU" : "rcs", "--format=darwin", output.path] + objects.map(\.path))
        return output
    }

    /// clang's arguments for `target`: the stand-in SDK, the sample's
    /// framework headers, warnings as errors.
    private static func compilerArguments(_ target: Target, _ applicationExtensionSafe: Bool, _ includePaths: [URL]) -> [String] {
        ["-target", target.triple, "-isysroot", sdk.path, "-I", photosAppDirectory.appendingPathComponent("Frameworks").path]
            + includePaths.flatMap { ["-I", $0.path] }
            + ["-Os", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror"]
            + (applicationExtensionSafe ? ["-fapplication-extension"] : [])
    }

    /// For ``Linker/chainedFixups``: compiles `source` to assembly (unless
    /// it is assembly), drops `.build_version`, and assembles it for
    /// `<arch>-apple-darwin`, so the object has no `LC_BUILD_VERSION`.
    private static func assembleWithoutBuildVersion(_ source: URL, _ image: Image, to object: URL) throws {
        let assembly = object.appendingPathExtension("s")
        if source.pathExtension == "s" {
            try FileManager.default.copyItem(at: source, to: assembly)
        } else {
            try Command.run(
                Fixtures.clang,
                compilerArguments(image.target, image.applicationExtensionSafe, image.includePaths)
                    + image.compilerFlags + [
                        "-S", "-o", assembly.path, source.path,
                    ])
        }
        let text = try String(contentsOf: assembly, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix(".build_version ") }
        try kept.joined(separator: "\n").write(to: assembly, atomically: true, encoding: .utf8)
        try Command.run(
            Fixtures.clang,
            [
                "-cc1as", "-triple", "\(image.target.arch)-apple-darwin", "-filetype", "obj", "-o", object.path, assembly.path,
            ])
    }
}
