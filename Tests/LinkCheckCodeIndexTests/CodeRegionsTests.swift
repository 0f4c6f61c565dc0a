import LinkCheckImage
import LinkCheckTestSupport
import Testing

@testable import LinkCheckCodeIndex

/// The walk over a section's regions gives the regions that looking each
/// address up gives, on random layouts: functions with and without sizes,
/// overlapping or leaving gaps, unwind-table boundaries inside and outside
/// functions, sections starting inside a function.
@Suite struct CodeRegionsTests {
    @Test func walkEqualsLookingEachAddressUp() {
        var random = SplitMix64(seed: 0x5EED_C0DE)
        var compared = 0
        for _ in 0..<400 {
            var addresses = Set<UInt64>()
            for _ in 0..<Int.random(in: 0...12, using: &random) { addresses.insert(0x1000 + UInt64.random(in: 0..<0x200, using: &random)) }
            let functions = addresses.sorted().enumerated().map { index, address in
                FunctionSymbol(
                    name: "f\(index)", address: address, size: [0, 1, 4, 0x30, 0x400].randomElement(using: &random)!,
                    isExported: false)
            }
            var boundaries = Set<UInt64>()
            for _ in 0..<Int.random(in: 0...8, using: &random) { boundaries.insert(0x1000 + UInt64.random(in: 0..<0x200, using: &random)) }
            let sectionStart = 0x1000 + UInt64.random(in: 0..<0x40, using: &random)
            let sectionEnd = sectionStart + UInt64.random(in: 1...0x200, using: &random)
            let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(sectionEnd - sectionStart), alignment: 16)
            defer { bytes.deallocate() }
            let regions = CodeRegions(
                functions: FunctionTable(functions),
                sections: [CodeBytes(address: sectionStart, fileOffset: 0, bytes: UnsafeRawBufferPointer(bytes))],
                boundaries: boundaries.sorted())

            var walked: [CodeRegion] = []
            regions.forEachRegion(in: 0) { walked.append($0) }
            var lookedUp: [CodeRegion] = []
            var address = sectionStart
            while address < sectionEnd {
                let region = regions.region(containing: address, in: 0)
                lookedUp.append(region)
                address = region.end
            }
            #expect(walked == lookedUp, "functions \(functions.map { ($0.address, $0.size) }), boundaries \(boundaries.sorted())")
            #expect(walked.first?.start == sectionStart && walked.last?.end == sectionEnd)
            compared += walked.count
        }
        #expect(compared > 2000)
    }
}
