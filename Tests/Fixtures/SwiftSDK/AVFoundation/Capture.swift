/// The capture and recording classes the sample's stand-in AVFoundation does
/// not declare, and audio playback, which extensions may use.

/// A camera or microphone.
open class AVCaptureDevice {
    public let uniqueID: String

    init(uniqueID: String) {
        self.uniqueID = uniqueID
    }

    /// The default device for a media type (`"vide"`, `"soun"`).
    open class func `default`(for mediaType: String) -> AVCaptureDevice? {
        AVCaptureDevice(uniqueID: mediaType)
    }
}

/// Records audio from the microphone to a file.
open class AVAudioRecorder {
    public let url: String

    public init(url: String, settings: [String: Int]) throws {
        self.url = url
    }

    open func record() -> Bool {
        true
    }
}

/// Plays audio from a file.
open class AVAudioPlayer {
    public let url: String

    public init(contentsOf url: String) throws {
        self.url = url
    }

    open func play() -> Bool {
        true
    }
}
