#!/usr/bin/env python3
"""Times linkcheck against scanelf and a readelf loop on the same folders.

    Benchmarks/benchmark.py [--runs N] [--build installed|development] [DIR ...]

The linkcheck timed is the one Scripts/install.sh installs (into a temporary
prefix): a release build with the Swift runtime and Foundation linked in,
the CLI as CI runs it; --build development times `swift build -c release`
instead, whose Swift runtime libraries are loaded and bound at each start.

Default inputs: the Swift toolchain's library folder,
/usr/lib/x86_64-linux-gnu, the Mach-O corpus (../shared/corpus/macho) and
the toolchain's largest library alone (libsourcekitdInProc.so). For each
folder of ELF files, on the same files:

- linkcheck check --no-call-sites with the default rule packs (symbols,
  Swift paths, strings, libraries; no disassembly),
- the same with only the packs' symbol rules (their string matchers dropped,
  so no read-only data is searched): the like-for-like peer of scanelf,
- linkcheck check (call sites analysed for the images with findings, the
  default --call-sites targeted: a byte scan, then decoding only what it
  finds),
- linkcheck check --call-sites full (every function of those images
  decoded with Capstone),
- scanelf -qR -s with the packs' plain symbol names (pax-utils),
- readelf --dyn-syms -W run once per file (binutils).

For a folder of Mach-O files (thin, fat, static archives): linkcheck check
--no-call-sites with all rules and with the symbol rules, linkcheck check in
both call-site modes, against `llvm-nm -m -u --arch=all` (the toolchain's)
run once per file. For a single ELF file: linkcheck check in both modes and
without call sites, against scanelf. Every input also gets linkcheck's cost
per MB of input, so that reading Mach-O can be compared with reading ELF, and
each call-site mode's cost per MB of the code disassembled.

Each command runs once to warm the page cache, then N times (--runs,
default 5), the commands taking turns (the full sweep and the readelf loop,
which take seconds, among themselves after the others: a page-cache page
idle for a few seconds may be paged out here); the warm figures are the
medians. The
cold figure is one run right after `echo 3 > /proc/sys/vm/drop_caches`
(root, and a kernel that lets the container do it); when that is refused it
is reported as such. Wall time comes from a monotonic clock, CPU time
(10 ms resolution) and peak RSS from GNU time (/usr/bin/time, Debian's
`time` package). Prints files, .dynsym symbols, wall and CPU seconds, peak
RSS and ratios.
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def measure(command):
    """(wall s, cpu s, peak RSS MB) of one run; a string runs in bash.

    GNU time reports CPU time and peak RSS (its own small process is what
    forks, so the RSS is the command's, not this script's); the wall time
    is taken here, from a monotonic clock, to the millisecond.
    """
    with tempfile.NamedTemporaryFile("r") as report:
        argv = ["/usr/bin/time", "-f", "%U %S %M", "-o", report.name]
        argv += ["bash", "-c", command] if isinstance(command, str) else command
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - start
        user, system, rss = report.read().split()[-3:]
    return wall, float(user) + float(system), int(rss) / 1024


def drop_caches():
    try:
        subprocess.run(["sync"], check=True)
        pathlib.Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def elf_files(folder):
    files = []
    for path in sorted(pathlib.Path(folder).rglob("*")):
        try:
            if path.is_file() and not path.is_symlink() and path.open("rb").read(4) == b"\x7fELF":
                files.append(str(path))
        except OSError:
            pass
    return files


MACHO_MAGICS = {b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe", b"\xcf\xfa\xed\xfe",
                b"\xca\xfe\xba\xbe", b"\xca\xfe\xba\xbf"}


def macho_files(folder):
    files = []
    for path in sorted(pathlib.Path(folder).rglob("*")):
        try:
            if path.is_file() and not path.is_symlink():
                head = path.open("rb").read(8)
                if head[:4] in MACHO_MAGICS or head == b"!<arch>\n":
                    files.append(str(path))
        except OSError:
            pass
    return files


def plain_symbols():
    names = set()
    for pack in (ROOT / "Rules").glob("*.json"):
        if pack.name.endswith("schema.json"):
            continue
        for rule in json.loads(pack.read_text())["rules"]:
            names.update(m["symbol"] for m in rule["match"] if "symbol" in m)
    return sorted(names)


def symbol_only_packs(folder):
    """The default packs without their `string` matchers, written to `folder`."""
    paths = []
    for pack in sorted((ROOT / "Rules").glob("*.json")):
        if pack.name.endswith("schema.json"):
            continue
        document = json.loads(pack.read_text())
        rules = []
        for rule in document["rules"]:
            rule["match"] = [m for m in rule["match"] if "string" not in m]
            if rule["match"]:
                rules.append(rule)
        document["rules"] = rules
        path = pathlib.Path(folder) / pack.name
        path.write_text(json.dumps(document))
        paths.append(str(path))
    return paths


def dynsym_count(files):
    total = 0
    for path in files:
        output = subprocess.run(["readelf", "--dyn-syms", "-W", path], capture_output=True, text=True).stdout
        total += sum(1 for line in output.splitlines() if line.strip()[:1].isdigit() and ":" in line.split()[0])
    return total


def code_bytes(path):
    """Bytes in the executable sections of `path` (readelf -S: flag X)."""
    output = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
    total = 0
    for line in output.splitlines():
        fields = line.replace("[ ", "[").split()
        # [Nr] Name Type Address Off Size ES Flg ...
        if len(fields) > 7 and fields[0].startswith("[") and fields[2] == "PROGBITS" and "X" in fields[7]:
            total += int(fields[5], 16)
    return total


def analysed_code(binary, folder):
    """(images, bytes of code) of the images `linkcheck check` disassembles."""
    report = subprocess.run([binary, "check", "--format", "json", folder], capture_output=True, text=True).stdout
    analysed = [image["path"] for image in json.loads(report)["images"] if image.get("callSites") == "analysed"]
    return len(analysed), sum(code_bytes(path) for path in analysed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", default=[
        "/opt/swift/usr/lib/swift/linux", "/usr/lib/x86_64-linux-gnu", str(ROOT.parent / "shared/corpus/macho"),
        "/opt/swift/usr/lib/libsourcekitdInProc.so"])
    parser.add_argument("--runs", type=int, default=5, help="warm runs per command (the median is reported)")
    parser.add_argument("--build", choices=["installed", "development"], default="installed",
                        help="time the tool Scripts/install.sh installs (release, Swift runtime linked in; the default), "
                             "or the development release build (swift build -c release, Swift runtime shared)")
    arguments = parser.parse_args()
    missing = [package for tool, package in [("scanelf", "pax-utils"), ("readelf", "binutils"), ("/usr/bin/time", "time")]
               if shutil.which(tool) is None]
    if missing:
        print(f"benchmark.py: needs the Debian packages: {' '.join(missing)} (apt-get install -y {' '.join(missing)})",
              file=sys.stderr)
        return 2

    prefix = tempfile.TemporaryDirectory()
    if arguments.build == "installed":
        binary = subprocess.run([str(ROOT / "Scripts/install.sh"), prefix.name], stdout=subprocess.PIPE, text=True,
                                check=True).stdout.strip()
    else:
        subprocess.run(["swift", "build", "-c", "release", "--package-path", str(ROOT)], check=True,
                       stdout=subprocess.DEVNULL)
        binary = subprocess.run(["swift", "build", "-c", "release", "--package-path", str(ROOT), "--show-bin-path"],
                                capture_output=True, text=True, check=True).stdout.strip() + "/linkcheck"
    print(f"linkcheck: {binary} ({arguments.build} build)")
    symbols = ",".join(plain_symbols())
    packs = tempfile.TemporaryDirectory()
    symbol_rules = [argument for path in symbol_only_packs(packs.name) for argument in ("--rules", path)]
    cold_possible = drop_caches()
    print(f"machine: {os.cpu_count()} cores; cold cache: {'measured' if cold_possible else 'not measurable here (drop_caches refused)'}")

    for folder in arguments.folders:
        if os.path.isfile(folder):
            benchmark_file(folder, binary, symbols, arguments.runs)
            continue
        if not os.path.isdir(folder):
            print(f"\n{folder}: absent, skipped")
            continue
        if not elf_files(folder) and macho_files(folder):
            benchmark_macho(folder, binary, symbol_rules, arguments.runs)
            continue
        files = elf_files(folder)
        listing = tempfile.NamedTemporaryFile("w", delete=False)
        listing.write("\n".join(files) + "\n")
        listing.close()
        commands = {
            "linkcheck (all rules)": [binary, "check", "--no-call-sites", folder],
            "linkcheck (symbol rules)": [binary, "check", "--no-call-sites", "--no-default-rules"] + symbol_rules + [folder],
            "linkcheck (call sites)": [binary, "check", folder],
            "linkcheck (full sweep)": [binary, "check", "--call-sites", "full", folder],
            "scanelf -qR -s": ["scanelf", "-qR", "-s", symbols, folder],
            "readelf loop": f"while read -r f; do readelf --dyn-syms -W \"$f\"; done < {listing.name}",
        }
        print(f"\n{folder}: {len(files)} ELF files, {dynsym_count(files)} .dynsym symbols")
        print(f"  {'tool':24} {'warm wall s':>11} {'cpu s':>7} {'peak MB':>8} {'cold wall s':>11}")
        cold = {}
        if cold_possible:
            for name, command in commands.items():
                drop_caches()
                cold[name] = measure(command)[0]
        results = warm_medians(commands, arguments.runs)
        for name in commands:
            wall, cpu, rss = results[name]
            cold_text = f"{cold[name]:11.3f}" if name in cold else f"{'-':>11}"
            print(f"  {name:24} {wall:11.3f} {cpu:7.3f} {rss:8.1f} {cold_text}")
        os.unlink(listing.name)
        call_site_costs(binary, folder, results)
        scanelf, readelf = results["scanelf -qR -s"][0], results["readelf loop"][0]
        symbols_only, all_rules = results["linkcheck (symbol rules)"][0], results["linkcheck (all rules)"][0]
        megabytes = sum(os.path.getsize(path) for path in files) / 1e6
        print(f"  input: {megabytes:.1f} MB; linkcheck (symbol rules) {symbols_only * 1000 / megabytes:.2f} ms per MB, "
              f"(all rules) {all_rules * 1000 / megabytes:.2f} ms per MB")
        print(f"  ratios (warm wall): symbol rules/scanelf {symbols_only / scanelf:.2f}×, "
              f"all rules/scanelf {all_rules / scanelf:.2f}×, "
              f"readelf loop/symbol rules {readelf / symbols_only:.1f}×, "
              f"readelf loop/all rules {readelf / all_rules:.1f}×, "
              f"call sites/all rules {results['linkcheck (call sites)'][0] / all_rules:.1f}×")
        print(f"  ratios (warm wall): call sites/scanelf {results['linkcheck (call sites)'][0] / scanelf:.2f}×, "
              f"full sweep/scanelf {results['linkcheck (full sweep)'][0] / scanelf:.2f}×, "
              f"full sweep/call sites {results['linkcheck (full sweep)'][0] / results['linkcheck (call sites)'][0]:.1f}×")


# Commands that run for seconds. They take their turns after the others,
# so that a quick command's turns stay about a second apart: a page-cache
# page idle for a few seconds may be paged out (this VM runs DAMON's pageout
# scheme), and a warm run would then read from disk.
SLOW = {"linkcheck (full sweep)", "readelf loop"}


def warm_medians(commands, runs):
    """Each command once to warm the cache, then `runs` times taking turns,
    the slow ones (SLOW) among themselves after the others: the medians of
    (wall s, cpu s, peak MB) by name."""
    results = {}
    for group in ([name for name in commands if name not in SLOW], [name for name in commands if name in SLOW]):
        samples = {name: [] for name in group}
        for name in group:
            measure(commands[name])
        for _ in range(max(runs, 1)):
            for name in group:
                samples[name].append(measure(commands[name]))
        for name, values in samples.items():
            results[name] = tuple(statistics.median(value[field] for value in values) for field in range(3))
    return results


def run_commands(commands, runs):
    """``warm_medians`` of the commands, printed."""
    results = warm_medians(commands, runs)
    for name in commands:
        wall, cpu, rss = results[name]
        print(f"  {name:24} {wall:11.3f} {cpu:7.3f} {rss:8.1f}")
    return results


def call_site_costs(binary, path, results):
    """Each call-site mode's time over `linkcheck (all rules)` per MB of the
    code of the images it disassembles (the same images in both modes)."""
    analysed, code = analysed_code(binary, path)
    base = results["linkcheck (all rules)"][0]
    for name, label in (("linkcheck (call sites)", "targeted (byte scan, then decode what it finds)"),
                        ("linkcheck (full sweep)", "full (Capstone over all code)")):
        extra = results[name][0] - base
        print(f"  call sites, {label}: {extra:.2f} s more than all rules, for {code / 1e6:.1f} MB of code in the "
              f"{analysed} images disassembled: {extra * 1000 / max(code / 1e6, 0.001):.1f} ms per MB")


def benchmark_file(path, binary, symbols, runs):
    """linkcheck's call-site modes against scanelf on one ELF file."""
    megabytes = os.path.getsize(path) / 1e6
    commands = {
        "linkcheck (all rules)": [binary, "check", "--no-call-sites", path],
        "linkcheck (call sites)": [binary, "check", path],
        "linkcheck (full sweep)": [binary, "check", "--call-sites", "full", path],
        "scanelf -s": ["scanelf", "-q", "-s", symbols, path],
    }
    print(f"\n{path}: {megabytes:.1f} MB, {code_bytes(path) / 1e6:.1f} MB of code")
    print(f"  {'tool':24} {'warm wall s':>11} {'cpu s':>7} {'peak MB':>8}")
    results = run_commands(commands, runs)
    call_site_costs(binary, path, results)
    scanelf = results["scanelf -s"][0]
    print(f"  ratios (warm wall): call sites/scanelf {results['linkcheck (call sites)'][0] / scanelf:.1f}×, "
          f"full sweep/call sites {results['linkcheck (full sweep)'][0] / results['linkcheck (call sites)'][0]:.1f}×")

