/* Who calls what, for a framework linked stripped (ld -x: no local
   symbols, so its methods and static functions are named only by the
   Objective-C method lists and LC_FUNCTION_STARTS):

   - a category method on UIApplication that sends +[UIApplication
     sharedApplication];
   - a method that passes @selector(sharedApplication) to
     performSelector:, loading the selector reference without sending it;
   - a static function with no symbol, after an exported one, that sends
     +[UIApplication sharedApplication]. */
#import <UIKit/UIKit.h>

@interface CLActivity : NSObject
- (id)applicationOf:(Class)owner;
@end

@implementation CLActivity
- (id)applicationOf:(Class)owner {
    return [owner performSelector:@selector(sharedApplication)];
}
@end

@interface UIApplication (CLCurrent)
+ (id)cl_current;
@end

@implementation UIApplication (CLCurrent)
+ (id)cl_current {
    return [UIApplication sharedApplication];
}
@end

__attribute__((noinline)) int cl_named(int value) {
    return value * 3 + 1;
}

static __attribute__((noinline)) id cl_unnamed(void) {
    return [UIApplication sharedApplication];
}

id cl_entry(void) {
    return cl_named(2) > 0 ? cl_unnamed() : nil;
}
