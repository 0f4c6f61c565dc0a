/// The warnings of one slice or image: problems that did not stop the read,
/// each naming the structure at fault and its file offset.
///
/// At most ``limit`` are kept, so that a hostile file cannot grow the list
/// without bound; one last message says how many more there were.
struct Warnings {
    private(set) var messages: [String] = []
    private var dropped = 0

    /// The most warnings kept for one slice or image.
    static let limit = 64

    /// Adds "`structure` at file offset `fileOffset`: `problem`".
    mutating func add(_ structure: String, at fileOffset: Int, _ problem: String) {
        add("\(structure) at file offset \(hex(fileOffset)): \(problem)")
    }

    /// Adds a message as it is.
    mutating func add(_ message: String) {
        if messages.count < Self.limit { messages.append(message) } else { dropped += 1 }
    }

    /// Adds a structure that did not fit, and what was skipped because of it.
    mutating func add(_ failure: ReadFailure, skipping what: String) {
        add("\(failure.description); \(what) skipped")
    }

    /// The messages, with a last one counting those dropped over the limit.
    var all: [String] {
        dropped == 0 ? messages : messages + ["\(dropped) more warnings like these"]
    }
}
