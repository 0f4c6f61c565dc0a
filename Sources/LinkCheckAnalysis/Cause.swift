/// Why an image is unsafe, in one sentence: what its error findings that
/// share a route, a verb and a calling function do ("SyncKit.framework
/// links Uploader.framework, which calls +[UIApplication
/// sharedApplication] from present_login"). The answer
/// (``ReportAnswer``) gives an image's causes; the HTML report and the text
/// output word them (`sentence(words:image:object:function:)` in
/// LinkCheckReports).
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
    public var verb: FindingAction.Verb
    /// What the findings act on, each once, in order.
    public var objects: [Object]
    /// ``FindingAction/from``.
    public var from: String?
    /// What follows, for a cause that stops the extension at launch:
    /// `which dyld would not find: the extension would not launch`.
    public var consequence: String?

    public init(route: [String], hops: [String], verb: FindingAction.Verb, objects: [Object], from: String?, consequence: String? = nil) {
        (self.route, self.hops, self.verb, self.objects, self.from, self.consequence) = (route, hops, verb, objects, from, consequence)
    }
}
