import LinkCheckImage

extension ReadWarnings {
    /// Adds a structure that did not fit, and what was skipped because of it.
    mutating func add(_ failure: ReadFailure, skipping what: String) {
        add("\(failure.description); \(what) skipped")
    }
}
