/* Reaches +[UIApplication sharedApplication] by name through the C runtime:
   objc_getClass and sel_registerName with C string literals, sent with
   objc_msgSend. No UIKit import, no class or selector reference for it. */
#import <objc/runtime.h>
#import <objc/message.h>

id rt_shared_application(void) {
    Class application = objc_getClass("UIApplication");
    SEL shared = sel_registerName("sharedApplication");
    return ((id (*)(Class, SEL))objc_msgSend)(application, shared);
}
