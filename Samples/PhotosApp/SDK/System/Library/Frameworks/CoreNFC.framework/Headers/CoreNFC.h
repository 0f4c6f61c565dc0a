/* CoreNFC: reading NFC tags, which only the app may do. Every marking is
   NS_EXTENSION_UNAVAILABLE("Not available to extensions"), on whole
   classes, on the sessions' initializers and on two methods of the
   NFCISO15693Tag protocol. */
#ifndef __CORENFC_CORENFC__
#define __CORENFC_CORENFC__

#import <Foundation/Foundation.h>

#define NFC_EXTENSION_UNAVAILABLE NS_EXTENSION_UNAVAILABLE("Not available to extensions")

NFC_EXTENSION_UNAVAILABLE
@interface NFCNDEFPayload : NSObject
+ (instancetype)wellKnownTypeURIPayloadWithString:(NSString *)uri;
@end

NFC_EXTENSION_UNAVAILABLE
@interface NFCNDEFMessage : NSObject
- (instancetype)initWithNDEFRecords:(NSArray *)records;
@end

NFC_EXTENSION_UNAVAILABLE
@interface NFCTagCommandConfiguration : NSObject
- (instancetype)init;
@end

NFC_EXTENSION_UNAVAILABLE
@interface NFCISO15693CustomCommandConfiguration : NFCTagCommandConfiguration
- (instancetype)initWithManufacturerCode:(NSUInteger)manufacturerCode customCommandCode:(NSUInteger)customCommandCode
    requestParameters:(NSData *)requestParameters;
@end

NFC_EXTENSION_UNAVAILABLE
@interface NFCISO15693ReadMultipleBlocksConfiguration : NFCTagCommandConfiguration
- (instancetype)initWithChunkSize:(NSUInteger)chunkSize maximumRetries:(NSUInteger)maximumRetries;
@end

@protocol NFCISO15693Tag <NSObject>
- (void)readSingleBlockWithRequestFlags:(NSUInteger)flags blockNumber:(NSUInteger)blockNumber
    completionHandler:(void (^)(NSData *dataBlock, NSError *error))completionHandler;
- (void)sendCustomCommandWithConfiguration:(NFCISO15693CustomCommandConfiguration *)commandConfiguration
    completionHandler:(void (^)(NSData *customResponse, NSError *error))completionHandler NFC_EXTENSION_UNAVAILABLE;
- (void)readMultipleBlocksWithConfiguration:(NFCISO15693ReadMultipleBlocksConfiguration *)readConfiguration
    completionHandler:(void (^)(NSData *data, NSError *error))completionHandler NFC_EXTENSION_UNAVAILABLE;
@end

@interface NFCReaderSession : NSObject
+ (BOOL)readingAvailable;
- (void)beginSession;
- (void)invalidateSession;
@end

@interface NFCNDEFReaderSession : NFCReaderSession
- (instancetype)initWithDelegate:(id)delegate queue:(id)queue invalidateAfterFirstRead:(BOOL)invalidateAfterFirstRead
    NFC_EXTENSION_UNAVAILABLE;
@end

@interface NFCTagReaderSessionConfiguration : NSObject
- (instancetype)init;
@end

@interface NFCTagReaderSession : NFCReaderSession
- (instancetype)initWithPollingOption:(NSInteger)pollingOption delegate:(id)delegate queue:(id)queue NFC_EXTENSION_UNAVAILABLE;
- (instancetype)initWithConfiguration:(NFCTagReaderSessionConfiguration *)configuration delegate:(id)delegate queue:(id)queue
    NFC_EXTENSION_UNAVAILABLE;
@end

@interface NFCVASCommandConfiguration : NSObject
@end

@interface NFCVASReaderSession : NFCReaderSession
- (instancetype)initWithVASCommandConfigurations:(NSArray *)commandConfigurations delegate:(id)delegate queue:(id)queue
    NFC_EXTENSION_UNAVAILABLE;
@end

@interface NFCISO15693ReaderSession : NFCReaderSession
- (instancetype)initWithDelegate:(id)delegate queue:(id)queue NFC_EXTENSION_UNAVAILABLE;
@end

@interface NFCPaymentTagReaderSession : NFCReaderSession
- (instancetype)initWithDelegate:(id)delegate queue:(id)queue NFC_EXTENSION_UNAVAILABLE;
@end

#endif
