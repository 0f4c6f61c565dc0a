/* Sneaky is built with -fapplication-extension and flagged
   MH_APP_EXTENSION_SAFE, yet it reaches +[UIApplication sharedApplication]
   and -openURL:. It names them only in strings, so neither the compiler nor
   the linker sees them: it does not import UIKit at all, has no class
   reference to UIApplication and no selector reference to
   sharedApplication. The names are in __cstring, behind CFString literals. */
#import <Foundation/Foundation.h>
#import <objc/message.h>
#import <Sneaky/Sneaky.h>

static id shared_application(void) {
    Class application = NSClassFromString(@"UIApplication");
    SEL shared = NSSelectorFromString(@"sharedApplication");
    return ((id (*)(Class, SEL))objc_msgSend)(application, shared);
}

@implementation SNKLinkOpener
- (BOOL)openLink:(NSURL *)url {
    id application = shared_application();
    SEL open = NSSelectorFromString(@"openURL:");
    if (![application respondsToSelector:open]) {
        return NO;
    }
    [application performSelector:open withObject:url];
    return YES;
}
@end
