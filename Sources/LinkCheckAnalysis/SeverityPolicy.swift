import LinkCheckImage
import LinkCheckInspection
import LinkCheckRules

/// Who must be safe, and so how severe a finding is on each image: the roles
/// of the images and who reaches whom over the link graph (DT_NEEDED or
/// dylib load commands, and what code loads at run time).
struct SeverityPolicy: Sendable {
    let policy: Policy
    /// The bundles around the scanned files (``Discovery/bundles``): the
    /// roles they give come after those assigned by name.
    let bundles: BundleLayout
    /// Whether any role was assigned (``Policy/assignsRoles(with:)``).
    let assignsRoles: Bool
    /// `roles[i]`: image `i`'s role and extension type.
    let roles: [AssignedRole]
    /// `extensionsReaching[i]`: the extensions that link or load image `i`,
    /// directly or not (an extension reaches itself).
    let extensionsReaching: [[Int]]
    /// `appsReaching[i]`: the containing apps that link or load image `i`,
    /// directly or not (an app reaches itself).
    let appsReaching: [[Int]]
    /// `orphanReaches[i]`: whether a framework no extension and no app links
    /// or loads (one that has to be safe in its own right, when roles are
    /// given) links or loads image `i`, directly or not: then image `i`
    /// has to be safe too, even when the app also links it.
    let orphanReaches: [Bool]
    /// The slices of fat files that no process of their app loads: not
    /// checked as code that must be extension-safe.
    let unloadable: UnloadableSlices

    /// - Parameter names: `names[i]`: image `i`'s ``Policy/names(of:)``.
    init(images: [BinaryImage], names: [Set<String>], policy: Policy, bundles: BundleLayout, graph: LinkGraph) {
        self.policy = policy
        self.bundles = bundles
        assignsRoles = policy.assignsRoles(with: bundles)
        let roles = zip(images, names).map { policy.role(of: $0, names: $1, bundles: bundles) }
        self.roles = roles
        var extensionsReaching = Array(repeating: [Int](), count: images.count)
        var appsReaching = Array(repeating: [Int](), count: images.count)
        // Roles travel along what an image links and what it loads at run
        // time (dlopen): code only the app loads is app-only. A process
        // loads a fat file, taking the slice of its architecture: whoever
        // reaches one slice reaches the file, every slice of it.
        let next = graph.edges.indices.map {
            graph.edges[$0] + (graph.loads[$0] ?? []).compactMap(\.target) + graph.otherSlices[$0]
        }
        for (index, assigned) in roles.enumerated() where assigned.role != .framework {
            for reached in LinkGraph.reachable(from: index, over: next) {
                if assigned.role == .extension {
                    extensionsReaching[reached].append(index)
                } else {
                    appsReaching[reached].append(index)
                }
            }
        }
        self.extensionsReaching = extensionsReaching
        self.appsReaching = appsReaching
        var orphanReaches = Array(repeating: false, count: images.count)
        if assignsRoles {
            for index in roles.indices
            where roles[index].role == .framework && extensionsReaching[index].isEmpty && appsReaching[index].isEmpty {
                for reached in LinkGraph.reachable(from: index, over: next) { orphanReaches[reached] = true }
            }
        }
        self.orphanReaches = orphanReaches
        unloadable = UnloadableSlices(images: images, bundles: bundles)
    }

    /// Whether a containing app links or loads image `index`.
    func appReaches(_ index: Int) -> Bool { !appsReaching[index].isEmpty }

    /// The severity a rule's finding has on image `index`, and a remark on
    /// why it differs from the rule's.
    func severity(of rule: Rule, on index: Int) -> (Severity, FindingRemark?) {
        guard rule.category.makesUnsafe else { return (rule.severity, nil) }
        return roleSeverity(rule.severity, allowedIn: rule.allowedIn, on: index)
    }

    /// `level`, the severity of a use of an API unavailable in extensions,
    /// as image `index`'s role makes it, and a remark on why it differs: a
    /// note on the containing app, on a framework only the app links or
    /// loads, and where every extension that runs the image is of a type in
    /// `allowedIn`; a note on a slice no process of the app loads.
    func roleSeverity(_ level: Severity, allowedIn: [ExtensionType], on index: Int) -> (Severity, FindingRemark?) {
        if unloadable.contains(index) { return (.note, .sliceNotLoaded) }
        switch roles[index].role {
        case .app:
            return (.note, .containingAppMayUse)
        case .extension:
            if let type = roles[index].extensionType, allowedIn.contains(type) {
                return (.note, .allowedInExtensionType(type))
            }
            return (level, nil)
        case .framework:
            let extensions = extensionsReaching[index]
            if extensions.isEmpty {
                if isAppOnly(index) {
                    return (.note, .onlyContainingAppLinks)
                }
                return (level, nil)
            }
            let types = extensions.compactMap { roles[$0].extensionType }
            if types.count == extensions.count, types.allSatisfy(allowedIn.contains) {
                return (.note, .allowedInLinkingExtensions(Set(types).sorted()))
            }
            return (level, nil)
        }
    }

    /// Whether image `index` has to be extension-safe: an extension, a
    /// framework an extension links or loads, and any framework that is not
    /// the containing app's alone (every framework when no roles are given);
    /// never a slice no process of the app loads (``UnloadableSlices``).
    func mustBeExtensionSafe(_ index: Int) -> Bool {
        if unloadable.contains(index) { return false }
        return switch roles[index].role {
        case .app: false
        case .extension: true
        case .framework: !isAppOnly(index)
        }
    }

    /// The severity of a completeness finding (`INSP001`, `LINK002`) on
    /// image `index`: an error where the image has to be safe, since what
    /// could not be read cannot be called safe; a warning elsewhere.
    func completenessSeverity(_ index: Int) -> Severity {
        mustBeExtensionSafe(index) ? .error : .warning
    }

    /// Whether only the containing app runs image `index`: it is the app, or
    /// roles are given and the app links or loads it while no extension, and
    /// no framework that has to be safe in its own right, does.
    func isAppOnly(_ index: Int) -> Bool {
        roles[index].role == .app
            || (assignsRoles && extensionsReaching[index].isEmpty && appReaches(index) && !orphanReaches[index])
    }
}
