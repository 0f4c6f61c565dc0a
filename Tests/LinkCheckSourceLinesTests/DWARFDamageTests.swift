import Foundation
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// Damaged DWARF sections (taken from a fixture built here, then cut short,
/// overwritten or mutated at seeded random places) give sources or a
/// ``DWARFError`` naming the section and offset; never a trap or a hang.
@Suite struct DWARFDamageTests {
    /// The sections of `lookup.c` built with `flags`, and the addresses of
    /// its instructions.
    private func fixture(_ flags: [String]) throws -> (sections: [DWARFSections.Name: [UInt8]], addresses: Set<UInt64>) {
        let directory = try Fixtures.temporaryDirectory()
        let include = Fixtures.sourceDirectory.appendingPathComponent("SourceLines/include").path
        let library = try Fixtures.compile(
            "SourceLines/lookup.c", to: directory.path("liblookup.so"), flags: ["-shared", "-fPIC", "-I", include] + flags)
        let objdump = URL(fileURLWithPath: Fixtures.clang).deletingLastPathComponent().appendingPathComponent("llvm-objdump").path
        let listing = try Command.run(objdump, ["-d", "--no-show-raw-insn", "--section=.text", library.path]).standardOutput
        let addresses = listing.split(separator: "\n").compactMap { line -> UInt64? in
            guard line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { return nil }
            return UInt64(line[..<colon].trimmingCharacters(in: .whitespaces), radix: 16)
        }
        return (try DWARFSectionDump.sections(of: library.path), Set(addresses))
    }

    /// `sections` with `bytes` written at `offset` of `name`.
    private func overwriting(_ name: DWARFSections.Name, at offset: Int, with bytes: [UInt8], in sections: [DWARFSections.Name: [UInt8]])
        -> [DWARFSections.Name: [UInt8]]
    {
        var damaged = sections
        damaged[name]!.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        return damaged
    }

    /// A unit or line table length past the section's end, a version 6
    /// unit, an address size of 3: each an error at the structure's offset.
    @Test func damagedHeadersAreErrorsNamingSectionAndOffset() throws {
        let (sections, addresses) = try fixture(["-g", "-gdwarf-5", "-O2"])
        #expect(try !DWARFSourceLookup.sources(of: addresses, in: sections).isEmpty)
        let infoSize = UInt64(sections[.info]!.count)
        let lineSize = UInt64(sections[.line]!.count)
        let cases: [([DWARFSections.Name: [UInt8]], DWARFError, String)] = [
            (
                overwriting(.info, at: 0, with: [0x00, 0x00, 0xff, 0x7f], in: sections),
                DWARFError(section: .info, offset: 0, problem: .unitLengthPastEnd(length: 0x7fff_0000, sectionSize: infoSize)),
                "debug_info at 0x0: unit length 0x7fff0000 runs past the section's end (0x\(String(infoSize, radix: 16)) bytes)"
            ),
            (
                overwriting(.line, at: 0, with: [0x00, 0x00, 0xff, 0x7f], in: sections),
                DWARFError(section: .line, offset: 0, problem: .unitLengthPastEnd(length: 0x7fff_0000, sectionSize: lineSize)),
                "debug_line at 0x0: unit length 0x7fff0000 runs past the section's end (0x\(String(lineSize, radix: 16)) bytes)"
            ),
            (
                overwriting(.info, at: 4, with: [6, 0], in: sections),
                DWARFError(section: .info, offset: 4, problem: .unsupportedVersion(6)),
                "debug_info at 0x4: unsupported DWARF version 6"
            ),
            (
                // DWARF 5: unit_type at 6, address_size at 7.
                overwriting(.info, at: 7, with: [3], in: sections),
                DWARFError(section: .info, offset: 4, problem: .unsupportedAddressSize(3)),
                "debug_info at 0x4: unsupported address size 3"
            ),
            (
                overwriting(.info, at: 0, with: [0xf0, 0xff, 0xff, 0xff], in: sections),
                DWARFError(section: .info, offset: 0, problem: .reservedUnitLength(0xffff_fff0)),
                "debug_info at 0x0: reserved unit length 0xfffffff0"
            ),
        ]
        for (damaged, error, description) in cases {
            #expect(throws: error) { try DWARFSourceLookup.sources(of: addresses, in: damaged) }
            #expect(error.description == description)
        }
    }

    /// Each section cut short at 64 places: sources or an error, and the
    /// whole `.debug_info` gone is no source and no error.
    @Test(arguments: ["-gdwarf-4", "-gdwarf-5"])
    func truncatedSectionsGiveSourcesOrAnError(_ version: String) throws {
        let (sections, addresses) = try fixture(["-g", version, "-O2"])
        var errors = 0
        for (name, bytes) in sections {
            for length in Set(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 64))) {
                var damaged = sections
                damaged[name] = Array(bytes[..<length])
                do {
                    _ = try DWARFSourceLookup.sources(of: addresses, in: damaged)
                } catch {
                    errors += 1
                }
            }
        }
        #expect(errors > 0)
        var withoutInfo = sections
        withoutInfo[.info] = nil
        #expect(try DWARFSourceLookup.sources(of: addresses, in: withoutInfo) == [:])
    }

    /// 2,000 copies of each fixture's sections with 1 to 4 bytes changed at
    /// seeded random places (half of them in `.debug_info`): each gives
    /// sources or an error, within a second.
    @Test(arguments: [["-g", "-gdwarf-4", "-O2"], ["-g", "-gdwarf-5", "-O2"], ["-g", "-gdwarf-5", "-O0"]])
    func seededMutationsGiveSourcesOrAnError(_ flags: [String]) throws {
        let (sections, addresses) = try fixture(flags)
        let names = sections.keys.sorted { $0.rawValue < $1.rawValue }
        var random = SplitMix64(seed: 0x6477_6172_6620_7265 ^ UInt64(sections[.info]!.count))
        var (errors, slowest) = (0, Duration.zero)
        let clock = ContinuousClock()
        for _ in 0..<2000 {
            var damaged = sections
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let name = random.next() % 2 == 0 ? .info : names[Int(random.next() % UInt64(names.count))]
                guard let count = damaged[name]?.count, count > 0 else { continue }
                damaged[name]![Int(random.next() % UInt64(count))] ^= UInt8(1 + random.next() % 255)
            }
            let start = clock.now
            do {
                _ = try DWARFSourceLookup.sources(of: addresses, in: damaged)
            } catch {
                errors += 1
                #expect(error.description.hasPrefix(error.section.rawValue + " at 0x"))
            }
            slowest = max(slowest, clock.now - start)
        }
        #expect(errors > 0)
        #expect(slowest < .seconds(1), "slowest lookup: \(slowest)")
    }
}
