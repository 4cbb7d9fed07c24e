#!/usr/bin/env python3
"""test_wipe passes in each of the wipe builds (stage wipe-builds).

Each build's test_wipe runs twice: bound lazily (libcrisp is linked without
-z now) and with LD_BIND_NOW=1, since no secret path may enter the dynamic
resolver and its first calls run in fresh processes. Every run is tried;
the failed ones print their first lines.

Usage: check_wipe_builds.py LOG_DIR BUILD_DIR..., each build directory named
PREFIX-wipe-COMPILER-OLEVEL as scripts/hardening.sh makes them; the logs go
to LOG_DIR/wipe-COMPILER-OLEVEL.test.log.
"""

import os
import re
import subprocess
import sys


def main():
    log_dir, builds = sys.argv[1], sys.argv[2:]
    failed = False
    for build in builds:
        compiler, level = build.rsplit("-wipe-", 1)[1].split("-")
        log = os.path.join(log_dir, f"wipe-{compiler}-{level}.test.log")
        for bind_now in ["", "1"]:
            result = subprocess.run([os.path.join(build, "test", "test_wipe")],
                                    env={**os.environ, "LD_BIND_NOW": bind_now}, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
            with open(log, "w") as file:
                file.write(result.stdout)
            label = "LD_BIND_NOW=1" if bind_now else ""
            if result.returncode == 0:
                compared = " ".join(re.findall(r"[0-9]* first calls compared", result.stdout))
                print(f"    {compiler:<6} {'-' + level:<9} {label:<14} passed ({compared})", flush=True)
            else:
                print(f"    {compiler} -{level} {label + ' ' if label else ''}failed:", file=sys.stderr)
                lines = [line for line in result.stdout.splitlines() if not line.startswith("[")]
                print("\n".join(lines[:40]), file=sys.stderr, flush=True)
                failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
