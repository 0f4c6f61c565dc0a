/* A Swift framework's function as swiftc compiles it, written in
   Objective-C (see swift-compatibility-shim.c for why):
   SwiftKit.probe() does NSClassFromString("UIApplication")?
   .value(forKey: "sharedApplication"), each literal a C string bridged to
   NSString (String._bridgeToObjectiveC()) before it is passed. */
#import <Foundation/Foundation.h>

@interface NSObject (SKKeyValueCoding)
- (id)valueForKey:(NSString *)key;
@end

extern NSString *sk_bridge(const char *text) __asm__("_$sSS10FoundationE19_bridgeToObjectiveCSo8NSStringCyF");

id sk_probe(void) __asm__("_$s8SwiftKit5probeyXlSgyF");

id sk_probe(void) {
    id application = NSClassFromString(sk_bridge("UIApplication"));
    return [application valueForKey:sk_bridge("sharedApplication")];
}
