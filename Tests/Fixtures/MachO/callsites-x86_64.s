# Beside callsites.m in x86_64 images: what clang does not emit here but
# real images hold. What Swift emits for `UIApplication.shared` (the class
# reference through objc_opt_self, then objc_msgSend through its GOT slot),
# and a call through the GOT slot of dlopen rather than its stub.

    .section __TEXT,__text,regular,pure_instructions

# id cs_swift_shared_application(void)
    .globl _cs_swift_shared_application
    .p2align 4
_cs_swift_shared_application:
    pushq %rbp
    movq %rsp, %rbp
    movq L_UIApplication_ref(%rip), %rdi
    callq _objc_opt_self
    movq L_sharedApplication_ref(%rip), %rsi
    movq %rax, %rdi
    callq *_objc_msgSend@GOTPCREL(%rip)
    popq %rbp
    retq

# void *cs_load_through_got(void)
    .globl _cs_load_through_got
    .p2align 4
_cs_load_through_got:
    pushq %rbp
    movq %rsp, %rbp
    leaq L_path(%rip), %rdi
    movl $2, %esi
    callq *_dlopen@GOTPCREL(%rip)
    popq %rbp
    retq

    .section __TEXT,__cstring,cstring_literals
L_path:
    .asciz "@rpath/Camera.framework/Camera"

    .section __TEXT,__objc_methname,cstring_literals
L_sharedApplication_name:
    .asciz "sharedApplication"

    .section __DATA,__objc_selrefs,literal_pointers,no_dead_strip
    .p2align 3
L_sharedApplication_ref:
    .quad L_sharedApplication_name

    .section __DATA,__objc_classrefs,regular,no_dead_strip
    .p2align 3
L_UIApplication_ref:
    .quad _OBJC_CLASS_$_UIApplication

    .subsections_via_symbols
