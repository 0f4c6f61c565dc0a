/* HealthKit: the health store. An extension asks for authorization; the
   app finishes it (HKHealthStore.h). */
#ifndef __HEALTHKIT_HEALTHKIT__
#define __HEALTHKIT_HEALTHKIT__

#import <Foundation/Foundation.h>

@interface HKHealthStore : NSObject
+ (BOOL)isHealthDataAvailable;
- (instancetype)init;
- (void)requestAuthorizationToShareTypes:(id)typesToShare readTypes:(id)typesToRead
    completion:(void (^)(BOOL success, NSError *error))completion;
- (void)handleAuthorizationForExtensionWithCompletion:(void (^)(BOOL success, NSError *error))completion
    NS_EXTENSION_UNAVAILABLE("Not available to extensions");
@end

#endif
