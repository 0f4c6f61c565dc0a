/// Moves data from capture inputs (camera, microphone) to outputs.
///
/// Camera and microphone capture are unavailable to app extensions, iMessage
/// extensions excepted; the attribute cannot express the exception, the rule
/// pack can.
open class AVCaptureSession {
    /// Whether the session is capturing.
    public private(set) var isRunning = false

    public init() {}

    /// Starts the flow of data from inputs to outputs.
    @available(iOSApplicationExtension, unavailable, message: "Camera capture is available only to iMessage extensions.")
    open func startRunning() {
        isRunning = true
    }

    /// Stops the flow of data.
    open func stopRunning() {
        isRunning = false
    }
}
