/// An app extension's type as linkcheck names it: the
/// `NSExtensionPointIdentifier` kinds, shortened (``ExtensionPoints``
/// maps Apple's identifiers to them). Rules name the types an API is
/// allowed in (`allowedIn`), rule examples the type they are checked in
/// (`extension`), users an extension's type (`--extension NAME=TYPE`, a
/// configuration's `extensions`), and reports an extension's
/// (`extensionType`), each by its raw value.
public enum ExtensionType: String, CaseIterable, Comparable, Sendable, Codable, CustomStringConvertible {
    case share
    case action
    case widget
    case today
    case imessage
    case keyboard
    case callDirectory = "call-directory"
    case notificationContent = "notification-content"
    case notificationService = "notification-service"
    case photoEditing = "photo-editing"
    case fileProvider = "file-provider"
    case intents
    case safari
    case broadcast
    case credentialProvider = "credential-provider"
    case messageFilter = "message-filter"
    case network
    case spotlight
    case quicklook

    /// The raw value (`call-directory`), as every output writes it.
    public var description: String { rawValue }

    public static func < (lhs: ExtensionType, rhs: ExtensionType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// What to say of `name` that names no type: `unknown extension type
    /// 'shar' (known: action, broadcast, …)`, the known ones in order.
    public static func unknown(_ name: String) -> String {
        "unknown extension type '\(name)' (known: \(allCases.sorted().map(\.rawValue).joined(separator: ", ")))"
    }
}
