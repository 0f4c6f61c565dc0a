/* A framework's own conditional loading (ToolchainCodeTests): after an OS
   version check (the toolchain's __isPlatformVersionAtLeast, as @available
   compiles), it dlopens a plug-in (not shipped here) and looks up its entry point. */
#include <dlfcn.h>
#include <stdint.h>

int32_t __isPlatformVersionAtLeast(uint32_t platform, uint32_t major, uint32_t minor, uint32_t subminor);

void *load_filters(void) {
    if (!__isPlatformVersionAtLeast(2, 16, 0, 0)) return 0;
    void *plugin = dlopen("@rpath/Effects.framework/Effects", RTLD_NOW);
    return plugin ? dlsym(plugin, "effects_register") : 0;
}
