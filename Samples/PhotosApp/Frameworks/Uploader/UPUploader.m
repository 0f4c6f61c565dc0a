#import <Uploader/Uploader.h>
#import "UPLogin.h"

@implementation UPUploader {
    NSURL *_endpoint;
    NSUInteger _failures;
}

- (instancetype)initWithEndpoint:(NSURL *)endpoint {
    self = [super init];
    if (self) {
        _endpoint = [endpoint retain];
    }
    return self;
}

- (void)dealloc {
    [_endpoint release];
    [super dealloc];
}

- (BOOL)upload:(NSURL *)file {
    NSData *data = [NSData dataWithContentsOfURL:file];
    if (data == nil || [data length] == 0) {
        _failures += 1;
        return NO;
    }
    return YES;
}

- (void)retry:(id)sender {
    if (_failures >= 3) {
        present_login([NSURL URLWithString:@"photos://login"]);
    }
}
@end
