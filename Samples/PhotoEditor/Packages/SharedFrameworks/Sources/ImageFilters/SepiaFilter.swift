import UIKit

/// Tones an image sepia. Uses only extension-safe API (`UIImage`), so the
/// framework is safe to embed in an extension.
public struct SepiaFilter: Sendable {
    /// How much of the sepia tone to apply, from 0 (none) to 1 (full).
    public var intensity: Double

    public init(intensity: Double = 1) {
        self.intensity = min(max(intensity, 0), 1)
    }

    /// Returns a sepia-toned copy of `image`.
    public func apply(to image: UIImage) -> UIImage {
        UIImage(width: image.width, height: image.height, pixels: image.pixels.map(tone))
    }

    /// Tones one RGBA pixel with the usual sepia matrix, blended by `intensity`.
    func tone(_ pixel: UInt32) -> UInt32 {
        let r = Double(pixel >> 24 & 0xFF), g = Double(pixel >> 16 & 0xFF), b = Double(pixel >> 8 & 0xFF)
        func blend(_ original: Double, _ toned: Double) -> UInt32 {
            UInt32(min(255, original + (toned - original) * intensity))
        }
        let sr = blend(r, 0.393 * r + 0.769 * g + 0.189 * b)
        let sg = blend(g, 0.349 * r + 0.686 * g + 0.168 * b)
        let sb = blend(b, 0.272 * r + 0.534 * g + 0.131 * b)
        return sr << 24 | sg << 16 | sb << 8 | pixel & 0xFF
    }
}
