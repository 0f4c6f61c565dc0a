// Calls made only by conditional tail calls: a branch taken on one path
// straight to another function or to a PLT entry, with no call or
// unconditional jump there. clang -O2 emits them on x86_64 (`jge
// forbidden_api`, `jne kit_open@plt`, `jne load`); on aarch64 it branches
// around a `b` instead, so there the same functions are written in
// assembly with `b.gt`, `cbnz` and `tbnz`.

void *dlopen(const char *file, int mode);
int kit_open(const char *url);

// The denylisted API, defined in this image and used only inside it.
__attribute__((noinline, visibility("hidden"))) int forbidden_api(int x) {
    __asm__ volatile("");
    return x * 3;
}

// Loads whatever it is told; reached only by a conditional tail call.
__attribute__((noinline, used)) static void *load(const char *name) { return dlopen(name, 2); }

#if defined(__x86_64__)
int user_cond(int x) {
    if (x > 5) return forbidden_api(x);
    return 0;
}
int open_if_set(const char *url) {
    if (url) return kit_open(url);
    return 0;
}
int open_if_flag(const char *url, int flags) {
    if (flags & 8) return kit_open(url);
    return 0;
}
void *load_if_named(const char *name) {
    if (name) return load(name);
    return 0;
}
#elif defined(__aarch64__)
#define FUNCTION(name) ".globl " #name "\n.type " #name ",%function\n.p2align 2\n" #name ":\n"
#define END(name) ".size " #name ",.-" #name "\n"
__asm__(".text\n"
    FUNCTION(user_cond) "cmp w0, #5\nb.gt forbidden_api\nmov w0, wzr\nret\n" END(user_cond)
    FUNCTION(open_if_set) "cbnz x0, kit_open\nmov w0, wzr\nret\n" END(open_if_set)
    FUNCTION(open_if_flag) "tbnz w1, #3, kit_open\nmov w0, wzr\nret\n" END(open_if_flag)
    FUNCTION(load_if_named) "cbnz x0, load\nmov x0, xzr\nret\n" END(load_if_named));
#endif
