/// What kind of linkable file an image is.
public enum ImageFileType: String, Sendable, Hashable, Codable {
    /// A library other images link: ELF `ET_DYN` (not a PIE), `MH_DYLIB`.
    case sharedLibrary = "shared-library"
    /// A program: ELF `ET_EXEC` or a PIE, `MH_EXECUTE` (an app's or an app
    /// extension's main binary).
    case executable
    /// Code loaded at run time: `MH_BUNDLE`.
    case bundle
    /// An object file: ELF `ET_REL`, `MH_OBJECT` (a static archive's
    /// members).
    case relocatableObject = "relocatable-object"
    /// A core dump (ELF `ET_CORE`, `MH_CORE`): not a linkable image.
    case core
    /// Anything else (`ET_NONE`, `MH_DSYM`, a processor-specific type).
    case other
}
