// Call sites with known shapes, for the call-site analysis tests
// (compared with objdump -d). Built for x86_64 and aarch64, with and
// without -fno-plt.

void *dlopen(const char *file, int mode);
int uname(void *buffer);
void kit_shared(void);      // the API the tests' rule pack denies
int kit_open(const char *url);

// An internal helper: the call that matters, one level below the API.
__attribute__((noinline)) static void open_in_app(void) { kit_shared(); }

// Exported: reaches kit_shared through the helper.
void share_photo(void) { open_in_app(); }

// A tail call: compiled to a jump to kit_open's PLT entry.
int open_url(const char *url) { return kit_open(url); }

// Loads a plug-in after a version check.
__attribute__((noinline)) static int os_version(void) {
    char buffer[390];
    return uname(buffer);
}
void *load_plugin(void) {
    if (os_version() != 0) return 0;
    return dlopen("libplugin.so", 2);
}

// Loads whatever it is told, without a version check.
void *load_named(const char *name) { return dlopen(name, 2); }

// A denylisted API defined in this image and called inside it, as when a
// framework's code is linked statically into the extension.
// Hidden: an internal copy, so only the call graph can find its use.
__attribute__((noinline, visibility("hidden"))) void kit_shared_static(void) { __asm__ volatile(""); }
void use_static_copy(void) { kit_shared_static(); }
