import Foundation
import LinkCheckImage
import LinkCheckMachO
import LinkCheckTestSupport
import Testing

@testable import LinkCheckSourceLines

/// Which DWARF the source lines of a Mach-O image come from, on a debug
/// build of the sample's Uploader (``MachODebugBuild``): a dSYM beside the
/// framework, given with `--dsym`, in an `.xcarchive`; the debug map's
/// objects; nothing for a stripped image; and the notes for a dSYM of
/// another build, a truncated dSYM, a dSYM without debug information, and
/// objects missing or changed (plain ones, and members of a static
/// archive). The addresses, UUIDs and dates are checked against
/// `dsymutil -dump-debug-map` and `llvm-dwarfdump --uuid`.
@Suite struct MachODWARFPlanTests {
    static let llvm14 = "/usr/lib/llvm-14/bin/"

    /// The images of the file at `url`, one per slice.
    func images(_ url: URL) throws -> [BinaryImage] {
        try MachOReader.read(path: url.path)
    }

    /// An address inside each function of the image's debug map: its start
    /// plus 4, with the function.
    func functionAddresses(_ image: BinaryImage) throws -> [UInt64: DebugMap.Symbol] {
        let machO = try MachOReader.withImage(image.identity) { machO, _ in machO }
        var addresses: [UInt64: DebugMap.Symbol] = [:]
        for object in DebugMap(symbols: machO.symbols).objects {
            for function in object.symbols where function.isFunction { addresses[function.address + 4] = function }
        }
        return addresses
    }

