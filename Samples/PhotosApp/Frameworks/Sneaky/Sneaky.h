/* Sneaky: opens links "from anywhere", extensions included. */
#import <Foundation/Foundation.h>

@interface SNKLinkOpener : NSObject
- (BOOL)openLink:(NSURL *)url;
@end
