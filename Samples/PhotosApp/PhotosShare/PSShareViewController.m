/* The share extension's principal class (NSExtensionPrincipalClass). It is
   compiled with -fapplication-extension and uses only extension-safe API
   itself, the extension context included; it is unsafe because of what it
   links: SyncKit, which links Uploader, and Sneaky. Legacy is not flagged
   but safe. */
#import <UIKit/UIKit.h>
#import <ImageKit/ImageKit.h>
#import <Legacy/Legacy.h>
#import <Sneaky/Sneaky.h>
#import <SyncKit/SyncKit.h>

@interface PSShareViewController : UIViewController
@end

@implementation PSShareViewController {
    IKPreviewView *_preview;
}

- (void)viewDidLoad {
    [super viewDidLoad];
    _preview = [[IKPreviewView alloc] init];
    [[self view] addSubview:_preview];
}

/* The Post button. */
- (void)didSelectPost {
    NSExtensionContext *context = [self extensionContext];
    NSExtensionItem *item = [[context inputItems] firstObject];
    NSURL *photo = [[item attachments] firstObject];
    SKSyncEngine *sync = [[SKSyncEngine alloc] initWithAppGroup:@"group.com.example.photos"];
    [sync syncPhotoAtURL:photo];
    [sync release];
    [LGSettingsMigrator migrateIntoSuite:@"group.com.example.photos"];
    SNKLinkOpener *opener = [[SNKLinkOpener alloc] init];
    [opener openLink:[NSURL URLWithString:@"photos://shared"]];
    [opener release];
    [context completeRequestReturningItems:nil completionHandler:nil];
}
@end
