import Foundation
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

/// Hand-made files for what no linker writes: hostile headers and counts,
/// loops, and every chained pointer format. Each is read (with a warning
/// that names the structure) or rejected with a ``MachOError``.
@Suite struct HandMadeTests {
    static let path = "hand-made"

    /// A 64-bit arm64 dylib with `__TEXT` at `base`, `__DATA` at `base +
    /// 0x4000` (`__objc_selrefs` then `__objc_classrefs`, one slot each),
    /// `__LINKEDIT` at 0x8000 holding `linkedit`, and `commands` after the
    /// segments. `__TEXT` holds `sharedApplication` in `__objc_methname` at
    /// +0x1000 and an `objc_msgSend$` stub at +0x2000 that loads the selref.
    static func image(base: UInt64 = 0, data: [UInt8] = [], linkedit: [UInt8], commands: [[UInt8]]) -> [UInt8] {
        let text = HandMade.segment(
            "__TEXT", address: base, size: 0x4000, fileOffset: 0, fileSize: 0x4000,
            sections: [
                HandMadeSection(name: "__objc_methname", segment: "__TEXT", address: base + 0x1000, size: 0x20, offset: 0x1000, flags: 2),
                HandMadeSection(
                    name: "__objc_stubs", segment: "__TEXT", address: base + 0x2000, size: 0x20, offset: 0x2000, flags: 0x8000_0400),
            ])
        let dataSegment = HandMade.segment(
            "__DATA", address: base + 0x4000, size: 0x4000, fileOffset: 0x4000, fileSize: 0x4000,
            sections: [
                HandMadeSection(
                    name: "__objc_selrefs", segment: "__DATA", address: base + 0x4000, size: 8, offset: 0x4000, flags: 0x1000_0005),
                HandMadeSection(
                    name: "__objc_classrefs", segment: "__DATA", address: base + 0x4008, size: 8, offset: 0x4008, flags: 0x1000_0000),
            ])
        let linkeditSegment = HandMade.segment(
            "__LINKEDIT", address: base + 0x8000, size: 0x4000, fileOffset: 0x8000, fileSize: UInt64(linkedit.count))
        var stub = Bytes()
        stub.u32(0xd000_0001)  // adrp x1, (base + 0x4000)@PAGE: two pages on
        stub.u32(0xf940_0021)  // ldr x1, [x1, #0]
        return HandMade.image(
            commands: [text, dataSegment, linkeditSegment] + commands
                + [HandMade.dylib(0xc, "/System/Library/Frameworks/UIKit.framework/UIKit")],
            contents: [(0x1000, Array("sharedApplication".utf8) + [0]), (0x2000, stub.data), (0x4000, data), (0x8000, linkedit)],
            size: 0x8000 + linkedit.count)
    }

    static func read(_ bytes: [UInt8]) throws -> MachOImage {
        let file = try MachOFile(bytes: bytes, path: path)
        return try #require(file.images.first)
    }

    // MARK: chained fixups

    /// One chain of two entries in `__DATA` (the selref slot at +0, the
    /// classref slot at +8) in each `DYLD_CHAINED_PTR_*` format, with what
    /// `<mach-o/fixup-chains.h>` says they decode to.
    struct PointerCase: Sendable, CustomTestStringConvertible {
        var format: UInt16
        var base: UInt64
        /// The two entries (32-bit formats: the low halves).
        var entries: [UInt64]
        var is32Bit = false
        /// `page_start[]` and, for 32-bit formats, the extra chain starts
        /// after it: `page_count` is 1.
        var pageStarts: [UInt16] = [0]
        var maxValidPointer: UInt32 = 0
        /// The selref slot's rebase target; `nil` when it is not a pointer.
        var rebaseTarget: UInt64?
        /// The classref slot's bind: import index and addend; `nil` for
        /// formats without binds.
        var bind: (index: Int, addend: Int64)?
        var testDescription: String { "pointer_format \(format) \(entries.map { hexString(Int(truncatingIfNeeded: $0)) })" }
    }

