/// Why an image is unsafe, in one sentence: what its error findings that
/// share a route, a verb and a calling function do ("SyncKit.framework
/// links Uploader.framework, which calls +[UIApplication
/// sharedApplication] from present_login"). The answer
/// (``ReportAnswer``) gives an image's causes; the HTML report and the text
/// output word them with ``sentence(detailWords:words:image:object:function:)``.
public struct Cause: Sendable, Equatable {
    /// What a cause acts on, and the problem it belongs to.
    public struct Object: Sendable, Equatable {
        /// The API, string or library (``FindingAction/object``).
        public var text: String
        /// The problems (image, rule) the finding belongs to, the most
        /// telling first: for a transitive finding, its origin's, then its
        /// own (a report links the first it shows).
        public var problems: [ProblemReach.Key]
    }

    /// The images from the one the image links down to the one that acts
    /// (chain names, ``ImageReport/shortName``); empty when the image acts
    /// itself.
    public var route: [String]
    /// How each image of ``route`` is reached from the one before: `links`,
    /// or `loads` for a hop made by `dlopen` alone (the first's is not
    /// said).
    public var hops: [String]
    /// ``FindingAction/verb``.
    public var verb: String
    /// ``FindingAction/detail``: what the cause says in place of ``verb``,
    /// worded by the reports.
    public var detail: FindingDetail?
    /// What the findings act on, each once, in order.
    public var objects: [Object]
    /// ``FindingAction/from``.
    public var from: String?
    /// What follows, for a cause that stops the extension at launch:
    /// `which dyld would not find: the extension would not launch`.
    public var consequence: String?

    public init(
        route: [String], hops: [String], verb: String, objects: [Object], from: String?, consequence: String? = nil,
        detail: FindingDetail? = nil
    ) {
        (self.route, self.hops, self.verb, self.objects, self.from, self.consequence) = (route, hops, verb, objects, from, consequence)
        self.detail = detail
    }

    /// The cause in words. `detailWords` words a typed ``detail``
    /// (`FindingDetail.words` in LinkCheckReports); `words` renders the
    /// sentence's own words, `image` an image's name, `object` an object,
    /// `function` the calling function; by default each is the plain text.
    public func sentence(
        detailWords: (FindingDetail) -> String, words: (String) -> String = { $0 }, image: (String) -> String = { $0 },
        object: (Object) -> String = { $0.text }, function: (String) -> String = { $0 }
    ) -> String {
        let objects = self.objects.map(object)
        var action = words(detail.map(detailWords) ?? verb)
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
