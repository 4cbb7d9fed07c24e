#!/usr/bin/env python3
"""No function of crisp's in libcrisp.so runs rep stos or rep movs
(meson test no-rep, x86-64 builds without sanitizers).

gcc expands a memset or memcpy of a few hundred bytes, or of a length it
only bounds, into rep stos or rep movs, whose start-up costs more than a
short call's whole front-end (a wipe of MD5's pad took a tenth of a 64-byte
digest). meson.build sends those to the C library instead
(-mmemset-strategy and -mmemcpy-strategy); this check fails when a
compiler, an option or a new copy brings one back, naming the functions.
cpu_features' functions, linked in from its static library, are left out:
they run once, in the CPU probe.

Usage: check_no_rep.py LIBCRISP_SO [CC]
"""

import os
import re
import subprocess
import sys

FUNCTION = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
REP = re.compile(r"\trep[a-z]* +(stos|movs)")


def output(command):
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout


def cpu_features_functions(compiler):
    """The functions libcpu_features.a defines, local ones included."""
    archive = output([compiler, "-print-file-name=libcpu_features.a"]).strip()
    if not os.path.isabs(archive):
        return set()
    return {words[2] for words in map(str.split, output(["nm", archive]).splitlines())
            if len(words) == 3 and words[1] in "tT"}


def main():
    library, compiler = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "cc"
    skipped = cpu_features_functions(compiler)
    function, found, functions = None, {}, 0
    for line in output(["objdump", "-d", "--no-show-raw-insn", library]).splitlines():
        match = FUNCTION.match(line)
        if match:
            function = match.group(1)
            functions += 1
        elif function and function not in skipped and REP.search(line):
            found.setdefault(function, []).append(line.strip())
    if not functions:
        sys.exit(f"objdump found no functions in {library}")
    if found:
        print(f"{len(found)} functions of crisp's run rep stos or rep movs:")
        for name, lines in sorted(found.items()):
            print(f"  {name}: {'; '.join(lines[:3])}")
        sys.exit(1)
    print(f"{functions} functions, none of crisp's with rep stos or rep movs "
          f"({len(skipped)} of cpu_features' left out)")


if __name__ == "__main__":
    main()
