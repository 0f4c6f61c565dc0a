// A category on UIApplication whose class method sends sharedApplication
// to self: no class reference, only the category's class (bound to
// _OBJC_CLASS_$_UIApplication) and the selector reference.
#import <UIKit/UIKit.h>

@interface UIApplication (CAGrab)
+ (id)ca_grab;
@end

@implementation UIApplication (CAGrab)
+ (id)ca_grab {
    return [self sharedApplication];
}
@end
