/* One member of a static framework (Tracker.framework/Tracker, an archive of
   MH_OBJECT files): it resets the badge through the shared application
   object. Linked into an extension, this code would be copied into it. */
#import <UIKit/UIKit.h>

@interface TRTracker : NSObject
+ (void)applicationDidLaunch;
@end

@implementation TRTracker
+ (void)applicationDidLaunch {
    [[UIApplication sharedApplication] setApplicationIconBadgeNumber:0];
}
@end
