/* UIKit: the application object, view controllers, views, the device.
   The members an app extension must not use carry
   NS_EXTENSION_UNAVAILABLE_IOS with Apple's messages, so clang
   -fapplication-extension rejects them. */
#ifndef __UIKIT_UIKIT__
#define __UIKIT_UIKIT__

#import <Foundation/Foundation.h>

@class UIApplication, UIImage, UIView, UIWindow;

@interface UIResponder : NSObject
- (UIResponder *)nextResponder;
@end

@protocol UIApplicationDelegate <NSObject>
- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)launchOptions;
@end

@interface UIApplication : UIResponder
+ (UIApplication *)sharedApplication
    NS_EXTENSION_UNAVAILABLE_IOS("Use view controller based solutions where appropriate instead.");
- (BOOL)openURL:(NSURL *)url NS_EXTENSION_UNAVAILABLE_IOS("");
- (BOOL)canOpenURL:(NSURL *)url;
- (void)setApplicationIconBadgeNumber:(NSInteger)number;
- (void)beginIgnoringInteractionEvents NS_EXTENSION_UNAVAILABLE_IOS("");
- (void)endIgnoringInteractionEvents NS_EXTENSION_UNAVAILABLE_IOS("");
@end

@interface UIScreen : NSObject
+ (UIScreen *)mainScreen;
- (double)scale;
@end

@interface UIDevice : NSObject
+ (UIDevice *)currentDevice;
- (NSString *)systemVersion;
- (NSString *)model;
@end

@interface UIImage : NSObject
+ (UIImage *)imageWithContentsOfFile:(NSString *)path;
+ (UIImage *)imageWithData:(NSData *)data scale:(double)scale;
- (double)scale;
@end

@interface UIView : UIResponder
- (instancetype)init;
- (void)addSubview:(UIView *)view;
- (void)setNeedsDisplay;
@end

@interface UIWindow : UIView
@end

@interface UIViewController : UIResponder
- (UIView *)view;
- (void)viewDidLoad;
- (NSExtensionContext *)extensionContext;
@end

int UIApplicationMain(int argc, char *argv[], NSString *principalClassName, NSString *delegateClassName);

#endif
