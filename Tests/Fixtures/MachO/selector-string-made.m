/* Makes a selector of "openURL:" and sends it to whatever it is given, as
   code that reaches -[UIApplication openURL:] through the responder chain
   does: the string is a use by name (SelectorStringTests). */
#import <Foundation/Foundation.h>
#import <objc/message.h>

@interface SSOpener : NSObject
+ (BOOL)open:(NSURL *)url with:(id)responder;
@end

@implementation SSOpener
+ (BOOL)open:(NSURL *)url with:(id)responder {
    SEL open = NSSelectorFromString(@"openURL:");
    return ((BOOL (*)(id, SEL, NSURL *))objc_msgSend)(responder, open, url);
}
@end
