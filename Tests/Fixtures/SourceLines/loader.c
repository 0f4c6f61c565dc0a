// Two dlopen calls, one of them written in a function inlined into start
// (built with -g -O2), for the source of call sites in check's reports.
#include <dlfcn.h>
static inline __attribute__((always_inline)) void *load_plugin(const char *name) {
    return dlopen(name, RTLD_NOW);
}
void *start(const char *name) {
    void *handle = load_plugin(name);
    return handle ? handle : dlopen("libfallback.so", RTLD_LAZY);
}
