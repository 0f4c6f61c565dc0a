import LinkCheckAnalysis
import LinkCheckImage

/// The names the graph and the HTML report show for images: the bundle of
/// a bundle's executable or framework binary (`PhotosShare.appex`,
/// `ImageKit.framework[arm64]`), else each image's
/// ``ImageReport/displayName`` (its file name, with the slice and member);
/// and where two images would show the same, as many of the folders that
/// hold them (the bundle, for a bundle's executable) as tell them apart
/// (`armv7-linux-gnueabihf/libcodec.so`, `i386-linux-gnu/libcodec.so`,
/// an xcframework's `ios-arm64/Kit.framework`).
struct ImageLabels {
    /// The label of each image, by name (``ImageReport/name``).
    let labels: [String: String]

    init(_ images: [ImageReport]) {
        var labels: [String: String] = [:]
        let bases = images.map(Self.base)
        // The images, by index, under the label they would show.
        var pending = Dictionary(grouping: images.indices) { bases[$0] }
        // The folders above what each image's label names, outermost first:
        // needed only for the images that share their label with another.
        var folders: [Int: [String]] = [:]
        for group in pending.values where group.count > 1 {
            for index in group {
                folders[index] = Self.place(images[index]).split(separator: "/").dropLast().map(String.init)
            }
        }
        var depth = 0
        while !pending.isEmpty {
            var next: [String: [Int]] = [:]
            for (label, group) in pending {
                if group.count == 1 || group.allSatisfy({ (folders[$0]?.count ?? 0) < depth }) {
                    for index in group { labels[images[index].name] = label }
                    continue
                }
                for index in group {
                    let longer = ((folders[index] ?? []).suffix(depth + 1) + [bases[index]]).joined(separator: "/")
                    next[longer, default: []].append(index)
                }
            }
            pending = next
            depth += 1
        }
        self.labels = labels
    }

    /// An image's label before two are told apart: its bundle when it is a
    /// bundle's executable (an app, an extension, a framework's binary),
    /// else its display name.
    static func base(_ image: ImageReport) -> String {
        guard let placement = image.bundle, placement.isExecutable else { return image.displayName }
        return ImageIdentity(path: placement.innermost.folderName, slice: image.identity.slice, member: image.identity.member).description
    }

    /// What ``base(_:)`` names, as a path: the bundle's, for a bundle's
    /// executable, else the image's.
    static func place(_ image: ImageReport) -> String {
        guard let placement = image.bundle, placement.isExecutable else { return image.path }
        return placement.innermost.displayPath
    }

    /// The label of the image named `name`, or `name` itself when it is not
    /// a reported image.
    subscript(_ name: String) -> String { labels[name] ?? name }
}
