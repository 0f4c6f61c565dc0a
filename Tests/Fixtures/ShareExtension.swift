// The share extension's module (see Telemetry.swift): it calls Telemetry's
// extension-unavailable API from a function of its own and from an
// extension of Telemetry's type that it declares.
import Telemetry

/// Handles the Post button.
public func didSelectPost() {
    Telemetry.recordLaunch("share")
}

extension Telemetry {
    /// Declared in the extension's module: its code is the extension's.
    public static func recordShareLaunch() {
        recordLaunch("share sheet")
    }
}
