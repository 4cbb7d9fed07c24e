#!/usr/bin/env python3
"""MD5 of real messages past 2^32 and 2^35 bits (stage md5-long).

meson test sets long MD5 lengths through a test hook; with CRISP_TEST_LONG=1
test/test_md5_long hashes messages of 512 MiB and 4 GiB for real, which a
kernel's own 32-bit length arithmetic needs, every implementation against
OpenSSL. Its log goes to BUILD_DIR/md5-long.log, shown whole on failure.

Usage: check_md5_long.py BUILD_DIR (a built native build).
"""

import os
import re
import subprocess
import sys


def main():
    result = subprocess.run([os.path.join(sys.argv[1], "test", "test_md5_long")],
                            env={**os.environ, "CRISP_TEST_LONG": "1"}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    with open(os.path.join(sys.argv[1], "md5-long.log"), "w") as log:
        log.write(result.stdout)
    if result.returncode != 0:
        sys.exit(result.stdout)
    for line in result.stdout.splitlines():
        if re.match(r"\[ +(OK|SKIPPED) +\]", line):
            print(f"    {line}")
    if "OK ] test_long_message_every_impl" not in result.stdout:
        sys.exit("test_long_message_every_impl did not run (libcrypto is needed)")


if __name__ == "__main__":
    main()
