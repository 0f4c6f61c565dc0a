/// What the library keeps about a photo.
public struct PhotoMetadata: Sendable {
    public var photoID: String
    public var title: String
    public var caption: String
    public var width: Int
    public var height: Int
    public var isFavorite: Bool
    public var albumName: String?
    public var editCount: Int

    public init(photoID: String, title: String = "", width: Int = 0, height: Int = 0) {
        self.photoID = photoID
        self.title = title
        caption = ""
        self.width = width
        self.height = height
        isFavorite = false
        albumName = nil
        editCount = 0
    }

    /// Width over height, or 0 for an empty photo.
    public var aspectRatio: Double {
        height == 0 ? 0 : Double(width) / Double(height)
    }
}

/// The photo library the app and its share extension share: a target of
/// the PhotoEditor package itself, so SwiftPM links its code into both the
/// extension's and the app's image instead of linking a library.
public enum PhotoLibrary {
    nonisolated(unsafe) static var photos: [String: PhotoMetadata] = [:]
    nonisolated(unsafe) static var pendingSyncs = 0

    /// Stores `metadata`, replacing what was kept for the same photo.
    public static func save(_ metadata: PhotoMetadata) {
        photos[metadata.photoID] = metadata
    }

    /// What is kept for `photoID`.
    public static func metadata(for photoID: String) -> PhotoMetadata? {
        photos[photoID]
    }

    /// The photos marked as favourites, by identifier.
    public static func favorites() -> [String] {
        photos.values.filter { $0.isFavorite }.map { $0.photoID }.sorted()
    }

    /// Forgets `photoID`.
    public static func remove(_ photoID: String) {
        photos[photoID] = nil
    }

    /// Uploads the library to the user's other devices in the background.
    /// An extension is given no background execution time, so the library
    /// marks this API the way the SDK marks its own.
    @available(iOSApplicationExtension, unavailable, message: "Extensions get no background execution time; let the containing app sync.")
    public static func scheduleBackgroundSync() {
        pendingSyncs += 1
    }
}
