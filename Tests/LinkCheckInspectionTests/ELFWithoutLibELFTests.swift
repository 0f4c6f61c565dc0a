import Foundation
import LinkCheckELF
import LinkCheckImage
import LinkCheckInspection
import LinkCheckTestSupport
import Testing

/// An ELF file given to a build without libelf (what a Mac builds by
/// default; here `LINKCHECK_WITHOUT_LIBELF=1`, as CI builds it) is an
/// error that names the file and says why, never a file passed over or an
/// image checked as safe; a build with libelf reads it.
@Suite struct ELFWithoutLibELFTests {
    /// An ELF header (`ELFCLASS64`, `ELFDATA2LSB`, `EV_CURRENT`) whose
    /// fields are all zero after `e_ident`: `e_type` `ET_NONE`, no sections.
    static let header: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 56)

    @Test func anELFFileIsReadOnlyWithLibELF() throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.path("header.elf").path
        try Data(Self.header).write(to: URL(fileURLWithPath: path))
        #expect(ImageInspector.isImage(path: path))
        let result = Result { () throws(InspectionError) in try ImageInspector.inspect(path: path) }
        if ELFReader.readsELF {
            #expect(try result.get().map(\.format) == [.elf])
        } else {
            let error = InspectionError.formatNotBuilt(path: path, format: .elf, library: "libelf")
            #expect(throws: error) { try result.get() }
            #expect(error.description == "\(path): this build of linkcheck reads no ELF: it was built without libelf")
        }
    }
}
