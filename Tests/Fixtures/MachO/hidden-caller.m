/* Sends +[UIApplication sharedApplication] from a static helper (first in
   the file, so its call comes first by address) and from a category method.
   Once stripped (`strip -x`), the helper has no symbol and reports name it
   by its LC_FUNCTION_STARTS address (`sub_…`); the method keeps its name. */
#import <UIKit/UIKit.h>

__attribute__((noinline)) static UIApplication *hc_hidden_app(void) {
    return [UIApplication sharedApplication];
}

@interface HCOpener : NSObject
- (void)open:(NSURL *)url;
@end

@implementation HCOpener
- (void)open:(NSURL *)url { [hc_hidden_app() openURL:url ]; }
@end

@interface NSObject (HCHelpers)
+ (id)hc_app;
@end

@implementation NSObject (HCHelpers)
+ (id)hc_app { return [UIApplication sharedApplication]; }
@end
