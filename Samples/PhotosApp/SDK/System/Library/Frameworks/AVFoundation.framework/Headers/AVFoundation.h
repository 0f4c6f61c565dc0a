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

@interface AVCaptureDeviceDiscoverySession : NSObject
- (NSArray *)devices;
@end

@interface AVAudioRecorder : NSObject
- (instancetype)initWithURL:(NSURL *)url settings:(NSDictionary *)settings error:(NSError **)outError;
- (BOOL)record;
@end

@interface AVAudioPlayer : NSObject
- (instancetype)initWithContentsOfURL:(NSURL *)url error:(NSError **)outError;
- (BOOL)play;
@end

@interface AVCaptureSession : NSObject
- (void)startRunning;
- (void)stopRunning;
- (BOOL)isRunning;
@end

#endif
