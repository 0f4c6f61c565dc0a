/* A share extension's principal class, compiled with
   -fapplication-extension: itself extension-safe, it shows progress with
   SVProgressHUD, a Carthage-built framework that sends
   +[UIApplication sharedApplication] (the real one, from
   ../shared/corpus/macho, linked by its install name
   @rpath/SVProgressHUD.framework/SVProgressHUD). The interface is declared
   here, as its header would. */
#import <UIKit/UIKit.h>

@interface SVProgressHUD : UIView
+ (void)showWithStatus:(NSString *)status;
+ (void)dismiss;
@end

@interface HUDShareViewController : UIViewController
@end

@implementation HUDShareViewController
- (void)didSelectPost {
    [SVProgressHUD showWithStatus:@"Sharing"];
    [[self extensionContext] completeRequestReturningItems:nil completionHandler:nil];
    [SVProgressHUD dismiss];
}
@end
