/* The names UIApplication and sharedApplication as strings only: no class
   is looked up by name, so nothing here reaches +[UIApplication
   sharedApplication]. */
#import <Foundation/Foundation.h>

NSString *ns_class_name(void) {
    return @"UIApplication";
}

NSString *ns_selector_name(void) {
    return @"sharedApplication";
}
