#!/usr/bin/env python3
"""libcrisp exports only crisp_* and has SONAME libcrisp.so.0 (stage symbols).

libcrisp.so exports only crisp_* functions. The static library cannot hide
its internal globals; they keep the crisp_ prefix so they cannot collide
with a program's own names.

Usage: check_symbols.py BUILD_DIR (a built native build).
"""

import os
import re
import subprocess
import sys


def output(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout


def fail_if_any(names, message):
    if names:
        sys.exit(message + "\n" + "\n".join(names[:20]))


def main():
    shared = os.path.join(sys.argv[1], "libcrisp.so")
    symbols = [line.split() for line in output(["nm", "-D", "--defined-only", shared]).splitlines()]
    exported = [words[2] for words in symbols if len(words) == 3 and words[1] != "A"]
    print(f"    {len(exported)} exported functions")
    fail_if_any([name for name in exported if not name.startswith("crisp_")], "exported symbols outside crisp_*:")
    static = output(["nm", "-g", "--defined-only", os.path.join(sys.argv[1], "libcrisp.a")]).splitlines()
    fail_if_any([line for line in static if len(line.split()) == 3 and not line.split()[2].startswith("crisp_")],
                "libcrisp.a defines globals outside crisp_*:")
    soname = re.findall(r"\(SONAME\).*\[(.*)\]", output(["readelf", "-d", shared]))
    print(f"    SONAME {' '.join(soname)}")
    if soname != ["libcrisp.so.0"]:
        sys.exit("the SONAME is not libcrisp.so.0")


if __name__ == "__main__":
    main()
