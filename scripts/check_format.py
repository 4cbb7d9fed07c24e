#!/usr/bin/env python3
"""Every C file of the tree as clang-format writes it (stage format).

Another major version of clang-format lays some lines out differently, so
the check asks for the one Debian 12 ships (scripts/setup.sh installs it).
To fix: clang-format -i FILE...

Usage: check_format.py ROOT (the repository; only git's files are read).
"""

import re
import subprocess
import sys

VERSION = "14"


def main():
    root = sys.argv[1]
    version = subprocess.run(["clang-format", "--version"], stdout=subprocess.PIPE, text=True).stdout
    if not re.search(rf"version {VERSION}\.", version):
        sys.exit(f"clang-format {VERSION} is needed for the format check, found: {version.strip()}")
    files = subprocess.run(["git", "ls-files", "*.c", "*.h", "*.cpp"], cwd=root, stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    unformatted = set()
    for first in range(0, len(files), 16):
        result = subprocess.run(["clang-format", "--dry-run", "-Werror"] + files[first : first + 16], cwd=root,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        unformatted.update(re.findall(r"^([^:\n]*):[0-9]*:[0-9]*: error:", result.stdout, re.M))
    if unformatted:
        sys.exit("not as clang-format writes them (clang-format -i FILE...):\n" +
                 "\n".join(f"    {name}" for name in sorted(unformatted)))
    print(f"    {len(files)} C files as clang-format {VERSION} writes them")


if __name__ == "__main__":
    main()
