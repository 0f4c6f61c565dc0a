#!/usr/bin/env python3
"""Compares two `linkcheck check --format json` documents: the findings
(image, rule, severity, symbol, chain, call-site addresses, call path) and
the ELF images' verdicts, as sets. Prints what differs; exit status 1 when
anything does.

    Scripts/compare-check-reports.py BEFORE.json AFTER.json [--elf-only]

Used to show that a change to linkcheck's pipeline leaves its answers as
they were (run both builds on the same folders, compare). With --elf-only,
images whose format is not ELF (and their findings) are left out of AFTER,
for comparing with a build that read ELF alone.
"""
import json
import sys


def load(path, elf_only):
    with open(path) as handle:
        document = json.load(handle)
    images = document["images"]
    if elf_only:
        images = [image for image in images if image.get("format", "elf") == "elf"]
    names = {image.get("name", image["path"]) for image in images}
    verdicts = {(image.get("name", image["path"]), image["verdict"]) for image in images}
    findings = set()
    for finding in document["findings"]:
        if finding["image"] not in names and elf_only:
            continue
        findings.add((
            finding["image"], finding["rule"], finding["severity"], finding.get("symbol"),
            tuple(finding.get("chain", [])),
            tuple(site["address"] for site in finding.get("callSites", [])),
            tuple(finding.get("path", [])),
        ))
    return verdicts, findings


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    elf_only = "--elf-only" in sys.argv
    if len(arguments) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    before = load(arguments[0], False)
    after = load(arguments[1], elf_only)
    differs = False
    for what, old, new in (("verdicts", before[0], after[0]), ("findings", before[1], after[1])):
        for item in sorted(old - new, key=str):
            print(f"- {what}: {item}")
            differs = True
        for item in sorted(new - old, key=str):
            print(f"+ {what}: {item}")
            differs = True
        print(f"{what}: {len(old)} before, {len(new)} after, {len(old ^ new)} differ", file=sys.stderr)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
