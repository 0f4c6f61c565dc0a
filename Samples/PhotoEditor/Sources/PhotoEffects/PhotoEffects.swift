import AVFoundation

/// The live camera effects this plug-in provides.
enum LiveEffect: CaseIterable {
    case vignette, grain, lightLeak
}

/// The entry point LegacyLoader finds with `dlsym`: checks that the camera
/// can run (capture is unavailable to extensions, so the plug-in is too) and
/// returns the number of effects registered.
@_cdecl("photo_effects_register")
public func photoEffectsRegister() -> Int32 {
    let session = AVCaptureSession()
    session.startRunning()
    defer { session.stopRunning() }
    return session.isRunning ? Int32(LiveEffect.allCases.count) : 0
}
