#!/usr/bin/env python3
"""Nothing the build options leave out is left in (stage opt-out).

A build with -Davx512=false -Davx512ifma=false -Dasm=false offers no
AVX-512 implementation and no x86-64 MD5 (the assembly ones) in
`crisp info --all`, has no instruction using a zmm register in libcrisp.so,
and no object assembled from a .S file in libcrisp.a (meson names an
object after its source: NAME.S.o).

Usage: check_opt_out.py BUILD_DIR (the built opt-out build).
"""

import os
import re
import subprocess
import sys


def output(command):
    return subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True).stdout


def main():
    build = sys.argv[1]
    offered, kernel = [], ""
    for line in output([os.path.join(build, "tools", "crisp"), "info", "--all"]).splitlines():
        if re.match(r"[a-z0-9_]+: ", line):
            kernel = line.split()[0].rstrip(":")
        elif re.match(r"  [a-z]", line):
            offered.append(f"{kernel}/{line.split()[0]}")
    print(f"    built in: {' '.join(offered)}")
    left_in = [name for name in offered if re.search(r"/avx512|^md5/x86_64", name)]
    if left_in:
        sys.exit(f"implementations the options leave out are still built in: {' '.join(left_in)}")
    disassembly = output(["objdump", "-d", "--no-show-raw-insn", os.path.join(build, "libcrisp.so")])
    if "%zmm" in disassembly:
        sys.exit("libcrisp.so still contains AVX-512 instructions")
    members = output(["ar", "t", os.path.join(build, "libcrisp.a")]).split()
    assembled = [name for name in members if re.search(r"\.[sS]\.o$", name)]
    if assembled:
        sys.exit(f"libcrisp.a still contains assembled objects: {' '.join(assembled)}")
    print("    no %zmm instruction, no object assembled from a .S file")


if __name__ == "__main__":
    main()
