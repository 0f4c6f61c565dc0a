import CByteScan
import LinkCheckCodeIndex
import LinkCheckImage
import Testing

/// The byte scans at each block width they have (32, 16 and 1 byte at a
/// time, `linkcheck_limit_block_width`), which must all give the same
/// answers.
enum BlockWidths {
    /// Expects the targeted search of `image` to give the same answers
    /// (at least `count` of them) at every block width the byte scans
    /// have: the calls to every import and to one function in 8, and the
    /// path to each caller.
    static func expectTheSameAnswers(of image: BinaryImage, atLeast count: Int) throws {
        let interest = CallSiteInterest(imports: { _ in true }, functions: { $0.reduce(0) { $0 &+ Int($1) } % 8 == 0 })
        func answers() throws -> [String] {
            let index = try #require(try CodeIndex.analyze(image, interest: interest, mode: .targeted))
            let sites = index.callsToImport.values.flatMap { $0 } + index.callsToFunction.values.flatMap { $0 }
            let paths = Set(sites.compactMap(\.caller)).map { index.pathFromExported(to: $0).map { index.functions[$0].name } }
            return sites.map { "\($0.address) \($0.caller.map { index.functions[$0].name } ?? "-")" }.sorted()
                + paths.map { "\($0)" }.sorted()
        }
        let widest = Int(linkcheck_block_width())
        defer { linkcheck_limit_block_width(0) }
        let expected = try answers()
        #expect(expected.count > count)
        for width in [16, 1] where width < widest {
            linkcheck_limit_block_width(Int32(width))
            #expect(try answers() == expected, "width \(width)")
        }
    }
}
