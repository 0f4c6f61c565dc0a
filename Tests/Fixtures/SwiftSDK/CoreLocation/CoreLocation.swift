/// CoreLocation's location manager. Background updates need the location
/// background mode, which extensions do not have; no attribute says so.

open class CLLocationManager {
    public init() {}

    open var desiredAccuracy: Double = 100

    open var allowsBackgroundLocationUpdates = false

    open func requestWhenInUseAuthorization() {}

    open func startUpdatingLocation() {}
}
