/* SafariServices for macOS: the containing app's side of a Safari app
   extension (SFSafariApplication.h, macOS 12.0 SDK). */
#ifndef __SAFARISERVICES_SAFARISERVICES__
#define __SAFARISERVICES_SAFARISERVICES__

#import <Foundation/Foundation.h>

@interface SFSafariApplication : NSObject
+ (void)getActiveWindowWithCompletionHandler:(void (^)(id activeWindow))completionHandler;
+ (void)showPreferencesForExtensionWithIdentifier:(NSString *)identifier completionHandler:(void (^)(NSError *error))completionHandler
    NS_EXTENSION_UNAVAILABLE("Not available to extensions");
+ (void)dispatchMessageWithName:(NSString *)messageName toExtensionWithIdentifier:(NSString *)identifier
    userInfo:(NSDictionary *)userInfo completionHandler:(void (^)(NSError *error))completionHandler
    NS_EXTENSION_UNAVAILABLE("Not available to extensions");
@end

#endif
