/* Reaches UIApplication only by name, each use checked first, as
   SDWebImage 5 and MDFInternationalization do (built with -fobjc-arc):

   - +[BNApplicationFinder application] looks the class up with
     NSClassFromString(@"UIApplication"), asks respondsToSelector:
     @selector(sharedApplication) and reads the application with KVC
     (valueForKey:@"sharedApplication");
   - +[BNApplicationFinder openURL:] returns at once in an app extension
     (its bundle path ends in .appex), then makes openURL: with
     NSSelectorFromString, asks respondsToSelector: and performs it. */
#import <Foundation/Foundation.h>

@interface NSObject (BNKeyValueCoding)
- (id)valueForKey:(NSString *)key;
@end

@interface NSString (BNSuffix)
- (BOOL)hasSuffix:(NSString *)suffix;
@end

@interface BNApplicationFinder : NSObject
@end

@implementation BNApplicationFinder
+ (id)application {
    id owner = NSClassFromString(@"UIApplication");
    if (![owner respondsToSelector:@selector(sharedApplication)]) return nil;
    return [owner valueForKey:@"sharedApplication"];
}

+ (BOOL)openURL:(id)url {
    if ([[[NSBundle mainBundle] bundlePath] hasSuffix:@".appex"]) return NO;
    id application = [NSClassFromString(@"UIApplication") valueForKey:@"sharedApplication"];
    SEL open = NSSelectorFromString(@"openURL:");
    if (![application respondsToSelector:open]) return NO;
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Warc-performSelector-leaks"
    [application performSelector:open withObject:url];
#pragma clang diagnostic pop
    return YES;
}
@end
