/* A Swift framework's function as swiftc compiles it, written in
   Objective-C (see swift-compatibility-shim.c for why):
   SwiftKit.firstClass() returns the first class of SwiftKit.names
   (["UIApplication", "sharedApplication"]) that NSClassFromString finds.
   The names are loaded from the array, never as literals, so no code shows
   which name the look-up is passed. */
#import <Foundation/Foundation.h>

extern NSString *sk_bridge(const char *text) __asm__("_$sSS10FoundationE19_bridgeToObjectiveCSo8NSStringCyF");

const char *const sk_names[] __asm__("_$s8SwiftKit5namesSaySSGvp") = { "UIApplication", "sharedApplication" };

id sk_first_class(void) __asm__("_$s8SwiftKit10firstClassyXlSgyF");

id sk_first_class(void) {
    for (unsigned long index = 0; index < sizeof sk_names / sizeof sk_names[0]; index++) {
        id found = NSClassFromString(sk_bridge(sk_names[index]));
        if (found) return found;
    }
    return nil;
}
