/* Legacy predates extensions: it is built without -fapplication-extension
   and not flagged MH_APP_EXTENSION_SAFE, so linking it into an extension
   makes the linker warn. Its code is safe all the same: defaults and the
   main bundle's Info.plist only. */
#import <Legacy/Legacy.h>

@implementation LGSettingsMigrator
+ (BOOL)migrateIntoSuite:(NSString *)suiteName {
    NSUserDefaults *old = [[NSUserDefaults alloc] initWithSuiteName:[[NSBundle mainBundle] bundleIdentifier]];
    NSUserDefaults *shared = [[NSUserDefaults alloc] initWithSuiteName:suiteName];
    id quality = [old objectForKey:@"quality"];
    if (quality != nil) {
        [shared setObject:quality forKey:@"quality"];
        [old removeObjectForKey:@"quality"];
    }
    [old release];
    [shared release];
    return quality != nil;
}
@end
