/* A containing app's executable: main hands over to UIKit, and the app uses
   the shared application object, which apps may. */
#import <UIKit/UIKit.h>

int main(int argc, char *argv[]) {
    [[UIApplication sharedApplication] setApplicationIconBadgeNumber:0];
    return UIApplicationMain(argc, argv, nil, nil);
}
