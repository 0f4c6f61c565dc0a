// A framework module with an API it marks unavailable in app extensions,
// compiled to an object file and linked into the extension's shared object
// (ShareExtension.swift) with swiftc, as SwiftPM links the targets of one
// package into a product. It has many more public functions than the
// extension, so the image is mostly this module's code.

/// Usage counters, kept in memory.
public enum Telemetry {
    nonisolated(unsafe) static var counts: [String: Int] = [:]

    /// Records an app launch. Only the containing app is launched.
    @available(iOSApplicationExtension, unavailable, message: "Extensions are not launched; record an event instead.")
    public static func recordLaunch(_ reason: String) {
        counts["launch " + reason, default: 0] += 1
    }

    /// Records launches one by one: a closure of Telemetry calls the API,
    /// which is the module's own code, not a use by a client.
    public static func recordLaunches(_ reasons: [String]) {
        reasons.forEach { recordLaunch($0) }
    }

    /// Records a usage event. Safe anywhere.
    public static func record(_ event: String) {
        counts[event, default: 0] += 1
    }
}

/// Counters of one session: every property is a public getter, setter and
/// modify accessor, 30 public functions in all.
public struct SessionMetrics {
    public var photosOpened = 0
    public var photosEdited = 0
    public var photosShared = 0
    public var filtersApplied = 0
    public var cropsApplied = 0
    public var undos = 0
    public var redos = 0
    public var exports = 0
    public var errors = 0
    public var secondsActive = 0

    public init() {}
}
