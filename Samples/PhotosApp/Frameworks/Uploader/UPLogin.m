/* Uploader is built without -fapplication-extension (and so is not flagged
   MH_APP_EXTENSION_SAFE): it reaches the shared application object and
   opens a URL through it, both unavailable to extensions. The compiler would
   refuse this file in an extension-safe target; a framework that links
   Uploader never sees it. */
#import <UIKit/UIKit.h>
#import "UPLogin.h"

void present_login(NSURL *loginURL) {
    UIApplication *application = [UIApplication sharedApplication];
    [application openURL:loginURL];
}
