import Foundation
import LinkCheckRules
import LinkCheckTestSupport
import Testing

/// Extension points and the extension types rules and roles name.
@Suite struct ExtensionPointTests {
    @Test(arguments: [
        ("com.apple.share-services", "share"), ("com.apple.widgetkit-extension", "widget"),
        ("com.apple.message-payload-provider", "imessage"), ("com.apple.keyboard-service", "keyboard"),
        ("com.apple.callkit.call-directory", "call-directory"), ("com.apple.ui-services", "action"),
        ("com.apple.usernotifications.service", "notification-service"), ("com.apple.widget-extension", "today"),
    ])
    func appleExtensionPoints(identifier: String, type: String) {
        #expect(ExtensionPoints.type(of: identifier)?.rawValue == type)
    }

    @Test func anUnknownExtensionPointHasNoType() {
        #expect(ExtensionPoints.type(of: "com.example.custom-point") == nil)
        #expect(ExtensionPoints.type(of: "com.apple.Share-Services") == nil)
    }

    /// The schemas of linkcheck.json and of rule packs list the extension
    /// types linkcheck knows, no more and no fewer.
    @Test(arguments: [
        ("Documentation/linkcheck-config.schema.json", ["properties", "extensions", "additionalProperties", "enum"]),
        ("Documentation/rule-pack.schema.json", ["$defs", "extensionType", "enum"]),
    ])
    func schemasListTheKnownTypes(file: String, keyPath: [String]) throws {
        let data = try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(file))
        var value: Any = try JSONSerialization.jsonObject(with: data)
        for key in keyPath { value = try #require((value as? [String: Any])?[key], "\(file): \(key)") }
        let types = try #require(value as? [String])
        #expect(Set(types) == Set(ExtensionType.allCases.map(\.rawValue)))
        #expect(types.count == ExtensionType.allCases.count)
    }
}
