import Foundation
import LinkCheckTestSupport
import Testing

/// `linkcheck inspect --format json` on every file and slice of the Mach-O
/// corpus agrees with its `truth.json`, which LLVM's `llvm-objdump --macho`
/// and `llvm-nm -m` made (`../shared/corpus/macho/make_truth.py`).
@Suite struct MachOInspectTests {
    static let corpus = Fixtures.corpusDirectory.appendingPathComponent("macho")

    /// llvm-nm's `(from X)`: an install name's file name without `.dylib`
    /// and a one-letter version (`/usr/lib/libSystem.B.dylib` → `libSystem`).
    static func shortLibrary(_ installName: String) -> String {
        var name = installName.split(separator: "/").last.map(String.init) ?? installName
        if name.hasSuffix(".dylib") { name.removeLast(".dylib".count) }
        if name.count > 2, name.dropLast().hasSuffix("."), name.last!.isUppercase { name.removeLast(2) }
        return name
    }

    @Test func everySliceAgreesWithTheCorpusTruth() throws {
        let truth = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Self.corpus.appendingPathComponent("truth.json"))) as? [String: Any])
        let files = try #require(truth["files"] as? [[String: Any]])
        let paths = files.compactMap { $0["path"] as? String }.map { Self.corpus.appendingPathComponent($0).path }
        let output = try Command.linkcheck(["inspect", "--format", "json"] + paths)
        #expect(output.status == 0, "\(output.standardError)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [[String: Any]])
        var compared = 0
        for file in files {
            let path = Self.corpus.appendingPathComponent(file["path"] as! String).path
            let sliced = ["fat", "fat-archive"].contains(file["kind"] as? String)
            for slice in file["slices"] as? [[String: Any]] ?? [] where slice["container"] as? String == "image" {
                let arch = slice["arch"] as! String
                let entry = try #require(
                    entries.first { $0["path"] as? String == path && (!sliced || $0["slice"] as? String == arch) },
                    "\(path) \(arch)")
                let what = "\(file["path"]!) [\(arch)]"
                #expect(entry["format"] as? String == "macho", "\(what)")
                #expect(entry["machine"] as? String == arch, "\(what)")
                #expect(entry["type"] as? String == "MH_" + (slice["filetype"] as! String), "\(what)")
                #expect((entry["platform"] as? String)?.lowercased() == (slice["platform"] as? String)?.lowercased(), "\(what)")
                #expect(entry["minOS"] as? String == slice["minOS"] as? String, "\(what)")
                let sdk = slice["sdk"] as? String
                #expect(entry["sdk"] as? String == (sdk == "n/a" ? nil : sdk), "\(what)")
                #expect(entry["installName"] as? String == slice["dylibId"] as? String, "\(what)")
                #expect(entry["needed"] as? [String] == slice["dylibs"] as? [String], "\(what)")
                let weak = (entry["dependencies"] as? [[String: String]] ?? []).filter { $0["kind"] == "weak" }.map { $0["name"]! }
                #expect(weak == slice["weakDylibs"] as? [String], "\(what)")
                #expect(entry["rpaths"] as? [String] == slice["rpaths"] as? [String], "\(what)")
                #expect(entry["appExtensionSafe"] as? Bool == slice["appExtensionSafe"] as? Bool, "\(what)")
                // Imports per library: what dyld binds (chained fixups or
                // bind opcodes), as truth.json counts it.
                if slice["fixups"] as? String != "none", let bound = slice["boundByLibrary"] as? [String: Int], !bound.isEmpty {
                    var byLibrary: [String: Set<String>] = [:]
                    // Weak-definition lookups from the weak-bind stream (bind
                    // opcodes) name no library: truth.json counts them
                    // apart; a chained import with the weak-lookup ordinal
                    // it counts as "weak".
                    let opcodes = slice["fixups"] as? String == "dyld-info"
                    for imported in entry["imports"] as? [[String: String]] ?? [] {
                        guard let library = imported["library"], !(opcodes && library == "weak") else { continue }
                        byLibrary[Self.shortLibrary(library), default: []].insert(imported["name"]!)
                    }
                    #expect(byLibrary.mapValues(\.count) == bound, "\(what)")
                }
                let classes = Set(entry["objcClassRefs"] as? [String] ?? [])
                if slice["importsUIApplication"] as? Bool == true,
                    (slice["UIApplicationEvidence"] as? [String])?.contains("dyld-bind") == true
                {
                    #expect(classes.contains("UIApplication"), "\(what)")
                }
                let interesting = Set(slice["selrefs_of_interest"] as? [String] ?? [])
                let selectors = Set(entry["selectorRefs"] as? [String] ?? [])
                let asked: Set<String> = [
                    "sharedApplication", "openURL:", "openURL:options:completionHandler:", "beginBackgroundTaskWithExpirationHandler:",
                    "beginBackgroundTaskWithName:expirationHandler:", "endBackgroundTask:", "setNetworkActivityIndicatorVisible:",
                    "statusBarOrientation", "keyWindow", "setStatusBarStyle:", "applicationState", "canOpenURL:",
                ]
                #expect(selectors.intersection(asked) == interesting, "\(what)")
                compared += 1
            }
        }
        #expect(compared == 27, "every thin image and fat slice of the corpus, archive members aside")
    }
}
