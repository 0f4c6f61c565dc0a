/* The Objective-C runtime's basic types, as <objc/objc.h> declares them. */
#ifndef _OBJC_OBJC_H_
#define _OBJC_OBJC_H_

typedef struct objc_class *Class;
struct objc_object {
    Class isa;
};
typedef struct objc_object *id;
typedef struct objc_selector *SEL;
typedef id (*IMP)(id, SEL, ...);

/* BOOL is bool on 64-bit iOS, signed char on 32-bit iOS. */
#if __LP64__
typedef _Bool BOOL;
#else
typedef signed char BOOL;
#endif
#define YES ((BOOL)1)
#define NO ((BOOL)0)

#define nil ((void *)0)
#define Nil ((void *)0)

#define OBJC_ROOT_CLASS __attribute__((objc_root_class))

#endif
