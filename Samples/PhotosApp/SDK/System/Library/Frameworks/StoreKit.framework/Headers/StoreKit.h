/* StoreKit: App Store overlays (SKOverlay.h), which an extension may not
   show. */
#ifndef __STOREKIT_STOREKIT__
#define __STOREKIT_STOREKIT__

#import <UIKit/UIKit.h>

@interface SKOverlayAppConfiguration : NSObject
- (instancetype)initWithAppIdentifier:(NSString *)appIdentifier position:(NSInteger)position;
@end

@interface SKOverlay : NSObject
- (instancetype)initWithConfiguration:(SKOverlayAppConfiguration *)configuration;
- (void)presentInScene:(UIWindowScene *)scene NS_EXTENSION_UNAVAILABLE("Overlays are not available in extensions");
+ (void)dismissOverlayInScene:(UIWindowScene *)scene NS_EXTENSION_UNAVAILABLE("Overlays are not available in extensions");
@end

@interface SKStoreReviewController : NSObject
+ (void)requestReviewInScene:(UIWindowScene *)windowScene;
@end

#endif
