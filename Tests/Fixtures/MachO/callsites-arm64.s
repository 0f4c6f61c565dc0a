// Beside callsites.m in arm64 images: what clang does not emit here but
// real images hold. What Swift emits for `UIApplication.shared` (the class
// reference through objc_opt_self, then objc_msgSend), and a call through
// the GOT slot of dlopen (adrp, ldr, blr) rather than its stub.

    .section __TEXT,__text,regular,pure_instructions

// id cs_swift_shared_application(void)
    .globl _cs_swift_shared_application
    .p2align 2
_cs_swift_shared_application:
    stp x29, x30, [sp, #-16]!
    mov x29, sp
    adrp x8, L_UIApplication_ref@PAGE
    ldr x0, [x8, L_UIApplication_ref@PAGEOFF]
    bl _objc_opt_self
    adrp x8, L_sharedApplication_ref@PAGE
    ldr x1, [x8, L_sharedApplication_ref@PAGEOFF]
    bl _objc_msgSend
    ldp x29, x30, [sp], #16
    ret

// void *cs_load_through_got(void)
    .globl _cs_load_through_got
    .p2align 2
_cs_load_through_got:
    stp x29, x30, [sp, #-16]!
    mov x29, sp
    adrp x0, L_path@PAGE
    add x0, x0, L_path@PAGEOFF
    mov w1, #2
    adrp x16, _dlopen@GOTPAGE
    ldr x16, [x16, _dlopen@GOTPAGEOFF]
    blr x16
    ldp x29, x30, [sp], #16
    ret

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
