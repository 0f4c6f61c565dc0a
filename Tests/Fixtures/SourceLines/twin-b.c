// A static helper named as twin-a.c's is: two callers of one name.
#include <dlfcn.h>
static __attribute__((noinline)) void *helper(const char *name) {
    return dlopen(name, RTLD_LAZY);
}
void *from_b(const char *name) { return helper(name); }
