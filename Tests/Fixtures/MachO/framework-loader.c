// Loader.framework of the loading-app fixture (LoadedFrameworkTests): it
// links nothing unsafe, and loads Uploader.framework at run time.
#include <dlfcn.h>

void *load_uploader(void) { return dlopen("@rpath/Uploader.framework/Uploader", RTLD_NOW); }
