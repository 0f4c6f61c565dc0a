import LinkCheckAnalysis

extension Cause {
    /// The cause in words. `words` renders the sentence's own words,
    /// `image` an image's name, `object` an object, `function` the calling
    /// function; by default each is the plain text.
    public func sentence(
        words: (String) -> String = { $0 }, image: (String) -> String = { $0 },
        object: (Object) -> String = { $0.text }, function: (String) -> String = { $0 }
    ) -> String {
        let objects = self.objects.map(object)
        var action = words(verb.words)
        if !objects.isEmpty { action += " " + FindingAction.list(objects) }
        if let from { action += words(" from ") + function(from) }
        if let consequence { action += words(", " + consequence) }
        guard !route.isEmpty else { return objects.isEmpty ? action : words("it ") + action }
        let names = route.map(image)
        guard !objects.isEmpty else {
            // A built-in check's own words: "A links B: …".
            return names.indices.dropFirst().reduce(names[0]) { $0 + words(" \(hops[$1]) ") + names[$1] } + words(": ") + action
        }
        var sentence = names[0]
        for position in names.indices.dropFirst() { sentence += words(" \(hops[position]) ") + names[position] + words(", which") }
        return sentence + words(" ") + action
    }
}

extension FindingAction.Verb {
    /// The verb (`calls`), or a finding's own words: its detail's
    /// (``FindingDetail/words``).
    var words: String {
        switch self {
        case .word(let word): word
        case .detail(let detail): detail.words
        }
    }
}
