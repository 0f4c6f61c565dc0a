// Calls made only by conditional tail calls, in an arm64 Mach-O image:
// `b.gt`, `tbnz` and `cbnz` straight to another function (Mach-O arm64 has
// no relocation for a conditional branch to a stub).

    .section __TEXT,__text,regular,pure_instructions

// The denylisted API, defined in this image and used only inside it.
    .private_extern _forbidden_api
    .p2align 2
_forbidden_api:
    add w0, w0, w0, lsl #1
    ret

// int user_cond(int x): if (x > 5) return forbidden_api(x); return 0;
    .globl _user_cond
    .p2align 2
_user_cond:
    cmp w0, #5
    b.gt _forbidden_api
    mov w0, wzr
    ret

// int flagged_cond(int x, int flags): if (flags & 8) return forbidden_api(x); return 0;
    .globl _flagged_cond
    .p2align 2
_flagged_cond:
    tbnz w1, #3, _forbidden_api
    mov w0, wzr
    ret

// void *load(const char *name): return dlopen(name, 2);
    .private_extern _load
    .p2align 2
_load:
    mov w1, #2
    b _dlopen

// void *load_if_named(const char *name): if (name) return load(name); return 0;
    .globl _load_if_named
    .p2align 2
_load_if_named:
    cbnz x0, _load
    mov x0, xzr
    ret
