import LinkCheckImage
import LinkCheckMachO
import SystemInterface

/// Where the DWARF of one Mach-O image (one slice) is, and which address to
/// look up there for each of the image's addresses. In this order:
///
/// 1. a dSYM whose slice has the image's `LC_UUID` and a `__debug_info`
///    section (``DSYMSearch``: the `--dsym` paths, beside the bundle (in
///    the archive too, for an image unpacked from one), the `dSYMs/` of its
///    `.xcframework` library, an `.xcarchive`'s `dSYMs/`): its `__DWARF`
///    sections, the image's own addresses;
/// 2. else the debug map (``DebugMap``): each object file named by `N_OSO`
///    that exists and whose modification time (for an archive member
///    `libX.a(member.o)`, the member's `ar_date`) is the one the map
///    recorded (as `dsymutil` checks), its relocated DWARF
///    (``ObjectDWARF``), and an address inside function F moved to F's
///    address in the object (its symbol there) plus the offset into F;
/// 3. else the image's own `__DWARF` sections (``DWARFSegment``).
///
/// What was found but could not be used becomes a note, never an error. A
/// file unpacked from an archive is named `archive.zip:entry` in a note
/// (``ImageIdentity/displayPath(ofNearbyFile:)``), as reports name the
/// image.
struct MachODWARFPlan {
    /// Where the debug information came from.
    enum Origin: Equatable {
        /// The dSYM DWARF file, named as notes name it (`archive:entry` when
        /// it was unpacked from an archive).
        case dSYM(String)
        /// The object files of the image's debug map.
        case debugMap
        /// The image's own `__DWARF` segment.
        case image
        /// None: no dSYM, no usable debug map, no `__DWARF` in the image
        /// (stripped, or built without `-g`).
        case none
    }

    /// The bytes of one file's `__DWARF` sections.
    enum Sections {
        /// Mapped from the file (a dSYM, an image's own `__DWARF`): only
        /// the pages the lookup reads become resident.
        case mapped(MappedSections)
        /// In memory, by Mach-O section name (`__debug_info`): an object
        /// file of the debug map, its relocations applied.
        case owned([String: [UInt8]])
    }

    /// One file's DWARF, and the addresses to look up in it.
    struct Part {
        /// The DWARF file (`archive:entry` when it was unpacked from an
        /// archive), or the object file (`lib.a(member.o)` for an archive
        /// member): what a note about it names.
        var file: String
        /// The `__DWARF` sections.
        var sections: Sections
        /// Whether the file is little-endian.
        var littleEndian: Bool
        /// For each address in the file's DWARF, the image addresses it
        /// stands for.
        var addresses: [UInt64: [UInt64]]
    }

    var origin: Origin = .none
    var parts: [Part] = []
    var notes: [String] = []

    /// The plan for `addresses` (virtual addresses of the image) of the
    /// Mach-O image `image`, with `dsyms` the `--dsym` paths.
    init(addresses: Set<UInt64>, image: BinaryImage, dsyms: [String]) {
        let facts = image.facts.macho
        let uuid = facts?.uuid.flatMap(ImageUUID.init(bytes:))
        // The image is read again only for what its neutral model does not
        // keep: the debug map of a symbol table with debugging entries, or
        // the CPU of an image without a UUID.
        var machO: MachOImage?
        if facts?.hasDebugEntries != false || uuid == nil {
            do {
                machO = try MachOReader.withImage(image.identity) { machO, _ in machO }
            } catch {
                notes.append("\(image.name): cannot read its debug information: \(error)")
                return
            }
        }
        let identity = addresses.map { ($0, [$0]) }
        var dSYMsRejected = false
        if let uuid {
            switch dSYMPart(uuid: uuid, image: image, dsyms: dsyms) {
            case .found(var part):
                origin = .dSYM(part.file)
                part.addresses = Dictionary(uniqueKeysWithValues: identity)
                parts = [part]
                return
            case .damaged: return
            case .none(let rejected): dSYMsRejected = rejected
            }
        }
        if let machO, case let map = DebugMap(symbols: machO.symbols), !map.isEmpty {
            origin = .debugMap
            parts = debugMapParts(addresses, map: map, image: machO, name: image.name, dSYMsRejected: dSYMsRejected)
            return
        }
        do {
            let segment = try DWARFSegment(path: image.path)
            let slice = segment.slices.first { uuid != nil ? $0.uuid == uuid : $0.cpu == machO?.cpu }
            if let slice, !slice.sections.isEmpty {
                origin = .image
                parts = [
                    Part(
                        file: image.identity.displayPath, sections: .mapped(try segment.contents(of: slice)),
                        littleEndian: slice.littleEndian,
                        addresses: Dictionary(uniqueKeysWithValues: identity))
                ]
            }
        } catch {
            notes.append("\(image.name): its own debug information cannot be read: \(error); its call sites have no source")
        }
    }

