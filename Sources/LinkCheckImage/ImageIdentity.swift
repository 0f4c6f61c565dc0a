/// Which image: a file, an architecture slice of it, a member of a static
/// archive. Two slices of one fat file are two images that never merge.
public struct ImageIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path, as given or as discovered.
    public var path: String
    /// The architecture of a slice of a fat (universal) Mach-O file
    /// (`arm64`, `x86_64`); `nil` for a thin file.
    public var slice: String?
    /// The member of a static archive (`RxAtomic-dummy.o`); `nil` otherwise.
    public var member: String?

    public init(path: String, slice: String? = nil, member: String? = nil) {
        self.path = path
        self.slice = slice
        self.member = member
    }

    /// `path`, `path[arm64]`, `path(member.o)` or `path[arm64](member.o)`:
    /// how reports name the image (the `(member)` form is `ar`'s and
    /// `llvm-nm`'s).
    public var description: String {
        path + (slice.map { "[\($0)]" } ?? "") + (member.map { "(\($0))" } ?? "")
    }

    public static func < (lhs: ImageIdentity, rhs: ImageIdentity) -> Bool {
        (lhs.path, lhs.slice ?? "", lhs.member ?? "") < (rhs.path, rhs.slice ?? "", rhs.member ?? "")
    }
}
