"""An arm64 iOS executable at app scale, generated for the benchmark.

    generate(folder) -> AppScale

`App` (MH_EXECUTE, thin arm64, iOS 15.0, linked by Debian's ld64.lld 14
against the stand-in SDK in Samples/PhotosApp/SDK) holds:

- FUNCTIONS filler functions `fill_N` of 1,600 bytes each (64 MB of code):
  a frame, six runs of 65 ordinary instructions (add, eor, ldr, orr, str)
  each ending in a `bl` to another filler function picked at random (seeded,
  so every run builds the same app), and a return. Their machine code is
  written here, instruction by instruction, and included with `.incbin`
  (one small file per function: assembling 16 million instructions from
  text would take minutes);
- SENDS functions `planted_send_N` (Objective-C, clang -Os), each sending
  +[UIApplication sharedApplication], and DLOPENS functions
  `planted_dlopen_N`, each calling dlopen with a path of its own;
- each planted function called (`bl`) from the end of a filler function
  picked at random, so call paths lead to it through the filler's calls.

`expected_callers` names the functions a check must report: each send's
caller and each dlopen call's caller.
"""
import os
import pathlib
import random
import struct
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
SDK = ROOT / "Samples/PhotosApp/SDK"
LD64 = "/usr/lib/llvm-14/bin/ld64.lld"

FUNCTIONS = 40_000
SENDS = 300
DLOPENS = 100
CALLS_PER_FUNCTION = 6
RUN_REPEATS = 13

# arm64 encodings (little endian), checked against llvm-objdump.
PROLOGUE = struct.pack("<2I", 0xA9BF7BFD, 0x910003FD)  # stp x29, x30, [sp, #-16]!; mov x29, sp
EPILOGUE = struct.pack("<2I", 0xA8C17BFD, 0xD65F03C0)  # ldp x29, x30, [sp], #16; ret
# add x9, x9, #1; eor x10, x10, x9; ldr x11, [sp, #8]; orr x12, x11, x10; str x12, [sp, #8]
RUN = struct.pack("<5I", 0x91000529, 0xCA09014A, 0xF94007EB, 0xAA0A016C, 0xF90007EC) * RUN_REPEATS
BL = 0x94000000  # bl, imm26 in words


class AppScale:
    """The generated executable's path, its code size and what a check of it must find."""

    def __init__(self, path, code_bytes, senders, dlopeners):
        self.path = path
        self.code_bytes = code_bytes
        self.senders = senders
        self.dlopeners = dlopeners


def clang():
    for candidate in ("/opt/swift/usr/bin/clang", "/usr/bin/clang"):
        if os.access(candidate, os.X_OK):
            return candidate
    return "clang"


def planted_source(path):
    lines = ["#import <UIKit/UIKit.h>", "#include <dlfcn.h>",
             '__attribute__((noinline)) void keep(void *p) { __asm__ volatile("" :: "r"(p)); }']
    lines += [f"void planted_send_{i}(void) {{ keep((__bridge void *)[UIApplication sharedApplication]); }}"
              for i in range(SENDS)]
    lines += [f'void planted_dlopen_{i}(void) {{ keep(dlopen("/usr/lib/libplanted{i}.dylib", RTLD_NOW)); }}'
              for i in range(DLOPENS)]
    lines.append("int main(void) { extern void fill_0(void); fill_0(); return 0; }")
    path.write_text("\n".join(lines) + "\n")


def filler_assembly(folder, rng):
    """Writes filler.s and the code files it includes; returns the code's size in bytes."""
    planted = {}
    for name in [f"_planted_send_{i}" for i in range(SENDS)] + [f"_planted_dlopen_{i}" for i in range(DLOPENS)]:
        planted.setdefault(rng.randrange(FUNCTIONS), []).append(name)
    size = len(PROLOGUE) + CALLS_PER_FUNCTION * (len(RUN) + 4) + len(EPILOGUE)
    starts, offset = [], 0
    for index in range(FUNCTIONS):
        starts.append(offset)
        offset += size + 4 * len(planted.get(index, []))
    code = folder / "code"
    code.mkdir()
    assembly = ["\t.section __TEXT,__text,regular,pure_instructions\n"]
    for index in range(FUNCTIONS):
        body = bytearray(PROLOGUE)
        for _ in range(CALLS_PER_FUNCTION):
            body += RUN
            delta = starts[rng.randrange(FUNCTIONS)] - (starts[index] + len(body))
            body += struct.pack("<I", BL | ((delta // 4) & 0x3FFFFFF))
        assembly.append(f"\t.globl _fill_{index}\n\t.p2align 2\n_fill_{index}:\n")
        # The planted calls go before the epilogue, after every bl encoded above.
        (code / f"{index}").write_bytes(body)
        assembly.append(f'\t.incbin "code/{index}"\n')
        assembly += [f"\tbl {name}\n" for name in planted.get(index, [])]
        assembly.append("\t.long 0xa8c17bfd\n\t.long 0xd65f03c0\n")
    (folder / "filler.s").write_text("".join(assembly))
    return offset


def generate(folder):
    """Builds the app in `folder` (a pathlib.Path); raises CalledProcessError when a tool fails."""
    rng = random.Random(26)
    planted_source(folder / "planted.m")
    code_bytes = filler_assembly(folder, rng)
    compiler = [clang(), "-target", "arm64-apple-ios15.0", "-isysroot", str(SDK)]
    subprocess.run(compiler + ["-Os", "-c", "planted.m", "-o", "planted.o"], cwd=folder, check=True)
    subprocess.run(compiler + ["-c", "filler.s", "-o", "filler.o"], cwd=folder, check=True)
    subprocess.run([LD64, "-arch", "arm64", "-platform_version", "ios", "15.0", "15.0", "-syslibroot", str(SDK),
                    "-execute", "-lSystem", "-lobjc", "-framework", "UIKit", "-framework", "Foundation",
                    "-o", "App", "planted.o", "filler.o"], cwd=folder, check=True)
    return AppScale(folder / "App", code_bytes, {f"planted_send_{i}" for i in range(SENDS)},
                    {f"planted_dlopen_{i}" for i in range(DLOPENS)})