    /// What the dSYM search found for an image.
    private enum DSYMMatch {
        /// The slice with the image's UUID, read (no addresses yet).
        case found(Part)
        /// The slice with the image's UUID, which could not be read (a
        /// note says why); nothing else is looked at: the dSYM is the
        /// build's.
        case damaged
        /// No candidate is usable; `rejected` when some were found (a note
        /// each says why).
        case none(rejected: Bool)
    }

    /// The dSYM slice whose `LC_UUID` is `uuid`, with debug information.
    /// Candidates of other builds, unreadable, or without debug
    /// information add a note each when none is usable.
    private mutating func dSYMPart(uuid: ImageUUID, image: BinaryImage, dsyms: [String]) -> DSYMMatch {
        var rejections: [String] = []
        for candidate in DSYMSearch.candidates(forImageAt: image.path, explicit: dsyms) {
            let name = image.identity.displayPath(ofNearbyFile: candidate)
            let segment: DWARFSegment
            do throws(MachOError) {
                segment = try DWARFSegment(path: candidate)
            } catch {
                rejections.append("\(name): not a readable dSYM (\(error.reason)): not used")
                continue
            }
            let slice = segment.slice(withUUID: uuid)
            let hasDebugInfo = slice?.sections.contains { $0.name == "__debug_info" && $0.hasFileContents && $0.size > 0 } ?? false
            guard let slice, hasDebugInfo else {
                // A slice cut short (a truncated fat dSYM) is dropped with a
                // warning: its UUID cannot be told; load commands cut short
                // (a truncated thin one) may have lost the sections.
                if let warning = segment.warnings.first {
                    rejections.append("\(name): damaged dSYM (\(warning)): not used")
                } else if slice != nil {
                    rejections.append("\(name) has the image's UUID but no debug information: not used")
                } else {
                    let others = segment.slices.map { "\($0.uuid?.description ?? "none") (\($0.cpu))" }.joined(separator: ", ")
                    rejections.append(
                        "\(name) has UUID \(others.isEmpty ? "none" : others), not that of \(image.name), \(uuid): not used")
                }
                continue
            }
            do throws(MachOError) {
                return .found(
                    Part(
                        file: name, sections: .mapped(try segment.contents(of: slice)), littleEndian: slice.littleEndian,
                        addresses: [:]))
            } catch {
                notes.append("\(name): damaged dSYM of \(image.name): \(error.reason); its call sites have no source")
                return .damaged
            }
        }
        notes += rejections
        return .none(rejected: !rejections.isEmpty)
    }

