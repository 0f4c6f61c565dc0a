import Foundation
import LinkCheckTestSupport
import Testing

/// Calls made only by conditional tail calls (Tests/Fixtures/conditional-tail-calls.c,
/// Tests/Fixtures/MachO/conditional-tail-calls-<arch>.s): x86_64 `jge
/// forbidden_api`, `jne kit_open@plt` (Mach-O: `jne` to dlsym's stub),
/// `jne load`; aarch64 `b.gt`, `cbnz`, `tbnz`. Each is a call, in both call-site modes: an error with its
/// caller and call path, not the provider's note alone and exit 0.
@Suite struct ConditionalTailCallTests {
    static let rules = Fixtures.sourceDirectory.appendingPathComponent("conditional-tail-calls.rules.json").path

    /// `caller → callee` with the branch's address, for every branch or
    /// call llvm-objdump shows to a function or PLT entry (`<kit_open@plt>`
    /// as `kit_open`).
    static func objdumpTransfers(_ library: String) throws -> [(address: String, caller: String, callee: String)] {
        let output = try ELFDisassembly.of(library)
        var transfers: [(String, String, String)] = []
        var function = ""
        for line in output.split(separator: "\n").map(String.init) {
            if let header = try Browser.captures(#"^[0-9a-f]+ <(.+)>:$"#, in: line).first {
                function = header[0]
            } else if let branch = try Browser.captures(#"^\s*([0-9a-f]+):\s+\S+\s+(?:.*, )?0x[0-9a-f]+ <([^+>@]+)(?:@plt)?>$"#, in: line)
                .first
            {
                transfers.append(("0x" + branch[0], function, branch[1]))
            }
        }
        return transfers
    }

    /// The rule findings (`TST…`) of `linkcheck check --call-sites mode` on
    /// `image`, one line each: rule, kind, severity, symbol, call sites
    /// (function and address), call path; and its exit status.
    static func check(_ image: String, mode: String) throws -> (findings: [String], status: Int32) {
        let output = try Command.linkcheck(["check", "--call-sites", mode, "--format", "json", "--rules", rules, image])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]]).filter { ($0["rule"] as? String)?.hasPrefix("TST") == true }
        return (
            findings.map { finding in
                let sites = (finding["callSites"] as? [[String: Any]] ?? []).map { "\($0["function"] ?? "?") \($0["address"] ?? "?")" }
                let path = (finding["path"] as? [String] ?? []).joined(separator: " → ")
                return
                    "\(finding["rule"] ?? "") \(finding["kind"] ?? "") \(finding["severity"] ?? "") \(finding["symbol"] ?? "") \(sites) \(path)"
            }, output.status
        )
    }

    @Test(arguments: ["x86_64-linux-gnu", "aarch64-linux-gnu"], ["targeted", "full"])
    func callsMadeOnlyByConditionalTailCallsAreFindings(target: String, mode: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let library = try Fixtures.compile(
            "conditional-tail-calls.c", to: directory.path("libcond.so"), target: target,
            flags: ["-shared", "-O2"]
        ).path
        let transfers = try Self.objdumpTransfers(library)
        func sites(to callee: String) -> [String] {
            transfers.filter { $0.callee == callee }.map { "\($0.caller) \($0.address)" }
        }
        #expect(sites(to: "forbidden_api").count == 1, "\(transfers)")
        #expect(sites(to: "kit_open").count == 2, "\(transfers)")
        #expect(sites(to: "load").count == 1, "\(transfers)")

        let (findings, status) = try Self.check(library, mode: mode)
        #expect(status == 1)
        let load = try #require(transfers.first { $0.caller == "load" && $0.callee == "dlopen" })
        #expect(
            findings == [
                "TST001 static-call error forbidden_api \(sites(to: "forbidden_api")) user_cond → forbidden_api",
                "TST001 provides note forbidden_api [] ",
                "TST002 import error kit_open \(sites(to: "kit_open")) open_if_set → kit_open",
                "TST003 import error dlopen [\"load \(load.address)\"] load_if_named → load → dlopen",
            ])
    }

    /// `caller → callee` with the branch's address, for every branch or
    /// call `llvm-objdump --macho -d` shows to a function (`_forbidden_api`)
    /// or a stub (`## symbol stub for: _dlopen`), without the leading `_`.
    static func machOTransfers(_ image: String) throws -> [(address: String, caller: String, callee: String)] {
        let output = try MachOOracle.objdump(["-d"], URL(fileURLWithPath: image))
        var transfers: [(String, String, String)] = []
        var function = ""
        for line in output.split(separator: "\n").map(String.init) {
            if let header = try Browser.captures(#"^_(\w+):$"#, in: line).first {
                function = header[0]
            } else if let branch = try Browser.captures(
                #"^\s*([0-9a-f]+):\t[0-9a-f ]+\t\S+\t(?:.*, )?(?:_(\w+)|0x[0-9a-f]+ (?:##|;) symbol stub for: _(\w+))$"#, in: line
            ).first {
                transfers.append(("0x" + branch[0], function, branch[1].isEmpty ? branch[2] : branch[1]))
            }
        }
        return transfers
    }

    @Test(arguments: ["x86_64", "arm64"], ["targeted", "full"])
    func machOCallsMadeOnlyByConditionalTailCallsAreFindings(arch: String, mode: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        let image = try MachOFixtures.link(
            MachOFixtures.Image(
                sources: MachOFixtures.sources("conditional-tail-calls-\(arch).s"),
                product: .dylib(installName: "@rpath/Cond.framework/Cond"),
                target: arch == "arm64" ? .arm64 : .x86_64Simulator, frameworks: [], libraries: ["System"]),
            to: directory.path("Cond")
        ).path
        let transfers = try Self.machOTransfers(image)
        func sites(to callee: String) -> [String] {
            transfers.filter { $0.callee == callee }.map { "\($0.caller) \($0.address)" }
        }
        #expect(sites(to: "forbidden_api").count == 2, "\(transfers)")
        #expect(sites(to: "load").count == 1, "\(transfers)")
        #expect(sites(to: "dlopen").count == 1, "\(transfers)")
        #expect(sites(to: "dlsym").count == (arch == "arm64" ? 0 : 1), "\(transfers)")

        let (findings, status) = try Self.check(image, mode: mode)
        #expect(status == 1)
        #expect(
            findings == [
                "TST001 static-call error forbidden_api \(sites(to: "forbidden_api")) user_cond → forbidden_api",
                "TST001 provides note forbidden_api [] ",
                "TST003 import error dlopen \(sites(to: "dlopen")) load_if_named → load → dlopen",
            ] + (arch == "arm64" ? [] : ["TST004 import error dlsym \(sites(to: "dlsym")) lookup → dlsym"]))
    }
}
