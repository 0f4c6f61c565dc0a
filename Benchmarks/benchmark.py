#!/usr/bin/env python3
"""Times linkcheck against scanelf and a readelf loop on the same folders.

    Benchmarks/benchmark.py [--runs N] [DIR ...]

Default folders: the Swift toolchain's library folder and
/usr/lib/x86_64-linux-gnu. For each folder, on the same files:

- linkcheck check --no-call-sites with the default rule packs (symbols,
  Swift paths, strings, libraries; no disassembly),
- the same with only the packs' symbol rules (their string matchers dropped,
  so no read-only data is searched): the like-for-like peer of scanelf,
- linkcheck check (call sites analysed for the images with findings),
- scanelf -qR -s with the packs' plain symbol names (pax-utils),
- readelf --dyn-syms -W run once per file (binutils).

Each command runs twice; the second run is the warm-cache figure. The cold
figure needs `echo 3 > /proc/sys/vm/drop_caches` (root, and a kernel that
lets the container do it); when that is refused it is reported as such.
Prints files, .dynsym symbols, wall and CPU seconds, peak RSS and ratios.
Needs /usr/bin/time (GNU time).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def measure(command, shell=False):
    """(wall s, cpu s, peak RSS MB) of one run, with GNU time."""
    with tempfile.NamedTemporaryFile("r") as report:
        argv = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", report.name]
        argv += ["bash", "-c", command] if shell else command
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall, user, system, rss = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024


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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", default=["/opt/swift/usr/lib/swift/linux", "/usr/lib/x86_64-linux-gnu"])
    arguments = parser.parse_args()

    subprocess.run(["swift", "build", "-c", "release", "--package-path", str(ROOT)], check=True,
                   stdout=subprocess.DEVNULL)
    binary = subprocess.run(["swift", "build", "-c", "release", "--package-path", str(ROOT), "--show-bin-path"],
                            capture_output=True, text=True, check=True).stdout.strip() + "/linkcheck"
    symbols = ",".join(plain_symbols())
    packs = tempfile.TemporaryDirectory()
    symbol_rules = [argument for path in symbol_only_packs(packs.name) for argument in ("--rules", path)]
    cold_possible = drop_caches()
    print(f"machine: {os.cpu_count()} cores; cold cache: {'measured' if cold_possible else 'not measurable here (drop_caches refused)'}")

    for folder in arguments.folders:
        if not os.path.isdir(folder):
            print(f"\n{folder}: absent, skipped")
            continue
        files = elf_files(folder)
        listing = tempfile.NamedTemporaryFile("w", delete=False)
        listing.write("\n".join(files) + "\n")
        listing.close()
        commands = {
            "linkcheck (all rules)": [binary, "check", "--no-call-sites", folder],
            "linkcheck (symbol rules)": [binary, "check", "--no-call-sites", "--no-default-rules"] + symbol_rules + [folder],
            "linkcheck (call sites)": [binary, "check", folder],
            "scanelf -qR -s": ["scanelf", "-qR", "-s", symbols, folder],
            "readelf loop": f"while read -r f; do readelf --dyn-syms -W \"$f\"; done < {listing.name}",
        }
        print(f"\n{folder}: {len(files)} ELF files, {dynsym_count(files)} .dynsym symbols")
        print(f"  {'tool':24} {'warm wall s':>11} {'cpu s':>7} {'peak MB':>8} {'cold wall s':>11}")
        results = {}
        for name, command in commands.items():
            shell = isinstance(command, str)
            cold = None
            if cold_possible:
                drop_caches()
                cold = measure(command, shell)[0]
            measure(command, shell)
            results[name] = measure(command, shell)
            wall, cpu, rss = results[name]
            cold_text = f"{cold:11.2f}" if cold is not None else f"{'-':>11}"
            print(f"  {name:24} {wall:11.2f} {cpu:7.2f} {rss:8.1f} {cold_text}")
        os.unlink(listing.name)
        fast = results["linkcheck (all rules)"][0]
        peer = results["linkcheck (symbol rules)"][0]
        print(f"  ratios (warm wall): symbol rules/scanelf {peer / max(results['scanelf -qR -s'][0], 0.01):.1f}×, "
              f"all rules/scanelf {fast / max(results['scanelf -qR -s'][0], 0.01):.1f}×, "
              f"readelf loop/linkcheck {results['readelf loop'][0] / max(fast, 0.01):.1f}×, "
              f"call sites/symbols {results['linkcheck (call sites)'][0] / max(fast, 0.01):.1f}×")


if __name__ == "__main__":
    sys.exit(main())
