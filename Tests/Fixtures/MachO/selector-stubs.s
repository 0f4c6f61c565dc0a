// What clang from Xcode 14 and later emits for
//     [UIApplication sharedApplication]   and   [application openURL:url]
// on arm64: calls to objc_msgSend$<selector> instead of objc_msgSend with a
// selector reference. The linker synthesizes each stub in __TEXT,__objc_stubs
// and the selector reference it loads. The toolchain's clang cannot emit
// these calls (it has no -fobjc-msgsend-selector-stubs), hence assembly;
// only the toolchain's lld synthesizes the stubs (lld 14 reports the
// symbols undefined).

    .section __TEXT,__text,regular,pure_instructions

// id current_application(void)
    .globl _current_application
    .p2align 2
_current_application:
    adrp x8, L_UIApplication_ref@PAGE
    ldr x0, [x8, L_UIApplication_ref@PAGEOFF]
    b "_objc_msgSend$sharedApplication"

// BOOL open_in_application(id application, NSURL *url)
    .globl _open_in_application
    .p2align 2
_open_in_application:
    mov x2, x1
    b "_objc_msgSend$openURL:"

    .section __DATA,__objc_classrefs,regular,no_dead_strip
    .p2align 3
L_UIApplication_ref:
    .quad _OBJC_CLASS_$_UIApplication

    .section __DATA,__objc_imageinfo,regular,no_dead_strip
    .long 0
    .long 64

    .subsections_via_symbols