    /// The parts of the debug map's objects that hold `addresses`: each
    /// address in a function of the map, moved to the object's address of
    /// that function plus the offset into it. Objects missing, changed
    /// since the link (a plain object's modification time, an archive
    /// member's `ar_date`, against `N_OSO`'s), or unreadable add a note and
    /// no part; the objects missing, one note for the image (`name`): a
    /// framework built on another machine names the objects of that
    /// machine's build folder. `dSYMsRejected`: whether dSYMs were found but
    /// not used (that note then says no usable dSYM was found).
    private mutating func debugMapParts(
        _ addresses: Set<UInt64>, map: DebugMap, image: MachOImage, name imageName: String, dSYMsRejected: Bool
    ) -> [Part] {
        var byObject: [String: (object: DebugMap.Object, addresses: [(UInt64, DebugMap.Symbol)])] = [:]
        var order: [String] = []
        for address in addresses.sorted() {
            guard let (object, function) = map.function(containing: address) else { continue }
            if byObject[object.name] == nil { order.append(object.name) }
            byObject[object.name, default: (object, [])].addresses.append((address, function))
        }
        var parts: [Part] = []
        var missing: [(object: String, calls: Int)] = []
        defer {
            if let first = missing.first {
                let calls = missing.reduce(0) { $0 + $1.calls }
                let objects =
                    missing.count == 1
                    ? "the object file of its debug map \(first.object) is missing"
                    : "the object files of its debug map (\(first.object) and \(missing.count - 1) more) are missing"
                notes.append(
                    "\(imageName): no \(dSYMsRejected ? "usable " : "")dSYM found, and \(objects): \(calls) call site\(calls == 1 ? " has" : "s have") no source (--dsym names a dSYM)"
                )
            }
        }
        for name in order {
            guard let (object, wanted) = byObject[name] else { continue }
            var info = stat()
            guard stat(object.path, &info) == 0 else {
                missing.append((object.name, wanted.count))
                continue
            }
            if object.archiveMember == nil,
                changedSinceLink(object, modifiedAt: UInt64(info.modificationTime.seconds), imageName: imageName)
            {
                continue
            }
            let dwarf: ObjectDWARF
            do {
                dwarf = try ObjectDWARF(path: object.path, member: object.archiveMember, cpu: image.cpu)
            } catch {
                notes.append("\(object.name), an object file of the debug map of \(imageName), cannot be read: \(error)")
                continue
            }
            if object.archiveMember != nil, let date = dwarf.image.archiveMemberDate,
                changedSinceLink(object, modifiedAt: date, imageName: imageName)
            {
                continue
            }
            var moved: [UInt64: [UInt64]] = [:]
            for (address, function) in wanted {
                guard let start = dwarf.address(ofSymbol: function.name) else {
                    notes.append(
                        "\(object.name) no longer defines \(function.name), which the debug map of \(imageName) places at 0x\(String(function.address, radix: 16)): not used"
                    )
                    continue
                }
                moved[start &+ (address - function.address), default: []].append(address)
            }
            if !moved.isEmpty {
                parts.append(Part(file: object.name, sections: .owned(dwarf.sections), littleEndian: dwarf.littleEndian, addresses: moved))
            }
        }
        return parts
    }

    /// Whether the debug map's `object`, modified at `date` (seconds since
    /// the epoch: a plain object's modification time, an archive member's
    /// `ar_date`), changed since the link: the map recorded another time
    /// (`N_OSO`'s `n_value`, unless 0, which records none), as `dsymutil`
    /// compares them. A note says so.
    private mutating func changedSinceLink(_ object: DebugMap.Object, modifiedAt date: UInt64, imageName: String) -> Bool {
        guard object.modificationTime != 0, date != object.modificationTime else { return false }
        notes.append(
            "\(object.name), an object file of the debug map of \(imageName), changed since the link (modified at \(Self.utc(date)), the map says \(Self.utc(object.modificationTime))): not used"
        )
        return true
    }

    /// `seconds` since the epoch as a UTC time, `2026-12-03 06:12:16 UTC`
    /// (`gmtime_r(3)`); the number itself when it is past what `time_t`
    /// holds.
    static func utc(_ seconds: UInt64) -> String {
        var time = time_t(truncatingIfNeeded: seconds)
        var fields = tm()
        guard seconds <= UInt64(Int64.max), gmtime_r(&time, &fields) != nil else { return "\(seconds)" }
        func padded(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(fields.tm_year + 1900)-\(padded(fields.tm_mon + 1))-\(padded(fields.tm_mday)) "
            + "\(padded(fields.tm_hour)):\(padded(fields.tm_min)):\(padded(fields.tm_sec)) UTC"
    }
}
