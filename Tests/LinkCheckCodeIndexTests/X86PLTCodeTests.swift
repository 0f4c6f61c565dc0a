#if canImport(CLibELF)  // ELF read through libelf: not in a build without it (Package.swift)
import CCapstone
import Foundation
@testable import LinkCheckCodeIndex
import LinkCheckELF
import LinkCheckImage
import LinkCheckTestSupport
import Testing

/// The x86_64 PLT instructions read from their bytes (``X86PLTCode``) are
/// the ones Capstone decodes, instruction for instruction: every template
/// instruction on its own, and the PLTs of libraries linked by each linker
/// and of the system's libraries.
@Suite struct X86PLTCodeTests {
    /// The instructions Capstone decodes in `bytes`, as ``X86PLTCode``
    /// names them: a `jmp` through a RIP-relative operand with its
    /// displacement, another `jmp`, a `nop`, anything else.
    static func capstoneInstructions(_ bytes: UnsafeRawBufferPointer) throws -> [X86PLTCode.Instruction] {
        let disassembler = try #require(Disassembler(.x86_64))
        var instructions: [X86PLTCode.Instruction] = []
        disassembler.decode(bytes, at: 0) { instruction in
            let id = instruction.pointee.id
            var kind = X86PLTCode.Kind.other
            if id == X86_INS_NOP.rawValue {
                kind = .noOperation
            } else if id == X86_INS_JMP.rawValue {
                kind = .jump
                if linkcheck_x86_operand_count(instruction) == 1, let operand = linkcheck_x86_operand(instruction, 0),
                    operand.pointee.type == X86_OP_MEM, operand.pointee.mem.base == X86_REG_RIP
                {
                    kind = .jumpThroughSlot(displacement: Int32(operand.pointee.mem.disp))
                }
            }
            instructions.append(
                X86PLTCode.Instruction(offset: Int(instruction.pointee.address), length: Int(instruction.pointee.size), kind: kind))
        }
        return instructions
    }

