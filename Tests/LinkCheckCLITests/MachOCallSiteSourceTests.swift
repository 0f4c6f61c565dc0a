import Foundation
import LinkCheckSourceLines
import LinkCheckTestSupport
import Testing

/// `check` on a debug build of the sample's Uploader framework
/// (``MachODebugBuild``): with its dSYM beside it, every call site in the
/// JSON report has the source `llvm-symbolizer` gives in that dSYM, the
/// text line starts with it and SARIF places the result there; a dSYM of
/// another build is a notice, and the findings stay the same.
@Suite struct MachOCallSiteSourceTests {
    /// The JSON report of `check` with `arguments`.
    private func report(_ arguments: [String]) throws -> [String: Any] {
        let output = try Command.linkcheck(["check", "--format", "json"] + arguments)
        #expect(output.status == 0 || output.status == 1, "\(output.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    /// Each finding's rule and call-site addresses, and each call site's
    /// source as the report gives it.
    private func callSites(_ report: [String: Any]) throws -> [(rule: String, image: String, address: UInt64, source: [String: Any]?)] {
        let findings = try #require(report["findings"] as? [[String: Any]])
        return try findings.flatMap { finding in
            try (finding["callSites"] as? [[String: Any]] ?? []).map { site in
                (
                    finding["rule"] as? String ?? "", finding["image"] as? String ?? "",
                    try #require(UInt64((site["address"] as? String ?? "").dropFirst(2), radix: 16)), site["source"] as? [String: Any]
                )
            }
        }
    }

    /// Expects each of `sites` (of the Uploader framework, a slice named
    /// `[x86_64]` or `[arm64]`) to have the file, line and column that
    /// `llvm-symbolizer` gives for its address in that slice of the dSYM's
    /// DWARF file `dwarf`.
    private func expectSymbolizerSources(
        of sites: [(rule: String, image: String, address: UInt64, source: [String: Any]?)], in dwarf: URL
    ) throws {
        for site in sites {
            let slice = site.image.hasSuffix("[x86_64]") ? "x86_64" : "arm64"
            let expected = try #require(try Symbolizer.source(of: site.address, in: "\(dwarf.path):\(slice)"))
            let source = try #require(site.source, "\(site.rule) at 0x\(String(site.address, radix: 16))")
            #expect(source["file"] as? String == expected.location.file)
            #expect(source["line"] as? Int == expected.location.line)
            #expect(source["column"] as? Int == expected.location.column)
        }
    }

    @Test func callSitesHaveTheSourceOfTheDSYMBesideTheFramework() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        let framework = build.framework.deletingLastPathComponent().path
        let sites = try callSites(try report([framework]))
        #expect(sites.count >= 2)
        try expectSymbolizerSources(of: sites, in: dwarf)
        let text = try Command.linkcheck(["check", "--source-root", Fixtures.repositoryRoot.path, framework]).standardOutput
        #expect(text.contains("\nSamples/PhotosApp/Frameworks/Uploader/UPLogin.m:"), "\(text)")

        // A dSYM of another build in its place: a notice, no source, the
        // same findings at the same addresses.
        let other = try MachODebugBuild(optimization: "-O0")
        try FileManager.default.removeItem(at: build.directory.path("Products/Uploader.framework.dSYM"))
        try MachODebugBuild.makeDSYM(of: other.framework, at: build.directory.path("Products/Uploader.framework.dSYM"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        let mismatched = try report([framework])
        let notices = try #require(mismatched["notices"] as? [String])
        #expect(notices.contains { $0.hasPrefix("\(dwarf.path) has UUID ") && $0.hasSuffix(": not used") })
        let unlocated = try callSites(mismatched)
        #expect(unlocated.map { "\($0.rule) \($0.address)" } == sites.map { "\($0.rule) \($0.address)" })
        #expect(unlocated.allSatisfy { $0.source == nil })
    }

    /// A Carthage zip (`carthage build --archive`:
    /// `Carthage/Build/iOS/Uploader.framework` beside its
    /// `Uploader.framework.dSYM`, a static framework in `Static/`), the
    /// objects of the debug map gone: the same images as the unzipped
    /// folder, named `zip:entry`, and every call site the source
    /// `llvm-symbolizer` gives in the dSYM, from the dSYM the zip carries.
    /// A damaged dSYM in the zip is named `zip:entry` in the notice, never
    /// by the folder it was unpacked into, and in one notice, though each
    /// slice of the fat framework looked at it.
    @Test func carthageZipGivesTheSourcesOfItsFolder() throws {
        let build = try MachODebugBuild()
        let folder = build.directory.path("Unzipped")
        let platform = folder.appendingPathComponent("Carthage/Build/iOS")
        try FileManager.default.createDirectory(
            at: platform.appendingPathComponent("Uploader.framework"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: build.framework, to: platform.appendingPathComponent("Uploader.framework/Uploader"))
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: platform.appendingPathComponent("Uploader.framework.dSYM"))
        try FileManager.default.createDirectory(at: platform.appendingPathComponent("Static"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try MachOFixture.staticFramework.path().deletingLastPathComponent(),
            to: platform.appendingPathComponent("Static/Tracker.framework"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        func zip(_ name: String) throws -> URL {
            let zip = build.directory.path(name)
            let writer = try ZipWriter(path: zip)
            try writer.addDirectory(folder.appendingPathComponent("Carthage"), as: "Carthage")
            try writer.close()
            return zip
        }
        let zipped = try zip("Uploader.framework.zip")
        /// Each image's path less `prefix` (the folder's, the zip's).
        func images(_ report: [String: Any], less prefix: String) throws -> Set<String> {
            let images = try #require(report["images"] as? [[String: Any]])
            return Set(images.map { ($0["path"] as? String ?? "").replacingOccurrences(of: prefix, with: "") })
        }
        /// Each call site's rule, address and source, sorted.
        func located(_ sites: [(rule: String, image: String, address: UInt64, source: [String: Any]?)]) -> [String] {
            sites.map { site in
                let source = site.source.map { "\($0["file"] ?? ""):\($0["line"] ?? ""):\($0["column"] ?? "")" } ?? "none"
                return "\(site.rule) 0x\(String(site.address, radix: 16)) \(source)"
            }.sorted()
        }
        let unzippedReport = try report([folder.path])
        let zippedReport = try report([zipped.path])
        let carthageImages: Set = ["Carthage/Build/iOS/Uploader.framework/Uploader", "Carthage/Build/iOS/Static/Tracker.framework/Tracker"]
        #expect(try images(unzippedReport, less: folder.path + "/") == carthageImages)
        #expect(try images(zippedReport, less: zipped.path + ":") == carthageImages)
        let sites = try callSites(unzippedReport).filter { $0.image.contains("Uploader.framework") }
        #expect(sites.count >= 2)
        try expectSymbolizerSources(of: sites, in: dwarf)
        #expect(located(try callSites(zippedReport)) == located(try callSites(unzippedReport)))
        #expect(try callSites(zippedReport).allSatisfy { $0.image.hasPrefix(zipped.path + ":Carthage/Build/iOS/") })
        #expect(zippedReport["notices"] as? [String] == [])

        // Cut short after its fat header: each slice of the dSYM is past
        // the end of the file, which is also an input that cannot be
        // inspected (exit status 2).
        try Data(contentsOf: dwarf).prefix(100).write(to: dwarf)
        let damaged = try zip("Damaged.zip")
        let unpackedUnder = build.directory.path("Temporary")
        try FileManager.default.createDirectory(at: unpackedUnder, withIntermediateDirectories: true)
        let output = try Command.linkcheck(["check", "--format", "json", damaged.path], environment: ["TMPDIR": unpackedUnder.path])
        #expect(output.status == 2, "\(output.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let notices = try #require(document["notices"] as? [String])
        let entry = "\(damaged.path):Carthage/Build/iOS/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader"
        // The same note for both slices of the fat framework: given once.
        #expect(notices.filter { $0.hasPrefix("\(entry): damaged dSYM (") }.count == 1, "\(notices)")
        let arm64Sites = sites.filter { $0.image.hasSuffix("[arm64]") }.count
        #expect(arm64Sites >= 2)
        #expect(
            notices.contains(
                "\(damaged.path):Carthage/Build/iOS/Uploader.framework/Uploader[arm64]: no usable dSYM found, and the object file of its debug map \(build.objectPath("UPLogin", "arm64").path) is missing: \(arm64Sites) call sites have no source (--dsym names a dSYM)"
            ), "\(notices)")
        #expect(!notices.contains { $0.contains(unpackedUnder.path) }, "\(notices)")
    }

    /// A zipped `.xcarchive` (a CI artifact, `Shop.xcarchive.zip`): the
    /// debug build of Uploader in `Products/Applications/Shop.app`, its dSYM
    /// in `dSYMs/`, the objects of the debug map gone. The zip gives the
    /// images, roles and extension types the folder gives, named
    /// `zip:entry`, every call site the source `llvm-symbolizer` gives in
    /// the archive's dSYM, and the folder's notices.
    @Test func zippedXCArchiveGivesTheSourcesOfItsFolder() throws {
        let build = try MachODebugBuild()
        let folder = build.directory.path("Archived")
        let archive = folder.appendingPathComponent("Shop.xcarchive")
        let applications = archive.appendingPathComponent("Products/Applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try MachOFixture.shopApp.path(), to: applications.appendingPathComponent("Shop.app"))
        let uploader = applications.appendingPathComponent("Shop.app/Frameworks/Uploader.framework/Uploader")
        try FileManager.default.removeItem(at: uploader)
        try FileManager.default.copyItem(at: build.framework, to: uploader)
        let dwarf = try MachODebugBuild.makeDSYM(
            of: build.framework, at: archive.appendingPathComponent("dSYMs/Uploader.framework.dSYM"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        let zipped = build.directory.path("Shop.xcarchive.zip")
        let writer = try ZipWriter(path: zipped)
        try writer.addDirectory(archive, as: "Shop.xcarchive")
        try writer.close()

        /// Each image's path less `prefix`, its role and extension type.
        func images(_ report: [String: Any], less prefix: String) throws -> [String] {
            let images = try #require(report["images"] as? [[String: Any]])
            return images.map { image in
                let path = (image["path"] as? String ?? "").replacingOccurrences(of: prefix, with: "")
                return "\(path) \(image["role"] ?? "") \(image["extensionType"] ?? "")"
            }.sorted()
        }
        /// Each call site's image less `prefix`, rule, address and source.
        func located(_ report: [String: Any], less prefix: String) throws -> [String] {
            try callSites(report).map { site in
                let source = site.source.map { "\($0["file"] ?? ""):\($0["line"] ?? ""):\($0["column"] ?? "")" } ?? "none"
                return
                    "\(site.image.replacingOccurrences(of: prefix, with: "")) \(site.rule) 0x\(String(site.address, radix: 16)) \(source)"
            }.sorted()
        }
        let folderReport = try report([archive.path])
        let zippedReport = try report([zipped.path])
        let roles = try images(folderReport, less: folder.path + "/")
        #expect(roles.contains("Shop.xcarchive/Products/Applications/Shop.app/Shop app "), "\(roles)")
        #expect(roles.contains("Shop.xcarchive/Products/Applications/Shop.app/PlugIns/Share.appex/Share extension share"), "\(roles)")
        #expect(
            roles.contains("Shop.xcarchive/Products/Applications/Shop.app/PlugIns/Stickers.appex/Stickers extension imessage"),
            "\(roles)")
        #expect(try images(zippedReport, less: zipped.path + ":") == roles)
        #expect(try located(zippedReport, less: zipped.path + ":") == located(folderReport, less: folder.path + "/"))
        let sites = try callSites(zippedReport).filter { $0.image.contains("Uploader.framework") }
        #expect(sites.count >= 2)
        try expectSymbolizerSources(of: sites, in: dwarf)
        // Shop itself has no dSYM in the archive: the one there is
        // Uploader's, named by its entry, in the notice the folder gives.
        let notices = try #require(zippedReport["notices"] as? [String])
        let dSYMEntry = "\(zipped.path):Shop.xcarchive/dSYMs/Uploader.framework.dSYM/Contents/Resources/DWARF/Uploader"
        let shop = "\(zipped.path):Shop.xcarchive/Products/Applications/Shop.app/Shop"
        #expect(notices.count == 1, "\(notices)")
        #expect(notices.allSatisfy { $0.hasPrefix("\(dSYMEntry) has UUID ") && $0.contains(", not that of \(shop), ") }, "\(notices)")
        let folderNotices = try #require(folderReport["notices"] as? [String])
        #expect(notices == folderNotices.map { $0.replacingOccurrences(of: folder.path + "/", with: zipped.path + ":") })
    }

    /// `--dsym` finds a dSYM kept elsewhere; SARIF puts the result at the
    /// source.
    @Test func explicitDSYMAndSARIF() throws {
        let build = try MachODebugBuild()
        let dwarf = try MachODebugBuild.makeDSYM(of: build.framework, at: build.directory.path("Symbols/Uploader.framework.dSYM"))
        for name in ["UPUploader", "UPLogin"] {
            for arch in ["arm64", "x86_64"] { try FileManager.default.removeItem(at: build.objectPath(name, arch)) }
        }
        let framework = build.framework.deletingLastPathComponent().path
        #expect(try callSites(try report([framework])).allSatisfy { $0.source == nil })
        let sites = try callSites(try report(["--dsym", build.directory.path("Symbols").path, framework]))
        #expect(!sites.isEmpty && sites.allSatisfy { $0.source != nil })
        let sarif = try Command.linkcheck([
            "check", "--format", "sarif", "--source-root", Fixtures.repositoryRoot.path, "--dsym", dwarf.path, framework,
        ])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let placed = results.compactMap { result -> String? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return (location?["artifactLocation"] as? [String: String])?["uri"]
        }
        #expect(placed.contains("Samples/PhotosApp/Frameworks/Uploader/UPLogin.m"))
    }
}
