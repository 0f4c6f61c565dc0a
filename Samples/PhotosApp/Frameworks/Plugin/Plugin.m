/* Plugin: live camera effects. The app loads it with dlopen and finds
   plugin_register with dlsym; nothing links it. Camera capture is
   unavailable to extensions (iMessage apps excepted). It is linked with
   chained fixups (LC_DYLD_CHAINED_FIXUPS), unlike the other frameworks. */
#import <AVFoundation/AVFoundation.h>

/* Starts the capture session and returns the number of effects registered,
   0 when the camera cannot run. */
int plugin_register(void) {
    if ([AVCaptureDevice defaultDeviceWithMediaType:AVMediaTypeVideo] == nil) {
        return 0;
    }
    AVCaptureSession *session = [[AVCaptureSession alloc] init];
    [session startRunning];
    BOOL running = [session isRunning];
    [session stopRunning];
    [session release];
    return running ? 3 : 0;
}
