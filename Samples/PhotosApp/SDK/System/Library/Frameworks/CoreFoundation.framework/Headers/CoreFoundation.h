/* CoreFoundation: the types Foundation builds on. An @"..." literal is a
   constant CFString whose isa is __CFConstantStringClassReference, which
   this library exports. */
#ifndef __COREFOUNDATION_COREFOUNDATION__
#define __COREFOUNDATION_COREFOUNDATION__

typedef const struct __CFString *CFStringRef;
typedef struct __CFBundle *CFBundleRef;
typedef const struct __CFArray *CFArrayRef;
typedef unsigned char Boolean;

CFBundleRef CFBundleGetMainBundle(void);
void *CFBundleGetFunctionPointerForName(CFBundleRef bundle, CFStringRef functionName);
void CFBundleGetFunctionPointersForNames(CFBundleRef bundle, CFArrayRef functionNames, void *functionPointers[]);
Boolean CFBundleLoadExecutable(CFBundleRef bundle);

#endif
