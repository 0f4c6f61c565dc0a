/// A rule's examples (`"examples": {"triggering": […], "nonTriggering": […]}`):
/// small sources that must, and must not, produce the rule's finding once
/// built. They are the rule's documentation (`linkcheck rules list
/// --examples`) and its tests: the test suite builds every example of the
/// shipped packs and checks each against the rule.
public struct RuleExamples: Sendable, Equatable {
    /// Sources whose image gets the rule's finding.
    public var triggering: [RuleExample]
    /// Near misses: sources whose image does not get it (a longer Swift
    /// name, a selector held as a plain string, an extension type the API is
    /// allowed in, a framework only the containing app links).
    public var nonTriggering: [RuleExample]

    public init(triggering: [RuleExample] = [], nonTriggering: [RuleExample] = []) {
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }

    /// Whether there is at least one example of each kind.
    public var isComplete: Bool { !triggering.isEmpty && !nonTriggering.isEmpty }
}

/// One example: a source text in a language, the binary format it is built
/// into, and the context the image is checked in.
///
/// How each is built (`Rules/README.md`): C for ELF with clang into an
/// x86_64 shared object; Objective-C for ELF with the GNUstep 2.0 runtime;
/// Swift for ELF with swiftc against the stand-in Swift SDK; C and
/// Objective-C for Mach-O with clang and `ld64.lld` against the stand-in
/// iOS (or macOS) SDK, as an arm64 `MH_DYLIB` that records ``platform``,
/// ``minimumOS`` and ``sdk`` in `LC_BUILD_VERSION`.
public struct RuleExample: Sendable, Equatable {
    public enum Language: String, Sendable, CaseIterable {
        case c, objc, swift
    }

    public enum Format: String, Sendable, CaseIterable {
        case elf, macho

        /// Whether an image of the format records its platform, minimum OS
        /// and SDK (Mach-O's `LC_BUILD_VERSION`), which an example may then
        /// give.
        public var recordsPlatform: Bool {
            switch self {
            case .elf: false
            case .macho: true
            }
        }

        /// Whether an Objective-C example built for the format names the
        /// runtime whose ABI it is built for (``ObjCRuntime``): on ELF there
        /// are several; Mach-O has Apple's.
        public var choosesObjCRuntime: Bool {
            switch self {
            case .elf: true
            case .macho: false
            }
        }
    }

    /// The Objective-C runtimes whose ABI an ELF example is built for, as
    /// clang's `-fobjc-runtime=` names them: they spell class references
    /// differently (`Rules/README.md`, Objective-C on ELF).
    public enum ObjCRuntime: String, Sendable, CaseIterable {
        /// `._OBJC_REF_CLASS_Foo`.
        case gnustep2 = "gnustep-2.0"
        /// `__objc_class_name_Foo`.
        case gnustep1 = "gnustep-1.9"
    }

    public var language: Language
    public var format: Format
    /// The source text.
    public var code: String
    /// `extension`: check the image as an app extension of this type
    /// (`imessage`), for a rule's `allowedIn` near miss.
    public var extensionType: ExtensionType?
    /// `appOnly`: check the image as a framework that only the containing
    /// app links.
    public var appOnly: Bool
    /// `libraries`: libraries the image links (`-l` names: `CoreKE` links
    /// `libCoreKE`), for `library` matchers.
    public var libraries: [String]
    /// Objective-C for ELF only: the runtime ABI (`-fobjc-runtime=`),
    /// ``ObjCRuntime/gnustep2`` unless it says.
    public var objcRuntime: ObjCRuntime?
    /// Mach-O only: the platform built for (default iOS).
    public var platform: SDKPlatform?
    /// Mach-O only: the deployment target recorded (default:
    /// ``defaultMinimumOS(for:)``).
    public var minimumOS: SDKVersion?
    /// Mach-O only: the SDK recorded (default: ``defaultSDK(for:)``).
    public var sdk: SDKVersion?
    /// Triggering examples only: the finding's severity when it is not the
    /// rule's own (a warning for an image built with an SDK that no longer
    /// marks the API).
    public var severity: Severity?

    public init(
        language: Language, format: Format, code: String, extensionType: ExtensionType? = nil, appOnly: Bool = false,
        libraries: [String] = [], objcRuntime: ObjCRuntime? = nil, platform: SDKPlatform? = nil, minimumOS: SDKVersion? = nil,
        sdk: SDKVersion? = nil, severity: Severity? = nil
    ) {
        self.language = language
        self.format = format
        self.code = code
        self.extensionType = extensionType
        self.appOnly = appOnly
        self.libraries = libraries
        self.objcRuntime = objcRuntime
        self.platform = platform
        self.minimumOS = minimumOS
        self.sdk = sdk
        self.severity = severity
    }

    /// The formats a language is built into: C into both, Objective-C into
    /// both (GNUstep's ABI on ELF), Swift into ELF only (no Apple SDK here
    /// to build Swift for iOS).
    public static func formats(of language: Language) -> [Format] {
        language == .swift ? [.elf] : [.elf, .macho]
    }

    /// The Mach-O platform the example is built for.
    public var machOPlatform: SDKPlatform { platform ?? .iOS }

    /// The deployment target a Mach-O example records unless it says:
    /// iOS 15.0, macOS 12.0.
    public static func defaultMinimumOS(for platform: SDKPlatform) -> SDKVersion {
        SDKVersion(platform == .macOS ? "12.0" : "15.0")!
    }

    /// The SDK a Mach-O example records unless it says: the newest the
    /// shipped packs were checked against (iOS 26.5, macOS 12.0).
    public static func defaultSDK(for platform: SDKPlatform) -> SDKVersion {
        SDKVersion(platform == .macOS ? "12.0" : "26.5")!
    }

    /// Whether the image is checked in a context other than a framework
    /// that has to be safe (`extension` or `appOnly`).
    public var hasContext: Bool { extensionType != nil || appOnly }

    /// `swift, elf`, `objc, macho, iOS 15.0, SDK 16.4, extension type
    /// imessage`: how the example is built and checked, for `rules list
    /// --examples`.
    public var summary: String {
        var parts = [language.rawValue, format.rawValue]
        if format.recordsPlatform {
            let platform = machOPlatform
            parts.append(
                "\(platform.name) \(minimumOS ?? Self.defaultMinimumOS(for: platform)), SDK \(sdk ?? Self.defaultSDK(for: platform))")
        }
        if format.choosesObjCRuntime && language == .objc { parts.append((objcRuntime ?? .gnustep2).rawValue) }
        if !libraries.isEmpty { parts.append("links \(libraries.joined(separator: ", "))") }
        if let extensionType { parts.append("extension type \(extensionType)") }
        if appOnly { parts.append("linked only by the containing app") }
        if let severity { parts.append("a \(severity.rawValue)") }
        return parts.joined(separator: ", ")
    }
}

extension RulePack {
    /// A problem for each rule without a triggering or a non-triggering
    /// example (at `$.rules[N].examples`): `rules validate` warns about
    /// them in a project's pack and rejects them in the shipped ones.
    public var exampleProblems: [RulePackProblem] {
        rules.enumerated().compactMap { index, rule in
            let missing = [
                rule.examples.triggering.isEmpty ? "triggering" : nil, rule.examples.nonTriggering.isEmpty ? "nonTriggering" : nil,
            ].compactMap { $0 }
            guard !missing.isEmpty else { return nil }
            return RulePackProblem(file: path, jsonPath: "$.rules[\(index)].examples", kind: .missingExamples(rule: rule.id, missing))
        }
    }
}
