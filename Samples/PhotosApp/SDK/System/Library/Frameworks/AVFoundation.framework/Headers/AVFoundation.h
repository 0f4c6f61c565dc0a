/* AVFoundation: camera capture, which app extensions may not use (iMessage
   apps excepted, which an availability attribute cannot say). */
#ifndef __AVFOUNDATION_AVFOUNDATION__
#define __AVFOUNDATION_AVFOUNDATION__

#import <Foundation/Foundation.h>

typedef NSString *AVMediaType;
extern AVMediaType const AVMediaTypeVideo;

@interface AVCaptureDevice : NSObject
+ (AVCaptureDevice *)defaultDeviceWithMediaType:(AVMediaType)mediaType;
@end

@interface AVCaptureSession : NSObject
- (void)startRunning;
- (void)stopRunning;
- (BOOL)isRunning;
@end

#endif
