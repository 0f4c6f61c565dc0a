/* An iMessage extension's principal class (extension point
   com.apple.message-payload-provider): it starts Camera's live effects,
   camera capture that iMessage extensions alone among extensions may use.
   Camera is the sample's Plugin sources built as a framework that this
   extension links. */
#import <UIKit/UIKit.h>

int plugin_register(void);

@interface MXMessagesViewController : UIViewController
@end

@implementation MXMessagesViewController
- (void)viewDidLoad {
    [super viewDidLoad];
    if (plugin_register() == 0) {
        [[self extensionContext] completeRequestReturningItems:nil completionHandler:nil];
    }
}
@end
