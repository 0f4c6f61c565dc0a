/* ImageKit is flagged MH_APP_EXTENSION_SAFE and uses only extension-safe
   UIKit API. It is built for the device (arm64) and the simulator (x86_64)
   into one fat file, as frameworks were shipped before XCFrameworks. */
#import <ImageKit/ImageKit.h>

@implementation IKThumbnailer
- (UIImage *)thumbnailForImageAtURL:(NSURL *)url {
    NSData *data = [NSData dataWithContentsOfURL:url];
    return [UIImage imageWithData:data scale:[[UIScreen mainScreen] scale]];
}
@end

@implementation IKPreviewView {
    UIImage *_image;
}

- (void)showImage:(UIImage *)image {
    [_image release];
    _image = [image retain];
    [self setNeedsDisplay];
}
@end
