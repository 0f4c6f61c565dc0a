# A library that declares its conditional dependencies in a .note.dlopen
# ELF note (freedesktop.org "ELF dlopen metadata": owner "FDO", type
# 0x407c0c0a, a NUL-terminated JSON array), as systemd's libraries do.
    .section .note.dlopen,"a",@note
    .balign 4
    .long 4                      # n_namesz: "FDO\0"
    .long 2f - 1f                # n_descsz
    .long 0x407c0c0a             # n_type
    .asciz "FDO"
    .balign 4
1:  .asciz "[{\"feature\":\"compression\",\"description\":\"zstd support\",\"priority\":\"suggested\",\"soname\":[\"libzstd.so.1\",\"libzstd.so\"]}]"
2:  .balign 4
    .text
    .globl declared_loads
declared_loads:
    ret
