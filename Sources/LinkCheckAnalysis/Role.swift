import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules
import SystemInterface

/// What an image is in the app being checked (see `reference/app-extensions.md`).
public enum Role: String, Sendable, Codable {
    /// An app extension: must use only extension-safe API, itself and
    /// through everything it links.
    case `extension`
    /// An embedded framework: safe or not depending on who links it.
    case framework
    /// The containing app: may use any API.
    case app
}

/// What the user configured (options and `linkcheck.json`): the roles and
/// extension types assigned by name, the architectures every module must be
/// built for, suppressions, the baseline. What discovery found (the
/// bundles around the files, which give roles too) travels with the
/// discovered files, not here.
public struct Policy: Sendable, Equatable {
    /// Extension names (file name, SONAME or module name) → extension type
    /// (`share`, `imessage`, …) or `nil` when not given.
    public var extensions: [String: ExtensionType?]
    /// Names of the containing app's image(s).
    public var apps: [String]
    /// Architecture families every module must be present for
    /// (``Architecture/family(of:)``: `arm64` and `aarch64` are one).
    public var requiredArchitectures: [String]
    /// Names of images that are embedded frameworks even if they look like
    /// executables.
    public var frameworks: [String]
    /// Accepted findings (from `linkcheck.json`), and the file they are in.
    public var suppressions: [Suppression]
    public var suppressionsFile: String
    /// Findings accepted by a baseline (`--baseline FILE`): set aside before
    /// verdicts, and counted.
    public var baseline: Baseline?
    /// The severity of a use by name of an API unavailable in extensions
    /// where the image has to be extension-safe (``ByNameUse``): a warning,
    /// or an error when the project asks (`linkcheck.json`'s `byNameUses`,
    /// `--by-name-as-error`).
    public var byNameUses: Severity = .warning

    public init(
        extensions: [String: ExtensionType?] = [:], apps: [String] = [], requiredArchitectures: [String] = [],
        frameworks: [String] = [], suppressions: [Suppression] = [], suppressionsFile: String = Configuration.fileName,
        baseline: Baseline? = nil
    ) {
        self.baseline = baseline
        self.extensions = extensions
        self.apps = apps
        self.requiredArchitectures = requiredArchitectures.map(Architecture.family(of:))
        self.frameworks = frameworks
        self.suppressions = suppressions
        self.suppressionsFile = suppressionsFile
    }

    /// Whether any role was assigned, by name or by one of `bundles` (an
    /// app or an extension).
    public func assignsRoles(with bundles: BundleLayout) -> Bool {
        !extensions.isEmpty || !apps.isEmpty || !frameworks.isEmpty || bundles.assignsRoles
    }

    /// The names by which `image` can be named: its file name, its link
    /// name (SONAME or install name) and short name (`SyncKit.framework`),
    /// and its module name (the file name without a `lib` prefix and a
    /// `.so…` or `.dylib` suffix: `libPhotoEditorExtension.so` →
    /// `PhotoEditorExtension`; a framework's binary is its module).
    /// For a binary inside a bundle, the bundle's folder name and its stem
    /// too (`PhotosShare.appex`, `PhotosShare`).
    public static func names(of image: BinaryImage) -> Set<String> {
        let (fileName, shortName) = (image.fileName, image.shortName)
        var names: Set<String> = [fileName, moduleName(of: fileName), shortName, moduleName(of: shortName)]
        if let bundle = innermostBundleFolder(of: image.path) {
            names.insert(String(bundle))
            names.insert(String(bundle[..<(bundle.lastIndex(of: ".") ?? bundle.endIndex)]))
        }
        if let declared = image.declaredName {
            names.insert(declared)
            names.insert(moduleName(of: declared))
        }
        return names
    }

    /// The innermost folder of `path` named like a bundle (`.app`, `.appex`,
    /// `.framework`, `.bundle`, `.xpc`), or `nil`. A path whose folders have
    /// no `.` in their names (most library paths) is not split.
    private static func innermostBundleFolder(of path: String) -> Substring? {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
            path.utf8[..<slash].contains(UInt8(ascii: "."))
        else { return nil }
        let bundleSuffixes = [".app", ".appex", ".framework", ".bundle", ".xpc"]
        return path.split(separator: "/").dropLast().last { folder in bundleSuffixes.contains { folder.hasSuffix($0) } }
    }

