/* PassKit: the pass library (PKPassLibrary.h). Suppressing automatic pass
   presentation is the foreground app's business. */
#ifndef __PASSKIT_PASSKIT__
#define __PASSKIT_PASSKIT__

#import <Foundation/Foundation.h>

typedef NSUInteger PKSuppressionRequestToken;

@interface PKPassLibrary : NSObject
+ (BOOL)isPassLibraryAvailable;
+ (PKSuppressionRequestToken)requestAutomaticPassPresentationSuppressionWithResponseHandler:(void (^)(NSUInteger result))responseHandler
    NS_EXTENSION_UNAVAILABLE("Not available to extensions");
+ (void)endAutomaticPassPresentationSuppressionWithRequestToken:(PKSuppressionRequestToken)requestToken
    NS_EXTENSION_UNAVAILABLE("Not available to extensions");
+ (BOOL)isSuppressingAutomaticPassPresentation NS_EXTENSION_UNAVAILABLE("Not available to extensions");
- (NSArray *)passes;
@end

#endif
