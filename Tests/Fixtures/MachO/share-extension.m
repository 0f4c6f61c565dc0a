/* A share extension's principal class: extension-safe itself (compiled with
   -fapplication-extension), it hands the shared item to Uploader, a
   framework that is not. */
#import <UIKit/UIKit.h>
#import <Uploader/Uploader.h>

@interface SXShareViewController : UIViewController
@end

@implementation SXShareViewController
- (void)didSelectPost {
    NSExtensionContext *context = [self extensionContext];
    NSExtensionItem *item = [[context inputItems] firstObject];
    UPUploader *uploader = [[UPUploader alloc] initWithEndpoint:[NSURL URLWithString:@"https://photos.example.com"]];
    if (![uploader upload:[[item attachments] firstObject]]) {
        [uploader retry:self];
    }
    [uploader release];
    [context completeRequestReturningItems:nil completionHandler:nil];
}
@end
