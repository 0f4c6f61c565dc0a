/* Stands in for the Swift runtime's compatibility override that
   libswiftCompatibility51.a links into every Swift binary deployed before
   iOS 13 (this toolchain has neither the library nor an iOS standard
   library, so swiftc cannot build an iOS framework here): a function of
   statically linked runtime support, named swift51override_*, that calls
   objc_getClass with the name it is given, never a literal. */
#include <objc/runtime.h>

__attribute__((visibility("hidden"), noinline)) Class swift51override_conformsToProtocol(const char *name) {
    return objc_getClass(name);
}
