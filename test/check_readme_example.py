#!/usr/bin/env python3
"""The README's C example compiles against the built library and prints what
its comments say (MD5 of the pangram, a verified Poly1305 tag, 3^65537 mod
m): a promise in the README is a test too.

Usage: check_readme_example.py README CC LIBRARY_DIR INCLUDE_DIR...
"""

import os
import re
import subprocess
import sys
import tempfile


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def main():
    readme, compiler, library_dir, include_dirs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(readme) as file:
        blocks = re.findall(r"```c\n(.*?)```", file.read(), re.S)
    if len(blocks) != 1:
        fail(f"expected one C example in {readme}, found {len(blocks)}")
    with tempfile.TemporaryDirectory() as work:
        source, program = os.path.join(work, "example.c"), os.path.join(work, "example")
        with open(source, "w") as file:
            file.write(blocks[0])
        includes = [flag for directory in include_dirs for flag in ("-I", directory)]
        build = subprocess.run([compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", *includes, source, "-o", program,
                                "-L", library_dir, "-lcrisp", f"-Wl,-rpath,{library_dir}"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if build.returncode:
            fail(f"the example does not compile:\n{build.stdout}")
        run = subprocess.run([program], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout, end="")
    if run.returncode:
        fail(f"the example exited {run.returncode}")
    found = re.match(r"md5 (\w+)\.\.\., tag (\w+), modexp (\w+) \((\w+)\)\n", run.stdout)
    if not found:
        fail("the example's first line is not as it should be")
    m = 0xffffffffffffffff_fffffffffffffc5f
    expected = {"md5": "9e10", "tag": "verified", "modexp": "success", "value": f"{pow(3, 65537, m):032x}"}
    got = dict(zip(("md5", "tag", "modexp", "value"), found.groups()))
    for name, value in expected.items():
        if got[name] != value:
            fail(f"{name}: {got[name]}, expected {value}")
    print("the README's example compiles and prints the right values")


if __name__ == "__main__":
    main()
