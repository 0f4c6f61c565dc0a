#if canImport(Glibc)
import Glibc
#endif

/// Loads the optional PhotoEffects plug-in at run time, the way a containing
/// app that supports OS versions without embedded frameworks loads one: only
/// after a run-time OS version check, with `dlopen`, never linked at build time.
public enum LegacyLoader {
    /// The oldest OS (kernel) major version that can load the plug-in; it
    /// stands in for the "iOS 8 or later" check.
    static let minimumMajorVersion = 3

    /// Loads `libPhotoEffects.so` and calls its registration entry point.
    ///
    /// - Returns: the number of effects the plug-in registered, or `nil` when
    ///   the OS is too old or the plug-in cannot be loaded.
    public static func loadPhotoEffects() -> Int? {
        guard operatingSystemMajorVersion() >= minimumMajorVersion else { return nil }
        // A literal argument: linkcheck reports which library this path loads.
        guard let handle = dlopen("libPhotoEffects.so", RTLD_NOW) else { return nil }
        guard let entry = dlsym(handle, "photo_effects_register") else {
            dlclose(handle)
            return nil
        }
        typealias Register = @convention(c) () -> Int32
        return Int(unsafeBitCast(entry, to: Register.self)())
    }

    /// The running kernel's major version, from `uname(2)`; 0 if unknown.
    static func operatingSystemMajorVersion() -> Int {
        var system = utsname()
        guard uname(&system) == 0 else { return 0 }
        let release = withUnsafeBytes(of: &system.release) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return Int(release.prefix { $0.isNumber }) ?? 0
    }
}
