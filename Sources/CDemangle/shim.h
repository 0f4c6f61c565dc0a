// Demanglers provided by the runtime libraries every Swift program links.
#include <stddef.h>
#include <stdint.h>

// The Swift runtime's demangler (libswiftCore, swift/Demangling/Demangle.h).
// Returns a malloc'd NUL-terminated string, or NULL when the name is not a
// Swift symbol.
char *swift_demangle(const char *mangledName, size_t mangledNameLength,
                     char *outputBuffer, size_t *outputBufferSize,
                     uint32_t flags);

// The Itanium C++ ABI demangler (<cxxabi.h>: libstdc++ on Linux, libc++abi
// through libc++ on Darwin; LinkCheckRules links the one its platform has).
// Returns a malloc'd string; *status is 0 on success.
char *__cxa_demangle(const char *mangledName, char *outputBuffer,
                     size_t *length, int *status);
