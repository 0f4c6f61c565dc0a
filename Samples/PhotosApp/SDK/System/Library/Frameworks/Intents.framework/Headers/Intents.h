/* Intents: SiriKit. The app owns the user context, Siri authorization and
   the vocabulary (INUserContext.h, INPreferences.h, INVocabulary.h; the
   last two marked in the iOS 10.3 to 12.4 SDKs). The workout responses'
   success codes are marked too, but an enum constant leaves no trace in a
   binary. */
#ifndef __INTENTS_INTENTS__
#define __INTENTS_INTENTS__

#import <Foundation/Foundation.h>

typedef NSInteger INSiriAuthorizationStatus;
typedef NSInteger INVocabularyStringType;

typedef enum INStartWorkoutIntentResponseCode : NSInteger {
    INStartWorkoutIntentResponseCodeUnspecified = 0,
    INStartWorkoutIntentResponseCodeReady,
    INStartWorkoutIntentResponseCodeContinueInApp,
    INStartWorkoutIntentResponseCodeFailure,
    INStartWorkoutIntentResponseCodeFailureRequiringAppLaunch,
    INStartWorkoutIntentResponseCodeFailureOngoingWorkout,
    INStartWorkoutIntentResponseCodeFailureNoMatchingWorkout,
    INStartWorkoutIntentResponseCodeSuccess NS_EXTENSION_UNAVAILABLE("INStartWorkoutIntentResponseCodeSuccess is not available to extensions. This can only be returned from the app."),
    INStartWorkoutIntentResponseCodeHandleInApp,
} INStartWorkoutIntentResponseCode;

@interface INUserContext : NSObject
- (instancetype)init;
- (void)becomeCurrent NS_EXTENSION_UNAVAILABLE_IOS("User context is not available in extensions");
@end

@interface INPreferences : NSObject
+ (INSiriAuthorizationStatus)siriAuthorizationStatus
    NS_EXTENSION_UNAVAILABLE("siriAuthorizationStatus is not available to extensions. The main app is responsible for Siri authorization.");
+ (void)requestSiriAuthorization:(void (^)(INSiriAuthorizationStatus status))handler
    NS_EXTENSION_UNAVAILABLE("requestSiriAuthorization is not available to extensions. The main app is responsible for Siri authorization.");
+ (NSString *)siriLanguageCode;
@end

@interface INVocabulary : NSObject
+ (instancetype)sharedVocabulary;
- (void)setVocabularyStrings:(id)vocabulary ofType:(INVocabularyStringType)type
    NS_EXTENSION_UNAVAILABLE("INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary.");
- (void)setVocabulary:(id)vocabulary ofType:(INVocabularyStringType)type
    NS_EXTENSION_UNAVAILABLE("INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary.");
- (void)removeAllVocabularyStrings
    NS_EXTENSION_UNAVAILABLE("INVocabulary is not available to extensions. The main app is responsible for providing all vocabulary.");
@end

#endif
