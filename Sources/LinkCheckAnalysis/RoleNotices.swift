import LinkCheckImage

/// Warnings about the roles a user assigned by name (`--extension`,
/// `--app`, `--framework`, linkcheck.json's roles): printed with the report,
/// since a mistyped or misplaced name silently changes what must be safe.
enum RoleNotices {
    /// A warning per role name that matches no scanned image, with the
    /// closest names.
    static func unmatchedNames(_ policy: Policy, _ images: [BinaryImage]) -> [String] {
        guard !policy.extensions.isEmpty || !policy.apps.isEmpty || !policy.frameworks.isEmpty else { return [] }
        let allNames = images.map(Policy.names(of:))
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
        let extensions = Set(policy.extensions.keys), apps = Set(policy.apps), frameworks = Set(policy.frameworks)
        return extensions.union(apps).union(frameworks).sorted().compactMap { name in
            let roles = [extensions.contains(name) ? "an extension" : nil, apps.contains(name) ? "the app" : nil,
                         frameworks.contains(name) ? "a framework" : nil].compactMap { $0 }
            guard roles.count > 1 else { return nil }
            return "role name '\(name)' is given as \(roles.joined(separator: " and as ")); it is taken as \(roles[0])"
        }
    }

    /// A warning per image whose bundle gives it one role and a name
    /// assigns another (`--app PhotosShare` on an `.appex`'s executable):
    /// the name wins, and the warning says what the bundle said.
    static func bundleRolesOverridden(_ policy: Policy, _ images: [BinaryImage]) -> [String] {
        images.sorted { $0.path < $1.path }.compactMap { image in
            guard let given = policy.roleGivenByBundle(of: image), let named = policy.roleAssignedByName(of: image) else { return nil }
            let role = policy.role(of: image)
            guard role != given else { return nil }
            return "role name '\(named.name)' makes \(image.path) \(role.description), "
                + "though its bundle makes it \(given.description); the name wins"
        }
    }
}
