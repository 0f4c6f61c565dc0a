/* BackgroundTasks: work the system schedules for the app. Only the app
   registers launch handlers (BGTaskScheduler.h, marked iOS 13.7 to 26.2;
   26.4 lifted it). */
#ifndef __BACKGROUNDTASKS_BACKGROUNDTASKS__
#define __BACKGROUNDTASKS_BACKGROUNDTASKS__

#import <Foundation/Foundation.h>

@interface BGTask : NSObject
- (void)setTaskCompletedWithSuccess:(BOOL)success;
@end

@interface BGTaskRequest : NSObject
@end

@interface BGAppRefreshTaskRequest : BGTaskRequest
- (instancetype)initWithIdentifier:(NSString *)identifier;
@end

@interface BGTaskScheduler : NSObject
+ (BGTaskScheduler *)sharedScheduler;
- (BOOL)registerForTaskWithIdentifier:(NSString *)identifier usingQueue:(id)queue launchHandler:(void (^)(BGTask *task))launchHandler
    NS_EXTENSION_UNAVAILABLE("Only the host application may register launch handlers");
- (BOOL)submitTaskRequest:(BGTaskRequest *)taskRequest error:(NSError **)error;
@end

#endif
