/// Intents (SiriKit): the app owns the user context, Siri authorization and
/// the user's vocabulary (the last two marked in the iOS 10.3 to 12.4 SDKs).

open class INUserContext {
    public init() {}

    @available(iOSApplicationExtension, unavailable, message: "User context is not available in extensions")
    open func becomeCurrent() {}
}

open class INPreferences {
    @available(
        iOSApplicationExtension, unavailable,
        message: "siriAuthorizationStatus is not available to extensions. The main app is responsible for Siri authorization."
    )
    open class func siriAuthorizationStatus() -> Int {
        0
    }

    @available(
        iOSApplicationExtension, unavailable,
        message: "requestSiriAuthorization is not available to extensions. The main app is responsible for Siri authorization."
    )
    open class func requestSiriAuthorization(_ handler: @escaping (Int) -> Void) {}

    open class func siriLanguageCode() -> String {
        "en-US"
    }
}

open class INVocabulary {
    init() {}

    open class func shared() -> INVocabulary {
        INVocabulary()
    }

    @available(
        iOSApplicationExtension, unavailable,
        message: "INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary."
    )
    open func setVocabularyStrings(_ vocabulary: [String], of type: Int) {}

    @available(
        iOSApplicationExtension, unavailable,
        message: "INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary."
    )
    open func setVocabulary(_ vocabulary: [String], of type: Int) {}

    @available(
        iOSApplicationExtension, unavailable,
        message: "INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary."
    )
    open func removeAllVocabularyStrings() {}
}
