/* Looks a class up by name, but another one than UIApplication. Beside
   by-name-strings.m, the image holds the strings "UIApplication" and
   "sharedApplication" and imports NSClassFromString: only its call sites
   tell that UIApplication is not what it looks up. */
#import <Foundation/Foundation.h>

Class oc_screen_class(void) {
    return NSClassFromString(@"UIScreen");
}
