/* The root class, which libobjc defines (<objc/NSObject.h>). */
#ifndef _OBJC_NSOBJECT_H_
#define _OBJC_NSOBJECT_H_

#include <objc/objc.h>

@protocol NSObject
- (Class)class;
- (instancetype)self;
- (BOOL)isKindOfClass:(Class)aClass;
- (BOOL)respondsToSelector:(SEL)aSelector;
- (id)performSelector:(SEL)aSelector;
- (id)performSelector:(SEL)aSelector withObject:(id)object;
- (instancetype)retain;
- (void)release;
- (instancetype)autorelease;
@end

OBJC_ROOT_CLASS
@interface NSObject <NSObject> {
    Class isa;
}
+ (instancetype)alloc;
+ (instancetype)new;
+ (Class)class;
- (instancetype)init;
- (void)dealloc;
@end

#endif
