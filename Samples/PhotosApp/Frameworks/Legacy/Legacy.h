/* Legacy: moves settings from the app's old defaults into the app group. */
#import <Foundation/Foundation.h>

@interface LGSettingsMigrator : NSObject
/* Moves the old "quality" setting into the suite; NO when there was none. */
+ (BOOL)migrateIntoSuite:(NSString *)suiteName;
@end
