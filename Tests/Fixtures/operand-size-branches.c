// x86_64 branches with an operand-size prefix (0x66), as Capstone (the
// full sweep's decoder) reads them: `66 0F 84 rel16` is a `je` and
// `66 E8 rel16` a call, each with a 16-bit displacement and a target that
// wraps at 64 KiB (AMD's reading of the call; objdump takes Intel's, rel32).
// A library this small has its code below 64 KiB, where the wrapped target
// is the function's address.
__attribute__((noinline, used)) int wrapped_callee(void) { return 7; }
__attribute__((noinline, used)) int wrapped_jump_target(void) { return 8; }

__attribute__((naked, used)) void prefixed_caller(void) {
    __asm__(".byte 0x66, 0xe8\n .word wrapped_callee - . - 2\n ret");
}

__attribute__((naked, used)) void wrapped_jumper(void) {
    __asm__(".byte 0x66, 0x0f, 0x84\n .word wrapped_jump_target - . - 2\n ret");
}
