import CArchive
import Foundation

/// Writes zip archives for the tests with libarchive's writer
/// (`archive_write_set_format_zip`, deflate): `.ipa` files of the fixtures'
/// bundles, and hostile archives (names that climb out, links, bombs).
///
/// ```swift
/// let writer = try ZipWriter(path: directory.path("App.ipa"))
/// try writer.addDirectory(app, as: "Payload/App.app")
/// try writer.addFile("Payload/../evil", contents: Data("x".utf8))
/// try writer.close()
/// ```
public final class ZipWriter {
    private let archive: OpaquePointer
    private var closed = false

    /// A failed libarchive call, with its `archive_error_string`.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts a zip archive at `path`, its entries deflated at
    /// `compressionLevel` (1 fastest, 9 smallest).
    ///
    /// - Throws: ``Failure``.
    public init(path: URL, compressionLevel: Int = 6) throws {
        guard let archive = archive_write_new() else { throw Failure(description: "archive_write_new failed") }
        self.archive = archive
        try check(archive_write_set_format_zip(archive))
        try check(archive_write_set_options(archive, "zip:compression=deflate,zip:compression-level=\(compressionLevel)"))
        try check(archive_write_open_filename(archive, path.path))
    }

    deinit {
        if !closed { archive_write_close(archive) }
        archive_write_free(archive)
    }

    /// Adds every file and folder under `directory`, named `name/…` in the
    /// archive, in sorted order; symbolic links are stored as links.
    ///
    /// - Throws: ``Failure``, or a file system error.
    public func addDirectory(_ directory: URL, as name: String) throws {
        try addEntry(name, type: S_IFDIR)
        let manager = FileManager.default
        for relative in try manager.subpathsOfDirectory(atPath: directory.path).sorted() {
            let path = directory.appendingPathComponent(relative).path
            let attributes = try manager.attributesOfItem(atPath: path)
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory?: try addEntry(name + "/" + relative, type: S_IFDIR)
            case .typeSymbolicLink?: try addSymbolicLink(name + "/" + relative, to: try manager.destinationOfSymbolicLink(atPath: path))
            default: try addFile(name + "/" + relative, contents: try Data(contentsOf: URL(fileURLWithPath: path)))
            }
        }
    }

    /// Adds a regular file entry named `name` (any name: `../x` and `/x`
    /// are written as they are).
    ///
    /// - Throws: ``Failure``.
    public func addFile(_ name: String, contents: Data) throws {
        try addEntry(name, type: S_IFREG, size: contents.count) {
            try contents.withUnsafeBytes { bytes in
                if bytes.count > 0 { try self.write(bytes) }
            }
        }
    }

    /// Adds a regular file entry named `name` of `size` zero bytes, written
    /// a mebibyte at a time (a zip bomb, deflated).
    ///
    /// - Throws: ``Failure``.
    public func addZeros(_ name: String, size: Int) throws {
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        try addEntry(name, type: S_IFREG, size: size) {
            var left = size
            try chunk.withUnsafeBytes { bytes in
                while left > 0 {
                    let count = min(left, bytes.count)
                    try self.write(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
                    left -= count
                }
            }
        }
    }

    /// Adds a symbolic link entry `name` → `target`.
    ///
    /// - Throws: ``Failure``.
    public func addSymbolicLink(_ name: String, to target: String) throws {
        try addEntry(name, type: S_IFLNK, symlink: target)
    }

    /// Finishes the archive (`archive_write_close`: the central directory).
    ///
    /// - Throws: ``Failure``.
    public func close() throws {
        closed = true
        try check(archive_write_close(archive))
    }

    private func addEntry(_ name: String, type: mode_t, size: Int = 0, symlink: String? = nil, data: () throws -> Void = {}) throws {
        guard let entry = archive_entry_new() else { throw Failure(description: "archive_entry_new failed") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname(entry, name)
        archive_entry_set_filetype(entry, UInt32(type))
        archive_entry_set_perm(entry, type == S_IFDIR ? 0o755 : 0o644)
        archive_entry_set_size(entry, Int64(size))
        if let symlink { archive_entry_set_symlink(entry, symlink) }
        try check(archive_write_header(archive, entry))
        try data()
        try check(archive_write_finish_entry(archive))
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard archive_write_data(archive, bytes.baseAddress, bytes.count) == bytes.count else {
            throw Failure(description: String(cString: archive_error_string(archive)))
        }
    }

    private func check(_ status: Int32) throws {
        guard status == ARCHIVE_OK else {
            throw Failure(description: archive_error_string(archive).map { String(cString: $0) } ?? "libarchive status \(status)")
        }
    }
}
