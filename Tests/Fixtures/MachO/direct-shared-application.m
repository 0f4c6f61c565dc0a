/* Sends +[UIApplication sharedApplication] directly, as AFNetworking 3's
   AFNetworkActivityIndicatorManager does (there to show the network
   activity indicator; here to set the badge): a class reference and a
   selector reference. Compiled without -fapplication-extension (with it
   clang rejects the send): a direct use. */
#import <UIKit/UIKit.h>

void direct_shared_application(BOOL visible) {
    [[UIApplication sharedApplication] setApplicationIconBadgeNumber:visible ? 1 : 0];
}
