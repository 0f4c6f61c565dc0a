// The extension of the loading-app fixture (LoadedFrameworkTests): its entry
// point calls into Loader.framework, which loads Uploader.framework.
void *load_uploader(void);

int NSExtensionMain(void) { return load_uploader() != 0; }
