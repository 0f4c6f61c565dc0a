"""A large arm64 iOS framework with its dSYM beside it, generated for the benchmark.

    generate(folder, sending_files=FILES, types_per_file=0) -> pathlib.Path

`Products/Large.framework/Large` (MH_DYLIB, thin arm64, iOS 15.0, linked by
Debian's ld64.lld 14 against the stand-in SDK in Samples/PhotosApp/SDK) of
FUNCTIONS Objective-C functions in FILES source files (clang -g -O0), and
`Products/Large.framework.dSYM` beside it, which dsymutil 14 links from
the debug map (8.7 MB, FILES compilation units). Each function
does some arithmetic over a table and calls the one before it; in the
first `sending_files` files every SENDERS-th function also sends
+[UIApplication sharedApplication], so `check` reports FUNCTIONS / FILES /
SENDERS call sites in each of those units, whose source lines it looks up
in the dSYM: with one sending file, the lookup needs one unit of the 32.
`types_per_file` structures of MEMBERS ints, each with a zero-filled global
of its type, make each unit's DWARF larger without adding code (the
globals are zero-fill; their symbols do add to the symbol table): 1,500
make the dSYM 27.4 MB, debug information larger than the code, as a
type-heavy build has.
"""
import subprocess

from app_scale import LD64, SDK, clang

FUNCTIONS = 32_000
FILES = 32
SENDERS = 100
MEMBERS = 20
DSYMUTIL = "/usr/lib/llvm-14/bin/dsymutil"


def source(file, per_file, sends, types):
    lines = ["#import <UIKit/UIKit.h>", "extern int table[256];",
             '__attribute__((noinline)) void keep(void *p) { __asm__ volatile("" :: "r"(p)); }' if file == 0
             else "void keep(void *p);"]
    for index in range(per_file):
        name = f"f{file}_{index}"
        lines += [f"int {name}(int x, int y) {{",
                  f"    int a = table[x & 255] + {index};",
                  "    int b = a * y - x;",
                  "    int c = b ^ (a >> 3);",
                  "    int d = c + table[(b >> 2) & 255];"]
        if sends and index % SENDERS == 0:
            lines.append("    keep((__bridge void *)[UIApplication sharedApplication]);")
        lines += ["    return d - x;" if index == 0 else f"    return d - f{file}_{index - 1}(b, c);", "}"]
    for index in range(types):
        members = " ".join(f"int m{member};" for member in range(MEMBERS))
        lines.append(f"struct s{file}_{index} {{ {members} }} g{file}_{index};")
    if file == 0:
        lines.append("int table[256];")
    return "\n".join(lines) + "\n"


def generate(folder, sending_files=FILES, types_per_file=0):
    """Builds the framework and its dSYM in `folder` (a pathlib.Path), its first
    `sending_files` files sending, `types_per_file` structures in each; returns the framework's binary. Raises
    CalledProcessError when a tool fails."""
    per_file = FUNCTIONS // FILES
    compiler = [clang(), "-target", "arm64-apple-ios15.0", "-isysroot", str(SDK), "-fobjc-arc", "-g", "-O0"]
    objects = []
    for file in range(FILES):
        (folder / f"unit{file}.m").write_text(source(file, per_file, file < sending_files, types_per_file))
        subprocess.run(compiler + ["-c", f"unit{file}.m", "-o", f"unit{file}.o"], cwd=folder, check=True)
        objects.append(f"unit{file}.o")
    framework = folder / "Products/Large.framework"
    framework.mkdir(parents=True)
    binary = framework / "Large"
    subprocess.run([LD64, "-arch", "arm64", "-platform_version", "ios", "15.0", "15.0", "-syslibroot", str(SDK),
                    "-dylib", "-install_name", "@rpath/Large.framework/Large", "-lSystem", "-lobjc",
                    "-framework", "UIKit", "-framework", "Foundation", "-o", str(binary)] + objects,
                   cwd=folder, check=True)
    subprocess.run([DSYMUTIL, str(binary), "-o", str(folder / "Products/Large.framework.dSYM")], cwd=folder, check=True)
    return binary
