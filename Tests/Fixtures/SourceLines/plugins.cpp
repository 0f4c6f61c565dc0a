// A dlopen call written in a C++ function of a namespace that the compiler
// inlines into another (built with -g -O2): the inline chain of a call site
// whose functions have linkage names.
#include <dlfcn.h>
namespace plugins {
static void *load(const char *name) {
    return dlopen(name, RTLD_NOW);
}
void *start(const char *name) {
    return load(name);
}
}  // namespace plugins
