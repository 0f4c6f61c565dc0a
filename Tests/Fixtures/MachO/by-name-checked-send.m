/* Reaches +[UIApplication sharedApplication] by name, as SDWebImage 5's
   SDWebImageDownloaderOperation does: NSClassFromString and
   NSSelectorFromString with literals, checked with respondsToSelector:
   before the send. The compiler's extension check and the App Store accept
   it: a use by name. */
#import <Foundation/Foundation.h>
#import <objc/message.h>

@interface BNCheckedSender : NSObject
+ (id)currentApplication;
@end

@implementation BNCheckedSender
+ (id)currentApplication {
    Class application = NSClassFromString(@"UIApplication");
    SEL shared = NSSelectorFromString(@"sharedApplication");
    if (!application || ![(id)application respondsToSelector:shared]) return nil;
    return ((id (*)(id, SEL))objc_msgSend)(application, shared);
}
@end

void by_name_checked_send(void) { [BNCheckedSender currentApplication]; }
