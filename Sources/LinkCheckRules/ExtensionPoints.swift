/// The extension points an `.appex` names in its `Info.plist`
/// (`NSExtension.NSExtensionPointIdentifier`, or ExtensionKit's
/// `EXAppExtensionAttributes.EXExtensionPointIdentifier`), and the
/// extension type each is to rules (`allowedIn`) and roles.
public enum ExtensionPoints {
    /// Apple's identifiers → extension types.
    public static let types: [String: ExtensionType] = [
        "com.apple.share-services": .share,
        "com.apple.ui-services": .action,
        "com.apple.services": .action,
        "com.apple.widgetkit-extension": .widget,
        "com.apple.widget-extension": .today,
        "com.apple.message-payload-provider": .imessage,
        "com.apple.keyboard-service": .keyboard,
        "com.apple.callkit.call-directory": .callDirectory,
        "com.apple.usernotifications.content-extension": .notificationContent,
        "com.apple.usernotifications.service": .notificationService,
        "com.apple.photo-editing": .photoEditing,
        "com.apple.fileprovider-nonui": .fileProvider,
        "com.apple.fileprovider-ui": .fileProvider,
        "com.apple.fileprovider-actionsui": .fileProvider,
        "com.apple.intents-service": .intents,
        "com.apple.intents-ui-service": .intents,
        "com.apple.appintents-extension": .intents,
        "com.apple.Safari.content-blocker": .safari,
        "com.apple.Safari.extension": .safari,
        "com.apple.Safari.web-extension": .safari,
        "com.apple.broadcast-services-upload": .broadcast,
        "com.apple.broadcast-services-setupui": .broadcast,
        "com.apple.authentication-services-credential-provider-ui": .credentialProvider,
        "com.apple.identitylookup.message-filter": .messageFilter,
        "com.apple.networkextension.packet-tunnel": .network,
        "com.apple.networkextension.app-proxy": .network,
        "com.apple.networkextension.dns-proxy": .network,
        "com.apple.networkextension.filter-data": .network,
        "com.apple.networkextension.filter-control": .network,
        "com.apple.spotlight.index": .spotlight,
        "com.apple.quicklook.preview": .quicklook,
        "com.apple.quicklook.thumbnail": .quicklook,
    ]

    /// The extension type of the extension point `identifier`; `nil` for
    /// one this table does not know (the image is still an extension, of no
    /// type).
    public static func type(of identifier: String) -> ExtensionType? {
        types[identifier]
    }
}
