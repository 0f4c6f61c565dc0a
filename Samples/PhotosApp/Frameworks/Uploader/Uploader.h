/* Uploader: sends photos to the server, and when the upload keeps failing,
   sends the user to the containing app's login screen. */
#import <Foundation/Foundation.h>

@interface UPUploader : NSObject
- (instancetype)initWithEndpoint:(NSURL *)endpoint;
/* Uploads the file; NO when it could not be read or sent. */
- (BOOL)upload:(NSURL *)file;
/* Called after a failed upload: after three attempts, asks the user to log
   in again. */
- (void)retry:(id)sender;
@end
