import LinkCheckImage
import LinkCheckInspection

/// Warnings about the roles a user assigned by name (`--extension`,
/// `--app`, `--framework`, linkcheck.json's roles): printed with the report,
/// since a mistyped or misplaced name silently changes what must be safe.
enum RoleNotices {
    /// A warning per role name that matches no scanned image (`allNames`:
    /// each scanned image's ``Policy/names(of:)``), with the closest names.
    static func unmatchedNames(_ policy: Policy, _ allNames: [Set<String>]) -> [String] {
        guard !policy.extensions.isEmpty || !policy.apps.isEmpty || !policy.frameworks.isEmpty else { return [] }
        return (policy.extensions.keys.sorted() + policy.apps.sorted() + policy.frameworks.sorted())
            .filter { name in !allNames.contains { $0.contains(name) } }
            .map { name in
                let suggestion = NameSuggestions.question(NameSuggestions.closest(to: name, among: allNames.joined()))
                return "role name '\(name)' matches no scanned image" + (suggestion.map { "; \($0)" } ?? "")
            }
    }

    /// A warning per name given more than one role (`--app Photos
    /// --extension Photos`): the extension's wins, then the app's.
    static func conflictingNames(_ policy: Policy) -> [String] {
        let extensions = Set(policy.extensions.keys)
        let apps = Set(policy.apps)
        let frameworks = Set(policy.frameworks)
        return extensions.union(apps).union(frameworks).sorted().compactMap { name in
            let roles = [
                extensions.contains(name) ? "an extension" : nil, apps.contains(name) ? "the app" : nil,
                frameworks.contains(name) ? "a framework" : nil,
            ].compactMap { $0 }
            guard roles.count > 1 else { return nil }
            return "role name '\(name)' is given as \(roles.joined(separator: " and as ")); it is taken as \(roles[0])"
        }
    }

    /// A warning per file whose bundle gives it one role and a name
    /// assigns another (`--app PhotosShare` on an `.appex`'s executable):
    /// the name wins, and the warning says what the bundle said.
    /// `names[i]` and `roles[i]` are image `i`'s ``Policy/names(of:)`` and
    /// role (``Policy/role(of:names:bundles:)``).
    static func bundleRolesOverridden(
        _ policy: Policy, _ images: [BinaryImage], names: [Set<String>], roles: [AssignedRole], bundles: BundleLayout
    ) -> [String] {
        // One notice per file: the slices of a fat file share its path.
        var noticed: Set<String> = []
        return images.indices.sorted { images[$0].path < images[$1].path }.compactMap { index in
            let image = images[index]
            guard noticed.insert(image.path).inserted,
                let given = Policy.roleGivenByBundle(of: image, bundles: bundles),
                let named = policy.roleAssignedByName(names[index])
            else { return nil }
            let role = roles[index]
            guard role != given else { return nil }
            return "role name '\(named.name)' makes \(image.identity.displayPath) \(role.description), "
                + "though its bundle makes it \(given.description); the name wins"
        }
    }
}
