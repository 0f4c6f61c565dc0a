/* EventKitUI: calendar view controllers, marked
   NS_EXTENSION_UNAVAILABLE_IOS("EventKitUI is not supported in extensions")
   (EKCalendarChooser only in the iOS 9.3 to 12.4 SDKs), and their delegate
   protocols, which a class adopting them leaves no reference to. */
#ifndef __EVENTKITUI_EVENTKITUI__
#define __EVENTKITUI_EVENTKITUI__

#import <UIKit/UIKit.h>

#define EVENTKITUI_EXTENSION_UNAVAILABLE NS_EXTENSION_UNAVAILABLE_IOS("EventKitUI is not supported in extensions")

EVENTKITUI_EXTENSION_UNAVAILABLE
@protocol EKEventEditViewDelegate <NSObject>
- (void)eventEditViewController:(id)controller didCompleteWithAction:(NSInteger)action;
@end

EVENTKITUI_EXTENSION_UNAVAILABLE
@protocol EKEventViewDelegate <NSObject>
- (void)eventViewController:(id)controller didCompleteWithAction:(NSInteger)action;
@end

EVENTKITUI_EXTENSION_UNAVAILABLE
@interface EKEventEditViewController : UIViewController
- (instancetype)init;
@end

EVENTKITUI_EXTENSION_UNAVAILABLE
@interface EKEventViewController : UIViewController
- (instancetype)init;
@end

EVENTKITUI_EXTENSION_UNAVAILABLE
@interface EKCalendarChooser : UIViewController
- (instancetype)initWithSelectionStyle:(NSInteger)selectionStyle displayStyle:(NSInteger)displayStyle eventStore:(id)eventStore;
@end

#endif
