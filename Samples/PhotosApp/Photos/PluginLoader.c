/* Conditional loading, as the App Extension Programming Guide describes it
   for a containing app: a version check, then dlopen of an embedded
   framework and dlsym of its entry point. The path and the symbol name are
   literals in __cstring. */
#include <dlfcn.h>
#include "PluginLoader.h"

int load_capture_plugin(double systemVersion) {
    if (systemVersion < 16.0) {
        return 0;
    }
    void *plugin = dlopen("@rpath/Plugin.framework/Plugin", RTLD_NOW);
    if (plugin == 0) {
        return 0;
    }
    int (*register_plugin)(void) = (int (*)(void))dlsym(plugin, "plugin_register");
    return register_plugin ? register_plugin() : 0;
}
