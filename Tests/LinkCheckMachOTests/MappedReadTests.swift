import Foundation
import LinkCheckImage
import LinkCheckTestSupport
import Testing

@testable import LinkCheckMachO

/// A file of 16 MB or more is read through a mapping, whose pages are read
/// as the reader touches them: it gives the images the same bytes read
/// whole give, and a file truncated or grown while it is read is reported
/// as changed, never a crash. Inspection hands the model of the largest
/// such file over to the next read of the same version of it.
@Suite struct MappedReadTests {
    /// A fat corpus file (SVProgressHUD's: i386, x86_64, armv7 and arm64)
    /// as it is, read whole, and zero-padded to `size` bytes, mapped.
    private static func smallAndLarge(
        in directory: TemporaryDirectory, size: Int = 17 << 20
    ) throws -> (small: String, large: String) {
        let corpusFile = try #require(
            MachOCorpus.truthFiles.first { ($0["path"] as? String ?? "").hasSuffix("SVProgressHUD.framework/SVProgressHUD") })
        var contents = try Data(contentsOf: URL(fileURLWithPath: MachOCorpus.path(corpusFile)))
        let small = directory.path("small").path
        try contents.write(to: URL(fileURLWithPath: small))
        contents += Data(count: size - contents.count)
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

    /// Inspection of a large file last changed a minute ago keeps its
    /// model and hands it over once to a read of that version; once the
    /// file is rewritten in place (same size, same inode), that version is
    /// gone and the file is parsed again. 40 MB: larger than any other
    /// file the tests inspect, which would take its place.
    @Test func theModelOfALargeSettledFileIsHandedOverOnce() throws {
        let directory = try Fixtures.temporaryDirectory()
        let (_, large) = try Self.smallAndLarge(in: directory, size: 40 << 20)
        var minuteAgo = [timeval(tv_sec: time(nil) - 60, tv_usec: 0), timeval(tv_sec: time(nil) - 60, tv_usec: 0)]
        #expect(utimes(large, &minuteAgo) == 0)
        let images = try MachOReader.read(path: large)
        let version = try FileRanges(path: large).version
        #expect(version.isSettled)
        #expect(InspectedModel.take(path: large, version: version)?.images.count == images.count)
        #expect(InspectedModel.take(path: large, version: version) == nil)

        _ = try MachOReader.read(path: large)
        let writer = try #require(FileHandle(forWritingAtPath: large))
        writer.write(Data(count: 4096))
        try writer.close()
        let rewritten = try FileRanges(path: large).version
        #expect(rewritten.size == version.size && rewritten.inode == version.inode && rewritten != version)
        #expect(InspectedModel.take(path: large, version: rewritten) == nil)
        #expect(throws: InspectionError.notAnImage(path: large)) { try MachOReader.read(path: large) }
    }
}

/// When a file's version counts as settled: 0.1 s after a modification
/// time with a fraction of a second, 2 s after one of whole seconds (a file
/// system that keeps no fraction, where a rewrite within the second keeps
/// the time).
@Suite struct FileVersionTests {
    private func settled(modified: (Int, Int), opened: (Int, Int)) -> Bool {
        FileVersion(device: 1, inode: 2, size: 3, modified: modified, openedAt: opened).isSettled
    }

    @Test func aFractionOfASecondSettlesInATenth() {
        #expect(!settled(modified: (1_000, 123), opened: (1_000, 100_000_000)))
        #expect(settled(modified: (1_000, 123), opened: (1_000, 100_000_123)))
        #expect(settled(modified: (1_000, 900_000_000), opened: (1_001, 0)))
    }

    @Test func wholeSecondsSettleInTwo() {
        #expect(!settled(modified: (1_000, 0), opened: (1_000, 300_000_000)))
        #expect(!settled(modified: (1_000, 0), opened: (1_001, 999_999_999)))
        #expect(settled(modified: (1_000, 0), opened: (1_002, 0)))
    }

    @Test func aModificationAfterTheOpeningIsNotSettled() {
        #expect(!settled(modified: (1_005, 1), opened: (1_000, 0)))
    }
}
