/// CoreNFC as Swift sees it. NS_EXTENSION_UNAVAILABLE("Not available to
/// extensions") marks whole classes, the reader sessions' initializers and
/// two NFCISO15693Tag requirements.

@available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
open class NFCNDEFPayload {
    public let payload: [UInt8]

    public init(payload: [UInt8]) {
        self.payload = payload
    }

    open class func wellKnownTypeURIPayload(string uri: String) -> NFCNDEFPayload? {
        NFCNDEFPayload(payload: Array(uri.utf8))
    }
}

@available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
open class NFCNDEFMessage {
    public let records: [NFCNDEFPayload]

    public init(records: [NFCNDEFPayload]) {
        self.records = records
    }
}

@available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
open class NFCTagCommandConfiguration {
    public init() {}
}

@available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
open class NFCISO15693CustomCommandConfiguration: NFCTagCommandConfiguration {
    public init(manufacturerCode: Int, customCommandCode: Int, requestParameters: [UInt8]?) {}
}

@available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
open class NFCISO15693ReadMultipleBlocksConfiguration: NFCTagCommandConfiguration {
    public init(chunkSize: Int, maximumRetries: Int) {}
}

public protocol NFCISO15693Tag: AnyObject {
    func readSingleBlock(requestFlags: Int, blockNumber: UInt8, completionHandler: @escaping ([UInt8]?, (any Error)?) -> Void)

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration, completionHandler: @escaping ([UInt8]?, (any Error)?) -> Void)

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    func readMultipleBlocks(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration, completionHandler: @escaping ([UInt8]?, (any Error)?) -> Void)
}

open class NFCReaderSession {
    init() {}

    /// Whether the device can read tags. Not marked.
    open class var readingAvailable: Bool { false }

    open func begin() {}

    open func invalidate() {}
}

open class NFCNDEFReaderSession: NFCReaderSession {
    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init(delegate: AnyObject, queue: AnyObject?, invalidateAfterFirstRead: Bool) {}
}

open class NFCTagReaderSessionConfiguration {
    public init() {}
}

open class NFCTagReaderSession: NFCReaderSession {
    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init?(pollingOption: Int, delegate: AnyObject, queue: AnyObject?) {}

    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init?(configuration: NFCTagReaderSessionConfiguration, delegate: AnyObject, queue: AnyObject?) {}
}

open class NFCVASCommandConfiguration {
    public init() {}
}

open class NFCVASReaderSession: NFCReaderSession {
    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init(vasCommandConfigurations: [NFCVASCommandConfiguration], delegate: AnyObject, queue: AnyObject?) {}
}

open class NFCISO15693ReaderSession: NFCReaderSession {
    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init(delegate: AnyObject, queue: AnyObject?) {}
}

open class NFCPaymentTagReaderSession: NFCReaderSession {
    @available(iOSApplicationExtension, unavailable, message: "Not available to extensions")
    public init(delegate: AnyObject, queue: AnyObject?) {}
}
