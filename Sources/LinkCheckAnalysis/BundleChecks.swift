import Foundation
import LinkCheckImage
import LinkCheckInspection

/// The built-in checks of how an app bundle is put together, on the
/// scanned images that lie in one (``Discovery/bundles``):
///
/// - `BNDL001`: a framework an extension or the containing app links
///   (itself, or through a framework it links; not weakly) that dyld would
///   not find in the app, because the app does not embed it or it lies
///   where none of the run paths reaches
///   (``LinkGraph/Missing/foundByInstallName``): the extension, or the
///   app, would not launch. It takes the place of the `LINK001` that the
///   missing library would otherwise get.
/// - `BNDL002`: an extension that embeds its own copy of a framework the
///   containing app embeds too.
/// - `BNDL003`: a framework anywhere but the containing app's `Frameworks`
///   folder (ITMS-90206), or an extension or app inside another extension
///   or a framework (ITMS-90205).
/// - `BNDL004`: the containing app, or an extension, without a 64-bit
///   slice (ITMS-90086, ITMS-9000).
struct BundleChecks {
    let graph: LinkGraph
    let severity: SeverityPolicy
    let bundles: BundleLayout

    /// A dependency of an image: the image's name and the install name it
    /// links.
    struct Dependency: Hashable {
        var image: String
        var installName: String
    }

    /// The findings, and the dependencies whose `LINK001` a `BNDL001`
    /// replaces.
    func findings() -> (findings: [Finding], replacedMissing: Set<Dependency>) {
        let images = graph.images
        // One finding per file: the first slice (or member) names it.
        var firstImage: [String: Int] = [:]
        for index in (0..<graph.scannedCount).sorted(by: { images[$0].identity < images[$1].identity })
        where firstImage[images[index].path] == nil {
            firstImage[images[index].path] = index
        }
        var findings: [Finding] = []
        var replaced = Set<Dependency>()
        for missing in graph.missing where missing.image < graph.scannedCount {
            guard let finding = notEmbedded(missing) else { continue }
            findings.append(finding)
            replaced.insert(Dependency(image: finding.image, installName: missing.needed))
        }
        for (path, index) in firstImage.sorted(by: { $0.key < $1.key }) {
            guard let placement = bundles.placement(ofFile: path), let app = placement.containingApp else { continue }
            let image = images[index]
            if placement.role == .framework, placement.embeddingFolder != app.frameworksFolder {
                findings.append(
                    Finding(
                        bundle: BuiltInRules.misplacedFramework, image: image.name, symbol: framework(of: placement),
                        problem: .misplacedFramework(
                            framework: framework(of: placement), folder: inside(placement.embeddingFolder, of: placement),
                            app: app.folderName)))
            }
            if let nested = nestedIn(placement) {
                findings.append(
                    Finding(
                        bundle: BuiltInRules.misplacedFramework, image: image.name, symbol: placement.innermost.folderName,
                        problem: .nestedBundle(bundle: placement.innermost.folderName, folder: nested)))
            }
            let isApp = placement.innermost.kind == .app
            guard placement.isExecutable, isApp || placement.innermost.kind == .appExtension,
                isApp || severity.roles[index].role == .extension
            else { continue }
            let slices = (0..<graph.scannedCount).filter { images[$0].path == path }
            let has64Bit = slices.contains { images[$0].architecture.is64Bit || images[$0].architecture.name == "arm64_32" }
            if !has64Bit {
                findings.append(
                    Finding(
                        bundle: BuiltInRules.extensionNot64Bit, image: image.name,
                        problem: .not64Bit(
                            bundle: placement.innermost.folderName, isApp: isApp,
                            slices: slices.map { images[$0].architecture.name }.sorted())))
            }
            guard !isApp else { continue }
            let extensionBundle = placement.innermost
            let shared = embeddedFrameworks(in: extensionBundle.frameworksFolder).intersection(embeddedFrameworks(in: app.frameworksFolder))
            for name in shared.sorted() {
                findings.append(
                    Finding(
                        bundle: BuiltInRules.duplicateFramework, image: image.name, symbol: name,
                        problem: .ownCopy(
                            extensionBundle: extensionBundle.folderName, framework: name,
                            folder: inside(extensionBundle.frameworksFolder, of: placement), app: app.folderName)))
            }
        }
        return (findings, replaced)
    }

