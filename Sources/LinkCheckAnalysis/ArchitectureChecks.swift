import LinkCheckImage

/// The built-in architecture checks on the scanned images: no 64-bit code
/// (`ARCH001`), a module missing a required architecture (`ARCH002`), and a
/// dependency found only for another machine, class, byte order or
/// platform (`ARCH003`), and the slices of a fat file no process of its app
/// loads (`ARCH004`, a note per file).
struct ArchitectureChecks {
    let graph: LinkGraph
    let policy: Policy
    let unloadable: UnloadableSlices

    func findings() -> [Finding] {
        let images = graph.images
        let scanned = 0..<graph.scannedCount
        var findings: [Finding] = []
        // One finding per file without 64-bit code: an ELF file is one
        // image; a fat Mach-O file needs one 64-bit slice, and watchOS's
        // arm64_32 and armv7k are that platform's own.
        for indices in Dictionary(grouping: scanned, by: { images[$0].path }).values {
            let first = indices.min { images[$0].identity < images[$1].identity }!
            let image = images[first]
            let fits = indices.contains { index in
                images[index].architecture.is64Bit || ["arm64_32", "armv7k"].contains(images[index].architecture.name)
            }
            guard !fits else { continue }
            let architectures =
                switch image.format {
                case .elf: [image.architecture.name]
                case .macho: indices.map { images[$0].architecture.name }.sorted()
                }
            var finding = Finding(
                builtIn: BuiltInRules.thirtyTwoBit, kind: .architecture, image: image.name,
                detail: .noSixtyFourBitCode(format: image.format, architectures: architectures))
            finding.aboutFile = image.identity.slice != nil
            findings.append(finding)
        }
        let notLoaded = Dictionary(grouping: scanned.filter(unloadable.contains), by: { images[$0].identity.file })
        for indices in notLoaded.values {
            let slices = indices.sorted { images[$0].identity < images[$1].identity }
            guard let note = unloadable.note(slices, images: images) else { continue }
            var finding = Finding(
                builtIn: BuiltInRules.unloadedSlices, kind: .architecture, image: images[slices[0]].name, detail: note)
            finding.aboutFile = true
            findings.append(finding)
        }
        for mismatch in graph.mismatches where mismatch.image < graph.scannedCount {
            let image = images[mismatch.image]
            let other = images[mismatch.candidate]
            findings.append(
                Finding(
                    builtIn: BuiltInRules.linkMismatch, kind: .architecture, image: image.name, symbol: mismatch.needed,
                    detail: .linkMismatch(
                        needed: mismatch.needed, found: other.name, foundFor: Self.kind(of: other), imageFor: Self.kind(of: image))))
        }
        guard !policy.requiredArchitectures.isEmpty else { return findings }
        let modules = Dictionary(grouping: scanned, by: { images[$0].linkName })
        for (module, members) in modules {
            let present = Set(members.map { images[$0].architecture.family })
            let shown = Set(members.map { images[$0].architecture.name })
            let first = members.min { images[$0].identity < images[$1].identity }!
            for required in policy.requiredArchitectures where !present.contains(required) {
                var finding = Finding(
                    builtIn: BuiltInRules.missingArchitecture, kind: .architecture, image: images[first].name, symbol: required,
                    detail: .notBuiltFor(module: module, required: required, builtFor: shown.sorted()))
                // About the module, whose slices the message names.
                finding.aboutFile = images[first].identity.slice != nil
                findings.append(finding)
            }
        }
        return findings
    }

    /// The architecture and platform `image` is built for.
    static func kind(of image: BinaryImage) -> FindingDetail.MachineKind {
        FindingDetail.MachineKind(architecture: image.architecture, platform: image.platform?.platform)
    }
}
