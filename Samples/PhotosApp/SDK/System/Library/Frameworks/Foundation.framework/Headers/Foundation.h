/* Foundation: strings, URLs, bundles and the extension context. NSObject
   itself is libobjc's. */
#ifndef __FOUNDATION_FOUNDATION__
#define __FOUNDATION_FOUNDATION__

#import <objc/NSObject.h>
#import <CoreFoundation/CoreFoundation.h>

#if __LP64__
typedef long NSInteger;
typedef unsigned long NSUInteger;
#else
typedef int NSInteger;
typedef unsigned int NSUInteger;
#endif

/* The SDK's marks for API an app extension must not use. */
#define NS_EXTENSION_UNAVAILABLE_IOS(_msg) \
    __attribute__((availability(ios_app_extension, unavailable, message = _msg)))
#define NS_EXTENSION_UNAVAILABLE_MAC(_msg) \
    __attribute__((availability(macosx_app_extension, unavailable, message = _msg)))
#define NS_EXTENSION_UNAVAILABLE(_msg) NS_EXTENSION_UNAVAILABLE_IOS(_msg) NS_EXTENSION_UNAVAILABLE_MAC(_msg)

@class NSArray, NSData, NSDictionary, NSError, NSURL;

@interface NSString : NSObject
+ (instancetype)stringWithUTF8String:(const char *)string;
- (const char *)UTF8String;
- (NSUInteger)length;
- (double)doubleValue;
- (BOOL)isEqualToString:(NSString *)other;
@end

@interface NSURL : NSObject
+ (instancetype)URLWithString:(NSString *)string;
+ (instancetype)fileURLWithPath:(NSString *)path;
- (NSString *)path;
- (NSURL *)URLByAppendingPathComponent:(NSString *)component;
@end

@interface NSData : NSObject
+ (instancetype)dataWithContentsOfURL:(NSURL *)url;
- (NSUInteger)length;
@end

@interface NSArray : NSObject
- (NSUInteger)count;
- (id)firstObject;
@end

@interface NSDictionary : NSObject
- (id)objectForKey:(id)key;
@end

@interface NSBundle : NSObject
+ (NSBundle *)mainBundle;
+ (instancetype)bundleWithPath:(NSString *)path;
+ (instancetype)bundleWithURL:(NSURL *)url;
- (instancetype)initWithPath:(NSString *)path;
- (NSString *)bundleIdentifier;
- (NSString *)bundlePath;
- (id)objectForInfoDictionaryKey:(NSString *)key;
- (BOOL)load;
- (BOOL)loadAndReturnError:(NSError **)error;
- (Class)classNamed:(NSString *)className;
@end

@interface NSUserDefaults : NSObject
- (instancetype)initWithSuiteName:(NSString *)suiteName;
- (id)objectForKey:(NSString *)key;
- (void)setObject:(id)value forKey:(NSString *)key;
- (void)removeObjectForKey:(NSString *)key;
@end

@interface NSFileManager : NSObject
+ (NSFileManager *)defaultManager;
- (NSURL *)containerURLForSecurityApplicationGroupIdentifier:(NSString *)groupIdentifier;
@end

@interface NSURLSessionConfiguration : NSObject
+ (NSURLSessionConfiguration *)defaultSessionConfiguration;
+ (NSURLSessionConfiguration *)backgroundSessionConfigurationWithIdentifier:(NSString *)identifier;
+ (NSURLSessionConfiguration *)backgroundSessionConfiguration:(NSString *)identifier;
- (void)setSharedContainerIdentifier:(NSString *)identifier;
@end

@interface NSURLSession : NSObject
+ (NSURLSession *)sessionWithConfiguration:(NSURLSessionConfiguration *)configuration;
@end

@interface NSError : NSObject
- (NSInteger)code;
@end

@interface NSUserActivity : NSObject
- (instancetype)initWithActivityType:(NSString *)activityType;
- (void)becomeCurrent;
@end

@interface NSExtensionItem : NSObject
- (NSArray *)attachments;
@end

@interface NSExtensionContext : NSObject
- (NSArray *)inputItems;
- (void)completeRequestReturningItems:(NSArray *)items completionHandler:(void (^)(BOOL expired))completionHandler;
- (void)openURL:(NSURL *)URL completionHandler:(void (^)(BOOL success))completionHandler;
@end

Class NSClassFromString(NSString *className);
SEL NSSelectorFromString(NSString *selectorName);
NSString *NSStringFromSelector(SEL selector);
void NSLog(NSString *format, ...);

/* The entry point of every app extension: extensions link with
   -e _NSExtensionMain and have no main of their own. */
int NSExtensionMain(int argc, char *argv[]);

#endif
