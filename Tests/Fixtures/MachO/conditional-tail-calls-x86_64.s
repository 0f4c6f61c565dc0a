// Calls made only by conditional tail calls, in an x86_64 Mach-O image:
// `jge`/`jne` straight to another function or to dlsym's stub.

    .section __TEXT,__text,regular,pure_instructions

// The denylisted API, defined in this image and used only inside it.
    .private_extern _forbidden_api
    .p2align 4
_forbidden_api:
    leal (%rdi,%rdi,2), %eax
    retq

// int user_cond(int x): if (x > 5) return forbidden_api(x); return 0;
    .globl _user_cond
    .p2align 4
_user_cond:
    cmpl $6, %edi
    jge _forbidden_api
    xorl %eax, %eax
    retq

// int flagged_cond(int x, int flags): if (flags & 8) return forbidden_api(x); return 0;
    .globl _flagged_cond
    .p2align 4
_flagged_cond:
    testb $8, %sil
    jne _forbidden_api
    xorl %eax, %eax
    retq

// void *load(const char *name): return dlopen(name, 2);
    .private_extern _load
    .p2align 4
_load:
    movl $2, %esi
    jmp _dlopen

// void *load_if_named(const char *name): if (name) return load(name); return 0;
    .globl _load_if_named
    .p2align 4
_load_if_named:
    testq %rdi, %rdi
    jne _load
    xorl %eax, %eax
    retq

// void *lookup(void *handle, const char *name): if (name) return dlsym(handle, name); return 0;
    .globl _lookup
    .p2align 4
_lookup:
    testq %rsi, %rsi
    jne _dlsym
    xorl %eax, %eax
    retq
