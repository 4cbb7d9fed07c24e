#!/usr/bin/env python3
"""The build targets a suite's tests need, for `meson compile`.

A build that runs one suite need not build every program: the cet stage
runs the quick suite, and would otherwise compile the benchmarks and the
other suites' tests too. Prints one meson compile target (SUBDIR/NAME:TYPE)
per line for every target the tests of SUITE depend on, the library
included through them.

Usage: test_targets.py BUILD_DIR SUITE (a configured build)."""

import json
import os
import subprocess
import sys


def introspect(build, what):
    return json.loads(subprocess.check_output(["meson", "introspect", build, f"--{what}"]))


def main():
    build, suite = sys.argv[1], sys.argv[2]
    targets = {target["id"]: target for target in introspect(build, "targets")}
    wanted = set()
    for test in introspect(build, "tests"):
        if any(name.split(":")[-1] == suite for name in test["suite"]):
            wanted.update(identifier for identifier in test["depends"] if identifier in targets)
    if not wanted:
        sys.exit(f"no test of suite {suite} in {build}")
    for identifier in sorted(wanted):
        target = targets[identifier]
        subdir = os.path.relpath(os.path.dirname(target["filename"][0]), os.path.abspath(build))
        prefix = "" if subdir == "." else subdir + "/"
        print(f"{prefix}{target['name']}:{target['type'].replace(' ', '_')}")


if __name__ == "__main__":
    main()
