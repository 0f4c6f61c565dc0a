#import <Foundation/Foundation.h>

/* Opens the login screen at loginURL in the containing app. */
void present_login(NSURL *loginURL);
