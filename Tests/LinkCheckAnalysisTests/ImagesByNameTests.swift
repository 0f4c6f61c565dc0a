import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// The answer's and the renderers' look-up of a report's images by name.
@Suite struct ImagesByNameTests {
    static func image(_ path: String, slice: String? = nil, verdict: Verdict) -> ImageReport {
        var binary = TestImages.elf(path)
        binary.identity.slice = slice
        return ImageReport(
            image: binary, role: AssignedRole(role: .framework, extensionType: nil), verdict: verdict, links: [], provides: [],
            external: false)
    }

    @Test func findsEachImageByItsNameWithTheSliceAndNothingElse() {
        let images = ImagesByName([
            Self.image("Kit", slice: "arm64", verdict: .unsafe), Self.image("Kit", slice: "x86_64", verdict: .extensionSafe),
            Self.image("lib/libA.so", verdict: .appOnly),
        ])
        #expect(images["Kit[arm64]"]?.verdict == .unsafe)
        #expect(images["Kit[x86_64]"]?.verdict == .extensionSafe)
        #expect(images["lib/libA.so"]?.verdict == .appOnly)
        #expect(images["Kit"] == nil, "the file of two slices is no image")
        #expect(images["libA.so"] == nil, "an image is named by its path")
    }

    /// Two images of one name: the first is the one found, as the tables
    /// it replaced kept it.
    @Test func ofTwoImagesOfOneNameFindsTheFirst() {
        let images = ImagesByName([Self.image("lib/libA.so", verdict: .unsafe), Self.image("lib/libA.so", verdict: .appOnly)])
        #expect(images["lib/libA.so"]?.verdict == .unsafe)
        #expect(images.images.map(\.verdict) == [.unsafe, .appOnly])
    }
}
