/* Reaches +[UIApplication sharedApplication] by name, as
   MDFInternationalization does: the class from NSClassFromString, the
   shared application read with key-value coding (valueForKey:) of the
   literal key. No selector reference, no selector made from a string: only
   the selector's name among the strings. */
#import <Foundation/Foundation.h>

@interface NSObject (BNKeyValueCoding)
- (id)valueForKey:(NSString *)key;
@end

@interface BNKeyValueReader : NSObject
+ (id)currentApplication;
@end

@implementation BNKeyValueReader
+ (id)currentApplication {
    Class application = NSClassFromString(@"UIApplication");
    return [(id)application valueForKey:@"sharedApplication"];
}
@end

void by_name_key_value(void) { [BNKeyValueReader currentApplication]; }
