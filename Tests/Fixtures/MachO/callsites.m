/* Call sites for the Mach-O code index, built for arm64 and the x86_64
   simulator with both linkers: C calls to imports (dlopen with a literal and
   with a parameter), class and instance messages, a message to super, a
   class reached through objc_opt_self, another class's sharedApplication, a
   structure returned through objc_msgSend_stret (x86_64), internal calls and
   a tail call, so that the call path
   -[CSUploader retry:] → cs_present_login → +[UIApplication sharedApplication]
   can be followed. */
#import <UIKit/UIKit.h>
#include <dlfcn.h>

typedef struct { double x, y, width, height; } CSRect;

@interface CSPanel : NSObject
+ (CSPanel *)sharedApplication;
- (CSRect)frame;
@end

@interface CSUploader : NSObject
- (void)retry:(id)sender;
@end

void *cs_load_plugin(void) {
    return dlopen("@rpath/Plugin.framework/Plugin", RTLD_NOW);
}

void *cs_load_named(const char *name) {
    return dlopen(name, RTLD_LAZY);
}

__attribute__((noinline)) static UIApplication *cs_application(void) {
    return [UIApplication sharedApplication];
}

__attribute__((noinline)) void cs_present_login(NSURL *url) {
    [cs_application() openURL:url];
}

BOOL cs_can_open(NSURL *url) {
    Class application = [UIApplication self];
    return [[application sharedApplication] canOpenURL:url];
}

double cs_panel_width(void) {
    return [[CSPanel sharedApplication] frame].width;
}

@implementation CSPanel
+ (CSPanel *)sharedApplication {
    return [[self alloc] init];
}

- (CSRect)frame {
    CSRect rect = {0, 0, 320, 480};
    return rect;
}
@end

@implementation CSUploader
- (instancetype)init {
    return [super init];
}

- (void)retry:(id)sender {
    cs_present_login([NSURL URLWithString:@"photos://login"]);
}
@end