    /// `BNDL001` for a non-weak dependency dyld would not find, when it is
    /// an extension's or the containing app's (or that of a framework one
    /// of them links) inside an app, and not the SDK's.
    private func notEmbedded(_ missing: LinkGraph.Missing) -> Finding? {
        let image = graph.images[missing.image]
        guard missing.unreadable.isEmpty, !DyldSearch.isSystem(missing.needed), image.format == .macho,
            let placement = bundles.placement(ofFile: image.path), let app = placement.containingApp
        else { return nil }
        // A weak link that dyld does not find is left unbound; the process
        // launches.
        guard !image.dependencies.contains(where: { $0.name == missing.needed && $0.kind == .weak }) else { return nil }
        // The processes that would not launch: the extensions, and the
        // containing apps, that link the image (or are it).
        let processes = (severity.extensionsReaching[missing.image] + severity.appsReaching[missing.image]).compactMap { index -> String? in
            guard let placement = bundles.placement(ofFile: graph.images[index].path), placement.containingApp != nil else { return nil }
            return [.appExtension, .app].contains(placement.innermost.kind) ? placement.innermost.folderName : graph.images[index].fileName
        }
        guard !processes.isEmpty else { return nil }
        let folders = missing.searched.map { bundles.displayPath(of: BundleLayout.lexicallyNormal($0)) }
        let launchFailure: BundleProblem.LaunchFailure =
            switch severity.roles[missing.image].role {
            case .extension: .theExtension
            case .app: .theApp
            default: .processes(Set(processes).sorted())
            }
        let onlyCopyIn = missing.foundByInstallName.map { bundles.displayPath(of: LdSoSearch.directory(of: graph.images[$0].path)) }
        return Finding(
            bundle: BuiltInRules.frameworkNotEmbedded, image: image.name, symbol: missing.needed,
            problem: .notEmbedded(
                library: missing.needed, searched: folders, onlyCopyIn: onlyCopyIn, app: app.folderName, launchFailure: launchFailure))
    }

    /// The extension or app that `placement`'s file is the executable of,
    /// when it lies inside another extension or a framework of the app
    /// (`Shop.app/PlugIns/Share.appex/PlugIns/Inner.appex`): that bundle's
    /// folder, as ``inside(_:of:)`` names it; `nil` otherwise.
    private func nestedIn(_ placement: BundlePlacement) -> String? {
        let bundle = placement.innermost
        guard placement.isExecutable, [.app, .appExtension].contains(bundle.kind), placement.containingApp != nil,
            bundle.path.hasPrefix(placement.outermost.path + "/")
        else { return nil }
        let between = bundle.path.dropFirst(placement.outermost.path.count + 1).split(separator: "/").dropLast()
        guard let holder = between.lastIndex(where: { $0.hasSuffix(".appex") || $0.hasSuffix(".framework") }) else { return nil }
        return inside(placement.outermost.path + "/" + between[...holder].joined(separator: "/"), of: placement)
    }

    /// The names of the framework bundles (and loose libraries) whose files
    /// were scanned in `folder`.
    private func embeddedFrameworks(in folder: String) -> Set<String> {
        var names = Set<String>()
        for index in 0..<graph.scannedCount {
            guard let placement = bundles.placement(ofFile: graph.images[index].path), placement.role == .framework,
                placement.embeddingFolder == folder
            else { continue }
            names.insert(framework(of: placement))
        }
        return names
    }

    /// `ImageKit.framework`, or a loose library's file name.
    private func framework(of placement: BundlePlacement) -> String {
        placement.innermost.kind == .framework ? placement.innermost.folderName : (placement.place as NSString).lastPathComponent
    }

    /// `folder` inside the outermost bundle of `placement`
    /// (`Photos.app/PlugIns/PhotosShare.appex/Frameworks`).
    private func inside(_ folder: String, of placement: BundlePlacement) -> String {
        let outer = placement.outermost
        guard folder.hasPrefix(outer.path + "/") else { return outer.folderName }
        return outer.folderName + folder.dropFirst(outer.path.count)
    }
}
