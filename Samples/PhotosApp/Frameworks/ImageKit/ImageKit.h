/* ImageKit: thumbnails and a preview view. */
#import <UIKit/UIKit.h>

@interface IKThumbnailer : NSObject
- (UIImage *)thumbnailForImageAtURL:(NSURL *)url;
@end

@interface IKPreviewView : UIView
- (void)showImage:(UIImage *)image;
@end
