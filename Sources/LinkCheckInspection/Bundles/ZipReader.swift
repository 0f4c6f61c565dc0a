import CArchive
import LinkCheckImage
import SystemInterface

/// The entries of a zip archive, read through libarchive's seekable zip
/// reader (`archive_read_support_format_zip_seekable`): the central
/// directory is the archive's table of contents, as `unzip` takes it, so
/// local headers that disagree with it are not believed.
///
/// One entry at a time (`archive_read_next_header`), its data read in
/// pieces (`archive_read_data`) or skipped (`archive_read_data_skip`, which
/// seeks past it without inflating it). Nothing is allocated from a count
/// the archive gives.
final class ZipReader {
    private let archive: OpaquePointer
    let path: String

    /// Opens the zip archive at `path`.
    ///
    /// - Throws: ``ArchiveProblem/unreadable(reason:)`` when libarchive
    ///   cannot open it or finds no zip archive there (no end of central
    ///   directory: not a zip, or truncated).
    init(path: String) throws(ArchiveProblem) {
        guard let archive = archive_read_new() else { throw .unreadable(reason: "libarchive could not start a reader") }
        self.archive = archive
        self.path = path
        archive_read_support_format_zip_seekable(archive)
        guard archive_read_open_filename(archive, path, 64 * 1024) == ARCHIVE_OK else {
            throw .unreadable(reason: errorText)
        }
    }

    deinit {
        archive_read_free(archive)
    }

    /// One entry's header.
    struct Entry {
        /// The name as the archive spells it (UTF-8 when the archive says
        /// so, else as libarchive converts it).
        var name: String
        var kind: Kind
        /// The uncompressed size the archive declares, in bytes; `nil` when
        /// it declares none.
        var declaredSize: UInt64?
        /// The target of a symbolic or hard link.
        var linkTarget: String?

        enum Kind {
            case file, directory, symbolicLink, hardLink, other
        }
    }

    /// The next entry's header (`archive_read_next_header`), or `nil` at
    /// the end of the archive.
    ///
    /// - Throws: ``ArchiveProblem/unreadable(reason:)`` for a damaged
    ///   central directory or header.
    func next() throws(ArchiveProblem) -> Entry? {
        var header: OpaquePointer?
        let status = archive_read_next_header(archive, &header)
        if status == ARCHIVE_EOF { return nil }
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let header else { throw .unreadable(reason: errorText) }
        let name = (archive_entry_pathname_utf8(header) ?? archive_entry_pathname(header)).map { String(cString: $0) } ?? ""
        let declared = archive_entry_size_is_set(header) != 0 ? archive_entry_size(header) : -1
        // libarchive's AE_IF* file types have the values of <sys/stat.h>'s S_IF*.
        let kind: Entry.Kind
        if archive_entry_hardlink(header) != nil {
            kind = .hardLink
        } else {
            switch archive_entry_filetype(header) & S_IFMT {
            case S_IFREG: kind = .file
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
        }
        let target = (archive_entry_symlink(header) ?? archive_entry_hardlink(header)).map { String(cString: $0) }
        return Entry(name: name, kind: kind, declaredSize: declared >= 0 ? UInt64(declared) : nil, linkTarget: target)
    }

    /// Reads up to `buffer.count` bytes of the current entry's data
    /// (`archive_read_data`): the count, 0 at its end.
    ///
    /// - Throws: ``ArchiveProblem/unreadable(reason:)`` for data that
    ///   cannot be inflated, a bad CRC, or an archive cut short.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ArchiveProblem) -> Int {
        let count = archive_read_data(archive, buffer.baseAddress, buffer.count)
        guard count >= 0 else { throw .unreadable(reason: errorText) }
        return count
    }

    /// Skips the current entry's data (`archive_read_data_skip`).
    ///
    /// - Throws: ``ArchiveProblem/unreadable(reason:)``.
    func skip() throws(ArchiveProblem) {
        guard archive_read_data_skip(archive) == ARCHIVE_OK else { throw .unreadable(reason: errorText) }
    }

    /// `archive_error_string`, or a plain reason when libarchive gives none.
    private var errorText: String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive failed without a reason"
    }
}