    /// Each instruction the templates hold, with displacements and
    /// immediates of both signs.
    static let templateInstructions: [[UInt8]] = [
        [0xff, 0x25, 0x12, 0x34, 0x56, 0x00], [0xff, 0x25, 0xf0, 0xff, 0xff, 0xff],
        [0xf2, 0xff, 0x25, 0x9a, 0x2f, 0x00, 0x00], [0xf2, 0xff, 0x25, 0x00, 0x00, 0x00, 0x80],
        [0xff, 0x35, 0x02, 0x30, 0x00, 0x00], [0x68, 0x05, 0x00, 0x00, 0x00], [0x68, 0xff, 0xff, 0xff, 0xff],
        [0xe9, 0xe0, 0xff, 0xff, 0xff], [0xe9, 0x10, 0x00, 0x00, 0x00], [0xf2, 0xe9, 0xe2, 0xff, 0xff, 0xff],
        [0xf3, 0x0f, 0x1e, 0xfa], [0xcc], [0x41, 0x53], [0x41, 0xbb, 0x02, 0x00, 0x00, 0x00], [0x90], [0x66, 0x90], [0x0f, 0x1f, 0x00],
        [0x0f, 0x1f, 0x40, 0x00],
        [0x0f, 0x1f, 0x44, 0x00, 0x00], [0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00], [0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00],
        [0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00], [0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
        [0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00],
    ]

    @Test func everyTemplateInstructionIsCapstones() throws {
        for bytes in Self.templateInstructions {
            try bytes.withUnsafeBytes { buffer in
                let read = try #require(X86PLTCode.instructions(in: buffer), "\(bytes)")
                let expected = try Self.capstoneInstructions(buffer)
                #expect(read == expected, "\(bytes)")
                #expect(read.count == 1)
            }
        }
        let all = Self.templateInstructions.flatMap { $0 }
        try all.withUnsafeBytes { buffer in
            let expected = try Self.capstoneInstructions(buffer)
            #expect(X86PLTCode.instructions(in: buffer) == expected)
        }
    }

    /// Bytes that are not a template instruction, or one cut short, make
    /// the PLT Capstone's to decode.
    @Test func otherBytesAreNotRead() {
        for bytes: [UInt8] in [
            [0xff, 0x25, 0x00, 0x00], [0x41, 0xbb, 0x01, 0x00], [0x0f, 0x0b], [0x66], [0x90, 0x48, 0x89, 0xe5],
        ] {
            bytes.withUnsafeBytes { #expect(X86PLTCode.instructions(in: $0) == nil, "\(bytes)") }
        }
    }

    /// Reads the PLT sections (`.plt`, `.plt.sec`, `.plt.got`, `.iplt`) of
    /// the x86_64 ELF file at `path` both ways: how many of them
    /// ``X86PLTCode`` read, after expecting each to equal Capstone's.
    static func expectPLTsReadAsCapstoneDecodes(_ path: String) throws -> Int {
        var read = 0
        try ELFFile.read(path) { file throws(InspectionError) in
            guard try file.header().e_machine == 62 else { return }  // EM_X86_64
            for section in try file.sections() where section.name.hasPrefix(".plt") || section.name == ".iplt" {
                guard section.type == 1, let data = section.data, let base = data.pointee.d_buf else { continue }  // SHT_PROGBITS
                let bytes = UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)
                guard let instructions = X86PLTCode.instructions(in: bytes) else { continue }
                let expected = try? Self.capstoneInstructions(bytes)
                #expect(instructions == expected, "\(path) \(section.name)")
                read += 1
            }
        }
        return read
    }

    /// Every linker's PLT is read from its bytes: lld, GNU ld and gold, with
    /// lazy binding and with `-z now`, and the IBT PLTs (`.plt` and
    /// `.plt.sec` with `endbr64`) of lld and GNU ld.
    @Test(
        .enabled(if: Readelf.isAvailable, "needs binutils (GNU ld and gold)"),
        arguments: [
            ["-fuse-ld=lld"], ["-fuse-ld=lld", "-Wl,-z,now"], ["-fuse-ld=lld", "-fcf-protection=full", "-Wl,-z,force-ibt"],
            ["-fuse-ld=bfd"], ["-fuse-ld=bfd", "-Wl,-z,now"], ["-fuse-ld=bfd", "-fcf-protection=full", "-Wl,-z,ibtplt"],
            ["-fuse-ld=bfd", "-fcf-protection=full", "-Wl,-z,ibtplt", "-Wl,-z,now"], ["-fuse-ld=gold"], ["-fuse-ld=gold", "-Wl,-z,now"],
        ])
    func eachLinkersPLTIsReadAsCapstoneDecodesIt(flags: [String]) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try CallSiteTests.build("x86_64-linux-gnu", flags, in: directory)
        let sections = try Self.expectPLTsReadAsCapstoneDecodes(library.path)
        #expect(sections == (flags.contains("-fcf-protection=full") ? 2 : 1), "\(flags)")
    }

    /// The PLTs of the system's libraries (Debian's, linked by GNU ld, and
    /// the Swift toolchain's, linked by gold) and of the corpus' (mold's
    /// among them): those read from their bytes are Capstone's, and nearly
    /// all are read so.
    @Test func theSystemsPLTsReadAsCapstoneDecodesThem() throws {
        var files = 0
        var read = 0
        #expect(try Self.expectPLTsReadAsCapstoneDecodes(Fixtures.corpusDirectory.path + "/object-testfiles/base-mold-2.2") == 2)
        for folder in ["/usr/lib/x86_64-linux-gnu", "/opt/swift/usr/lib/swift/linux"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.contains(".so") {
                let path = "\(folder)/\(name)"
                guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == nil,
                    let sections = try? Self.expectPLTsReadAsCapstoneDecodes(path)
                else { continue }
                files += 1
                read += sections
            }
        }
        #expect(files > 50)
        #expect(read > files)
    }
}
#endif
