/* Names UIApplication and sharedApplication only as text it logs, as a
   framework's diagnostics do, and looks up another class by name
   (NSURLSession): no code makes a selector of "sharedApplication", so the
   string is no use by name (SelectorStringTests). */
#import <Foundation/Foundation.h>

@interface SSLogger : NSObject
- (Class)session;
- (void)explain;
@end

@implementation SSLogger
- (Class)session { return NSClassFromString(@"NSURLSession"); }
- (void)explain { NSLog(@"%@ %@", @"UIApplication", @"sharedApplication"); }
@end
