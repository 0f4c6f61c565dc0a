/* Reaches +[UIApplication sharedApplication] by name through a pointer to
   NSClassFromString: the import is bound into a data pointer and never
   called directly, so no call to it shows which class it is passed. */
#import <Foundation/Foundation.h>
#import <objc/message.h>

Class (*volatile bp_lookup)(NSString *) = NSClassFromString;

id bp_shared_application(void) {
    return ((id (*)(Class, SEL))objc_msgSend)(bp_lookup(@"UIApplication"), @selector(sharedApplication));
}
