/* SyncKit is built with -fapplication-extension and linked with
   -application_extension, so it is flagged MH_APP_EXTENSION_SAFE, and its
   own code is safe: a shared container and a background session with a
   shared container identifier, as extensions must use. But it links
   Uploader, which is not safe; the linker only warns. */
#import <SyncKit/SyncKit.h>
#import <Uploader/Uploader.h>

@implementation SKSyncEngine {
    NSString *_appGroup;
    UPUploader *_uploader;
}

- (instancetype)initWithAppGroup:(NSString *)appGroup {
    self = [super init];
    if (self) {
        _appGroup = [appGroup retain];
        _uploader = [[UPUploader alloc] initWithEndpoint:[NSURL URLWithString:@"https://photos.example.com/upload"]];
    }
    return self;
}

- (void)dealloc {
    [_appGroup release];
    [_uploader release];
    [super dealloc];
}

- (BOOL)syncPhotoAtURL:(NSURL *)photo {
    NSURL *container = [[NSFileManager defaultManager] containerURLForSecurityApplicationGroupIdentifier:_appGroup];
    if (container == nil) {
        return NO;
    }
    NSURLSessionConfiguration *configuration =
        [NSURLSessionConfiguration backgroundSessionConfigurationWithIdentifier:@"com.example.photos.sync"];
    [configuration setSharedContainerIdentifier:_appGroup];
    [NSURLSession sessionWithConfiguration:configuration];
    if ([_uploader upload:photo]) {
        return YES;
    }
    [_uploader retry:self];
    return NO;
}
@end
