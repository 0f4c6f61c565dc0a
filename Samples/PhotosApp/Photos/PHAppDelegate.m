/* The containing app may use everything, the shared application object
   included: what it links matters only for what it brings into the share
   extension. */
#import <UIKit/UIKit.h>
#import <ImageKit/ImageKit.h>
#import <Legacy/Legacy.h>
#import <SyncKit/SyncKit.h>
#import <Uploader/Uploader.h>
#import "PluginLoader.h"

@interface PHAppDelegate : UIResponder <UIApplicationDelegate>
@end

@implementation PHAppDelegate {
    SKSyncEngine *_sync;
    UPUploader *_uploader;
}

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions {
    [[UIApplication sharedApplication] setApplicationIconBadgeNumber:0];
    [LGSettingsMigrator migrateIntoSuite:@"group.com.example.photos"];
    _sync = [[SKSyncEngine alloc] initWithAppGroup:@"group.com.example.photos"];
    _uploader = [[UPUploader alloc] initWithEndpoint:[NSURL URLWithString:@"https://photos.example.com/upload"]];
    [[IKThumbnailer new] release];
    load_capture_plugin([[[UIDevice currentDevice] systemVersion] doubleValue]);
    return YES;
}
@end
