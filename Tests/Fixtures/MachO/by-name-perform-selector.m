/* Reaches +[UIApplication sharedApplication] by name, as Kingfisher 7's
   Objective-C-visible helpers do: the class from NSClassFromString, the
   selector from @selector (a selector reference), sent with
   performSelector:. The compiler's extension check and the App Store accept
   it: a use by name. */
#import <Foundation/Foundation.h>

@interface BNPerformer : NSObject
+ (id)currentApplication;
@end

@implementation BNPerformer
+ (id)currentApplication {
    Class application = NSClassFromString(@"UIApplication");
    return [(id)application performSelector:@selector(sharedApplication)];
}
@end

void by_name_perform_selector(void) { [BNPerformer currentApplication]; }
