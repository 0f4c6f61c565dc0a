/// The rule ids declared so far, across rule-pack files read in order: an
/// id must be unique across the packs of a run and must not be one of
/// linkcheck's built-in checks.
public struct RuleIDRegistry: Sendable {
    /// One rule id a file declares, and where: `$.rules[3].id`.
    public struct Declaration: Sendable, Equatable {
        public var id: RuleID
        public var jsonPath: String

        public init(id: RuleID, jsonPath: String) {
            self.id = id
            self.jsonPath = jsonPath
        }
    }

    /// Who declared each id first: a file's path, or the owner given for
    /// a reserved id.
    private var owners: [RuleID: String]

    /// - Parameter reserved: ids taken before any file, with who takes
    ///   them (`ARCH001` → `linkcheck's built-in checks`).
    public init(reserved: [RuleID: String] = [:]) {
        owners = reserved
    }

    /// Records `declaration` of the file at `file`.
    ///
    /// - Returns: a ``RulePackProblem/Kind/duplicateID(_:firstSeen:)``
    ///   problem at the declaration when an earlier file, or a reserved
    ///   owner, declared the id (the id stays theirs); `nil` otherwise.
    public mutating func register(_ declaration: Declaration, file: String) -> RulePackProblem? {
        if let first = owners[declaration.id] {
            return RulePackProblem(file: file, jsonPath: declaration.jsonPath, kind: .duplicateID(declaration.id, firstSeen: first))
        }
        owners[declaration.id] = file
        return nil
    }
}
