#!/usr/bin/env python3
"""libcrisp exports only crisp_*, has SONAME libcrisp.so.0 and is bound at
load (stage symbols).

libcrisp.so exports only crisp_* functions. The static library cannot hide
its internal globals; they keep the crisp_ prefix so they cannot collide
with a program's own names. docs/hardening.md promises the binding: the
shared library linked with -z now and -z relro (BIND_NOW, a GNU_RELRO
segment), unless the build asked for -Dlazy_binding=true (tests only), and
on x86-64 no call from libcrisp.a through the PLT to a name outside crisp
(-fno-plt: the GOT, filled at load, even in a lazily bound program). The
meson options that add these flags drop any the toolchain refuses without
a word, so only this check would notice them gone. And the README's "never
prints (but for its environment lines) and never aborts": crisp's own
objects call nothing that ends the process or writes but fputs, which
writes those lines (libcpu_features, linked in, has asserts of its own).

Usage: check_symbols.py BUILD_DIR (a built native build).
"""

import json
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
    dynamic = output(["readelf", "-d", shared])
    soname = re.findall(r"\(SONAME\).*\[(.*)\]", dynamic)
    print(f"    SONAME {' '.join(soname)}")
    if soname != ["libcrisp.so.0"]:
        sys.exit("the SONAME is not libcrisp.so.0")
    check_binding(sys.argv[1], shared, dynamic)
    check_no_exit_or_print(os.path.join(sys.argv[1], "libcrisp.a"))


# What ends a process or writes to a stream, which crisp's own code never
# calls (fputs writes the environment's lines to stderr).
FORBIDDEN = {"abort", "exit", "_exit", "_Exit", "quick_exit", "__assert_fail", "__assert_perror_fail",
             "printf", "fprintf", "vprintf", "vfprintf", "dprintf", "puts", "putchar", "fputc", "putc",
             "fwrite", "perror", "write", "__printf_chk", "__fprintf_chk", "__vfprintf_chk"}


def check_no_exit_or_print(static):
    called = {line.split()[-1] for line in output(["nm", "-u", static]).splitlines() if line.strip()}
    fail_if_any(sorted(called & FORBIDDEN), "crisp's own objects call what ends the process or prints:")
    print(f"    crisp's objects call none of {len(FORBIDDEN)} exit and print functions (fputs only, for the "
          "environment's lines)")


def lazy_build(build_dir):
    with open(os.path.join(build_dir, "meson-info", "intro-buildoptions.json")) as file:
        return any(option["name"] == "lazy_binding" and option["value"] for option in json.load(file))


def check_binding(build_dir, shared, dynamic):
    if lazy_build(build_dir):
        print("    binding: a -Dlazy_binding=true build, not checked")
        return
    if not re.search(r"\(FLAGS\)\s.*\bBIND_NOW\b", dynamic) and not re.search(r"\(FLAGS_1\)\s.*\bNOW\b", dynamic):
        sys.exit("libcrisp.so is not linked with -z now (no BIND_NOW in its dynamic section)")
    if "GNU_RELRO" not in output(["readelf", "-lW", shared]):
        sys.exit("libcrisp.so is not linked with -z relro (no GNU_RELRO segment)")
    relocations = output(["readelf", "-rW", os.path.join(build_dir, "libcrisp.a")]).splitlines()
    through_plt = sorted({line.split()[4] for line in relocations
                          if "R_X86_64_PLT32" in line and len(line.split()) > 4
                          and not line.split()[4].startswith(("crisp_", "."))})
    fail_if_any(through_plt, "libcrisp.a calls these through the PLT (built without -fno-plt?):")
    print(f"    bound at load: BIND_NOW, GNU_RELRO; {len(relocations)} relocation lines in libcrisp.a, none "
          "through the PLT outside crisp")


if __name__ == "__main__":
    main()
