import Foundation
import LinkCheckImage
import LinkCheckLiterals

/// The inspect stage: every file discovery found, read in parallel by the
/// reader its magic picks (``ImageInspector``), sorted into images, files
/// that could not be inspected, and files passed over.
public enum Inspection {
    /// What each reader looks for: made once for a run, and read by every
    /// file's reader.
    public struct Options: Sendable {
        /// The literals to look for in an ELF image's read-only data.
        public let elfStrings: LiteralPatterns
        /// Those and the Objective-C class and selector names, to look for
        /// in a Mach-O image's (Objective-C is Mach-O's).
        public let machOStrings: LiteralPatterns
        /// Which symbols to keep.
        public let symbols: SymbolSelection

        /// `strings` are the literals to look for in read-only data,
        /// `objcNames` more of them to look for in a Mach-O image only.
        public init(strings: [String] = [], objcNames: [String] = [], symbols: SymbolSelection = .all) {
            elfStrings = LiteralPatterns(strings)
            machOStrings = objcNames.isEmpty ? elfStrings : LiteralPatterns(Array(Set(strings + objcNames)).sorted())
            self.symbols = symbols
        }
    }

    /// The images of the files inspected, in file order (a fat file's
    /// slices and an archive's members in file order); the files that could
    /// not be inspected (with discovery's errors); and what was passed over:
    /// discovery's entries, files that are neither ELF nor Mach-O, core
    /// dumps.
    public struct Outcome: Sendable {
        public var images: [BinaryImage] = []
        public var errors: [InspectionError] = []
        public var skipped: [SkippedEntry] = []
    }

    /// Inspects the files `discovery` found, `jobs` at a time. A file
    /// unpacked from an archive is named by its entry
    /// (``Discovery/displayPath(of:)``) in images, errors and what was
    /// passed over. Core dumps and Mach-O debug symbols (`MH_DSYM`, the
    /// binaries of `.dSYM` bundles) are passed over: they are not code that
    /// runs.
    public static func inspect(_ discovery: Discovery, options: Options = Options(), jobs: Int) -> Outcome {
        var outcome = Outcome(errors: discovery.errors, skipped: discovery.skipped)
        for result in inspect(discovery.files, options: options, jobs: jobs) {
            switch result {
            case .success(let images):
                for image in images.map(discovery.named) {
                    if image.fileType == .core {
                        outcome.skipped.append(SkippedEntry(path: image.name, reason: "a core dump, not a linkable image"))
                    } else if case .macho(let facts) = image.facts, facts.fileType == "MH_DSYM" {
                        outcome.skipped.append(SkippedEntry(path: image.name, reason: "debug symbols (MH_DSYM), not code that runs"))
                    } else {
                        outcome.images.append(image)
                    }
                }
            case .failure(.notAnImage(let path)):
                // A file named on the command line was asked for: it cannot be passed over.
                let placement = discovery.bundles.placement(ofFile: path)
                let expected =
                    discovery.paths.contains(path) ? true : placement.map { Self.bundleExpectsAnImage(file: path, placement: $0) }
                switch expected {
                case true?: outcome.errors.append(discovery.named(.notAnImage(path: path)))
                case false?: break
                case nil: outcome.skipped.append(SkippedEntry(path: discovery.displayPath(of: path), reason: "not an ELF or Mach-O file"))
                }
            case .failure(let error):
                outcome.errors.append(discovery.named(error))
            }
        }
        return outcome
    }

    /// Whether the bundle around a file makes it code: the bundle's
    /// executable (`CFBundleExecutable`), a library in its `Frameworks`
    /// folder (`.dylib`, or a name without an extension), or the library an
    /// xcframework's `Info.plist` lists (`LibraryIdentifier/LibraryPath`,
    /// when that is a file: `ios-arm64/libKit.a`). Such a file that is
    /// neither ELF nor Mach-O is an error; any other file in a bundle is a
    /// resource (`Info.plist`, `_CodeSignature`, nibs, images, a stray
    /// `notes.txt`), neither read nor counted as passed over.
    static func bundleExpectsAnImage(file path: String, placement: BundlePlacement) -> Bool {
        if placement.isExecutable { return true }
        if (path as NSString).deletingLastPathComponent == placement.innermost.frameworksFolder {
            let suffix = (path as NSString).pathExtension
            return suffix.isEmpty || suffix == "dylib"
        }
        guard placement.innermost.kind == .xcframework, let library = placement.library, let libraryPath = library.libraryPath else {
            return false
        }
        return path == placement.innermost.path + "/" + library.identifier + "/" + libraryPath
    }

    /// What resolution reads a library it finds outside the scanned images
    /// with (``ImageFileReader``): the readers of the inspect stage, for
    /// what the run's `options` ask, each image named by the archive entry
    /// its file was unpacked from (``BundleLayout/entry(forFile:)``).
    public struct Reader: ImageFileReader {
        public let options: Options
        /// The bundles discovery found (``Discovery/bundles``), which name
        /// the files unpacked from archives.
        public let bundles: BundleLayout

        public init(options: Options = Options(), bundles: BundleLayout = BundleLayout()) {
            self.options = options
            self.bundles = bundles
        }

        public func images(inFile path: String) -> Result<[BinaryImage], InspectionError> {
            Result { () throws(InspectionError) in try ImageInspector.inspect(path: path, options: options).map(bundles.named) }
        }
    }

    /// Inspects `files`, `jobs` at a time, the largest first; results in the
    /// order of `files`.
    public static func inspect(_ files: [String], options: Options = Options(), jobs: Int) -> [Result<[BinaryImage], InspectionError>] {
        parallelMapLargestFirst(files, path: { $0 }, jobs: jobs) { path in
            Result { () throws(InspectionError) in try ImageInspector.inspect(path: path, options: options) }
        }
    }
}

/// Reads the images in one file: what resolution asks for each library it
/// finds outside the scanned images (``Inspection/Reader`` reads them as
/// the inspect stage does).
public protocol ImageFileReader: Sendable {
    /// The images in the file at `path` (one per slice of a fat file, one
    /// per member of a static archive), or why it cannot be read.
    func images(inFile path: String) -> Result<[BinaryImage], InspectionError>
}
