// Loads guarded by the run-time OS version checks of their callers: each
// loader does no check itself. load_guarded's one caller checks first;
// load_shared has a caller that checks and one that does not, so the load
// is not guarded; load_available's caller checks as Swift's #available
// does. Built at -O0 so every call stays a call.
// Declared here: the fixtures are built without a C library's headers.
void *dlopen(const char *file, int mode);
int uname(void *buffer);

struct release { char fields[5][65]; };

__attribute__((noinline)) static void *load_guarded(void) { return dlopen("libguarded.so", 2); }
__attribute__((noinline)) static void *load_shared(void) { return dlopen("libshared.so", 2); }

void *entry_checked(void) {
    struct release name;
    if (uname(&name) != 0 || name.fields[2][0] < '5') return 0;
    return load_guarded();
}

void *entry_checked_too(void) {
    struct release name;
    if (uname(&name) != 0 || name.fields[2][0] < '5') return 0;
    return load_shared();
}

void *entry_unchecked(void) { return load_shared(); }

// Exported, so other images may call it without a check: its one caller
// here checking does not guard it.
__attribute__((noinline)) void *load_exported(void) { return dlopen("libexported.so", 2); }

void *entry_checked_exported(void) {
    struct release name;
    if (uname(&name) != 0 || name.fields[2][0] < '5') return 0;
    return load_exported();
}

// What Swift's `if #available(iOS 17, *)` calls: the standard library's
// _stdlib_isOSVersionAtLeast, by its mangled name.
int stdlib_is_os_version_at_least(long major, long minor, long patch) __asm__("$ss26_stdlib_isOSVersionAtLeastyBi1_Bw_BwBwtF");

__attribute__((noinline)) static void *load_available(void) { return dlopen("libavailable.so", 2); }

void *entry_available(void) {
    if (!stdlib_is_os_version_at_least(17, 0, 0)) return 0;
    return load_available();
}
