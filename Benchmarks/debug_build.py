"""A large ELF debug build with findings, generated for the benchmark.

    generate(folder, files=FILES, callers=CALLERS) -> pathlib.Path

`libdebugbuild.so` (x86_64, clang -g -O1 -fPIC -shared) of FUNCTIONS C
functions in `files` source files (compile units): each does some
arithmetic over a table and calls two others picked at random (seeded), so
the line tables are those of real code (a row every few instructions,
several files); every `callers`-th function also calls dlopen and dlsym
with a path of its own, so `check` reports call sites whose source lines
it looks up (LOAD001, and the dlopen findings). With the defaults the call
sites shown are a few hundred, in every unit; SHAPES adds builds whose few
call sites lie in a few of many units, as a real app's do.
"""
import pathlib
import random
import subprocess

FUNCTIONS = 20_000
FILES = 40
CALLERS = 80
# (files, callers): every unit with call sites; 10 call sites in 10 of 40
# units; 10 call sites in 10 of 400 units.
SHAPES = ((FILES, CALLERS), (40, 2000), (400, 2000))


def generate(folder, files=FILES, callers=CALLERS):
    """Builds the library in `folder` (which must exist); raises
    CalledProcessError when clang fails."""
    rng = random.Random(23)
    sources = []
    per_file = FUNCTIONS // files
    for file in range(files):
        lines, callees_declared = [], set()
        for i in range(file * per_file, (file + 1) * per_file):
            callees = [rng.randrange(FUNCTIONS) for _ in range(2)]
            callees_declared.update(callees)
            lines.append(f"int f{i}(int x) {{")
            lines.append(f"    int y = table[x & 255] * {i % 97 + 3} + x;")
            lines.append(f"    if (y & 1) y = f{callees[0]}(y >> 1);")
            lines.append(f"    else y ^= table[(y >> 3) & 255];")
            if i % callers == 0:
                lines.append(f'    void *h = dlopen("libplugin{i}.so", RTLD_NOW);')
                lines.append(f'    if (h) y += ((int (*)(int))dlsym(h, "entry"))(y);')
            lines.append(f"    return y + f{callees[1]}(x - 1);")
            lines.append("}")
        lines[:0] = ["#include <dlfcn.h>", "extern int table[256];"] + [f"int f{i}(int x);" for i in sorted(callees_declared)]
        if file == 0:
            lines.append("int table[256];")
        path = folder / f"unit{file}.c"
        path.write_text("\n".join(lines) + "\n")
        sources.append(str(path))
    library = folder / "libdebugbuild.so"
    subprocess.run(["clang", "-g", "-O1", "-fPIC", "-shared", "-o", str(library)] + sources, cwd=folder, check=True)
    return library
