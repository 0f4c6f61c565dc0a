/// A rule pack: one JSON file of rules (format 1, see `Rules/README.md` and
/// `Documentation/rule-pack.schema.json`).
public struct RulePack: Sendable, Equatable {
    /// The file the pack was read from.
    public var path: String
    /// `format`: always 1 for now.
    public var format: Int
    /// `name`, e.g. `app-extension-unavailable`.
    public var name: String
    /// `version`, e.g. `2026.11.0`.
    public var version: String
    public var description: String?
    public var rules: [Rule]

    public init(path: String, format: Int = 1, name: String, version: String, description: String? = nil, rules: [Rule]) {
        self.path = path
        self.format = format
        self.name = name
        self.version = version
        self.description = description
        self.rules = rules
    }
}
