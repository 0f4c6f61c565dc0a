import LinkCheckImage
import LinkCheckLiterals
import SystemInterface

/// What ``CallScanner`` needs to know about an image's addresses, whatever
/// its format: its functions, the stubs a direct call can reach (ELF PLT
/// entries; Mach-O `__stubs`, `__auth_stubs` and `__objc_stubs`), the
/// pointer slots an indirect call can load (GOT), the Objective-C
/// references code loads, and read-only strings. Every address is a
/// virtual address. ``ImageLayout`` (ELF) and ``MachOCodeLayout`` provide
/// it.
protocol CodeLayout {
    /// The image's functions, sorted by address, one per address.
    var functions: FunctionTable { get }
    /// The stub whose first instruction is at `address`, when a direct
    /// call or jump there reaches an import (or a function of the image)
    /// through one.
    func stub(at address: UInt64) -> Stub?
    /// What the pointer slot at `address` holds, when an indirect call
    /// through it reaches a function: an import, or a function of the
    /// image.
    func pointerSlot(at address: UInt64) -> CallSite.Callee?
    /// The NUL-terminated printable string at `address` in read-only data,
    /// or, for Mach-O, the characters of the constant `CFString` at
    /// `address` (an `@"…"` literal in `__cfstring`); `nil` otherwise.
    func string(at address: UInt64) -> String?
    /// The selector the `__objc_selrefs` slot at `address` refers to.
    func selector(referencedAt address: UInt64) -> String?
    /// The class the `__objc_classrefs` slot at `address` refers to.
    func className(referencedAt address: UInt64) -> String?
    /// Every stub, by the address of its first instruction.
    var allStubs: [UInt64: Stub] { get }
    /// Every pointer slot that reaches a function, by address.
    var allPointerSlots: [UInt64: CallSite.Callee] { get }
    /// Every `__objc_selrefs` slot and its selector, by address.
    var allSelectorReferences: [UInt64: String] { get }
    /// The addresses code makes to load one of `literals`: where each is a
    /// whole NUL-terminated string of read-only data, and for Mach-O the
    /// constant `CFString`s of those characters.
    func addresses(ofLiterals literals: Set<String>) -> [UInt64]
}

extension CodeLayout {
    /// The index in ``functions`` of the function that starts at `address`,
    /// by binary search (no table of every function is kept).
    func function(startingAt address: UInt64) -> Int? {
        functions.function(startingAt: address)
    }

    func selector(referencedAt address: UInt64) -> String? { nil }
    func className(referencedAt address: UInt64) -> String? { nil }
    var allSelectorReferences: [UInt64: String] { [:] }
}

/// What a call to a stub reaches.
struct Stub {
    var callee: CallSite.Callee
    /// The selector an `objc_msgSend$sel` stub loads before it jumps to
    /// `objc_msgSend`; `nil` for other stubs.
    var selector: String?
}

/// Read-only data by virtual address, for the string literals code loads
/// the address of. The buffers belong to the caller and must outlive it.
struct ReadOnlyMemory {
    /// Sorted by start address.
    private var areas: [(start: UInt64, bytes: UnsafeRawBufferPointer)] = []

    /// Adds the bytes of a section mapped at virtual address `start`.
    mutating func add(_ bytes: UnsafeRawBufferPointer, at start: UInt64) {
        let position = areas.lastIndex(atOrBefore: start, address: \.start).map { $0 + 1 } ?? 0
        areas.insert((start, bytes), at: position)
    }

    /// The NUL-terminated string of printable characters (and tabs) at
    /// `address` (at most 4096 bytes) in the area that starts last at or
    /// before it, or `nil`.
    func string(at address: UInt64) -> String? {
        guard let index = areas.lastIndex(atOrBefore: address, address: \.start), case let area = areas[index],
            address - area.start < UInt64(area.bytes.count)
        else { return nil }
        let start = Int(address - area.start)
        let tail = area.bytes[start..<min(area.bytes.count, start + 4096)]
        guard let end = tail.firstIndex(of: 0), end > start else { return nil }
        let bytes = tail[start..<end]
        guard Self.isPrintable(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The addresses of the NUL-terminated strings of the areas that are
    /// one of `texts` (each whole, not the tail of a longer string), area
    /// by area in ascending order: one pass over each area for all of them
    /// (``LiteralPatterns/wholeStrings(in:)``), the areas being all of an
    /// image's read-only data.
    func addresses(of texts: Set<String>) -> [UInt64] {
        guard !texts.isEmpty else { return [] }
        let patterns = LiteralPatterns(texts.sorted())
        return areas.flatMap { start, bytes in
            patterns.wholeStrings(in: bytes.assumingMemoryBound(to: UInt8.self)).map { start + UInt64($0) }
        }
    }

    /// Whether `bytes` are printable characters (and tabs) only, as a
    /// literal's must be to count as one: no control bytes, no DEL.
    static func isPrintable(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 != 0x7f || $0 == 0x09 }
    }
}
