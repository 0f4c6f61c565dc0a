import Foundation
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// A file of 16 MB or more is read through a mapping, whose pages are read
/// as the reader touches them: it gives the images the same bytes read
/// whole give, and a file truncated or grown while it is read is reported
/// as changed, never a crash.
@Suite struct MappedReadTests {
    /// A fat corpus file (SVProgressHUD's: i386, x86_64, armv7 and arm64)
    /// as it is, read whole, and zero-padded to 17 MB, mapped.
    private static func smallAndLarge(in directory: TemporaryDirectory) throws -> (small: String, large: String) {
        let corpusFile = try #require(
            MachOCorpus.truthFiles.first { ($0["path"] as? String ?? "").hasSuffix("SVProgressHUD.framework/SVProgressHUD") })
        var contents = try Data(contentsOf: URL(fileURLWithPath: MachOCorpus.path(corpusFile)))
        let small = directory.path("small").path
        try contents.write(to: URL(fileURLWithPath: small))
        contents += Data(count: (17 << 20) - contents.count)
        let large = directory.path("large").path
        try contents.write(to: URL(fileURLWithPath: large))
        return (small, large)
    }

    @Test func aMappedFileGivesTheImagesOfAWholeRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (small, large) = try Self.smallAndLarge(in: directory)
        let whole = try MachOReader.read(path: small)
        var mapped = try MachOReader.read(path: large)
        for index in mapped.indices { mapped[index].identity.path = small }
        #expect(whole.count == 4)
        #expect(mapped == whole)
    }

    @Test func aMappedFileTruncatedWhileItsCodeIsReadIsChangedWhileRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (_, large) = try Self.smallAndLarge(in: directory)
        let image = try #require(MachOReader.read(path: large).first)
        #expect(throws: InspectionError.changedWhileRead(path: large)) {
            try MachOReader.withImage(image.identity) { _, bytes in
                #expect(truncate(large, 0) == 0)
                // Past the end of the file now: reads as zero.
                return bytes[bytes.count - 1]
            }
        }
    }
}