    /// `libFoo.so.1` → `Foo`, `libFoo.dylib` → `Foo`, `Foo.framework` →
    /// `Foo`; names without the decoration are unchanged. The decoration is
    /// matched on the UTF-8 bytes, as the loader reads file names: the
    /// first `.so` (when the name ends there or a `.` follows), then
    /// `.dylib` and `.framework` at the end, then `lib` at the start of a
    /// longer name. (A combining mark after `lib` or `.so` does not hide
    /// them, as it would in a comparison of characters.)
    public static func moduleName(of fileName: String) -> String {
        var name = fileName
        return name.withUTF8 { bytes in
            func matches(_ text: StaticString, at offset: Int) -> Bool {
                offset >= 0 && offset + text.utf8CodeUnitCount <= bytes.count
                    && memcmp(bytes.baseAddress! + offset, text.utf8Start, text.utf8CodeUnitCount) == 0
            }
            var (start, end) = (0, bytes.count)
            if let so = (0..<max(bytes.count - 2, 0)).first(where: { matches(".so", at: $0) }),
                so + 3 == bytes.count || bytes[so + 3] == UInt8(ascii: ".")
            {
                end = so
            }
            for suffix: StaticString in [".dylib", ".framework"] where matches(suffix, at: end - suffix.utf8CodeUnitCount) {
                end -= suffix.utf8CodeUnitCount
            }
            if end > 3 && matches("lib", at: 0) { start = 3 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// The role and extension type of `image`: named extension (of the type
    /// named, else of the type its bundle gives), named app, named
    /// framework; then the role its bundle among `bundles` gives (an
    /// `.appex`'s executable is an extension of the type its extension point
    /// names, an `.app`'s the containing app, a framework's binary a
    /// framework); then an ELF executable (`ET_EXEC`, or `ET_DYN` with
    /// `DF_1_PIE`) is an app, and everything else a framework. A Mach-O
    /// executable outside a bundle is an app only when named: an app
    /// extension's main binary is `MH_EXECUTE` too, so an unnamed one must
    /// be extension-safe.
    ///
    /// - Parameter names: `image`'s ``names(of:)``.
    public func role(of image: BinaryImage, names: Set<String>, bundles: BundleLayout) -> AssignedRole {
        let given = Self.roleGivenByBundle(of: image, bundles: bundles)
        if let named = roleAssignedByName(names)?.role {
            // `--extension PhotosShare` without a type keeps the type the bundle's extension point gives.
            if named.role == .extension, named.extensionType == nil, let given, given.role == .extension { return given }
            return named
        }
        if let given { return given }
        switch image.format {
        case .elf where image.fileType == .executable: return AssignedRole(role: .app, extensionType: nil)
        case .elf, .macho: return AssignedRole(role: .framework, extensionType: nil)
        }
    }

    /// The role assigned to an image by one of its `names` (``names(of:)``),
    /// and that name: an extension name first, then an app name, then a
    /// framework name; `nil` when no name assigns one.
    public func roleAssignedByName(_ names: Set<String>) -> (name: String, role: AssignedRole)? {
        if let match = extensions.keys.sorted().first(where: names.contains) {
            return (match, AssignedRole(role: .extension, extensionType: extensions[match] ?? nil))
        }
        if let match = apps.first(where: names.contains) { return (match, AssignedRole(role: .app, extensionType: nil)) }
        if let match = frameworks.first(where: names.contains) { return (match, AssignedRole(role: .framework, extensionType: nil)) }
        return nil
    }

    /// The role the bundle around `image` (among `bundles`) gives it,
    /// whatever names were assigned; `nil` for a file no bundle gives a role.
    public static func roleGivenByBundle(of image: BinaryImage, bundles: BundleLayout) -> AssignedRole? {
        switch bundles.placement(ofFile: image.path)?.role {
        case .app: AssignedRole(role: .app, extensionType: nil)
        case .appExtension(let type): AssignedRole(role: .extension, extensionType: type)
        case .framework: AssignedRole(role: .framework, extensionType: nil)
        case nil: nil
        }
    }
}

/// An image's role, and its extension type when it is an extension that was
/// given one.
public struct AssignedRole: Sendable, Equatable {
    public var role: Role
    public var extensionType: ExtensionType?

    public init(role: Role, extensionType: ExtensionType?) {
        self.role = role
        self.extensionType = extensionType
    }

    /// The role in words: "the containing app", "an app extension (share)",
    /// "an app extension" (no type given), "an embedded framework".
    public var description: String {
        switch role {
        case .app: "the containing app"
        case .extension: extensionType.map { "an app extension (\($0))" } ?? "an app extension"
        case .framework: "an embedded framework"
        }
    }
}
