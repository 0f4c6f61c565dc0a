/* A loadable bundle (MH_BUNDLE), as -[NSBundle load] loads them: its
   principal class reads the host's main bundle. Bundles have no install
   name and cannot be linked against. */
#import <Foundation/Foundation.h>

@interface PBFilterPlugin : NSObject
- (NSString *)hostIdentifier;
@end

@implementation PBFilterPlugin
- (NSString *)hostIdentifier {
    return [[NSBundle mainBundle] bundleIdentifier];
}
@end
