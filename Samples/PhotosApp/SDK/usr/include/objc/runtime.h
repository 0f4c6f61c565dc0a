/* Run-time lookup of classes and selectors by name (<objc/runtime.h>). */
#ifndef _OBJC_RUNTIME_H_
#define _OBJC_RUNTIME_H_

#include <objc/objc.h>

Class objc_getClass(const char *name);
Class objc_lookUpClass(const char *name);
Class objc_getRequiredClass(const char *name);
SEL sel_registerName(const char *name);
const char *sel_getName(SEL selector);

#endif
