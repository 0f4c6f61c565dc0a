/* A subclass of UIApplication that sends the class method it inherits to
   itself: [self sharedApplication] in a class method and [[self class]
   sharedApplication] in an instance method. No class reference at all:
   _OBJC_CLASS_$_UIApplication is bound only into the superclass field of
   SSApplication's class_t, and the receivers are self, whose class the code
   does not show. */
#import <UIKit/UIKit.h>

@interface SSApplication : UIApplication
@end

@implementation SSApplication
+ (id)mine {
    return [self sharedApplication];
}

- (id)inst {
    return [[self class] sharedApplication];
}
@end