    static let pointerCases: [PointerCase] = [
        // DYLD_CHAINED_PTR_ARM64E: rebase target is a vmaddr, next ×8;
        // an auth bind (auth 1, bind 1) of ordinal 1.
        PointerCase(
            format: 1, base: 0x1_0000_0000, entries: [0x1_0000_1000 | 1 << 51, 1 << 63 | 1 << 62 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 0)),
        // DYLD_CHAINED_PTR_64: vmaddr target, next ×4; bind with addend 5 (bits 24-31).
        PointerCase(
            format: 2, base: 0x1_0000_0000, entries: [0x1_0000_1000 | 2 << 51, 1 << 63 | 5 << 24 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 5)),
        // DYLD_CHAINED_PTR_32: 26-bit vmaddr target, next (bits 26-30) ×4;
        // bind (bit 31) of ordinal 1 with addend 3 (bits 20-25).
        PointerCase(
            format: 3, base: 0, entries: [0x1000 | 2 << 26, 1 << 31 | 3 << 20 | 1], is32Bit: true,
            maxValidPointer: 0x10_0000, rebaseTarget: 0x1000, bind: (1, 3)),
        // The same with two chains in the page (DYLD_CHAINED_PTR_START_MULTI:
        // starts listed from index 1, the last with DYLD_CHAINED_PTR_START_LAST).
        PointerCase(
            format: 3, base: 0, entries: [0x1000, 1 << 31 | 1], is32Bit: true, pageStarts: [0x8001, 0x0000, 0x8008],
            maxValidPointer: 0x10_0000, rebaseTarget: 0x1000, bind: (1, 0)),
        // A DYLD_CHAINED_PTR_32 target above max_valid_pointer is not a pointer.
        PointerCase(
            format: 3, base: 0, entries: [0x20_1000 | 2 << 26, 1 << 31 | 1], is32Bit: true,
            maxValidPointer: 0x10_0000, rebaseTarget: nil, bind: (1, 0)),
        // Formats without binds: one rebase, its next 0 (the classref slot
        // holds no fixup).
        // DYLD_CHAINED_PTR_32_CACHE: 30-bit offset target, next (bits 30-31).
        PointerCase(
            format: 4, base: 0x8000_0000, entries: [0x1000], is32Bit: true,
            rebaseTarget: 0x8000_1000, bind: nil),
        // DYLD_CHAINED_PTR_32_FIRMWARE: 26-bit vmaddr target, next (bits 26-31).
        PointerCase(format: 5, base: 0, entries: [0x1000], is32Bit: true, rebaseTarget: 0x1000, bind: nil),
        // DYLD_CHAINED_PTR_64_OFFSET: the target is an offset from the base.
        PointerCase(
            format: 6, base: 0x1_0000_0000, entries: [0x1000 | 2 << 51, 1 << 63 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 0)),
        // DYLD_CHAINED_PTR_ARM64E_KERNEL: offset targets, next ×4; a bind
        // with addend -8 (19 signed bits from bit 32).
        PointerCase(
            format: 7, base: 0x1_0000_0000, entries: [0x1000 | 2 << 51, 1 << 62 | 0x7_fff8 << 32 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, -8)),
        // DYLD_CHAINED_PTR_64_KERNEL_CACHE: 30-bit offset targets.
        PointerCase(format: 8, base: 0x1_0000_0000, entries: [0x1000], rebaseTarget: 0x1_0000_1000, bind: nil),
        // DYLD_CHAINED_PTR_ARM64E_USERLAND: an auth rebase (32-bit offset), next ×8.
        PointerCase(
            format: 9, base: 0x1_0000_0000, entries: [1 << 63 | 0x1000 | 1 << 51, 1 << 62 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 0)),
        // DYLD_CHAINED_PTR_ARM64E_FIRMWARE: vmaddr targets, next ×4.
        PointerCase(
            format: 10, base: 0x1_0000_0000, entries: [0x1_0000_1000 | 2 << 51, 1 << 63 | 1 << 62 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 0)),
        // DYLD_CHAINED_PTR_X86_64_KERNEL_CACHE: next ×1 (to the classref
        // slot, also a rebase).
        PointerCase(format: 11, base: 0x1_0000_0000, entries: [0x1000 | 8 << 51, 0x2000], rebaseTarget: 0x1_0000_1000, bind: nil),
        // DYLD_CHAINED_PTR_ARM64E_USERLAND24: offset targets, next ×8, a
        // 24-bit ordinal with addend 7.
        PointerCase(
            format: 12, base: 0x1_0000_0000, entries: [0x1000 | 1 << 51, 1 << 62 | 7 << 32 | 1],
            rebaseTarget: 0x1_0000_1000, bind: (1, 7)),
    ]

