// A static helper named as twin-b.c's is: two callers of one name.
#include <dlfcn.h>
static __attribute__((noinline)) void *helper(const char *name) { return dlopen(name, RTLD_NOW); }
void *from_a(const char *name) { return helper(name); }
