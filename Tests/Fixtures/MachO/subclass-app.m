/* Subclasses of UIApplication, sent the class method they inherit: a class
   reference to SAApplication (or SAGrandchild, two levels down) and the
   selector sharedApplication, and -openURL: sent to what it returns. No
   class reference to UIApplication itself: only the superclass field of
   SAApplication's class_t is bound to _OBJC_CLASS_$_UIApplication.
   SAHelper is no subclass: its own +sharedApplication is another method. */
#import <UIKit/UIKit.h>

@interface SAApplication : UIApplication
@end

@implementation SAApplication
@end

@interface SAGrandchild : SAApplication
@end

@implementation SAGrandchild
@end

@interface SAHelper : NSObject
+ (id)sharedApplication;
@end

@implementation SAHelper
+ (id)sharedApplication {
    return nil;
}
@end

BOOL sa_open(NSURL *url) {
    return [[SAApplication sharedApplication] openURL:url];
}

id sa_grandchild(void) {
    return [SAGrandchild sharedApplication];
}

id sa_helper(void) {
    return [SAHelper sharedApplication];
}
