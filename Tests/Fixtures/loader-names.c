// Loader calls whose library linkcheck cannot name from a literal, for the
// conditional-loading tests: a name built with a printf format, and a call
// in code no symbol covers (the library is linked with -s, so .symtab is
// gone and the static function keeps no name).

typedef unsigned long size_t;
void *dlopen(const char *file, int mode);
int snprintf(char *buffer, size_t size, const char *format, ...);

// The format string (Mesa's driver loader uses this one) is the last
// literal before dlopen; it is no library name.
void *load_module(const char *folder, const char *prefix, const char *name) {
    char path[256];
    snprintf(path, sizeof path, "%.*s/%s%s.so", 64, folder, prefix, name);
    return dlopen(path, 2);
}

// Not exported, so stripped of its name.
__attribute__((noinline)) static void *load_hidden(void) { return dlopen("libhidden.so", 2); }
void *load_through_hidden(void) { return (char *)load_hidden() + 1; }
