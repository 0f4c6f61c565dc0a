import LinkCheckImage
import LinkCheckInspection

/// How one format's loader finds what an image links and loads: `ld.so(8)`
/// for ELF (``LdSoSearch``), dyld for Mach-O (``DyldSearch``).
/// ``LinkResolver`` asks the search of the image's format
/// (``LinkCheckImage/BinaryFormat/loaderSearch``) and keeps what both
/// share: the images so far, by name and by file, and reading a library
/// found outside them.
protocol LoaderSearch {
    /// The names by which a scanned `image` is found among the scanned
    /// images.
    static func scannedNames(of image: BinaryImage) -> [String]

    /// Looks `name` (a dependency or a loaded library's name) up for the
    /// image at `index` as the loader would, in `session`, which reads and
    /// adds a library found outside the images so far.
    static func locate(_ name: String, for index: Int, in session: inout LinkResolver.Session) -> LinkResolver.Session.Lookup

    /// The file ``locate(_:for:in:)`` would most likely read first for
    /// `name`, so that a wave of lookups can read ahead in parallel; `nil`
    /// when it would take a scanned image or the search cannot tell ahead.
    static func likelyFile(
        of name: String, for index: Int, in session: inout LinkResolver.Session
    ) -> (path: String, identity: FileIdentity)?

    /// What the image at `index` hands down to the images it links
    /// (`targets`) once it is resolved; the images that learnt something
    /// and are to be resolved again.
    static func handDown(from index: Int, to targets: [Int], in session: inout LinkResolver.Session) -> [Int]
}

extension BinaryFormat {
    /// How the loader of images of this format finds their libraries.
    var loaderSearch: any LoaderSearch.Type {
        switch self {
        case .elf: LdSoSearch.self
        case .macho: DyldSearch.self
        }
    }
}
