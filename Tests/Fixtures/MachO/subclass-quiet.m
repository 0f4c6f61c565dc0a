/* A subclass of UIApplication that never sends sharedApplication (or any
   other method a rule names): defining it uses UIApplication, but no rule
   matches the class alone. */
#import <UIKit/UIKit.h>

@interface SQApplication : UIApplication
- (int)answer;
@end

@implementation SQApplication
- (int)answer {
    return 42;
}
@end
