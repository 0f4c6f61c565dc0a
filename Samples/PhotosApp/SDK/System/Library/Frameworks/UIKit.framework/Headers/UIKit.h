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

/* More of UIApplication, and the alerts, as the SDK marks them (the stand-in
   keeps every marking some SDK had, including those later lifted). */
typedef NSUInteger UIBackgroundTaskIdentifier;

@interface UIApplication (Extras)
- (void)openURL:(NSURL *)url options:(NSDictionary *)options completionHandler:(void (^)(BOOL success))completion
    NS_EXTENSION_UNAVAILABLE_IOS("");
@property (nonatomic, readonly) BOOL supportsAlternateIcons
    NS_EXTENSION_UNAVAILABLE("Extensions may not have alternate icons");
@property (nonatomic, readonly) NSString *alternateIconName
    NS_EXTENSION_UNAVAILABLE("Extensions may not have alternate icons");
- (void)setAlternateIconName:(NSString *)alternateIconName completionHandler:(void (^)(NSError *error))completionHandler
    NS_EXTENSION_UNAVAILABLE("Extensions may not have alternate icons");
- (UIBackgroundTaskIdentifier)beginBackgroundTaskWithExpirationHandler:(void (^)(void))handler;
- (UIBackgroundTaskIdentifier)beginBackgroundTaskWithName:(NSString *)taskName expirationHandler:(void (^)(void))handler;
- (void)endBackgroundTask:(UIBackgroundTaskIdentifier)identifier;
- (BOOL)setKeepAliveTimeout:(double)timeout handler:(void (^)(void))keepAliveHandler;
- (void)setMinimumBackgroundFetchInterval:(double)minimumBackgroundFetchInterval;
@end

@interface UIAlertView : UIView
- (instancetype)initWithTitle:(NSString *)title message:(NSString *)message delegate:(id)delegate
    cancelButtonTitle:(NSString *)cancelButtonTitle otherButtonTitles:(NSString *)otherButtonTitles, ...
    NS_EXTENSION_UNAVAILABLE_IOS("Use UIAlertController instead.");
- (void)show;
@end

@interface UIActionSheet : UIView
- (instancetype)initWithTitle:(NSString *)title delegate:(id)delegate cancelButtonTitle:(NSString *)cancelButtonTitle
    destructiveButtonTitle:(NSString *)destructiveButtonTitle otherButtonTitles:(NSString *)otherButtonTitles, ...
    NS_EXTENSION_UNAVAILABLE_IOS("Use UIAlertController instead.");
- (void)showInView:(UIView *)view;
@end

@interface UIAlertController : UIViewController
+ (instancetype)alertControllerWithTitle:(NSString *)title message:(NSString *)message preferredStyle:(NSInteger)preferredStyle;
@end

@interface UIScene : UIResponder
@end

@interface UIWindowScene : UIScene
@end

int UIApplicationMain(int argc, char *argv[], NSString *principalClassName, NSString *delegateClassName);

#endif
