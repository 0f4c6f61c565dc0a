/// A report's images and their look-up by name (``ImageReport/name``; of
/// two images of one name, the first): the table the answer and the
/// renderers find an image by. It holds each image's index, so that
/// building it copies no ``ImageReport``.
public struct ImagesByName: Sendable {
    /// The images, in the order given (the report's).
    public let images: [ImageReport]
    /// The index in ``images`` of each name.
    let indices: [String: Int]

    public init(_ images: [ImageReport]) {
        self.images = images
        indices = Dictionary(images.indices.map { (images[$0].name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The image named `name`, or `nil` when none is.
    public subscript(_ name: String) -> ImageReport? {
        indices[name].map { images[$0] }
    }
}
