/* What the toolchain links into a framework besides its own code, written
   the way the originals are:
   - compiler-rt's availability check (os_version_check.c), behind
     @available: __isPlatformVersionAtLeast reads the OS version once,
     through _initializeAvailabilityCheck, which dlopens CoreFoundation by
     its path and dlsyms the functions it needs;
   - ARCLite's load hook (__ARCLite__load), which looks classes up by name
     to patch them on old OSes.
   ToolchainCodeTests builds several frameworks with it: linkcheck says once per
   run that this code calls dlopen, dlsym and objc_getClass, and lists none
   of its calls as the framework's own. Stripped of its local symbols
   (llvm-strip -x, as a release build is), _initializeAvailabilityCheck has
   no name left: what it loads tells it. */
#include <dlfcn.h>
#include <objc/runtime.h>
#include <stdint.h>

#define RTLD_DEFAULT ((void *)-2)

typedef const void *(*CFDataCreateWithBytesNoCopyFunc)(const void *, const uint8_t *, long, const void *);

static int32_t GlobalMajor, GlobalMinor;
static CFDataCreateWithBytesNoCopyFunc CFDataCreateWithBytesNoCopyPtr;

__attribute__((noinline)) static void _initializeAvailabilityCheck(void) {
    void *coreFoundation = dlopen("/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation", RTLD_LAZY);
    if (!coreFoundation) return;
    const void *allocator = dlsym(RTLD_DEFAULT, "kCFAllocatorNull");
    CFDataCreateWithBytesNoCopyPtr = (CFDataCreateWithBytesNoCopyFunc)dlsym(coreFoundation, "CFDataCreateWithBytesNoCopy");
    if (allocator && CFDataCreateWithBytesNoCopyPtr) {
        GlobalMajor = 17;
        GlobalMinor = 0;
    }
}

int32_t __isPlatformVersionAtLeast(uint32_t platform, uint32_t major, uint32_t minor, uint32_t subminor) {
    if (GlobalMajor == 0) _initializeAvailabilityCheck();
    return (int32_t)major < GlobalMajor || ((int32_t)major == GlobalMajor && (int32_t)minor <= GlobalMinor);
}

static Class PatchedArray;

void __ARCLite__load(void) {
    PatchedArray = objc_getClass("NSArray");
}
