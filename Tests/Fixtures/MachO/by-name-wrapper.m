/* Reaches +[UIApplication sharedApplication] by name through wrappers: the
   look-up and the selector maker are passed their callers' arguments, so at
   the calls to NSClassFromString and NSSelectorFromString no literal shows
   which class or selector; the literals are passed to the wrappers, which
   are kept out of line as in a separate file. */
#import <Foundation/Foundation.h>
#import <objc/message.h>

__attribute__((noinline)) Class wr_lookup(NSString *name) {
    return NSClassFromString(name);
}

__attribute__((noinline)) SEL wr_make_selector(NSString *name) {
    return NSSelectorFromString(name);
}

id wr_shared_application(void) {
    return ((id (*)(Class, SEL))objc_msgSend)(wr_lookup(@"UIApplication"), wr_make_selector(@"sharedApplication"));
}