    /// A dSYM beside the framework (Xcode's products folder): each slice of
    /// the fat framework takes the dSYM slice with its UUID, the sections
    /// of that slice, its addresses unchanged.
    @Test func dSYMBesideTheFrameworkIsUsedPerSlice() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let segment = try DWARFSegment(path: dwarf.path)
        let slices = try images(build.framework)
        #expect(slices.count == 2)
        for image in slices {
            let addresses = Set(try functionAddresses(image).keys)
            #expect(addresses.count == 5)
            let plan = MachODWARFPlan(addresses: addresses, image: image, dsyms: [])
            #expect(plan.origin == .dSYM(dwarf.path))
            #expect(plan.notes.isEmpty)
            let part = try #require(plan.parts.first)
            #expect(plan.parts.count == 1)
            #expect(part.addresses == Dictionary(uniqueKeysWithValues: addresses.map { ($0, [$0]) }))
            let slice = try #require(segment.slices.first { $0.cpu.name == image.identity.slice })
            guard case .mapped(let mapped) = part.sections else {
                Issue.record("the dSYM's sections of \(image.name) are not mapped")
                continue
            }
            #expect(mapped.mapping.path == dwarf.path)
            #expect(mapped.ranges == (try segment.contents(of: slice)).ranges)
            #expect(mapped.ranges["__debug_line"] != nil && mapped.ranges["__debug_info"] != nil)
        }
    }

    /// No dSYM: the debug map's objects, each address moved to the
    /// function's address in the object (`objAddr` of
    /// `dsymutil -dump-debug-map`) plus the offset.
    @Test func debugMapMovesAddressesIntoTheObjects() throws {
        let build = try MachODebugBuild()
        for target in MachODebugBuild.architectures {
            let image = try #require(try images(build.thinImage(target.arch)).first)
            let functions = try functionAddresses(image)
            let plan = MachODWARFPlan(addresses: Set(functions.keys), image: image, dsyms: [])
            #expect(plan.origin == .debugMap)
            #expect(plan.notes.isEmpty)
            #expect(
                Set(plan.parts.map(\.file)) == [
                    build.objectPath("UPUploader", target.arch).path, build.objectPath("UPLogin", target.arch).path,
                ])
            let oracle = try Self.objectAddresses(build.thinImage(target.arch), arch: target.arch)
            var moved = 0
            for part in plan.parts {
                for (objectAddress, imageAddresses) in part.addresses {
                    for imageAddress in imageAddresses {
                        let function = try #require(functions[imageAddress])
                        #expect(objectAddress == (try #require(oracle[function.name])) + 4, "\(function.name)")
                        moved += 1
                    }
                }
            }
            #expect(moved == functions.count)
        }
    }

    /// `objAddr` of each function in `dsymutil -dump-debug-map`.
    static func objectAddresses(_ image: URL, arch: String) throws -> [String: UInt64] {
        let yaml = try Command.run(llvm14 + "dsymutil", ["-dump-debug-map", "--arch", arch, image.path]).standardOutput
        var addresses: [String: UInt64] = [:]
        for line in yaml.split(separator: "\n") where line.contains("{ sym:") && !line.hasSuffix("size: 0x0 }") {
            let parts = line.components(separatedBy: "{ sym: ")[1].components(separatedBy: ", objAddr: 0x")
            addresses[parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "'"))] = UInt64(
                parts[1].components(separatedBy: ",")[0], radix: 16)
        }
        return addresses
    }

    /// A stripped image (`llvm-strip -x`, as Xcode's release strip: no
    /// debug map) with no dSYM: no DWARF, and no note.
    @Test func strippedImageHasNoDebugInformation() throws {
        let build = try MachODebugBuild()
        let stripped = build.directory.path("Stripped/Uploader")
        try FileManager.default.createDirectory(at: stripped.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Command.run(Self.llvm14 + "llvm-strip", ["-x", build.thinImage("arm64").path, "-o", stripped.path])
        let image = try #require(try images(stripped).first)
        let plan = MachODWARFPlan(addresses: [0x4004], image: image, dsyms: [])
        #expect(plan.origin == .none && plan.parts.isEmpty && plan.notes.isEmpty)
    }

    /// A dSYM of another build beside the framework: not used, a note with
    /// both UUIDs (as `llvm-dwarfdump --uuid` prints them), and the debug
    /// map is used instead.
    @Test func dSYMOfAnotherBuildIsNotUsed() throws {
        let build = try MachODebugBuild()
        let other = try MachODebugBuild(optimization: "-O0")
        let dwarf = try MachODebugBuild.makeDSYM(of: other.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let theirs = try Self.uuids(dwarf)
        let ours = try Self.uuids(build.framework)
        #expect(theirs["arm64"] != ours["arm64"])
        let image = try #require(try images(build.framework).first { $0.identity.slice == "arm64" })
        let plan = MachODWARFPlan(addresses: Set(try functionAddresses(image).keys), image: image, dsyms: [])
        #expect(plan.origin == .debugMap)
        #expect(
            plan.notes == [
                "\(dwarf.path) has UUID \(theirs["x86_64"]!) (x86_64), \(theirs["arm64"]!) (arm64), not that of \(image.name), \(ours["arm64"]!): not used"
            ])
    }

    /// `llvm-dwarfdump --uuid`'s UUID of each architecture.
    static func uuids(_ path: URL) throws -> [String: String] {
        let output = try Command.run(llvm14 + "llvm-dwarfdump", ["--uuid", path.path]).standardOutput
        var uuids: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 3 { uuids[String(words[2].dropFirst().dropLast())] = String(words[1]) }
        }
        return uuids
    }

    /// A fat dSYM truncated inside its last slice: the slice is dropped, so
    /// its UUID cannot be told; a note naming the dSYM, and the debug map is
    /// used in its place.
    @Test func truncatedDSYMIsANote() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let last = try #require(try DWARFSegment(path: dwarf.path).slices.max { $0.fileOffset < $1.fileOffset })
        let section = try #require(last.sections.max { $0.fileOffset < $1.fileOffset })
        try Data(contentsOf: dwarf).prefix(last.fileOffset + Int(section.fileOffset) + Int(section.size) / 2).write(to: dwarf)
        let image = try #require(try images(build.framework).first { $0.identity.slice == last.cpu.name })
        let plan = MachODWARFPlan(addresses: Set(try functionAddresses(image).keys), image: image, dsyms: [])
        #expect(plan.origin == .debugMap)
        #expect(plan.notes.count == 1)
        #expect(plan.notes.first?.hasPrefix("\(dwarf.path): damaged dSYM (") == true, "\(plan.notes)")
    }

    /// The times a note about a changed object gives: UTC, to the second.
    @Test func changedObjectTimesAreUTC() {
        #expect(MachODWARFPlan.utc(0) == "1970-01-01 00:00:00 UTC")
        #expect(MachODWARFPlan.utc(1_796_281_673) == "2026-12-03 07:07:53 UTC")
        #expect(MachODWARFPlan.utc(UInt64.max) == "\(UInt64.max)")
    }

    /// Objects of the debug map removed or changed since the link: a note
    /// each, and no part for them.
    @Test func missingAndChangedObjectsAreNotes() throws {
        let build = try MachODebugBuild()
        let image = try #require(try images(build.thinImage("arm64")).first)
        let addresses = Set(try functionAddresses(image).keys)
        let login = build.objectPath("UPLogin", "arm64")
        let uploader = build.objectPath("UPUploader", "arm64")
        try FileManager.default.removeItem(at: login)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: uploader.path)
        let plan = MachODWARFPlan(addresses: addresses, image: image, dsyms: [])
        #expect(plan.origin == .debugMap)
        #expect(plan.parts.isEmpty)
        #expect(plan.notes.count == 2)
        #expect(
            plan.notes.contains {
                $0
                    == "\(image.name): no dSYM found, and the object file of its debug map \(login.path) is missing: 1 call site has no source (--dsym names a dSYM)"
            })
        #expect(
            plan.notes.contains {
                $0.hasPrefix("\(uploader.path), an object file of the debug map of \(image.path), changed since the link")
            })
    }

    /// A dSYM that `dsymutil` made while the objects of the debug map were
    /// away (it warns, and writes the image's UUID and no `__debug_info`):
    /// a note, and the search goes on to the debug map.
    @Test func dSYMWithoutDebugInformationIsANote() throws {
        let build = try MachODebugBuild()
        let away = build.directory.path("Away")
        try FileManager.default.createDirectory(at: away, withIntermediateDirectories: true)
        let objects = MachODebugBuild.architectures.flatMap { target in
            ["UPUploader", "UPLogin"].map { build.objectPath($0, target.arch) }
        }
        for (index, object) in objects.enumerated() {
            try FileManager.default.moveItem(at: object, to: away.appendingPathComponent("\(index).o"))
        }
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        for (index, object) in objects.enumerated() {
            try FileManager.default.moveItem(at: away.appendingPathComponent("\(index).o"), to: object)
        }
        #expect(try Self.uuids(dwarf) == (try Self.uuids(build.framework)))
        let image = try #require(try images(build.framework).first { $0.identity.slice == "arm64" })
        let plan = MachODWARFPlan(addresses: Set(try functionAddresses(image).keys), image: image, dsyms: [])
        #expect(plan.notes == ["\(dwarf.path) has the image's UUID but no debug information: not used"])
        #expect(plan.origin == .debugMap)
        #expect(plan.parts.count == 2)
    }

    /// A debug map whose objects are members of a static archive
    /// (`libUploader.a(UPLogin.o)`): each member whose `ar_date` is the
    /// `timestamp` `dsymutil -dump-debug-map` reads for it is used, as a
    /// plain object is, its addresses moved as `dsymutil` moves them; a
    /// member archived again with another date changed since the link: a
    /// note with both dates, and no part for it.
    @Test func archiveMembersAreCheckedByTheirDate() throws {
        let build = try MachODebugBuild()
        let framework = try build.linkFromStaticArchives()
        let archive = build.staticArchive("arm64")
        let image = try #require(try images(framework).first { $0.identity.slice == "arm64" })
        let functions = try functionAddresses(image)
        let timestamps = try Self.objectTimestamps(framework, arch: "arm64")
        let uploader = "\(archive.path)(UPUploader.o)"
        let login = "\(archive.path)(UPLogin.o)"
        #expect(Set(timestamps.keys) == [uploader, login])
        let plan = MachODWARFPlan(addresses: Set(functions.keys), image: image, dsyms: [])
        #expect(plan.origin == .debugMap)
        #expect(plan.notes.isEmpty)
        #expect(Set(plan.parts.map(\.file)) == [uploader, login])
        let oracle = try Self.objectAddresses(framework, arch: "arm64")
        for part in plan.parts {
            for (objectAddress, imageAddresses) in part.addresses {
                for imageAddress in imageAddresses {
                    let function = try #require(functions[imageAddress])
                    #expect(objectAddress == (try #require(oracle[function.name])) + 4, "\(function.name)")
                }
            }
        }

        let linkedAt = try #require(timestamps[login])
        let object = build.objectPath("UPLogin", "arm64")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: TimeInterval(linkedAt + 3600))], ofItemAtPath: object.path)
        try FileManager.default.removeItem(at: archive)
        try MachOFixtures.staticArchive([build.objectPath("UPUploader", "arm64"), object], to: archive, keepingDates: true)
        let changed = MachODWARFPlan(addresses: Set(functions.keys), image: image, dsyms: [])
        #expect(
            changed.notes == [
                "\(login), an object file of the debug map of \(image.name), changed since the link (modified at \(MachODWARFPlan.utc(linkedAt + 3600)), the map says \(MachODWARFPlan.utc(linkedAt))): not used"
            ])
        #expect(changed.parts.map(\.file) == [uploader])
    }

    /// The `timestamp` of each object in `dsymutil -dump-debug-map`, by
    /// its `filename`.
    static func objectTimestamps(_ image: URL, arch: String) throws -> [String: UInt64] {
        let yaml = try Command.run(llvm14 + "dsymutil", ["-dump-debug-map", "--arch", arch, image.path]).standardOutput
        var timestamps: [String: UInt64] = [:]
        var filename: String?
        for line in yaml.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("- filename:") {
                filename = line.dropFirst("- filename:".count).trimmingCharacters(in: CharacterSet(charactersIn: " '"))
            } else if line.hasPrefix("timestamp:"), let name = filename {
                timestamps[name] = UInt64(line.dropFirst("timestamp:".count).trimmingCharacters(in: .whitespaces))
            }
        }
        return timestamps
    }

    /// `--dsym` naming a folder of dSYMs elsewhere, the DWARF file itself,
    /// or the bundle: used before anything beside the image.
    @Test func explicitDSYMIsUsed() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Symbols/Uploader.framework.dSYM"))
        let image = try #require(try images(build.framework).first)
        let addresses = Set(try functionAddresses(image).keys)
        for given in ["Symbols", "Symbols/Uploader.framework.dSYM", "Symbols/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader"] {
            let plan = MachODWARFPlan(addresses: addresses, image: image, dsyms: [build.directory.path(given).path])
            #expect(plan.origin == .dSYM(dwarf.path), "\(given)")
        }
        #expect(MachODWARFPlan(addresses: addresses, image: image, dsyms: []).origin == .debugMap)
    }

    /// An `.xcarchive`: the framework inside the app under `Products/`, its
    /// dSYM in `dSYMs/`; and Xcode's build folder, where a framework
    /// embedded in an app has its dSYM beside the app.
    @Test func archiveAndBuildFolderLayouts() throws {
        let build = try MachODebugBuild()
        let archive = build.directory.path("Shop.xcarchive")
        let embedded = archive.appendingPathComponent("Products/Applications/Shop.app/Frameworks/Uploader.framework/Uploader")
        try FileManager.default.createDirectory(at: embedded.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: build.framework, to: embedded)
        let archived = try MachODebugBuild.makeDSYM(
            of: build.framework, at: archive.appendingPathComponent("dSYMs/Uploader.framework.dSYM"))
        let image = try #require(try images(embedded).first)
        #expect(MachODWARFPlan(addresses: [0x4004], image: image, dsyms: []).origin == .dSYM(archived.path))

        let products = build.directory.path("Debug-iphoneos")
        let inApp = products.appendingPathComponent("Shop.app/Frameworks/Uploader.framework/Uploader")
        try FileManager.default.createDirectory(at: inApp.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: build.framework, to: inApp)
        let beside = try MachODebugBuild.makeDSYM(of: build.framework, at: products.appendingPathComponent("Uploader.framework.dSYM"))
        let appImage = try #require(try images(inApp).first)
        #expect(MachODWARFPlan(addresses: [0x4004], image: appImage, dsyms: []).origin == .dSYM(beside.path))
    }

    /// An `.xcframework` as `xcodebuild -create-xcframework -framework
    /// Uploader.framework -debug-symbols Uploader.framework.dSYM` makes it:
    /// each library's dSYMs in `<library identifier>/dSYMs/`, beside its
    /// framework. The image's own library's are looked at, not another's.
    @Test func xcframeworkLibraryDSYMs() throws {
        let build = try MachODebugBuild()
        let xcframework = build.directory.path("Uploader.xcframework")
        let simulator = xcframework.appendingPathComponent("ios-arm64_x86_64-simulator")
        let framework = simulator.appendingPathComponent("Uploader.framework/Uploader")
        try FileManager.default.createDirectory(at: framework.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: build.framework, to: framework)
        let dwarf = try MachODebugBuild.makeDSYM(
            of: build.framework, at: simulator.appendingPathComponent("dSYMs/Uploader.framework.dSYM"))
        let other = try MachODebugBuild(optimization: "-O0")
        try MachODebugBuild.makeDSYM(
            of: other.framework, at: xcframework.appendingPathComponent("ios-arm64/dSYMs/Uploader.framework.dSYM"))
        #expect(DSYMSearch.candidates(forImageAt: framework.path, explicit: []) == [dwarf.path])
        let slices = try images(framework)
        #expect(slices.count == 2)
        for image in slices {
            #expect(MachODWARFPlan(addresses: [0x4004], image: image, dsyms: []).origin == .dSYM(dwarf.path), "\(image.name)")
        }
    }
}
