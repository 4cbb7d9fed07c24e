#!/usr/bin/env python3
"""The memcheck constant-time suite ran, and what it checked (stage constant-time).

bn-ct, poly1305-ct and chacha20-ct run valgrind on themselves (the native
stage runs them too): this fails when they were not built (no valgrind or
no valgrind/memcheck.h) or when one fails, and shows which implementations
each checked. The whole log goes to BUILD_DIR/ct.log.

Usage: check_ct_memcheck.py BUILD_DIR (a built native build).
"""

import os
import re
import subprocess
import sys

SHOWN = re.compile(r"^ *[0-9]+/|^# poly1305|^# chacha20|skipped|FAIL|Uninitialised|Conditional|depends on")


def main():
    meson_test = ["meson", "test", "-C", sys.argv[1], "--no-rebuild"]
    listed = subprocess.run(meson_test + ["--list", "--suite", "memcheck"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True).stdout
    if sum(" / " in line for line in listed.splitlines()) != 3:
        sys.exit("bn-ct, poly1305-ct and chacha20-ct are not run under memcheck: "
                 "valgrind and valgrind/memcheck.h are needed")
    result = subprocess.run(meson_test + ["--print-errorlogs", "-v", "--suite", "memcheck"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(sys.argv[1], "ct.log"), "w") as log:
        log.write(result.stdout)
    shown = {line for line in result.stdout.splitlines() if SHOWN.search(line) and "RUNNING" not in line}
    for line in sorted(shown):
        print(f"    {line}")
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
