#!/usr/bin/env python3
"""The ABI guard: compares libcrisp.so's exported symbols (with their
version), its SONAME and the public sizes, constants and enum values
(scripts/abi/sizes.c) with the committed baseline scripts/abi/baseline.txt.

  python3 scripts/abi.py [BUILD_DIR]            compare; exit 1 on any difference
  python3 scripts/abi.py --update [BUILD_DIR]   rewrite the baseline from BUILD_DIR

BUILD_DIR is a configured and built native build (default: build). Any
change fails, an addition too: after an intended one (a new public
function, a new kernel), run the --update command and commit the baseline.
A removed or changed line breaks programs built against libcrisp.so.0.
"""

import difflib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "scripts", "abi", "baseline.txt")
BASELINE_NAME = os.path.relpath(BASELINE, ROOT)
HEADER = [
    "# crisp ABI baseline, compared by scripts/abi.py (test stage 'abi').",
    "# After an intended change: python3 scripts/abi.py --update, then commit this file.",
]
UPDATE_COMMAND = "python3 scripts/abi.py --update"


def output_of(command):
    """The stdout of command; its stderr passes through, a failure ends the script."""
    result = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"abi.py: '{' '.join(command)}' failed (exit {result.returncode})")
    return result.stdout


def current_abi(build, library):
    """The current ABI as lines in the baseline's format, its header included."""
    lines = list(HEADER)
    for line in output_of(["readelf", "-d", library]).splitlines():
        soname = re.match(r".*\(SONAME\).*\[(.*)\]", line)
        if soname:
            lines.append(f"soname {soname.group(1)}")
    # Defined dynamic symbols except the version definition itself (type A),
    # sorted by byte value as the baseline always was.
    symbols = []
    for line in output_of(["nm", "-D", "--defined-only", "--with-symbol-versions", library]).splitlines():
        fields = line.split() + ["", "", ""]
        if line.strip() and fields[1] != "A":
            symbols.append(f"symbol {fields[2]} {fields[1]}")
    lines += sorted(symbols, key=lambda symbol: symbol.encode())
    with tempfile.TemporaryDirectory(prefix="crisp-abi.") as scratch:
        probe = os.path.join(scratch, "sizes")
        # Headers of this build: the source tree's and the generated crisp/version.h.
        output_of(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{ROOT}/include", f"-I{build}/include",
                   "-o", probe, f"{ROOT}/scripts/abi/sizes.c"])
        lines += output_of([probe]).splitlines()
    return lines


def without_comments(lines):
    return [line for line in lines if not line.startswith("#")]


def main():
    update = False
    build = os.path.join(ROOT, "build")
    for argument in sys.argv[1:]:
        if argument == "--update":
            update = True
        elif argument in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif argument.startswith("-"):
            print(f"abi.py: unknown option '{argument}' (try --help)", file=sys.stderr)
            return 2
        elif not os.path.isdir(argument):
            print(f"abi.py: {argument}: not a directory", file=sys.stderr)
            return 2
        else:
            build = os.path.abspath(argument)

    library = os.path.join(build, "libcrisp.so")
    if not os.path.isfile(library):
        print(f"abi.py: {library} not found (build first: meson compile -C {build})", file=sys.stderr)
        return 2

    current = current_abi(build, library)
    if update:
        with open(BASELINE, "w") as baseline:
            baseline.write("".join(line + "\n" for line in current))
        print(f"abi: wrote {len(without_comments(current))} lines to {BASELINE_NAME}")
        return 0

    with open(BASELINE) as baseline:
        expected = without_comments(baseline.read().splitlines())
    current = without_comments(current)
    if expected == current:
        print(f"abi: libcrisp.so and the public headers match {BASELINE_NAME} ({len(expected)} lines)")
        return 0
    print(f"abi: the ABI differs from {BASELINE_NAME}:", file=sys.stderr)
    matcher = difflib.SequenceMatcher(None, expected, current, autojunk=False)
    for operation, expected_start, expected_end, current_start, current_end in matcher.get_opcodes():
        if operation in ("replace", "delete"):
            for line in expected[expected_start:expected_end]:
                print(f"  removed or changed: {line}", file=sys.stderr)
        if operation in ("replace", "insert"):
            for line in current[current_start:current_end]:
                print(f"  added or changed:   {line}", file=sys.stderr)
    print(f"If the change is intended: {UPDATE_COMMAND}, and commit the baseline.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
