import Foundation
import LinkCheckAnalysis
import LinkCheckImage
import LinkCheckTestSupport
import Testing

@Suite struct ConfigurationTests {
    /// `json` as `linkcheck.json` in a new folder that holds `folders`.
    static func load(_ json: String, folders: [String] = []) throws -> (Result<Configuration, ConfigurationFailure>, TemporaryDirectory) {
        let directory = try Fixtures.temporaryDirectory()
        for folder in folders {
            try FileManager.default.createDirectory(at: directory.path(folder), withIntermediateDirectories: true)
        }
        let file = directory.path("linkcheck.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        return (Configuration.load(path: file.path), directory)
    }

    @Test func aFullConfiguration() throws {
        let parent = try Fixtures.temporaryDirectory()
        let (result, directory) = try Self.load(
            """
            {"extensions": {"PhotoEditorExtension": "share", "Stickers": "imessage"}, "app": "PhotoEditorApp",
             "frameworks": ["ShareKit"], "requiredArchitectures": ["arm64", "x86_64"], "rules": ["rules/own.json"],
             "searchPaths": ["lib", "\(parent.url.path)"],
             "suppressions": [{"rule": "SEL001", "image": "ShareKit", "symbol": "sharedApplication", "reason": "our own class"}]}
            """, folders: ["lib"])
        let configuration = try result.get()
        #expect(configuration.extensions == ["PhotoEditorExtension": .share, "Stickers": .imessage])
        #expect(configuration.apps == ["PhotoEditorApp"])
        #expect(configuration.frameworks == ["ShareKit"])
        #expect(configuration.requiredArchitectures == ["arm64", "x86_64"])
        #expect(configuration.rules == [directory.path("rules/own.json").path])
        #expect(configuration.searchPaths == [directory.path("lib").path, parent.url.path])
        #expect(
            configuration.suppressions == [
                Suppression(
                    rule: "SEL001", image: "ShareKit", symbol: "sharedApplication", reason: "our own class", jsonPath: "$.suppressions[0]")
            ])
    }

    @Test func everyProblemNamesItsKeyAndFile() throws {
        let (result, directory) = try Self.load(
            """
            {"extensions": {"Ext": "spaceship", "Other": 3}, "app": 7, "frameworks": "ShareKit",
             "requiredArchitectures": ["vax"], "colour": "red",
             "suppressions": [{"rule": "SEL001", "image": "ShareKit"}, {"rule": "X", "image": "Y", "reason": "z", "why": 1}]}
            """)
        let file = directory.path("linkcheck.json").path
        guard case .failure(let failure) = result else {
            Issue.record("expected problems")
            return
        }
        #expect(
            failure.problems.map(\.description) == [
                "\(file): $.colour: unknown key 'colour' (known: app, byNameUses, extensions, frameworks, requiredArchitectures, rules, searchPaths, suppressions)",
                "\(file): $.extensions.Ext: unknown extension type 'spaceship' (known: action, broadcast, call-directory, credential-provider, file-provider, imessage, intents, keyboard, message-filter, network, notification-content, notification-service, photo-editing, quicklook, safari, share, spotlight, today, widget)",
                "\(file): $.extensions.Other: expected an extension type (a string)",
                "\(file): $.app: expected the app's image name, or an array of names",
                "\(file): $.frameworks: expected an array of strings",
                "\(file): $.requiredArchitectures[0]: unknown architecture 'vax'",
                "\(file): $.suppressions[0]: missing required field 'reason'",
                "\(file): $.suppressions[1].why: unknown key 'why'",
            ])
    }

    @Test func aKeyTwiceIsAProblem() throws {
        let (result, directory) = try Self.load(#"{"app": "A", "suppressions": [], "app": "B"}"#)
        guard case .failure(let failure) = result else { Issue.record("expected a problem"); return }
        #expect(
            failure.problems.map(\.description) == [
                "\(directory.path("linkcheck.json").path): $.app: key 'app' appears more than once in this object (only one of the values would be used)"
            ])
    }

    @Test func aTrailingCommaIsAnErrorWithItsLineAndColumn() throws {
        let (result, directory) = try Self.load(
            """
            {
              "app": "PhotoEditorApp",
              "frameworks": ["ShareKit", "EditorKit",],
            }
            """)
        guard case .failure(let failure) = result else { Issue.record("expected a problem"); return }
        #expect(
            failure.problems.map(\.errorLine) == [
                "\(directory.path("linkcheck.json").path):3:41: error: invalid JSON: trailing comma: JSON allows no comma after the last element of an array"
            ])
    }

    @Test func aSearchPathThatIsNotAFolderIsAnError() throws {
        let (result, directory) = try Self.load(#"{"searchPaths": ["lib", "missing", "linkcheck.json"]}"#, folders: ["lib"])
        guard case .failure(let failure) = result else { Issue.record("expected problems"); return }
        let file = directory.path("linkcheck.json").path
        #expect(
            failure.problems.map(\.description) == [
                "\(file): $.searchPaths[1]: search path \(directory.path("missing").path) does not exist",
                "\(file): $.searchPaths[2]: search path \(file) is not a directory",
            ])
    }

    @Test func invalidJSONAndMissingFiles() throws {
        let (result, _) = try Self.load("{")
        guard case .failure(let failure) = result else { Issue.record("expected a failure"); return }
        #expect(failure.problems.first?.message.hasPrefix("invalid JSON") == true)
        guard case .failure(let missing) = Configuration.load(path: "/nonexistent/linkcheck.json") else {
            Issue.record("expected a failure"); return
        }
        #expect(missing.problems.first?.message.hasPrefix("cannot read") == true)
        let directory = try Fixtures.temporaryDirectory()
        let fifo = directory.path("linkcheck.json").path
        #expect(mkfifo(fifo, 0o644) == 0)
        guard case .failure(let notAFile) = Configuration.load(path: fifo) else { Issue.record("expected a failure"); return }
        #expect(notAFile.problems.map(\.message) == ["cannot read: is not a regular file (a FIFO, socket or device)"])
    }
}