    @Test(arguments: pointerCases)
    func chainedPointerFormatsDecode(_ test: PointerCase) throws {
        var data = Bytes()
        for entry in test.entries {
            if test.is32Bit {
                data.u32(UInt32(truncatingIfNeeded: entry))
                data.u32(0)
            } else {
                data.u64(entry)
            }
        }
        let fixups = HandMade.chainedFixups(
            segmentCount: 3, segment: 1, pageSize: 0x4000, format: test.format, segmentOffset: 0x4000,
            pageStarts: test.pageStarts, pageCount: 1, maxValidPointer: test.maxValidPointer,
            imports: [(1, false, "_OBJC_CLASS_$_UIView"), (1, true, "_OBJC_CLASS_$_UIApplication")])
        let image = try Self.read(
            Self.image(
                base: test.base, data: data.data, linkedit: fixups,
                commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(fixups.count))]))
        var expectedWarnings: [String] = []
        if test.rebaseTarget == nil {
            expectedWarnings.append(
                "section __DATA,__objc_selrefs at file offset 0x4000: 1 selector references whose selector could not be read")
        }
        if test.bind == nil {
            expectedWarnings.insert(
                "section __DATA,__objc_classrefs at file offset 0x4008: 1 class references whose class could not be named", at: 0)
        }
        #expect(image.warnings.map(\.description) == expectedWarnings)
        #expect(image.fixupFormat == .chained)
        #expect(image.imports.map(\.name) == ["_OBJC_CLASS_$_UIView", "_OBJC_CLASS_$_UIApplication"])
        #expect(image.imports.map(\.isWeak) == [false, true])
        #expect(image.dependency(for: image.imports[1].library)?.installName == "/System/Library/Frameworks/UIKit.framework/UIKit")
        let slot = test.base + 0x4000
        var rebases = test.rebaseTarget.map { [Rebase(address: slot, target: $0)] } ?? []
        if test.format == 11 { rebases.append(Rebase(address: slot + 8, target: test.base + 0x2000)) }
        #expect(image.rebases == rebases)
        #expect(image.bindings == (test.bind.map { [Binding(address: slot + 8, importIndex: $0.index, addend: $0.addend)] } ?? []))
        if test.rebaseTarget == test.base + 0x1000 {
            #expect(image.selectorReferences == [SelectorReference(address: slot, selector: "sharedApplication")])
            // The objc_msgSend$ stub loads the selref: decoded from adrp/ldr.
            #expect(image.objcStubs == [ObjCStub(address: test.base + 0x2000, selector: "sharedApplication")])
        }
        if test.format == 11 {
            // A rebase to a class of the image's own without a symbol or a
            // readable class_ro_t: not named.
            #expect(image.classReferences.isEmpty)
        }
        if test.bind != nil {
            #expect(
                image.classReferences == [
                    ObjCClassReference(address: slot + 8, className: "UIApplication", isImported: true, importIndex: 1)
                ])
        }
    }

    /// Chained fixups with no chains (`seg_count` 0) and an imports table of
    /// `format` (`entries` of `size` bytes) naming from `names`.
    static func importsOnly(format: UInt32, count: Int, entries: [UInt8], names: [UInt8]) -> [UInt8] {
        var bytes = Bytes()
        bytes.data += [0, 0, 0, 0]  // fixups_version
        bytes.u32(32)  // starts_offset
        bytes.u32(36)  // imports_offset
        bytes.u32(UInt32(36 + entries.count))  // symbols_offset
        bytes.u32(UInt32(count))
        bytes.u32(format)
        bytes.u32(0)
        bytes.pad(to: 32)
        bytes.u32(0)  // seg_count
        bytes.data += entries + names
        return bytes.data
    }

    @Test func chainedImportsWithAddendsAndSpecialOrdinals() throws {
        let names = Array("\0_main_sym\0_flat\0_weak\0_UIView\0".utf8)
        // DYLD_CHAINED_IMPORT_ADDEND: lib_ordinal:8 (0xff main executable,
        // 0xfe flat lookup, 0xfd weak lookup), weak_import:1, name_offset:23;
        // then a 32-bit addend.
        var addend = Bytes()
        for (ordinal, weak, name, value) in [(0xff, false, 1, Int32(-4)), (0xfe, true, 11, 16), (0xfd, false, 17, 0), (1, false, 23, 0)] {
            addend.u32(UInt32(ordinal) | (weak ? 0x100 : 0) | UInt32(name) << 9)
            addend.u32(UInt32(bitPattern: value))
        }
        let first = Self.importsOnly(format: 2, count: 4, entries: addend.data, names: names)
        let image = try Self.read(
            Self.image(linkedit: first, commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(first.count))]))
        #expect(
            image.imports == [
                MachOImport(name: "_main_sym", library: .mainExecutable, source: .chainedFixups, addend: -4),
                MachOImport(name: "_flat", library: .flatLookup, isWeak: true, source: .chainedFixups, addend: 16),
                MachOImport(name: "_weak", library: .weakLookup, source: .chainedFixups),
                MachOImport(name: "_UIView", library: .dylib(1), source: .chainedFixups),
            ])
        // DYLD_CHAINED_IMPORT_ADDEND64: lib_ordinal:16 (0xffff main
        // executable), weak_import:1, reserved:15, name_offset:32, addend:64.
        var wide = Bytes()
        for (ordinal, weak, name, value) in [(0xffff, true, 1, Int64(1) << 40), (1, false, 23, -1)] {
            wide.u32(UInt32(ordinal) | (weak ? 0x1_0000 : 0))
            wide.u32(UInt32(name))
            wide.u64(UInt64(bitPattern: value))
        }
        let second = Self.importsOnly(format: 3, count: 2, entries: wide.data, names: names)
        let other = try Self.read(
            Self.image(linkedit: second, commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(second.count))]))
        #expect(
            other.imports == [
                MachOImport(name: "_main_sym", library: .mainExecutable, isWeak: true, source: .chainedFixups, addend: 1 << 40),
                MachOImport(name: "_UIView", library: .dylib(1), source: .chainedFixups, addend: -1),
            ])
        // Compressed symbol names (symbols_format 1) are not decompressed.
        var compressed = first
        compressed.replaceSubrange(24..<28, with: [1, 0, 0, 0])
        let third = try Self.read(
            Self.image(linkedit: compressed, commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(compressed.count))])
        )
        #expect(third.imports.isEmpty)
        #expect(
            third.warnings.map(\.description).contains {
                $0.contains("symbols_format 1 (zlib-compressed symbol names) is not decompressed by this reader")
            })
    }

    @Test func aChainThatRunsPastItsPageStopsThereWithAWarning() throws {
        var data = Bytes()
        data.u64(0x1000 | 2 << 51)  // next: 8 bytes on, past the 16-byte page's last slot
        data.u64(0x1000 | 2 << 51)
        let fixups = HandMade.chainedFixups(
            segmentCount: 3, segment: 1, pageSize: 0x10, format: 6, segmentOffset: 0x4000, pageStarts: [0], imports: [])
        let image = try Self.read(
            Self.image(
                data: data.data, linkedit: fixups,
                commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(fixups.count))]))
        #expect(image.rebases == [Rebase(address: 0x4000, target: 0x1000), Rebase(address: 0x4008, target: 0x1000)])
        #expect(
            image.warnings.map(\.description).contains {
                $0.contains("dyld_chained_starts_in_segment 1 (__DATA)") && $0.contains("runs past the page")
            })
    }

    @Test func chainStartsPastTheFixupsDataAreSkippedWithAWarning() throws {
        var fixups = HandMade.chainedFixups(
            segmentCount: 3, segment: 1, pageSize: 0x4000, format: 6, segmentOffset: 0x4000, pageStarts: [0],
            imports: [(1, false, "_x")])
        fixups.replaceSubrange(4..<8, with: [0xf0, 0xff, 0, 0])  // starts_offset far past the end
        let image = try Self.read(
            Self.image(
                linkedit: fixups, commands: [HandMade.linkeditData(0x8000_0034, offset: 0x8000, size: UInt32(fixups.count))]))
        #expect(image.imports.map(\.name) == ["_x"])
        #expect(image.bindings.isEmpty && image.rebases.isEmpty)
        #expect(image.warnings.map(\.description).contains { $0.hasPrefix("dyld_chained_starts_in_image at file offset") })
    }

    // MARK: exports trie

    @Test func anExportsTrieThatLoopsIsWalkedOnce() throws {
        // Root: no terminal, one edge "_a" to node 6. Node 6: `_a` at 0x10,
        // one edge "b" back to the root.
        let trie: [UInt8] = [0, 1, 0x5f, 0x61, 0, 6] + [2, 0, 0x10, 1, 0x62, 0, 0]
        let image = try Self.read(
            Self.image(
                linkedit: trie, commands: [HandMade.linkeditData(0x8000_0033, offset: 0x8000, size: UInt32(trie.count))]))
        #expect(image.exports.map(\.name) == ["_a"])
        #expect(image.exports.first?.address == 0x10)
        #expect(
            image.warnings.map(\.description).contains {
                $0.hasPrefix("LC_DYLD_EXPORTS_TRIE at file offset 0x8000") && $0.contains("reached twice")
            })
    }

    @Test func aDeepExportsTrieIsWalkedWithoutRecursionAndStopsAtItsNameBudget() throws {
        // 20,000 nodes in a chain, each exporting its name and adding "x":
        // names that sum to 200 MB from a 180 KB trie.
        var trie = Bytes()
        let nodeSize = 9
        for index in 0..<20_000 {
            trie.data += [2, 0, UInt8(index % 128)]  // terminal: flags 0, address
            if index == 19_999 { trie.u8(0); break }
            let next = (index + 1) * nodeSize
            trie.data += [1, 0x78, 0, UInt8(next & 0x7f) | 0x80, UInt8((next >> 7) & 0x7f) | 0x80, UInt8(next >> 14)]
        }
        let image = try Self.read(
            Self.image(
                linkedit: trie.data, commands: [HandMade.linkeditData(0x8000_0033, offset: 0x8000, size: UInt32(trie.count))]))
        #expect(image.exports.count > 1000)
        #expect(image.exports.count < 20_000)
        #expect(image.exports.dropFirst().first?.name == "x")
        #expect(image.warnings.map(\.description).contains { $0.contains("16 times the trie's size") })
    }

    // MARK: opcodes and tables

    @Test func bindAndRebaseOpcodesWithHugeRepeatCountsStop() throws {
        var stream = Bytes()
        stream.data += [0x11, 0x40] + Array("_x".utf8) + [0, 0x51, 0x71]  // dylib 1, "_x", pointer, segment 1
        stream.uleb(0)
        stream.u8(0xc0)  // BIND_OPCODE_DO_BIND_ULEB_TIMES_SKIPPING_ULEB
        stream.uleb(1 << 62)
        stream.uleb(0)
        stream.u8(0)
        let bindSize = stream.count
        stream.data += [0x11, 0x21]  // REBASE_OPCODE_SET_TYPE_IMM, SET_SEGMENT_AND_OFFSET_ULEB segment 1
        stream.uleb(0)
        stream.u8(0x60)  // REBASE_OPCODE_DO_REBASE_ULEB_TIMES
        stream.uleb(1 << 62)
        stream.u8(0)
        let image = try Self.read(
            Self.image(
                linkedit: stream.data,
                commands: [
                    HandMade.dyldInfo(
                        rebase: (0x8000 + UInt32(bindSize), UInt32(stream.count - bindSize)), bind: (0x8000, UInt32(bindSize)))
                ]))
        // Every pointer slot of __DATA (0x4000 bytes) once, then outside it.
        #expect(image.bindings.count == 0x4000 / 8)
        #expect(image.rebases.count == 0x4000 / 8)
        #expect(image.imports == [MachOImport(name: "_x", library: .dylib(1), source: .bind)])
        #expect(
            image.warnings.map(\.description).contains { $0.hasPrefix("bind opcodes at file offset") && $0.contains("more binds than") })
        #expect(
            image.warnings.map(\.description).contains { $0.hasPrefix("rebase opcodes at file offset") && $0.contains("more rebases than") }
        )
        #expect(image.warnings.map(\.description).contains { $0.contains("outside the segments") })
    }

    @Test func symbolNamesWithoutANulAreReadWithinABudget() throws {
        // 4,000 symbols named at offsets 1...4000 of a 60,000-byte string
        // table without a NUL.
        var symbols = Bytes()
        for index in 1...4000 {
            symbols.u32(UInt32(index))
            symbols.data += [0x0f, 1, 0, 0]
            symbols.u64(0x1000)
        }
        let strings = [UInt8](repeating: 0x61, count: 60_000)
        let linkedit = symbols.data + strings
        let image = try Self.read(
            Self.image(
                linkedit: linkedit,
                commands: [
                    HandMade.symtab(
                        symbolsOffset: 0x8000, count: 4000, stringsOffset: 0x8000 + UInt32(symbols.count),
                        stringsSize: UInt32(strings.count))
                ]))
        #expect(image.symbols.count == 4000)
        #expect(image.symbols.allSatisfy { $0.name.isEmpty })
        #expect(
            image.warnings.map(\.description).contains {
                $0.contains("4000 symbol names are outside the string table or not NUL-terminated")
            }, "\(image.warnings)")
    }

    @Test func aSymbolTablePastTheEndIsReadAsFarAsItGoes() throws {
        let image = try Self.read(
            Self.image(
                linkedit: [UInt8](repeating: 0, count: 32),
                commands: [HandMade.symtab(symbolsOffset: 0x8000, count: 0xffff_ffff, stringsOffset: 0x8000, stringsSize: 0xffff_ffff)]))
        #expect(image.symbols.count == 2)
        #expect(
            image.warnings.map(\.description).contains {
                $0.contains("the symbol table (4294967295 entries at 0x8000) runs past the end of the image; 2 read")
            })
        #expect(
            image.warnings.map(\.description).contains {
                $0.contains("the string table (4294967295 bytes at 0x8000) runs past the end of the image; 32 bytes read")
            })
    }

    // MARK: load commands

    @Test func ncmdsAndSizeofcmdsPastTheEndAreReadAsFarAsTheyGo() throws {
        let command = HandMade.dylib(0xc, "/usr/lib/libSystem.B.dylib")
        let bytes = HandMade.image(commands: [command], ncmds: 100_000, sizeofcmds: 0xffff_fff0)
        let image = try Self.read(bytes)
        #expect(image.dependencies.map(\.installName) == ["/usr/lib/libSystem.B.dylib"])
        #expect(image.warnings.count == 2)
        #expect(
            image.warnings.map(\.description).first?.hasPrefix(
                "load commands at file offset 0x20: sizeofcmds (4294967280) runs past the end of the image") == true)
        #expect(
            image.warnings.map(\.description).last?.hasPrefix(
                "load command 1 at file offset \(hexString(32 + command.count)): runs past the end") == true)
    }

    @Test func aLoadCommandOfSizeZeroEndsTheLoadCommands() throws {
        let first = HandMade.dylib(0xc, "/usr/lib/libSystem.B.dylib")
        let bytes = HandMade.image(commands: [
            first, HandMade.bare(0xc, cmdsize: 0, size: 8), HandMade.dylib(0xc, "/usr/lib/libobjc.A.dylib"),
        ])
        let image = try Self.read(bytes)
        #expect(image.loadCommands.count == 1)
        #expect(image.dependencies.map(\.installName) == ["/usr/lib/libSystem.B.dylib"])
        #expect(
            image.warnings.map(\.description) == [
                "load command 1 (LC_LOAD_DYLIB) at file offset \(hexString(32 + first.count)): cmdsize 0 is smaller than 8; the rest of the load commands not read"
            ])
    }

    @Test func malformedCommandsAreSkippedAndTheRestRead() throws {
        // A segment whose nsects runs past its command, a dylib whose name
        // offset is past its command, then a good dylib: ordinals still count
        // the malformed one, as dyld does.
        var segment = HandMade.segment("__TEXT", address: 0, size: 0x1000, fileOffset: 0, fileSize: 0x1000)
        segment.replaceSubrange(64..<68, with: [200, 0, 0, 0])
        var badDylib = HandMade.dylib(0xc, "/usr/lib/libbad.dylib")
        badDylib.replaceSubrange(8..<12, with: [0xff, 0, 0, 0])
        let image = try Self.read(
            HandMade.image(commands: [segment, badDylib, HandMade.dylib(0x8000_0018, "/usr/lib/libweak.dylib")], size: 0x1000))
        #expect(image.segments.map(\.name) == ["__TEXT"])
        #expect(image.segments.first?.sections.isEmpty == true)
        #expect(image.dependencies.map(\.installName) == ["/usr/lib/libweak.dylib"])
        #expect(image.dependencies.first?.ordinal == 2)
        #expect(image.dependencies.first?.kind == .weak)
        #expect(image.warnings.count == 2)
    }

    // MARK: fat files

    static func thinImage() -> [UInt8] {
        HandMade.image(commands: [HandMade.dylib(0xd, "@rpath/X.framework/X")])
    }

    @Test func fatSlicesThatOverlapOrRunPastTheEndAreSkippedWithAWarning() throws {
        let slice = Self.thinImage()
        let bytes = HandMade.fat(
            archs: [
                (HandMade.arm64, 0, 0x1000, UInt32(slice.count)),
                (0x0100_0007, 3, 0x1000 + 16, UInt32(slice.count)),  // overlaps the first
                (12, 0, 0x3000, 0x1000),  // past the end
            ],
            size: 0x2000, slices: [(0x1000, slice)])
        let file = try MachOFile(bytes: bytes, path: Self.path)
        #expect(file.container == .fat)
        #expect(file.slices.count == 1)
        #expect(file.slices.first?.cpu?.name == "arm64")
        #expect(file.images.first?.installName == "@rpath/X.framework/X")
        #expect(file.warnings.count == 2)
        #expect(file.warnings.map(\.description).first?.hasPrefix("fat_arch 1 (x86_64) at file offset 0x1c: its slice (0x1010..<") == true)
        #expect(file.warnings.map(\.description).first?.contains("overlaps the slice of arm64") == true)
        #expect(
            file.warnings.map(\.description).last
                == "fat_arch 2 (arm) at file offset 0x30: its slice (4096 bytes at 0x3000) runs past the end of the file (8192 bytes); slice skipped"
        )
    }

    @Test func aHugeNfatArchReadsOnlyTheEntriesThatFit() throws {
        let slice = Self.thinImage()
        let bytes = HandMade.fat(
            archs: [(HandMade.arm64, 0, 0x1000, UInt32(slice.count))], nfat: 0xffff_ffff, size: 0x2000, slices: [(0x1000, slice)])
        let file = try MachOFile(bytes: bytes, path: Self.path)
        #expect(file.warnings.map(\.description).first?.hasPrefix("fat_header at file offset 0x0: nfat_arch 4294967295 needs") == true)
        // The 409 entries that fit cover the whole file, the slice too: each
        // is skipped (the first overlaps them, the others are zeros: empty),
        // and the warnings stop at their limit with a count of the rest.
        #expect(file.slices.isEmpty)
        #expect(
            file.warnings.map(\.description).dropFirst().first
                == "fat_arch 0 (arm64) at file offset 0x8: its slice at 0x1000 overlaps the fat header; slice skipped")
        #expect(
            file.warnings.map(\.description).dropFirst(2).first == "fat_arch 1 (cputype:0) at file offset 0x1c: an empty slice; skipped")
        #expect(file.warnings.count == 65)
        #expect(file.warnings.map(\.description).last == "346 more warnings like these")
    }

    // MARK: static archives

    /// An `ar_hdr` for `name` and `size`.
    static func memberHeader(_ name: String, size: Int) -> [UInt8] {
        func field(_ text: String, _ width: Int) -> [UInt8] { Array(text.utf8) + Array(repeating: 0x20, count: width - text.utf8.count) }
        return field(name, 16) + field("0", 12) + field("0", 6) + field("0", 6) + field("644", 8) + field("\(size)", 10) + [0x60, 0x0a]
    }

    @Test func archiveMembersWithBSDAndGNUNamesAreImagesAndOtherMembersWarnings() throws {
        let object = HandMade.image(commands: [], fileType: 1, flags: 0x2000)
        let bsdName = Array("long_member_name.o".utf8) + [0, 0]
        let gnuNames = Array("gnu_member_name.o/\n".utf8) + [0x0a]
        var bytes = Array("!<arch>\n".utf8)
        bytes += Self.memberHeader("__.SYMDEF SORTED", size: 8) + [UInt8](repeating: 0, count: 8)
        bytes += Self.memberHeader("#1/\(bsdName.count)", size: bsdName.count + object.count) + bsdName + object
        bytes += Self.memberHeader("//", size: gnuNames.count) + gnuNames
        bytes += Self.memberHeader("/0", size: object.count) + object
        let notesAt = bytes.count
        bytes += Self.memberHeader("notes.txt/", size: 5) + Array("hello".utf8) + [0x0a]
        bytes += Self.memberHeader("short.o/", size: object.count) + object
        let file = try MachOFile(bytes: bytes, path: Self.path)
        #expect(file.container == .archive)
        guard case .archive(let archive) = try #require(file.slices.first).contents else {
            Issue.record("not an archive")
            return
        }
        #expect(archive.members.map(\.archiveMember) == ["long_member_name.o", "gnu_member_name.o", "short.o"])
        #expect(archive.members.allSatisfy { $0.fileType == .object && $0.warnings.isEmpty })
        #expect(archive.members.first?.fileOffset == 8 + 60 + 8 + 60 + bsdName.count)
        #expect(
            archive.warnings.map(\.description) == [
                "archive member notes.txt at file offset \(hexString(notesAt + 60)): not a Mach-O object; skipped"
            ])
    }

    @Test func anArchiveMemberHeaderPastTheEndEndsTheArchiveWithAWarning() throws {
        let object = HandMade.image(commands: [], fileType: 1)
        var bytes = Array("!<arch>\n".utf8) + Self.memberHeader("a.o/", size: object.count) + object
        bytes += Self.memberHeader("b.o/", size: 1_000_000)
        let file = try MachOFile(bytes: bytes, path: Self.path)
        #expect(file.images.map(\.archiveMember) == ["a.o"])
        guard case .archive(let archive) = try #require(file.slices.first).contents else { return }
        #expect(archive.warnings.count == 1)
        #expect(archive.warnings.map(\.description).first?.contains("its size field is not a number that fits in the archive") == true)
    }

    /// The walk that tells a Linux static library from a Mach-O one
    /// (before the archive is read whole) finds the Mach-O object behind a
    /// BSD long name only by reading `#1/24` from its space-padded field.
    @Test func aMachOObjectBehindASpacePaddedBSDLongNameIsReadNotTakenForALinuxStaticLibrary() throws {
        let object = HandMade.image(commands: [], fileType: 1, flags: 0x2000)
        let bsdName = Array("long_member_name.o".utf8) + [0, 0, 0, 0, 0, 0]
        var bytes = Array("!<arch>\n".utf8)
        bytes += Self.memberHeader("__.SYMDEF", size: 8) + [UInt8](repeating: 0, count: 8)
        bytes += Self.memberHeader("#1/\(bsdName.count)", size: bsdName.count + object.count) + bsdName + object
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.path("libLong.a").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try MachOReader.read(path: path).map(\.identity.member) == ["long_member_name.o"])
    }

    @Test func anArchiveMemberNamedBySpacesOnlyHasAnEmptyName() throws {
        let object = HandMade.image(commands: [], fileType: 1)
        let bytes = Array("!<arch>\n".utf8) + Self.memberHeader("", size: object.count) + object
        let file = try MachOFile(bytes: bytes, path: Self.path)
        #expect(file.images.map(\.archiveMember) == [""])
    }

    // MARK: errors

    @Test func filesThatAreNotMachOOrTooShortAreErrorsNamingThem() throws {
        #expect(throws: MachOError.notMachO(path: Self.path)) { try MachOFile(bytes: [], path: Self.path) }
        #expect(throws: MachOError.notMachO(path: Self.path)) { try MachOFile(bytes: Array("\u{7f}ELF rest".utf8), path: Self.path) }
        #expect(throws: MachOError.truncated(path: Self.path, structure: "mach_header_64", offset: 0, needed: 32, available: 12)) {
            try MachOFile(bytes: [0xcf, 0xfa, 0xed, 0xfe] + [UInt8](repeating: 0, count: 8), path: Self.path)
        }
        #expect(throws: MachOError.truncated(path: Self.path, structure: "fat_header", offset: 0, needed: 8, available: 6)) {
            try MachOFile(bytes: [0xca, 0xfe, 0xba, 0xbe, 0, 0], path: Self.path)
        }
        let error = MachOError.truncated(path: Self.path, structure: "mach_header_64", offset: 0, needed: 32, available: 12)
        #expect(error.description == "hand-made: truncated: the mach_header_64 at file offset 0x0 needs 32 bytes, the file has 12")
    }

    @Test func pathsThatCannotBeReadAreErrorsNamingThem() throws {
        let directory = try Fixtures.temporaryDirectory()
        let missing = directory.path("missing").path
        #expect(throws: MachOError.unreadable(path: missing, errno: ENOENT)) { try MachOFile(path: missing) }
        #expect(throws: MachOError.notRegularFile(path: directory.url.path)) { try MachOFile(path: directory.url.path) }
        let fifo = directory.path("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: MachOError.notRegularFile(path: fifo)) { try MachOFile(path: fifo) }
        #expect(MachOError.unreadable(path: missing, errno: ENOENT).description == "\(missing): cannot read: No such file or directory")
    }

    /// Read whole (8 MB) and mapped (24 MB).
    @Test(arguments: [8 << 20, 24 << 20])
    func aFileGrowingWhileItIsReadIsChangedWhileRead(size: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        let path = directory.path("growing").path
        let corpusFile = try #require(MachOCorpus.truthFiles.first { ($0["size"] as? Int ?? 0) > 1_000_000 })
        var contents = try Data(contentsOf: URL(fileURLWithPath: MachOCorpus.path(corpusFile)))
        while contents.count < size { contents += contents }
        try contents.write(to: URL(fileURLWithPath: path))
        let writer = FileHandle(forWritingAtPath: path)
        let done = Flag()
        let thread = Thread {
            while !done.isSet { writer?.seekToEndOfFile(); writer?.write(Data([0])) }
        }
        thread.start()
        defer {
            done.set()
            while thread.isExecuting { usleep(1000) }
        }
        var changed = 0
        for _ in 0..<50 {
            do { _ = try MachOFile(path: path) } catch {
                #expect(error == .changedWhileRead(path: path))
                changed += 1
            }
        }
        #expect(changed > 0)
    }
}

func hexString(_ value: Int) -> String { "0x" + String(value, radix: 16) }

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
