#if canImport(CLibELF)  // the code read through libelf: not in a build without it (Package.swift)
import CCapstone
import Foundation
import LinkCheckELF
import LinkCheckImage
import Testing

@testable import LinkCheckCodeIndex

/// Zydis's instruction lengths walk real x86-64 code as Capstone does, and
/// the direct branches read from them are Capstone's calls, jumps and
/// conditional jumps with an immediate target: what lets the call-path
/// search confirm a call without Capstone (``X86DirectBranches``).
@Suite struct X86DirectBranchesTests {
    /// Libraries of this Debian machine's multiarch folder, compiled by GCC
    /// (C and C++) with CET's `endbr64`, and the toolchain's Swift runtime.
    static let libraries = [
        "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
        "/opt/swift/usr/lib/swift/linux/libswiftCore.so",
    ]

    @Test(arguments: libraries)
    func walksAndBranchesAreCapstones(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            print("skipped \(path): not on this machine")
            return
        }
        // The code, and where the unwind table says functions start: the
        // regions the search walks start there.
        let (text, textAddress, starts) = try ELFFile.read(path) { file throws(InspectionError) -> ([UInt8], UInt64, [UInt64]) in
            let sections = try file.sections()
            guard let section = sections.first(where: { $0.name == ".text" }), let data = section.data, let base = data.pointee.d_buf
            else { return ([], 0, []) }
            return (
                Array(UnsafeRawBufferPointer(start: base, count: data.pointee.d_size)), section.header.sh_addr,
                file.unwindFunctionStarts(sections: sections)
            )
        }
        try #require(text.count > 100_000)
        let conditionalJumps: Set<UInt32> = Set(
            [
                X86_INS_JO, X86_INS_JNO, X86_INS_JB, X86_INS_JAE, X86_INS_JE, X86_INS_JNE, X86_INS_JBE, X86_INS_JA, X86_INS_JS,
                X86_INS_JNS, X86_INS_JP, X86_INS_JNP, X86_INS_JL, X86_INS_JGE, X86_INS_JLE, X86_INS_JG,
            ].map(\.rawValue))
        text.withUnsafeBytes { bytes in
            let section = CodeBytes(address: textAddress, fileOffset: 0, bytes: bytes)
            let disassembler = Disassembler(.x86_64)!
            var (walked, passedOver, branches, mismatched) = (0, 0, 0, 0)
            let bounds = starts.filter { $0 >= section.address && $0 < section.end } + [section.end]
            for (start, end) in zip(bounds, bounds.dropFirst()) where start < end {
                let region = CodeRegion(section: 0, start: start, end: end, function: nil)
                var capstone: [(address: UInt64, length: Int, branch: (X86DirectBranches.Kind, UInt64)?)] = []
                disassembler.decode(region, of: section) { instruction in
                    let id = instruction.pointee.id
                    var branch: (X86DirectBranches.Kind, UInt64)?
                    if linkcheck_x86_operand_count(instruction) == 1, linkcheck_x86_operand(instruction, 0).pointee.type == X86_OP_IMM {
                        let target = UInt64(bitPattern: linkcheck_x86_operand(instruction, 0).pointee.imm)
                        if id == X86_INS_CALL.rawValue { branch = (.call, target) }
                        if id == X86_INS_JMP.rawValue || conditionalJumps.contains(id) { branch = (.jump, target) }
                    }
                    capstone.append((instruction.pointee.address, Int(instruction.pointee.size), branch))
                }
                var zydis: [(address: UInt64, length: Int, branch: (X86DirectBranches.Kind, UInt64)?)] = []
                let whole = X86DirectBranches().forEachInstruction(in: region, of: section) { address, instruction in
                    zydis.append((address, instruction.count, X86DirectBranches.branch(instruction, at: address)))
                }
                guard whole else {
                    passedOver += 1
                    continue
                }
                walked += 1
                if zydis.map(\.address) != capstone.map(\.address) || zydis.map(\.length) != capstone.map(\.length) {
                    mismatched += 1
                    if mismatched <= 3 {
                        Issue.record("\(path): Capstone walks the region at \(String(region.start, radix: 16)) otherwise")
                    }
                }
                for (ours, theirs) in zip(zydis, capstone) where ours.address == theirs.address {
                    // Every branch read from the bytes is Capstone's; Capstone's
                    // others have a prefix (66: rel16, F2: bnd, 2E/3E: hints).
                    if let branch = ours.branch {
                        branches += 1
                        #expect(theirs.branch?.0 == branch.0 && theirs.branch?.1 == branch.1, "\(path) at \(ours.address)")
                    } else if theirs.branch != nil {
                        let first = text[Int(ours.address - section.address)]
                        #expect(
                            [0x66, 0xf2, 0xf3, 0x2e, 0x3e].contains(first) || (0x40...0x4f).contains(first), "\(path) at \(ours.address)")
                    }
                }
            }
            print("\(path): \(walked) regions walked, \(passedOver) passed over, \(branches) branches")
            #expect(mismatched == 0)
            #expect(walked > passedOver * 2, "\(path): \(walked) regions walked, \(passedOver) passed over")
            #expect(branches > 10_000, "\(path): \(branches) branches")
        }
    }
}
#endif
