/// An immutable bitmap. Safe to use anywhere, extensions included.
public final class UIImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major RGBA pixels, `width * height` of them.
    public let pixels: [UInt32]

    /// Creates an image from row-major RGBA pixels.
    ///
    /// - Precondition: `pixels.count == width * height`.
    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "pixel count does not match size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an image of one colour.
    public convenience init(width: Int, height: Int, color: UInt32) {
        self.init(width: width, height: height, pixels: Array(repeating: color, count: width * height))
    }
}
