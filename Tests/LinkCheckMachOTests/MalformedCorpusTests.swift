import Foundation
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// Damaged copies of every corpus file (cut short at a stride and around
/// every load command boundary; bytes flipped at seeded random places)
/// are read or rejected with a ``MachOError`` that names the file; never
/// a trap, a hang or an unbounded allocation.
@Suite struct MalformedCorpusTests {
    static var paths: [String] { MachOCorpus.truthFiles.map { MachOCorpus.path($0) } }

    @Test(arguments: paths)
    func everyTruncationIsReadOrRejectedByName(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let whole = try MachOFile(bytes: bytes, path: path)
        // The whole file cut at a stride, and around the end of its first
        // structures (the fat header and its first entries, a Mach header).
        var cuts = [
            (
                bytes: bytes,
                lengths: Set(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 48))).union([4, 7, 8, 27, 28, 31, 32, 33])
            )
        ]
        // Each slice on its own (an archive member, a fat slice), cut around
        // its Mach header and the end of every load command.
        for slice in whole.slices {
            for image in slice.images {
                let boundaries = [image.header.size] + image.loadCommands.map { $0.offset + $0.size }
                cuts.append(
                    (
                        Array(bytes[image.fileOffset..<image.fileOffset + image.size]),
                        Set(boundaries.flatMap { boundary in [-9, -1, 0, 1, 8].map { boundary + $0 } })
                    ))
            }
        }
        var warned = 0
        for (data, lengths) in cuts {
            for length in lengths.sorted() where length >= 0 && length < data.count {
                do {
                    let file = try MachOFile(bytes: Array(data[..<length]), path: path)
                    let warnings =
                        file.warnings
                        + file.slices.flatMap { slice -> [ReadWarning] in
                            if case .archive(let archive) = slice.contents { return archive.warnings }
                            return []
                        } + file.images.flatMap(\.warnings)
                    if !warnings.isEmpty { warned += 1 }
                    // A thin image cut inside its load commands says so.
                    if file.container == .thin, let image = file.images.first,
                        length < image.header.size + Int(image.header.loadCommandsSize)
                    {
                        #expect(!image.warnings.isEmpty, "\(path) cut at \(length)")
                    }
                } catch {
                    #expect(error.path == path)
                    #expect(error.description.hasPrefix(path + ": "))
                }
            }
        }
        #expect(warned > 0, "\(path): no truncation was noticed")
    }

    @Test(arguments: paths)
    func seededByteFlipsAreReadOrRejectedByName(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // Small files get more flips: about 3,500 in all over the corpus.
        let count = bytes.count < 100_000 ? 300 : 40
        var random = SplitMix64(seed: 0x6c69_6e6b_6368_6563 ^ UInt64(bytes.count))
        for _ in 0..<count {
            var damaged = bytes
            for _ in 0..<(1 + Int(random.next() % 4)) {
                // Half the flips in the first 8 KB (headers and load commands).
                let range = random.next() % 2 == 0 ? min(8192, bytes.count) : bytes.count
                let position = Int(random.next() % UInt64(range))
                damaged[position] ^= UInt8(1 + random.next() % 255)
            }
            do {
                let file = try MachOFile(bytes: damaged, path: path)
                _ = file.images.reduce(0) { $0 + $1.imports.count + $1.exports.count + $1.symbols.count }
            } catch {
                #expect(error.description.hasPrefix(path + ": "))
            }
        }
    }

    /// Damaged copies of a fat dSYM, the debug-mapped image and an object
    /// it names (``MachODebugBuild``), cut short at a stride and with
    /// seeded byte flips: the dSYM reader (``DWARFSegment``, each slice's
    /// sections), the debug map and the object's relocated DWARF
    /// (``ObjectDWARF``) read them or reject them with a ``MachOError``
    /// naming the file; never a trap.
    @Test func damagedDebugInformationIsReadOrRejectedByName() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Uploader.framework.dSYM"))
        let damaged = build.directory.path("damaged")
        var random = SplitMix64(seed: 0x6453_594d)
        var read = 0
        for original in [dwarf, build.thinImage("arm64"), build.objectPath("UPLogin", "arm64")] {
            let bytes = [UInt8](try Data(contentsOf: original))
            var copies = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64)).map { Array(bytes[..<$0]) }
            for _ in 0..<150 {
                var copy = bytes
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let range = random.next() % 2 == 0 ? min(4096, bytes.count) : bytes.count
                    copy[Int(random.next() % UInt64(range))] ^= UInt8(1 + random.next() % 255)
                }
                copies.append(copy)
            }
            for copy in copies {
                try Data(copy).write(to: damaged)
                do {
                    let segment = try DWARFSegment(path: damaged.path)
                    for slice in segment.slices { _ = try? segment.contents(of: slice).read { $0.mapValues { [UInt8]($0) } } }
                    read += 1
                } catch {
                    #expect(error.description.hasPrefix(damaged.path))
                }
                if let file = try? MachOFile(path: damaged.path) {
                    for image in file.images { _ = DebugMap(symbols: image.symbols).objects.count }
                }
                do {
                    _ = try ObjectDWARF(path: damaged.path, member: nil, cpu: nil).sections.count
                } catch {
                    #expect(error.description.hasPrefix(damaged.path))
                }
            }
        }
        #expect(read > 0)
    }
}