def benchmark_macho(folder, binary, symbol_rules, runs):
    """linkcheck against an llvm-nm loop on the Mach-O files of `folder`."""
    files = macho_files(folder)
    megabytes = sum(os.path.getsize(path) for path in files) / 1e6
    nm = shutil.which("llvm-nm") or "/opt/swift/usr/bin/llvm-nm"
    listing = tempfile.NamedTemporaryFile("w", delete=False)
    listing.write("\n".join(files) + "\n")
    listing.close()
    commands = {
        "linkcheck (all rules)": [binary, "check", "--no-call-sites", folder],
        "linkcheck (symbol rules)": [binary, "check", "--no-call-sites", "--no-default-rules"] + symbol_rules + [folder],
        "linkcheck (call sites)": [binary, "check", folder],
        "linkcheck (full sweep)": [binary, "check", "--call-sites", "full", folder],
        "llvm-nm -m -u loop": f"while read -r f; do {nm} -m -u --arch=all \"$f\"; done < {listing.name}",
    }
    print(f"\n{folder}: {len(files)} Mach-O files, {megabytes:.1f} MB")
    print(f"  {'tool':24} {'warm wall s':>11} {'cpu s':>7} {'peak MB':>8}")
    results = run_commands(commands, runs)
    os.unlink(listing.name)
    symbols_only, all_rules = results["linkcheck (symbol rules)"][0], results["linkcheck (all rules)"][0]
    print(f"  input: {megabytes:.1f} MB; linkcheck (symbol rules) {symbols_only * 1000 / megabytes:.2f} ms per MB, "
          f"(all rules) {all_rules * 1000 / megabytes:.2f} ms per MB")
    print(f"  ratios (warm wall): llvm-nm loop/symbol rules {results['llvm-nm -m -u loop'][0] / symbols_only:.1f}×, "
          f"full sweep/call sites {results['linkcheck (full sweep)'][0] / results['linkcheck (call sites)'][0]:.1f}×")


if __name__ == "__main__":
    sys.exit(main())
