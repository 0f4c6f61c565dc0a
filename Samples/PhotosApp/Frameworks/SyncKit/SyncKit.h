/* SyncKit: keeps the photos the app and its share extension exchange in the
   app group's shared container and uploads them. */
#import <Foundation/Foundation.h>

@interface SKSyncEngine : NSObject
- (instancetype)initWithAppGroup:(NSString *)appGroup;
/* Copies the photo into the shared container and uploads it. */
- (BOOL)syncPhotoAtURL:(NSURL *)photo;
@end
